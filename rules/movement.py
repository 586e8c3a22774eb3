"""Movement: a unit following a path, paying for each cell, and where it must stop.

Each step is checked in order: the cells touch, the cell can be entered across that side, the
unit has the MPs left, no enemy unit stands there, and stacking holds where the unit ends. A rule
module may also stop the unit after any cell it enters (sighting, a blocked hex, an enemy within
2 hexes): that is the ``stop`` hook.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rules.gamemap import GameMap
from rules.grid import Cell
from rules.ruleset import MovementClass
from rules.units import Unit

#: After the unit enters a cell: a reason to stop there, or ``None`` to go on.
StopHook = Callable[[Unit, Cell], str | None]

#: Whether a cell holds an enemy unit the moving side must stop short of.
EnemyAt = Callable[[Cell], bool]


class MoveError(ValueError):
    """A move that breaks a rule; the message names the step and the reason."""


@dataclass(frozen=True, slots=True)
class MoveResult:
    """The cells entered, the MPs spent, and why the unit stopped early (empty if it did not)."""

    cells: tuple[Cell, ...]
    mp: float
    stopped: str = ""


def move_along(
    gm: GameMap,
    unit: Unit,
    path: Sequence[Cell],
    *,
    enemy_at: EnemyAt = lambda _cell: False,
    friendly_count: Callable[[Cell], int] = lambda _cell: 0,
    stop: StopHook | None = None,
) -> MoveResult:
    """Follow ``path`` (cells to enter, in order) from the unit's cell.

    Raises ``MoveError`` for a path that cannot be followed as ordered (not adjacent, impassable,
    too far for the MPs left, overstacked at the end). A cell held by an enemy ends the move in
    the cell before it: the column has run into the enemy. ``stop`` may end it sooner.
    """
    if unit.cell is None:
        raise MoveError(f"{unit.name} is not on the map")
    if not path:
        raise MoveError("the route does not leave the unit's cell")
    budget = unit.mp_left
    board = gm.board
    here = unit.cell
    spent = 0.0
    entered: list[Cell] = []
    mclass: MovementClass = unit.movement_class  # type: ignore[assignment]
    for n, cell in enumerate(path, start=1):
        if not board.on_a_sheet(cell):
            raise MoveError(f"step {n} (from {board.describe(here)}): leaves the map")
        where = f"step {n} ({board.describe(here)} to {board.describe(cell)})"
        if not gm.grid.adjacent(here, cell):
            raise MoveError(f"{where}: the cells do not touch")
        cost = gm.step_cost(here, cell, mclass, unit.formation)
        if cost is None:
            why = (f"{gm.terrain_at(cell)} cannot be entered" if not gm.enterable(cell)
                   else f"the {gm.hexside_between(here, cell)} between them cannot be crossed")
            raise MoveError(f"{where}: {why}")
        if spent + cost > budget + 1e-9:
            raise MoveError(
                f"{where}: costs {cost:g} MP but only {budget - spent:g} of "
                f"{budget:g} MP remain"
            )
        # Only after the MPs: a step the unit cannot pay for cannot run into anyone, and the
        # answer must not depend on an enemy the side does not see.
        if enemy_at(cell):
            return _finish(gm, unit, entered, spent, "ran into the enemy", friendly_count)
        spent += cost
        entered.append(cell)
        here = cell
        if stop is not None:
            reason = stop(unit, cell)
            if reason:
                return _finish(gm, unit, entered, spent, reason, friendly_count)
    return _finish(gm, unit, entered, spent, "", friendly_count)


def _finish(gm: GameMap, unit: Unit, entered: list[Cell], spent: float, stopped: str,
            friendly_count: Callable[[Cell], int]) -> MoveResult:
    """End the move; the cell the unit ends in must not be overstacked (leaders don't count)."""
    if (entered and unit.combat) or unit.kind == "wagon":
        end = entered[-1] if entered else unit.cell
        if end is not None and friendly_count(end) + 1 > gm.ruleset.stacking_limit:
            raise MoveError(
                f"{gm.board.describe(end)} already holds {friendly_count(end)} units: the "
                f"stacking limit is {gm.ruleset.stacking_limit}"
            )
    return MoveResult(tuple(entered), spent, stopped)


def path_cost(gm: GameMap, unit: Unit, start: Cell, path: Sequence[Cell]) -> float | None:
    """MPs the whole path would cost, or ``None`` if a step cannot be taken at all."""
    total = 0.0
    here = start
    mclass: MovementClass = unit.movement_class  # type: ignore[assignment]
    for cell in path:
        if not gm.grid.adjacent(here, cell):
            return None
        cost = gm.step_cost(here, cell, mclass, unit.formation)
        if cost is None:
            return None
        total += cost
        here = cell
    return total
