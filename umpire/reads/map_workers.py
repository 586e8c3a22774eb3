"""Map pictures drawn in processes of their own, shared fairly between the views that ask.

Drawing is the costliest thing the umpire does. In the bot's own process it holds the
interpreter for tens of milliseconds a picture, and every command waiting meanwhile waits for it,
whichever thread the picture is drawn in. So the bot keeps a few worker processes that do
nothing else (``MapWorkers``): the bot's process works out the view, as it must to know which
picture is wanted (``umpire.reads.map_digest``), and sends it, some 15 KB pickled; a worker draws
it and sends back the PNG.

**A board travels once.** A view holds its board (``GameMap``: terrain, roads, names), the same
for every picture of every game of a scenario. A worker is sent a board whole the first time it
draws on it, and from then on a picture names the board by its fingerprint
(``render.terrain.fingerprint``). The worker keeps the boards it was sent, and their terrain
layers (``render.ground``), which it draws itself.

**Fair shares** (DESIGN.md, "Timing tells nothing"). Pictures wait in a queue for each view (a
side id, or the umpire's), and each worker that comes free takes the oldest picture of the next
view in turn; within a view's turns, a picture one of its players is waiting for goes before
those for its messages (which wait for the send pace anyway). A side's picture thus waits behind
its own earlier pictures and at most one of each other view's, never behind another view's
backlog: a side cannot time the enemy's requests
by its own. What is left is that a picture being drawn for another view when a side's is asked
for holds a worker for its few tens of milliseconds; that is the machine being shared, as it is
by every command (ruling INFO-13). As with the threads that draw queued maps in the bot's own
process (``umpire.reads.maps``), a view is named by its side id, not by game: two games whose
sides share an id share a queue, which tells neither side anything of its own enemy.

**Until the workers have started** (a second or two after the bot: a fresh interpreter imports
the renderer), pictures are drawn in the bot's own process, piece by piece, so that the first
``/map`` after a restart is as quick as any (``umpire.reads.maps``).

**A worker that dies** (killed, out of memory) is replaced, and the picture it was drawing is
drawn once more by the new one; a picture that kills two workers fails, and its message goes
without it (``umpire.reads.pictures``).
"""

from __future__ import annotations

import asyncio
import copyreg
import io
import logging
import multiprocessing
import pickle
from array import array
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any

from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell
from rules.view import SideView, UnitView

log = logging.getLogger(__name__)

#: Boards a worker keeps (and that the bot remembers it keeps), the most recently drawn on.
BOARDS_KEPT = 16
#: The view name of the umpire's pictures.
UMPIRE = "umpire"


@dataclass(frozen=True, slots=True)
class Drawing:
    """One picture to draw: the view (its ``drawn_part``, with the routes to show) and where."""

    view: SideView
    around: str | None = None
    radius: int | None = None
    fitted: bool = False


@dataclass
class _Asked:
    drawing: Drawing
    answer: asyncio.Future[bytes]
    #: Asked for by a player waiting for it now, not for a message being sent.
    now: bool
    tries: int = 0


@dataclass
class _Lane:
    """One view's pictures waiting: those its players are waiting for now before those for
    its messages, each in the order asked."""

    now: deque[_Asked] = field(default_factory=deque)
    later: deque[_Asked] = field(default_factory=deque)

    def add(self, asked: _Asked, first: bool) -> None:
        queue = self.now if asked.now else self.later
        if first:
            queue.appendleft(asked)
        else:
            queue.append(asked)

    def take(self) -> _Asked:
        return self.now.popleft() if self.now else self.later.popleft()

    def __bool__(self) -> bool:
        return bool(self.now or self.later)

    def __iter__(self) -> Iterator[_Asked]:
        yield from self.now
        yield from self.later


@dataclass
class _Worker:
    """One worker process, and the boards it has been sent (oldest first)."""

    pool: ProcessPoolExecutor
    boards: OrderedDict[str, None] = field(default_factory=OrderedDict)
    busy: bool = False


