"""Deployment plans (Cf 2.3, ruling CF-8).

While a force is concealed its owner may file, for any unit under the marker, where it sets up
when the force is revealed and in what formation: ``here`` (the marker's own hex) or the
direction of a hex next to it. A direction is read from wherever the marker stands when it is
lifted, so the plan goes with the marker as it moves (and with the force when it breeds). The
directions are the compass points of the board's neighbours: N, NE, SE, S, SW, NW on
flat-topped hexes, NE, E, SE, SW, W, NW on pointy-topped ones, N, E, S, W on squares (and NE,
SE, SW, NW with eight neighbours).

The plan is the owner's secret: it is filed with an event for his side only, and nothing the
enemy receives depends on it until the units are on the map. The divisional commander stays
in the marker's hex whatever the plan (Cf 2.3), so he has none. When the force deploys,
``rules.concealed.reveal.deploying`` keeps each planned place and formation that is legal and places
the rest by the rule.

The plan lives in the force's record (``records``) as ``"plan": {unit id: [place,
formation]}``, an empty formation meaning "as the rule says".
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules import events as ev
from rules.concealed import events as cev
from rules.concealed.commands import ClearConcealPlan, ConcealPlan
from rules.concealed.records import ForceKind, force, kind_of, own_marker
from rules.forces.lookup import own_unit
from rules.forces.words import FORMATIONS_BY_KIND, Formation
from rules.ground.grid import Cell, Grid
from rules.refusal import Refusal

if TYPE_CHECKING:
    from rules.outcome import Outcome
    from rules.state import GameState

#: The place that means the marker's own hex.
HERE = "here"
#: The eight compass points by angle, counter-clockwise from east (45 degrees apart).
_BY_ANGLE = ("E", "NE", "N", "NW", "W", "SW", "S", "SE")
#: The order players read them in: clockwise from north.
_COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


@dataclass(frozen=True, slots=True)
class Planned:
    """One unit's plan: ``place`` is ``HERE`` or a direction, ``formation`` empty for the
    rule's."""

    place: str
    formation: str


def _bearing(grid: Grid, start: Cell, cell: Cell) -> str:
    """The compass point nearest the line from ``start``'s centre to ``cell``'s."""
    (x0, y0), (x1, y1) = grid.centre(start), grid.centre(cell)
    angle = math.degrees(math.atan2(y0 - y1, x1 - x0)) % 360.0  # y grows downwards
    return _BY_ANGLE[round(angle / 45.0) % 8]


def neighbours_by_direction(grid: Grid, cell: Cell) -> dict[str, Cell]:
    """The cells next to ``cell`` by their direction from it (none past the board's edge)."""
    return {_bearing(grid, cell, n): n for n in grid.neighbours(cell)}


