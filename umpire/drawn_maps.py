"""A game's recent map pictures, each drawn once.

A picture is a pure function of the log and a view: the view ``side`` (or the umpire's, ``None``)
of the state right after event ``seq``, in a window, with the routes a side is planning. Players
of one side, a ``/map`` asked right after the phase's DM, and a message sent to several players
all want the same picture, and drawing it is the costliest thing the umpire does. So the last few
pictures of each game are kept here, and a picture being drawn is shared by everyone who asks
for it meanwhile.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from rules.overlay import Route

#: Pictures kept per game: one moment's views (each side's and the umpire's) and a window.
KEEP = 4
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
    """Which picture: the view of ``side`` (``None``: the umpire's) after event ``seq``, the
    whole board, a window ``around`` a cell, or the ``fitted`` window."""

    seq: int
    side: str | None
    around: str | None = None
    radius: int | None = None
    routes: tuple[Route, ...] | None = None
    fitted: bool = False


class DrawnMaps:
    """The pictures of one game, newest last."""

    def __init__(self) -> None:
        self._drawn: OrderedDict[MapKey, asyncio.Future[bytes | None]] = OrderedDict()

    async def picture(self, key: MapKey, draw: Callable[[], Awaitable[bytes | None]]
                      ) -> bytes | None:
        """The picture ``key``: kept, being drawn, or drawn now by ``draw``. A drawing that
        fails is forgotten, so the next request tries again (and gets the same error)."""
        drawing = self._drawn.get(key)
        if drawing is None:
            drawing = asyncio.ensure_future(draw())
            drawing.add_done_callback(_retrieved)
            self._drawn[key] = drawing
            while len(self._drawn) > KEEP:
                self._drawn.popitem(last=False)
        else:
            self._drawn.move_to_end(key)
        try:
            # Shielded: one reader giving up (its interaction timed out) does not stop the
            # drawing the others wait for.
            return await asyncio.shield(drawing)
        except Exception:
            if self._drawn.get(key) is drawing:
                del self._drawn[key]
            raise


def _retrieved(drawing: asyncio.Future[bytes | None]) -> None:
    """Mark a failed drawing's error as seen: its readers, if any are left, get it raised."""
    if not drawing.cancelled():
        drawing.exception()
