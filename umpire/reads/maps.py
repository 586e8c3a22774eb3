"""Map pictures for a side (or the umpire), drawn off the event loop.

A picture is drawn from a ``SideView`` and nothing beside it (``rules.view.project``): the map,
the colours, the counters and the side's own overlay (its routes, its blocked cells) are all in
the view, so the renderer never sees the full state and no module needs a case of its own here.
Sighting and drawing are CPU work, so they never run on the event loop's thread. The bot draws
in worker processes (``umpire.reads.map_workers``, ``MapMaker(workers=N)``), where a picture does
not hold the interpreter that every command needs; without them (``workers=0``, the tests'
default), in worker threads of its own process.

In the bot's own process, the maps that go with queued messages (``queued=True``) are drawn one
at a time for each view, in a thread of that view's own: a message can wait a moment, a player
who asked for a map is waiting for it now, so a burst of queued maps takes at most one thread
per view and leaves the rest to the players' own requests. One thread *per view*, not one for
all: a side's queued map never waits behind the enemy's, which would tell it, by when its
message comes, that the enemy had maps drawn (DESIGN.md, "Timing tells nothing"). The threads
are keyed by the view's name (a side id, or the umpire's), not by game: side ids come from the
scenarios served, so they are few, and the threads stay bounded however many games are played.
Two games whose sides share an id share a thread, which tells neither side anything of its own
enemy. The worker processes keep the same promise by taking turns between views.

A picture is drawn from ``drawn_part`` of the side's view, the part that its digest covers
(``umpire.reads.map_digest``); ``looked_at`` works both out, off the event loop, so that a picture
can be looked up by what the side may know before anything is drawn.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from rules.ground.board import LabelError
from rules.ground.gamemap import GameMap
from rules.knowledge.overlay import Route
from rules.state import GameState
from rules.view import SideView, project
from umpire.reads.map_digest import drawn_part, view_digest
from umpire.reads.map_workers import Drawing, MapWorkers

log = logging.getLogger(__name__)

DEFAULT_RADIUS = 8
MAX_RADIUS = 30


class MapMaker:
    """Draws side maps; ``enabled=False`` skips pictures (tests and benchmarks of text only).
    ``workers``: how many worker processes draw them (0: threads of this process)."""

    def __init__(self, enabled: bool = True, workers: int = 0) -> None:
        self.enabled = enabled
        self._queued: dict[str | None, ThreadPoolExecutor] = {}
        self.workers = MapWorkers(workers) if enabled and workers > 0 else None

    def close(self) -> None:
        """Stop the worker processes, if any."""
        if self.workers is not None:
            self.workers.close()

    async def looked_at(self, state: GameState, side: str | None) -> tuple[SideView, str]:
        """The view of ``side`` of ``state`` and the digest of the part of it a picture is
        drawn from (``drawn_part``), worked out in a worker thread."""
        return await asyncio.to_thread(_looked_at, state, side)

    async def side_map(self, state: GameState, side: str | None, *, around: str | None = None,
                       radius: int | None = None, routes: tuple[Route, ...] | None = None,
                       queued: bool = False, fitted: bool = False) -> bytes | None:
        """The side's map now. ``routes``, when given, are drawn instead of the view's own (a
        move the side is planning, say): the caller passes only the side's own. ``queued``:
        for a message being sent, drawn after the ones before it. ``fitted``: the window
        fitted to the side's units and the enemies it knows, unless ``around`` is given."""
        if not self.enabled:
            return None
        if self._workers_ready():
            assert self.workers is not None
            view = await asyncio.to_thread(self.view_drawn, state, side, routes)
            return await self.workers.draw(side, Drawing(view, around, radius, fitted),
                                           now=not queued)
        draw = functools.partial(self.draw, state, side, around, radius, routes, fitted)
        if not queued:
            return await asyncio.to_thread(draw)
        return await asyncio.get_running_loop().run_in_executor(self.queue_of(side), draw)

    def queue_of(self, side: str | None) -> ThreadPoolExecutor:
        """The thread that draws ``side``'s queued maps (``None``: the umpire's), one at a
        time; no other view's maps are drawn in it."""
        found = self._queued.get(side)
        if found is None:
            found = self._queued[side] = ThreadPoolExecutor(
                max_workers=1, thread_name_prefix=f"vedette-maps-{side or 'umpire'}")
        return found

    def draw(self, state: GameState, side: str | None, around: str | None, radius: int | None,
             routes: tuple[Route, ...] | None, fitted: bool) -> bytes:
        """The picture itself, drawn in the calling (worker) thread."""
        return draw_side_map(self.view_drawn(state, side, routes), around, radius, fitted=fitted,
                             whole_layers=self.workers is None)

    @staticmethod
    def view_drawn(state: GameState, side: str | None, routes: tuple[Route, ...] | None
                   ) -> SideView:
        """What a picture of ``side``'s view is drawn from: the view's ``drawn_part``, with
        ``routes`` instead of its own when they are given."""
        view = drawn_part(project(state, side))
        return view if routes is None else replace(view, routes=routes)

    async def warm_up(self, game_map: GameMap | None = None) -> None:
        """Ready the renderer for its first pictures, of ``game_map`` if given
        (``render.warm_up``), in a worker thread; nothing is drawn."""
        if not self.enabled:
            return
        try:
            if self.workers is not None:
                # This process too, for the pictures it draws while the workers start.
                await asyncio.to_thread(_warm_up, game_map, False)
                await self.workers.warm_up(game_map)
            else:
                await asyncio.to_thread(_warm_up, game_map)
        except Exception:  # the first picture meets it again, and says so to its asker
            log.exception("getting the map renderer ready failed")

    async def view_map(self, view: SideView, *, around: str | None = None,
                       radius: int | None = None) -> bytes | None:
        """A picture of a view already worked out."""
        if not self.enabled:
            return None
        if self._workers_ready():
            assert self.workers is not None
            return await self.workers.draw(view.side, Drawing(drawn_part(view), around, radius))
        return await asyncio.to_thread(draw_side_map, view, around, radius,
                                       whole_layers=self.workers is None)

    def _workers_ready(self) -> bool:
        """Whether the pictures go to the worker processes: there are some, and they have
        started. Until they have, pictures are drawn here, piece by piece (no whole layer kept
        in this process), and the workers are started if nobody has started them yet."""
        if self.workers is None:
            return False
        if not self.workers.ready:
            self.workers.start()
            return False
        return True


def _warm_up(game_map: GameMap | None, whole_layers: bool = True) -> None:
    from render import warm_up

    warm_up(game_map, whole_layers=whole_layers)


def _looked_at(state: GameState, side: str | None) -> tuple[SideView, str]:
    view = project(state, side)
    return view, view_digest(drawn_part(view))


def draw_side_map(view: SideView, around: str | None = None, radius: int | None = None, *,
                  fitted: bool = False, whole_layers: bool = True) -> bytes:
    """A PNG of ``view``: whole, around a cell (a label; ``ValueError`` if it cannot be
    read), or ``fitted`` to its units and the enemies it knows (``render.fit``).
    ``whole_layers=False``: no whole terrain layer drawn or kept in this process."""
    from render import render_map

    centre = None
    if around:
        try:
            centre = view.board.parse(around)
        except LabelError as e:
            raise ValueError(str(e)) from None
        radius = max(2, min(MAX_RADIUS, radius or DEFAULT_RADIUS))
    return render_map(view, around=centre, radius=radius if centre else None,
                      fitted=fitted and centre is None, whole_layers=whole_layers)
