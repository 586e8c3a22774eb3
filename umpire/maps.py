"""Map pictures for a side (or the umpire), drawn off the event loop.

The picture is always drawn from ``rules.view.project``: the renderer never sees the full state.
Sighting and drawing are CPU work, so they run in a worker thread; the bot keeps its heartbeat and
answers other players meanwhile.
"""

from __future__ import annotations

import asyncio

from rules.board import LabelError
from rules.grid import Cell
from rules.state import GameState
from rules.view import project

DEFAULT_RADIUS = 8
MAX_RADIUS = 30


class MapMaker:
    """Draws side maps; ``enabled=False`` skips pictures (tests and benchmarks of text only)."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled

    async def side_map(self, state: GameState, side: str | None, *, around: str | None = None,
                       radius: int | None = None, route: list[Cell] | None = None,
                       route_note: str = "") -> bytes | None:
        if not self.enabled:
            return None
        return await asyncio.to_thread(draw_side_map, state, side, around, radius, route,
                                       route_note)


def draw_side_map(state: GameState, side: str | None, around: str | None = None,
                  radius: int | None = None, route: list[Cell] | None = None,
                  route_note: str = "") -> bytes:
    """A PNG of what ``side`` knows (``None``: everything), whole or around a cell; ``route`` is
    one of the side's own planned moves, drawn for that side only."""
    from render import render_map

    board = state.loaded.board
    centre = None
    if around:
        try:
            centre = board.parse(around)
        except LabelError as e:
            raise ValueError(str(e)) from None
        radius = max(2, min(MAX_RADIUS, radius or DEFAULT_RADIUS))
    view = project(state, side)
    if route is None and side is not None and view.notes.get("surprise_move"):
        # The side's own surprise march, dashed, with its saved MPs (its own view only).
        from rules.surprise.notes import route_overlay

        route, route_note = route_overlay(view.notes["surprise_move"])
    colours = {s.id: s.colour for s in state.loaded.scenario.sides}
    return render_map(state.loaded.map, view, around=centre, radius=radius if centre else None,
                      side_colours=colours, route=route, route_note=route_note)
