"""Deploying from a concealed force (Cf 2.3): by its owner's plan where that is legal
(``rules.concealed.reveal.plans``, ruling CF-8), else by the rule.

The marker is lifted and the commander stays in its hex; his units set up in that hex and the
hexes next to it, never across impassable terrain nor into an enemy's hex, within the stacking
limit. A force that moved in this turn or the one before deploys in march formation (infantry in
column, artillery limbered) and on road hexes as far as it can; one that did not keeps the
formations its units had when they concealed (artillery may be unlimbered). After a move the
road hexes among the marker's hex and its neighbours fill first, the commander's hex among them
only if it carries the road; the other hexes take what the road hexes cannot hold (ruling
CF-23). When the hex and its neighbours are full, units go to the nearest hexes with room,
reached without crossing impassable terrain (ruling CF-9). A unit with a legal plan takes its
planned hex first; the others fill the room left. The umpire places them at once, so that a
reveal in the enemy's phase never waits for the owner.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from rules.concealed.reveal import plans
from rules.events import CellRef
from rules.forces.markers import Marker
from rules.forces.units import Unit
from rules.forces.words import STACKING_KINDS, Formation, MovementClass, UnitKind
from rules.ground.grid import Cell
from rules.state import GameState

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
    the marker's hex), by the rule alone."""
    return _deploy(state, marker, record, {})


def deploy(state: GameState, marker: Marker, record: Mapping[str, Any]) -> tuple[Placed, ...]:
    """Where each unit of the force sets up, and in what formation: as its owner's plan says
    where that is legal, else by the rule (ruling CF-8)."""
    return _deploy(state, marker, record, plans.plan_of(record))


def _deploy(state: GameState, marker: Marker, record: Mapping[str, Any],
            plan: Mapping[str, plans.Planned]) -> tuple[Placed, ...]:
    gm = state.loaded.map
    moved = moved_lately(state, marker)
    units = [state.units[u] for u in record["units"] if u in state.units]
    commander = str(record.get("commander") or "")
    order = sorted(units, key=lambda u: (u.id != commander, not u.combat, u.id))
    # An enemy marker's hex is the enemy's; another friendly marker's hex is full (a concealed
    # force stacks with no unit: Cf 1.4).
    enemy = {u.cell for u in state.units.values() if u.side != marker.side and u.cell}
    enemy |= {m.cell for m in state.markers.values() if m.side != marker.side}
    limit = gm.ruleset.stacking_limit
    room: Counter[Cell] = Counter(u.cell for u in state.units_of(marker.side)
                                  if u.cell is not None and u.kind in STACKING_KINDS)
    for m in state.markers.values():
        if m.side == marker.side and m.id != marker.id:
            room[m.cell] = max(room[m.cell], limit)
    rings = _reachable(state, marker.cell, enemy)
    # An enemy unit that arrived or fell back onto the marker holds its hex: the force sets up
    # round it, its commander in the nearest free hex (both sides never share a hex).
    home = marker.cell
    if home in enemy:
        rings[0] = []
        home = next((c for c in _preferred(state, rings, moved) if room[c] < limit), home)
    ground = _Ground(state, marker.cell, enemy, limit, moved, rings)
    # Planned places first, in the order units deploy: a legal plan keeps its hex; the rest
    # (and every unit whose plan is not legal) then fill what is left by the rule.
    cells: dict[str, Cell] = {}
    formations: dict[str, str] = {}
    for unit in order:
        planned = plan.get(unit.id)
        if planned is None or unit.id == commander:
            continue
        if _formation_allowed(unit, planned.formation, moved):
            formations[unit.id] = planned.formation
        cell = ground.planned_cell(unit, planned.place, room)
        if cell is not None:
            cells[unit.id] = cell
            if unit.kind in STACKING_KINDS:
                room[cell] += 1
    placed: list[Placed] = []
    for unit in order:
        formation = formations.get(unit.id) or _formation(unit, moved)
        if unit.id in cells:
            cell = cells[unit.id]
        elif unit.kind not in STACKING_KINDS:
            cell = home
        else:
            cell = ground.rule_cell(room, home)
            room[cell] += 1
        placed.append((unit.id, (cell.col, cell.row), formation))
    return tuple(placed)


class _Ground:
    """The hexes round a lifted marker, for checking a planned place."""

    def __init__(self, state: GameState, start: Cell, enemy: set[Cell], limit: int,
                 moved: bool, rings: list[list[Cell]]) -> None:
        self.state, self.start, self.enemy = state, start, enemy
        self.limit, self.moved = limit, moved
        self.rings = rings
        #: Where the article sets the force up: the marker's hex and the hexes next to it.
        self.area = [c for ring in rings[:2] for c in ring]

    def open_roads(self, room: Counter[Cell]) -> list[Cell]:
        """After a move, the road hexes of the area that still have room, the marker's hex
        first if it is one (none without a move): while there is one, a unit goes on the road
        (Cf 2.3, ruling CF-23). The rule's placing and the check of a plan both read this."""
        if not self.moved:
            return []
        gm = self.state.loaded.map
        return [c for c in self.area if gm.has_road(c) and room[c] < self.limit]

    def rule_cell(self, room: Counter[Cell], home: Cell) -> Cell:
        """Where the rule sets the next unit up: a road hex of the area with room, else the
        nearest hex with room (``home`` when none has any)."""
        roads = self.open_roads(room)
        if roads:
            return roads[0]
        return next((c for c in _preferred(self.state, self.rings, self.moved)
                     if room[c] < self.limit), home)

    def planned_cell(self, unit: Unit, place: str, room: Counter[Cell]) -> Cell | None:
        """The hex the plan names, if the unit may set up there now: on the board, not held
        by the enemy, not across impassable terrain, within the stacking limit, and after a
        move on a road hex while one next to the marker has room (``None`` otherwise)."""
        gm = self.state.loaded.map
        cell = plans.toward(gm.grid, self.start, place)
        if cell is None or cell in self.enemy or not gm.board.on_a_sheet(cell):
            return None
        if cell != self.start and gm.step_cost(self.start, cell, MovementClass.FOOT,
                                               Formation.COLUMN) is None:
            return None
        if unit.kind not in STACKING_KINDS:
            return cell
        if room[cell] >= self.limit:
            return None
        if not gm.has_road(cell) and self.open_roads(room):
            return None
        return cell


def _formation_allowed(unit: Unit, formation: str, moved: bool) -> bool:
    """Whether a planned formation may be taken: one of the unit's own, and after a move its
    march formation (artillery unlimbers only if the force did not move)."""
    if not formation or formation not in {f.value for f in unit.formations}:
        return False
    return not (moved and unit.kind in _MARCH and formation != _MARCH[unit.kind].value)


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
