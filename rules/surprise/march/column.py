"""The road column of a surprise move: its formation, its lead element, the route it follows.

Read when the order is given (to check its route from the lead element) and when it is carried
out (``rules.surprise.march.execution``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.forces.units import Unit
from rules.forces.words import FORMATIONS_BY_KIND, Formation
from rules.ground.grid import Cell
from rules.orders.route import Route, RouteError, expand, parse_route
from rules.state import GameState
from rules.surprise import force as frc


def march_formation(unit: Unit) -> Formation:
    """The road formation of the unit's kind (column, limbered, mounted)."""
    return FORMATIONS_BY_KIND[unit.kind][0]


def lead_element(state: GameState, unit_ids: Sequence[str], route: Route) -> Unit:
    """The combat unit of the force nearest the route's first waypoint (ties: the first listed);
    a force of leaders alone is led by its first."""
    units = frc.on_map(state, unit_ids)
    combat = [u for u in units if u.combat] or units
    first = route.legs[0].to
    grid = state.loaded.map.grid
    order = {uid: n for n, uid in enumerate(unit_ids)}
    return min(combat, key=lambda u: (grid.distance(u.cell, first) if u.cell else 10**6,
                                      order.get(u.id, 0)))


def route_path(state: GameState, record: Mapping[str, Any]) -> tuple[Unit | None, list[Cell]]:
    """The march's lead element now and the cells its route enters from where it stands."""
    gm = state.loaded.map
    if not frc.on_map(state, record["units"]):
        return None, []
    try:
        route = parse_route(gm, str(record["route"]))
    except (RouteError, ValueError):
        return None, []
    lead = lead_element(state, list(record["units"]), route)
    assert lead.cell is not None
    try:
        return lead, expand(gm, route, lead.cell)
    except (RouteError, ValueError):  # the route no longer leads anywhere from here
        return lead, []
