"""Falling back after combat: the cells a unit retreats through, chosen by the umpire.

Each cell of a retreat must take the unit farther from the cells it retreats from, be enterable
across the side it crosses, hold no enemy unit, and leave room under the stacking limit. Among
the cells that qualify the umpire takes the one farthest from the nearest enemy combat unit (so
a retreat does not run into other enemy troops), then the farthest from the attackers, then the
one next to fewest enemy units, then the emptiest of friends, then the top-left-most (so a
retreat is always the same for the same position). A retreat that cannot be completed stops short.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.forces.counting import enemy_combat_presences
from rules.forces.units import Unit
from rules.forces.words import STACKING_KINDS
from rules.ground.grid import Cell
from rules.state import GameState


def retreat_path(state: GameState, unit: Unit, cells: int, away_from: Sequence[Cell]
                 ) -> list[Cell]:
    """Up to ``cells`` cells, in order, for ``unit`` to fall back through, away from
    ``away_from`` (the attacking cells)."""
    if unit.cell is None or cells <= 0 or not away_from:
        return []
    gm = state.loaded.map
    grid = gm.grid
    enemy = {u.cell for u in state.units.values() if u.side != unit.side and u.cell is not None}
    enemy_combat = enemy_combat_presences(state, unit.side)
    friends: dict[Cell, int] = {}
    for u in state.units.values():
        if u.side == unit.side and u.id != unit.id and u.cell is not None and (
                u.kind in STACKING_KINDS):
            friends[u.cell] = friends.get(u.cell, 0) + 1

    def away(c: Cell) -> int:
        return min(grid.distance(c, a) for a in away_from)

    path: list[Cell] = []
    here = unit.cell
    for _ in range(cells):
        options = []
        for n in grid.neighbours(here):
            if n in path or n == unit.cell or n in enemy or not gm.enterable(n):
                continue
            side = gm.hexside_between(here, n)
            if side is not None and gm.ruleset.hexsides[side].impassable:
                continue
            if away(n) <= away(here):
                continue
            if unit.combat and friends.get(n, 0) + 1 > gm.ruleset.stacking_limit:
                continue
            nearest = min((grid.distance(n, e) for e in enemy_combat), default=0)
            pressed = sum(1 for e in enemy_combat if grid.distance(n, e) == 1)
            options.append((-nearest, -away(n), pressed, friends.get(n, 0), n.row, n.col, n))
        if not options:
            break
        here = min(options)[-1]
        path.append(here)
    return path
