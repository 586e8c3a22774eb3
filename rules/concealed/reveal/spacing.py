"""How near a concealed force may be to the enemy, and what the enemy sees (Cf 1.4, 2.1).

A concealed force never stands in the line of sight of an enemy unit on the map, and keeps at
least three hexes from every enemy unit and enemy marker, whatever the line of sight. An enemy
unit that comes into its line of sight, or within two hexes of it, reveals it. Line of sight is
the game's sighting rule under the turn's visibility, seen from the enemy units on the map (a
marker's troops are off the map and see nothing: a concealed force never reveals another).
"""

from __future__ import annotations

from rules.forces.units import Unit
from rules.ground.grid import Cell
from rules.knowledge.sighted import sight
from rules.state import GameState

#: The least distance, in hexes, between a concealed force and any enemy unit or marker.
KEEP_AWAY = 3
#: An enemy unit this near (in hexes) reveals a concealed force, whatever the line of sight.
REVEAL_RANGE = 2


def enemy_cells(state: GameState, side: str) -> list[Cell]:
    """Where the side's enemies stand: every enemy unit on the map and every enemy marker."""
    cells = [u.cell for u in state.enemies_of(side) if u.cell is not None]
    cells.extend(m.cell for m in state.markers.values() if m.side != side)
    return cells


def nearest_enemy(state: GameState, side: str, cell: Cell) -> tuple[Cell, int] | None:
    """The nearest enemy unit or marker to ``cell`` and its distance (``None``: none)."""
    grid = state.loaded.map.grid
    best: tuple[Cell, int] | None = None
    for there in enemy_cells(state, side):
        d = grid.distance(cell, there)
        if best is None or d < best[1] or (d == best[1] and (there.row, there.col)
                                           < (best[0].row, best[0].col)):
            best = (there, d)
    return best


def cell_in_enemy_sight(state: GameState, side: str, cell: Cell) -> bool:
    """Whether an enemy unit on the map has ``cell`` in its line of sight now."""
    idx = state.loaded.map.idx(cell)
    return any(seen.sees_cell(idx) for s, seen in sight(state).items() if s != side)


def seen_by_enemy(state: GameState, side: str, unit: Unit) -> bool:
    """Whether the unit (on the map) is in an enemy unit's line of sight now."""
    return unit.cell is not None and cell_in_enemy_sight(state, side, unit.cell)
