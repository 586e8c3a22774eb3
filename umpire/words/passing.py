"""What a side's troops saw on the way of a move, in words (ruling INFO-18): each enemy unit seen
passing and lost from sight before the move ended, with the stretch of its way that was in
sight ("seen moving east from A1209 to A1512, then lost from sight").
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rules import events as ev
from rules.ground.grid import Cell
from rules.knowledge.sighted import known_name, known_order
from rules.scenario.markup import plain
from rules.view import SideView
from umpire.words.events import by_place, sighted_what

#: The eight points of the compass, anticlockwise from east (a map's north is up).
COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south",
           "south-east")


def heading(view: SideView, start: Cell, end: Cell) -> str:
    """The way from ``start`` to ``end`` as a point of the compass, read off the map."""
    grid = view.game_map.grid
    (x0, y0), (x1, y1) = grid.centre(start), grid.centre(end)
    angle = math.degrees(math.atan2(y0 - y1, x1 - x0))  # the map's y grows southwards
    return COMPASS[round(angle / 45) % 8]


def stretch_words(view: SideView, trail: Sequence[Cell]) -> str:
    """A stretch of a unit's way in sight: "moving east from A1209 to A1512", or where it was
    seen when the side saw it in one cell only ("at A1209")."""
    label = view.board.label
    if len(trail) < 2 or trail[0] == trail[-1]:
        return f"at {label(trail[-1])}" if trail else ""
    return (f"moving {heading(view, trail[0], trail[-1])} from {label(trail[0])} to "
            f"{label(trail[-1])}")


def passing_text(view: SideView, e: ev.SeenPassing) -> str:
    """The side's news of units its troops saw on the way and lost from sight by the move's
    end; empty when there are none (a trail of a unit still in sight is drawn, not told)."""
    if not e.passed:
        return ""
    told: list[tuple[Cell | None, str]] = []
    for key, seen in sorted(e.passed.items(), key=lambda kv: known_order(kv[1])):
        trail = [Cell(*c) for c in e.trails.get(key, ())] or [Cell(*seen["cell"])]
        told.append((trail[-1], f"{plain(known_name(seen))} ({sighted_what(seen)}) "
                                f"{stretch_words(view, trail)}"))
    return "Seen on the way, then lost from sight:" + by_place(view, told)
