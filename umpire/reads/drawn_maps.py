"""A game's recent map pictures, each drawn once, kept apart for each view.

A picture is a pure function of a view: the ``SideView`` of ``side`` (or the umpire's, ``None``)
in a window. Players of one side, a ``/map`` asked right after the phase's DM, and a message sent
to several players all want the same picture, and drawing it is the costliest thing the umpire
does. So the last few pictures of each view are kept here, and a picture being drawn is shared by
everyone who asks for it meanwhile.

A picture is kept under the digest of the view it is drawn from (``umpire.reads.map_digest``), never
under the log's length, and each view has a store of its own (``KEEP`` pictures): whether a
side's answer comes from here or is drawn afresh, and so how fast it comes, depends only on what
that side may know, never on what the enemy did or asked for meanwhile (DESIGN.md, "Timing tells
nothing"). How often each view's pictures were found here or drawn is counted (``counts``).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

#: Pictures kept per view of a game at most: its latest whole board, the fitted window and the
#: close-ups of a phase's gallery, and a window or two (their bytes are bounded apart).
KEEP = 8
#: Bytes of pictures kept in the whole process, shared evenly between the games loaded and, in
#: each game, between its views (``DrawnMaps``).
PICTURE_BYTES = 32 * 2**20
#: The ending of a queued map's view name that asks for the fitted window (ruling ORD-30); a
#: name without it is the whole board. (Side ids cannot hold a full stop.)
WINDOW = ".window"


def window_view(view: str) -> str:
    """The view name of ``view``'s fitted window (``view``: a side id, or ``umpire``)."""
    return view + WINDOW


def read_view(name: str) -> tuple[str, bool]:
    """A queued map's view name as the view and whether it is the fitted window."""
    if name.endswith(WINDOW):
        return name.removesuffix(WINDOW), True
    return name, False


def picture_file(name: str, turn: int) -> str:
    """The file name a queued map is sent under."""
    return f"{read_view(name)[0]}-turn-{turn:02d}.png"


@dataclass(frozen=True, slots=True)
class MapKey:
    """Which picture of a view: the view whose digest is ``view`` (``umpire.reads.map_digest``), the
    whole board, a window ``around`` a cell, or the ``fitted`` window."""

    view: str
    around: str | None = None
    radius: int | None = None
    fitted: bool = False


@dataclass(frozen=True, slots=True)
class Counts:
    """How many of a view's pictures were found kept (``hits``) and drawn (``draws``)."""

    hits: int = 0
    draws: int = 0


class _ViewPictures:
    """One view's pictures, newest last, and its counts."""

    def __init__(self) -> None:
        self.drawn: OrderedDict[MapKey, asyncio.Future[bytes | None]] = OrderedDict()
        self.counts = Counts()


class DrawnMaps:
    """The pictures of one game, by view. ``share``: the bytes each view may keep (at most
    ``KEEP`` pictures in any case), asked again whenever one of its pictures is drawn."""

    def __init__(self, share: Callable[[], int] | None = None) -> None:
        self._views: dict[str | None, _ViewPictures] = {}
        self._share = share

    def counts(self, side: str | None) -> Counts:
        """How often ``side``'s pictures (``None``: the umpire's) were found kept or drawn."""
        found = self._views.get(side)
        return found.counts if found is not None else Counts()

    async def picture(self, side: str | None, key: MapKey,
                      draw: Callable[[], Awaitable[bytes | None]]) -> bytes | None:
        """The picture ``key`` of ``side``'s view: kept, being drawn, or drawn now by ``draw``.
        A drawing that fails is forgotten, so the next request tries again (and gets the same
        error)."""
        mine = self._views.setdefault(side, _ViewPictures())
        drawing = mine.drawn.get(key)
        if drawing is None:
            mine.counts = replace(mine.counts, draws=mine.counts.draws + 1)
            drawing = asyncio.ensure_future(draw())
            drawing.add_done_callback(_retrieved)
            drawing.add_done_callback(lambda _: self._trim(mine))
            mine.drawn[key] = drawing
            # Only this view's own pictures are pushed out: nothing another side asks for.
            while len(mine.drawn) > KEEP:
                mine.drawn.popitem(last=False)
        else:
            mine.counts = replace(mine.counts, hits=mine.counts.hits + 1)
            mine.drawn.move_to_end(key)
        try:
            # Shielded: one reader giving up (its interaction timed out) does not stop the
            # drawing the others wait for.
            return await asyncio.shield(drawing)
        except Exception:
            if mine.drawn.get(key) is drawing:
                del mine.drawn[key]
            raise


    def kept_bytes(self) -> int:
        """The bytes of every picture kept, all views together."""
        return sum(_size(f) for mine in self._views.values() for f in mine.drawn.values())

    def _trim(self, mine: _ViewPictures) -> None:
        """Keep the view's newest pictures that fit its share of the bytes (a picture being
        drawn is kept: readers wait for it). The share depends on how many games the process
        has loaded, never on what anyone asked for, and only the view's own pictures count."""
        if self._share is None:
            return
        allowed = self._share()
        for key, drawing in reversed(list(mine.drawn.items())):
            size = _size(drawing)
            if size > allowed:
                del mine.drawn[key]
            else:
                allowed -= size


def _size(drawing: asyncio.Future[bytes | None]) -> int:
    """The bytes of a picture drawn (nothing yet for one being drawn, or that failed)."""
    if not drawing.done() or drawing.cancelled() or drawing.exception() is not None:
        return 0
    return len(drawing.result() or b"")


def _retrieved(drawing: asyncio.Future[bytes | None]) -> None:
    """Mark a failed drawing's error as seen: its readers, if any are left, get it raised."""
    if not drawing.cancelled():
        drawing.exception()
