"""Where a unit counts as being, for the rules that measure from it.

A unit on the map counts in its cell; a unit inside a marker counts where the marker stands
(its division is there, even if no one can see which); an arriving, eliminated or withdrawn
unit counts nowhere. Rule modules may change the answer (``RuleModule.counted_cell``). Command
range, straggler recovery, morale and retreats near the enemy measure from here.

Sighting does not: a unit inside a marker is not a sighting presence of its own, because being
seen would show it; the marker stands for it, and the marker's module decides what is revealed.
"""

from __future__ import annotations

from rules.forces.location import InMarker, OnMap
from rules.forces.units import Unit
from rules.ground.grid import Cell
from rules.modules.registry import in_force
from rules.state import GameState


def counts_at(state: GameState, unit: Unit) -> Cell | None:
    """The cell the unit counts as standing in now, or ``None`` if it counts nowhere."""
    cell: Cell | None = None
    match unit.location:
        case OnMap(cell=here):
            cell = here
        case InMarker(marker_id=mid):
            marker = state.markers.get(mid)
            cell = marker.cell if marker is not None else None
    for module in in_force(state.modules):
        cell = module.counted_cell(state, unit, cell)
    return cell



def enemy_combat_presences(state: GameState, side: str) -> list[Cell]:
    """Where ``side``'s enemies count as combat troops, for distances to the enemy: one entry
    for each of their combat units on the map (in the cell ``counts_at`` gives), and one for
    each of their markers, whatever is under it (a decoy included, several units just one).

    A marker counts as one, whatever it holds, so that nothing measured from it (a straggler's
    recovery, a rally in contact, a retreat's way) tells ``side`` whether it is real or how
    strong. The units inside it are not counted again.
    """
    cells = [c for u in state.enemies_of(side)
             if u.combat and u.on_map and (c := counts_at(state, u)) is not None]
    cells.extend(m.cell for m in state.markers.values() if m.side != side)
    return cells


def enemy_combat_cells(state: GameState, side: str) -> frozenset[Cell]:
    """The cells of ``enemy_combat_presences``."""
    return frozenset(enemy_combat_presences(state, side))