class MapWorkers:
    """``count`` worker processes drawing maps for every view, in fair turns."""

    def __init__(self, count: int) -> None:
        if count < 1:
            raise ValueError("map workers: at least one")
        self._workers = [_Worker(_new_pool()) for _ in range(count)]
        self._waiting: dict[str, _Lane] = {}
        #: The views with pictures waiting, in the order they take their turns.
        self._turns: deque[str] = deque()
        self._closed = False
        self._running: set[asyncio.Future[None]] = set()
        self._starting: asyncio.Future[None] | None = None
        #: Whether every worker has started (``warm_up`` done once).
        self.ready = False
        #: How many boards were sent whole, for the tests and the benchmarks.
        self.boards_sent = 0

    @property
    def count(self) -> int:
        return len(self._workers)

    async def draw(self, view_name: str | None, drawing: Drawing, *, now: bool = True) -> bytes:
        """The PNG of ``drawing``, drawn by a worker in ``view_name``'s turn (``None``: the
        umpire's). ``now``: a player is waiting for it (``False``: for a message being sent);
        within its view's turns it goes before the view's pictures for messages. Errors of the
        drawing itself (a label that cannot be read) are raised."""
        if self._closed:
            raise RuntimeError("the map workers are closed")
        name = view_name or UMPIRE
        asked = _Asked(drawing, asyncio.get_running_loop().create_future(), now)
        self._queue(name, asked)
        self._dispatch()
        return await asyncio.shield(asked.answer)

    async def warm_up(self, game_map: GameMap | None) -> None:
        """Start the workers if they are not, and have each ready its renderer (and
        ``game_map``'s layers, if given)."""
        loop = asyncio.get_running_loop()
        for worker in self._workers:
            payload = self._pickled(worker, game_map)
            await loop.run_in_executor(worker.pool, _warm_up, payload)
        self.ready = not self._closed

    def start(self) -> None:
        """Start the workers in the background, once (``warm_up``)."""
        if self._starting is None and not self._closed:
            self._starting = asyncio.ensure_future(self._start())

    async def _start(self) -> None:
        try:
            await self.warm_up(None)
        except Exception:  # the next picture asks again
            log.exception("starting the map workers failed")
            self._starting = None

    def pids(self) -> list[int]:
        """The worker processes' ids (those started so far)."""
        return [pid for worker in self._workers for pid in (worker.pool._processes or {})]

    async def settle(self) -> int:
        """Wait until every worker has drawn the whole layers it was asked for; the bytes of
        layers they keep, all together (``render.ground``)."""
        loop = asyncio.get_running_loop()
        kept = [await loop.run_in_executor(worker.pool, _settled) for worker in self._workers]
        return sum(kept)

    def close(self) -> None:
        """Stop the workers; pictures not yet drawn fail."""
        self._closed = True
        for worker in self._workers:
            worker.pool.shutdown(wait=False, cancel_futures=True)
        for queue in self._waiting.values():
            for asked in queue:
                if not asked.answer.done():
                    asked.answer.set_exception(RuntimeError("the map workers were closed"))
        self._waiting.clear()
        self._turns.clear()

    # -- taking turns --------------------------------------------------------------------------
    def _queue(self, name: str, asked: _Asked, first: bool = False) -> None:
        lane = self._waiting.get(name)
        if lane is None:
            lane = self._waiting[name] = _Lane()
            self._turns.append(name)
        lane.add(asked, first)

    def _next(self) -> tuple[str, _Asked] | None:
        """The next picture of the view whose turn it is, that view's turn passing on."""
        while self._turns:
            name = self._turns.popleft()
            queue = self._waiting[name]
            asked = queue.take()
            if queue:
                self._turns.append(name)
            else:
                del self._waiting[name]
            if not asked.answer.cancelled():
                return name, asked
        return None

    def _dispatch(self) -> None:
        for worker in self._workers:
            if worker.busy:
                continue
            found = self._next()
            if found is None:
                return
            worker.busy = True
            running = asyncio.ensure_future(self._run(worker, *found))
            self._running.add(running)
            running.add_done_callback(self._running.discard)

    async def _run(self, worker: _Worker, name: str, asked: _Asked) -> None:
        try:
            payload = self._pickled(worker, asked.drawing)
            png = await asyncio.get_running_loop().run_in_executor(worker.pool, _draw, payload)
        except BrokenExecutor:
            self._replace(worker)
            asked.tries += 1
            if asked.tries < 2 and not self._closed:
                log.warning("a map worker died; the picture is drawn again by a new one")
                self._queue(name, asked, first=True)
            elif not asked.answer.done():
                asked.answer.set_exception(RuntimeError("map workers died drawing the picture"))
        except BaseException as e:  # the drawing's own error, for the one who asked
            if not asked.answer.done():
                asked.answer.set_exception(e)
            if not isinstance(e, Exception):
                raise
        else:
            if not asked.answer.done():
                asked.answer.set_result(png)
        finally:
            worker.busy = False
            if not self._closed:
                self._dispatch()

    def _replace(self, worker: _Worker) -> None:
        worker.pool.shutdown(wait=False, cancel_futures=True)
        worker.pool = _new_pool()
        worker.boards.clear()

    # -- what is sent --------------------------------------------------------------------------
    def _pickled(self, worker: _Worker, what: object) -> bytes:
        """``what`` pickled for ``worker``: each board in it whole if the worker does not keep
        it yet, else by its fingerprint."""
        try:
            return pickled(what, lambda gm: self._board_of(worker, gm))
        except BaseException:
            # Nothing was sent: a board counted as sent may not have been. Sent again.
            worker.boards.clear()
            raise

    def _board_of(self, worker: _Worker, gm: GameMap) -> tuple[Callable[..., GameMap],
                                                               tuple[str, bytes | None]]:
        from render.terrain import fingerprint

        key = fingerprint(gm)
        if key in worker.boards:
            worker.boards.move_to_end(key)
            return _board, (key, None)
        worker.boards[key] = None
        while len(worker.boards) > BOARDS_KEPT:
            worker.boards.popitem(last=False)
        self.boards_sent += 1
        return _board, (key, pickle.dumps(gm, protocol=pickle.HIGHEST_PROTOCOL))


