"""Map pictures for a side (or the umpire), drawn off the event loop.

A picture is drawn from a ``SideView`` and nothing beside it (``rules.view.project``): the map,
the colours, the counters and the side's own overlay (its routes, its blocked cells) are all in
the view, so the renderer never sees the full state and no module needs a case of its own here.
Sighting and drawing are CPU work, so they run in worker threads; the bot keeps its heartbeat and
answers other players meanwhile.

The maps that go with queued messages are drawn one at a time in a thread of their own
(``queued=True``): a message can wait a moment, a player who asked for a map is waiting for it
now.

A picture is drawn from ``drawn_part`` of the side's view, the part that its digest covers
(``umpire.map_digest``); ``looked_at`` works both out, off the event loop, so that a picture
can be looked up by what the side may know before anything is drawn.
"""

from __future__ import annotations

import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from rules.board import LabelError
from rules.overlay import Route
from rules.state import GameState
from rules.view import SideView, project
from umpire.map_digest import drawn_part, view_digest

DEFAULT_RADIUS = 8
MAX_RADIUS = 30


class MapMaker:
    """Draws side maps; ``enabled=False`` skips pictures (tests and benchmarks of text only)."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self._queued: ThreadPoolExecutor | None = None

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
        draw = functools.partial(self.draw, state, side, around, radius, routes, fitted)
        if not queued:
            return await asyncio.to_thread(draw)
        if self._queued is None:
            self._queued = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vedette-maps")
        return await asyncio.get_running_loop().run_in_executor(self._queued, draw)

    def draw(self, state: GameState, side: str | None, around: str | None, radius: int | None,
             routes: tuple[Route, ...] | None, fitted: bool) -> bytes:
        """The picture itself, drawn in the calling (worker) thread."""
        view = drawn_part(project(state, side))
        if routes is not None:
            view = replace(view, routes=routes)
        return draw_side_map(view, around, radius, fitted=fitted)

    async def view_map(self, view: SideView, *, around: str | None = None,
                       radius: int | None = None) -> bytes | None:
        """A picture of a view already worked out."""
        if not self.enabled:
            return None
        return await asyncio.to_thread(draw_side_map, view, around, radius)


def _looked_at(state: GameState, side: str | None) -> tuple[SideView, str]:
    view = project(state, side)
    return view, view_digest(drawn_part(view))


def draw_side_map(view: SideView, around: str | None = None, radius: int | None = None, *,
                  fitted: bool = False) -> bytes:
    """A PNG of ``view``: whole, around a cell (a label; ``ValueError`` if it cannot be
    read), or ``fitted`` to its units and the enemies it knows (``render.fit``)."""
    from render import render_map

    centre = None
    if around:
        try:
            centre = view.board.parse(around)
        except LabelError as e:
            raise ValueError(str(e)) from None
        radius = max(2, min(MAX_RADIUS, radius or DEFAULT_RADIUS))
    return render_map(view, around=centre, radius=radius if centre else None,
                      fitted=fitted and centre is None)