def directions(grid: Grid) -> tuple[str, ...]:
    """Every direction a plan may name on this board, in compass order (read round a hex in
    the middle of the board and the one after it, so that shifted columns count too)."""
    cells = list(grid.cells())
    found: set[str] = set()
    for cell in cells[len(cells) // 2:len(cells) // 2 + 2]:
        found |= set(neighbours_by_direction(grid, cell))
    return tuple(d for d in _COMPASS if d in found)


def toward(grid: Grid, start: Cell, place: str) -> Cell | None:
    """The hex a place names, seen from ``start`` (``None``: there is none, at the edge)."""
    if place == HERE:
        return start
    return neighbours_by_direction(grid, start).get(place)


def plan_of(record: Mapping[str, Any]) -> dict[str, Planned]:
    """The force's plan, by unit id."""
    raw: Mapping[str, Any] = record.get("plan") or {}
    return {uid: Planned(str(p[0]), str(p[1])) for uid, p in raw.items()}


def decide_plan(out: Outcome, side: str, command: ConcealPlan) -> None:
    state = out.state
    marker_id, unit_id = _force_unit(state, side, command.marker, command.unit)
    grid = state.loaded.map.grid
    place = command.place.strip().upper()
    if place == HERE.upper():
        place = HERE
    allowed = directions(grid)
    if place != HERE and place not in allowed:
        raise Refusal(f"a unit sets up {HERE!r} (the marker's hex) or next to it: "
                      f"{', '.join(allowed)}; not {command.place.strip()[:20]!r}")
    unit = state.units[unit_id]
    formation = command.formation.strip().lower()
    kinds = FORMATIONS_BY_KIND.get(unit.kind, ())
    if formation and formation not in kinds:
        takes = " or ".join(kinds) or "no formation"
        raise Refusal(f"{unit.name} takes {takes}, not {command.formation.strip()[:20]!r}")
    out.add(cev.DeploymentPlanned(audience=ev.side_audience(side), marker=marker_id,
                                  unit=unit_id, place=place,
                                  formation=Formation(formation).value if formation else ""))


def plan_refusal(state: GameState, side: str, marker_text: str, unit_text: str = ""
                 ) -> Refusal | None:
    """Why no plan may be filed for the unit named under the side's marker named (with no
    unit: for any unit under it) now (``None``: one may, for some place)."""
    try:
        if unit_text:
            _force_unit(state, side, marker_text, unit_text)
        else:
            _real_force(state, side, marker_text)
    except Refusal as why:
        return why
    return None


def unplan_refusal(state: GameState, side: str, marker_text: str, unit_text: str = ""
                   ) -> Refusal | None:
    """Why the plan of the unit named (with no unit: of the whole force) under the side's
    marker named may not be withdrawn now (``None``: it may)."""
    try:
        _cleared(state, side, marker_text, unit_text)
    except Refusal as why:
        return why
    return None


def _cleared(state: GameState, side: str, marker_text: str, unit_text: str) -> tuple[str, str]:
    """The marker's id and the unit's ("" for the whole force) whose plan would go."""
    marker = own_marker(state, side, marker_text)
    record = force(state, marker.id) if marker is not None else None
    if marker is None or record is None:
        raise Refusal(f"you have no concealment marker {marker_text.strip()[:40]!r}")
    plan = plan_of(record)
    unit_id = ""
    if unit_text:
        _, unit_id = _force_unit(state, side, marker_text, unit_text)
        if unit_id not in plan:
            raise Refusal(f"{state.units[unit_id].name} has no deployment plan")
    elif not plan:
        raise Refusal(f"marker {marker.id} has no deployment plan")
    return marker.id, unit_id


def decide_clear(out: Outcome, side: str, command: ClearConcealPlan) -> None:
    marker_id, unit_id = _cleared(out.state, side, command.marker, command.unit)
    out.add(cev.DeploymentPlanCleared(audience=ev.side_audience(side), marker=marker_id,
                                      unit=unit_id))


def _force_unit(state: GameState, side: str, marker_ref: str, unit_ref: str
                ) -> tuple[str, str]:
    """The marker's id and the id of a unit under it that may have a plan; refused with the
    reason otherwise."""
    marker_id, record = _real_force(state, side, marker_ref)
    unit = own_unit(state, side, unit_ref)
    if unit.id not in record["units"]:
        raise Refusal(f"{unit.name} is not under marker {marker_id}")
    if unit.id == record.get("commander") and kind_of(record) is ForceKind.DIVISION:
        raise Refusal(f"{unit.name} commands the division and stays in the marker's hex "
                      "when it deploys: he needs no plan")
    return marker_id, unit.id


def _real_force(state: GameState, side: str, marker_ref: str
                ) -> tuple[str, Mapping[str, Any]]:
    """The side's marker named and its force's record, if units are under it (a decoy has
    nothing to deploy); refused otherwise."""
    marker = own_marker(state, side, marker_ref)
    record = force(state, marker.id) if marker is not None else None
    if marker is None or record is None:
        raise Refusal(f"you have no concealment marker {marker_ref.strip()[:40]!r}")
    if not record["units"]:
        raise Refusal(f"marker {marker.id} is a decoy: nothing under it deploys")
    return marker.id, record


def fold(record: dict[str, Any], event: cev.DeploymentPlanned | cev.DeploymentPlanCleared
         ) -> None:
    """Change a force's record (in a fold of the module's data)."""
    plan: dict[str, Any] = record.setdefault("plan", {})
    match event:
        case cev.DeploymentPlanned(unit=uid, place=place, formation=formation):
            plan[uid] = [place, formation]
        case cev.DeploymentPlanCleared(unit=uid):
            if uid:
                plan.pop(uid, None)
            else:
                plan.clear()
