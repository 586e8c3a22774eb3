"""Deploying from a concealed force (Cf 2.3), by the rule when its owner filed no plan.

The marker is lifted and the commander stays in its hex; his units set up in that hex and the
hexes next to it, never across impassable terrain nor into an enemy's hex, within the stacking
limit. A force that moved in this turn or the one before deploys in march formation (infantry in
column, artillery limbered) and on road hexes as far as it can; one that did not keeps the
formations its units had when they concealed (artillery may be unlimbered). When the hex and its
neighbours are full, units go to the nearest hexes with room, reached without crossing
impassable terrain (ruling CF-9). The umpire places them at once, so that a reveal in the
enemy's phase never waits for the owner.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from rules.events import CellRef
from rules.grid import Cell
from rules.markers import Marker
from rules.state import GameState
from rules.units import Unit
from rules.words import STACKING_KINDS, Formation, MovementClass, UnitKind

#: How far from the marker (in hexes) units are placed when the nearer hexes are full.
FARTHEST = 3
_MARCH: Mapping[UnitKind, Formation] = {
    UnitKind.INFANTRY: Formation.COLUMN, UnitKind.ARTILLERY: Formation.LIMBERED,
    UnitKind.CAVALRY: Formation.MOUNTED,
}

Placed = tuple[str, CellRef, str]


def moved_lately(state: GameState, marker: Marker) -> bool:
    """Whether the force moved in this turn or the turn before."""
    return marker.moved_phase is not None and marker.moved_phase[0] >= state.turn - 1


def by_rule(state: GameState, marker: Marker, record: Mapping[str, Any]) -> tuple[Placed, ...]:
    """Where each unit of the force sets up, and in what formation (the commander first, in
    the marker's hex)."""
    gm = state.loaded.map
    moved = moved_lately(state, marker)
    units = [state.units[u] for u in record["units"] if u in state.units]
    commander = str(record.get("commander") or "")
    order = sorted(units, key=lambda u: (u.id != commander, not u.combat, u.id))
    enemy = {u.cell for u in state.units.values() if u.side != marker.side and u.cell}
    room: Counter[Cell] = Counter(u.cell for u in state.units_of(marker.side)
                                  if u.cell is not None and u.kind in STACKING_KINDS)
    limit = gm.ruleset.stacking_limit
    rings = _reachable(state, marker.cell, enemy)
    placed: list[Placed] = []
    for unit in order:
        formation = _formation(unit, moved)
        if unit.kind not in STACKING_KINDS:
            cell = marker.cell
        else:
            cell = next((c for c in _preferred(state, rings, moved)
                         if room[c] < limit), marker.cell)
            room[cell] += 1
        placed.append((unit.id, (cell.col, cell.row), formation))
    return tuple(placed)


def _formation(unit: Unit, moved: bool) -> str:
    if moved and unit.kind in _MARCH:
        return _MARCH[unit.kind].value
    return unit.formation.value


def _reachable(state: GameState, start: Cell, enemy: set[Cell]) -> list[list[Cell]]:
    """The hexes within ``FARTHEST`` of ``start`` that can be reached from it step by step
    without crossing impassable terrain or entering an enemy's hex, ring by ring."""
    gm = state.loaded.map
    rings = [[start]]
    seen = {start}
    for _ in range(FARTHEST):
        ring: list[Cell] = []
        for here in rings[-1]:
            for cell in gm.grid.neighbours(here):
                if cell in seen or cell in enemy or not gm.board.on_a_sheet(cell):
                    continue
                if gm.step_cost(here, cell, MovementClass.FOOT, Formation.COLUMN) is None:
                    continue
                seen.add(cell)
                ring.append(cell)
        rings.append(sorted(ring, key=lambda c: (c.row, c.col)))
    return rings


def _preferred(state: GameState, rings: list[list[Cell]], moved: bool) -> list[Cell]:
    """The hexes in the order units fill them: nearest first; after a move, road hexes first
    within each ring."""
    gm = state.loaded.map
    out: list[Cell] = []
    for ring in rings:
        out += sorted(ring, key=lambda c: not gm.has_road(c)) if moved else ring
    return out
