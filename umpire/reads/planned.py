"""What a previewed move is made of, a unit's or a marker's (``umpire.reads.preview``,
``umpire.reads.marker_preview``): the plan shown, its step lines, and the map with the planned
route drawn from the side's own view."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from rules.ground.board import Board
from rules.ground.grid import Cell
from rules.knowledge.overlay import Route
from rules.orders.movement import OrderPlan, PlannedStep
from rules.state import GameState
from umpire.service import Umpire

#: Routes entering more cells than this are shown before they are given, whatever the setting.
LONG_ROUTE = 6
#: Cells beyond the MPs named one by one; the rest are counted.
NOT_REACHED_NAMED = 6


@dataclass(frozen=True)
class MovePlan:
    """What a move would do: the unit's name, the cells it would enter (labels, as far as its
    MPs pay), whether any leg follows a road, where it ends and why, and the words and map."""

    unit: str
    start: str
    cells: tuple[str, ...]
    by_road: bool
    text: str
    image: bytes | None = None
    end: str = ""
    out_of_mp: bool = False


async def route_picture(umpire: Umpire, state: GameState, side: str, start: Cell,
                        path: Sequence[Cell], name: str) -> bytes | None:
    """The side's map around the planned route from ``start`` along ``path``, the route drawn
    (``None`` for no path, or a map that cannot be drawn there)."""
    if not path:
        return None
    gm = state.loaded.map
    middle = path[len(path) // 2]
    radius = max(3, max(gm.grid.distance(middle, c) for c in (start, *path)) + 2)
    try:
        planned = Route((start, *path), f"{name}: planned move")
        return await umpire.maps.side_map(state, side, around=gm.board.label(middle),
                                          radius=radius, routes=(planned,))
    except ValueError:
        return None


def step_lines(board: Board, plan: OrderPlan) -> list[str]:
    """One line per run of alike steps (same cost, same reason), then the cells not reached:
    "3-9. A0304 to A1004: 0.5 MP each (by road, in column), 2.5 MP left"."""
    lines: list[str] = []
    n = 1
    reached = [s for s in plan.steps if s.reached]
    for (cost, why), run in groupby(reached, key=lambda s: (s.cost, s.why)):
        steps = list(run)
        lines.append(_run_line(board, n, steps, cost, why))
        n += len(steps)
    beyond = [s for s in plan.steps if not s.reached]
    if beyond:
        named = ", ".join(board.label(s.cell) for s in beyond[:NOT_REACHED_NAMED])
        more = len(beyond) - NOT_REACHED_NAMED
        lines.append(f"Not reached (no MPs left for them): {named}"
                     f"{f' and {more} more' if more > 0 else ''}.")
    return lines


def _run_line(board: Board, n: int, steps: list[PlannedStep], cost: float, why: str) -> str:
    last = steps[-1]
    if len(steps) == 1:
        return (f"{n}. {board.describe(last.cell)}: {cost:g} MP ({why}), {last.left:g} MP "
                "left")
    return (f"{n}-{n + len(steps) - 1}. {board.label(steps[0].cell)} to "
            f"{board.describe(last.cell)}: {cost:g} MP each ({why}), {last.left:g} MP left")
