"""What a side's chosen units could aim at, for the ``target:`` autocomplete of fire and close
combat.

Worked out from the side's view alone (``rules.view.project``) and the public map: the enemy
counters the view shows where they could be aimed at (as ``rules.combat.offers`` counts them:
an identified combat unit, or a counter seen without its identity; never a ghost, never a
concealment marker), and the chosen units' own cells. An enemy the side does not see is not in
the list and changes nothing in it (ruling ORD-12). A target is within reach when every chosen
unit could strike it: for fire, within the unit's range on a clear line; for close combat, next
to it. The order itself is still checked by the rules when it is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rules.combat.config import CombatRules
from rules.combat.offers import aimable_cells
from rules.forces.words import COMBAT_KINDS
from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell
from rules.sighting.height import clear_line
from rules.view import IDENTIFIED, SideView, UnitView

Action = Literal["fire", "assault"]


@dataclass(frozen=True, slots=True)
class Aim:
    """One thing the side could name as a target. ``value``: what the order reads (the enemy's
    name as seen, or the label of the cell of a counter seen without its identity); ``label``:
    how the side names it; ``distance``: from the farthest chosen unit (``None`` when no unit
    is chosen); ``in_sight``: a clear line from every chosen unit; ``reachable``: every chosen
    unit could strike it now."""

    value: str
    label: str
    cell: Cell
    distance: int | None
    in_sight: bool
    reachable: bool

    def words(self, action: Action) -> str:
        """The choice as the player reads it: "Wright (3 hexes, in sight)"."""
        if self.distance is None:
            return self.label
        hexes = f"{self.distance} hex{'' if self.distance == 1 else 'es'}"
        if action == "assault":
            return f"{self.label} ({'next to you' if self.reachable else hexes})"
        if self.reachable:
            return f"{self.label} ({hexes}, in sight)"
        why = "no clear line" if not self.in_sight else "out of range"
        return f"{self.label} ({hexes}, {why})"


def aims(view: SideView, gm: GameMap, rules: CombatRules, chosen: Sequence[UnitView],
         action: Action) -> list[Aim]:
    """The targets the side sees, those ``chosen`` could all strike first (nearest first),
    then the others (nearest first); at one distance, or when no unit is chosen, the enemies
    it identified by name, then the counters it sees without their identity by cell."""
    board = gm.board
    aimable = aimable_cells(view)
    found: list[tuple[str, str, Cell]] = []
    named_cells: set[Cell] = set()
    names: set[str] = set()
    for u in view.enemy_units():
        if u.level == IDENTIFIED and u.kind in COMBAT_KINDS and u.name:
            named_cells.add(u.cell)
            if u.name not in names:  # the order names it so: one choice per name
                names.add(u.name)
                found.append((u.name, u.name, u.cell))
    for cell in sorted(aimable - named_cells, key=lambda c: (c.col, c.row)):
        label = board.label(cell)
        found.append((label, f"the counter at {label}", cell))
    out = [_aim(gm, rules, chosen, action, value, label, cell) for value, label, cell in found]
    out.sort(key=lambda a: (not a.reachable, a.distance or 0, a.value != a.label,
                            a.label.lower()))
    return out


def _aim(gm: GameMap, rules: CombatRules, chosen: Sequence[UnitView], action: Action,
         value: str, label: str, cell: Cell) -> Aim:
    if not chosen:
        return Aim(value, label, cell, None, False, False)
    grid = gm.grid
    distance = max(grid.distance(u.cell, cell) for u in chosen)
    in_sight = all(clear_line(gm, gm.idx(u.cell), gm.idx(cell)) for u in chosen)
    if action == "assault":
        reachable = all(grid.adjacent(u.cell, cell) for u in chosen)
    else:
        reachable = in_sight and all(grid.distance(u.cell, cell) <= rules.reach(u.kind)
                                     for u in chosen)
    return Aim(value, label, cell, distance, in_sight, reachable)