def _cells_packed(cells: frozenset[Cell] | None) -> bytes | None:
    """``cells`` as 64-bit numbers, column and row (a view may see a thousand cells, and a
    ``Cell`` pickled alone costs a call into Python each)."""
    if cells is None:
        return None
    return array("Q", [c.col << 32 | c.row for c in cells]).tobytes()


def _cells_unpacked(packed: bytes | None) -> frozenset[Cell] | None:
    if packed is None:
        return None
    numbers = array("Q")
    numbers.frombytes(packed)
    return frozenset(Cell(n >> 32, n & 0xFFFFFFFF) for n in numbers)


_VIEW_FIELDS = tuple(f.name for f in fields(SideView))
_SEEN = _VIEW_FIELDS.index("seen_cells")
_BLOCKED = _VIEW_FIELDS.index("blocked_cells")
_UNIT_FIELDS = attrgetter(*(f.name for f in fields(UnitView)))


def _view_reduced(view: SideView) -> tuple[Callable[..., SideView], tuple[object, ...]]:
    values = [getattr(view, name) for name in _VIEW_FIELDS]
    values[_SEEN] = _cells_packed(view.seen_cells)
    values[_BLOCKED] = _cells_packed(view.blocked_cells)
    return _view_unpacked, tuple(values)


def _view_unpacked(*values: Any) -> SideView:
    unpacked = list(values)
    unpacked[_SEEN] = _cells_unpacked(values[_SEEN])
    unpacked[_BLOCKED] = _cells_unpacked(values[_BLOCKED]) or frozenset()
    return SideView(**dict(zip(_VIEW_FIELDS, unpacked, strict=True)))


#: Quicker pickling for what a view holds many of: by its fields in order, not through the
#: dataclass's own state (which walks ``fields`` in Python for every unit).
_QUICK: dict[type, Callable[[Any], Any]] = {
    SideView: _view_reduced,
    UnitView: lambda unit: (UnitView, _UNIT_FIELDS(unit)),
    Cell: lambda cell: (Cell, (cell.col, cell.row)),
}


def pickled(what: object, board_of: Callable[[GameMap], Any] | None = None) -> bytes:
    """``what`` pickled, quickly for what views hold many of (``_QUICK``), with each board in
    it reduced by ``board_of`` (by default, whole)."""
    buf = io.BytesIO()
    pickler = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
    table: dict[type, Callable[[Any], Any]] = {**copyreg.dispatch_table, **_QUICK}
    if board_of is not None:
        table[GameMap] = board_of
    pickler.dispatch_table = table
    pickler.dump(what)
    return buf.getvalue()


def _new_pool() -> ProcessPoolExecutor:
    # A fresh interpreter, not a fork: the bot's process has threads (the database's, the
    # drawing of layers) whose locks a fork would copy in whatever state they were.
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_started)


# -- in the worker -------------------------------------------------------------------------------
#: The boards this worker was sent, by fingerprint, the most recently drawn on last.
_BOARDS: OrderedDict[str, GameMap] = OrderedDict()


def _started() -> None:
    from render import warm_up

    warm_up()


def _board(key: str, whole: bytes | None) -> GameMap:
    """The board ``key``: sent ``whole`` now, or kept from before (the bot keeps count of the
    boards a worker keeps, in the same order, so it is always here)."""
    if whole is not None:
        _BOARDS[key] = pickle.loads(whole)
        while len(_BOARDS) > BOARDS_KEPT:
            _BOARDS.popitem(last=False)
    gm = _BOARDS[key]
    _BOARDS.move_to_end(key)
    return gm


def _draw(payload: bytes) -> bytes:
    from umpire.reads.maps import draw_side_map

    drawing: Drawing = pickle.loads(payload)
    return draw_side_map(drawing.view, drawing.around, drawing.radius, fitted=drawing.fitted)


def _settled() -> int:
    from render import ground

    ground.settle()
    return ground.kept_bytes()


def _warm_up(payload: bytes) -> None:
    from render import warm_up

    warm_up(pickle.loads(payload))
