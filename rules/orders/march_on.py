"""Going on with a march: the route of a unit's last move, and what is left of a route for a unit
that already stands somewhere along it (ruling FLOW-76).

A standing order to continue the march is carried out turn after turn along one route. Given
again whole each turn, a route of several waypoints would send a unit that stopped half-way
back to its first waypoint; so the unit is sent on from where it stands: past the waypoints it
has reached, to the next one, and on along the legs after it. A unit that stands at the route's
end has nothing left to walk, and is given no move.

Where a unit stands on its route is read from the public map and the unit's own cell; the route
of its last move from the side's own accepted orders. Nothing of the enemy is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.forces.lookup import own_unit
from rules.ground.board import LabelError
from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell
from rules.orders.route import ROAD_WORD, Leg, RouteError, parse_route, road_path
from rules.refusal import Refusal
from rules.state import GameState

#: The kind of command a move is (``rules.commands.Move``).
MOVE = "move"


def route_ahead(gm: GameMap, route_text: str, here: Cell) -> str:
    """What is left of the route for a unit standing at ``here``, written as a route ("" when
    it stands at the route's end). On the way between two waypoints, it goes on to the next;
    off the route (it went round a known enemy, or had not yet reached it), it goes on to the
    waypoint whose way runs nearest to it (the later, of two as near). A route that cannot be
    read is left as it is, for the move to refuse."""
    try:
        legs = parse_route(gm, route_text).legs
    except (RouteError, LabelError):
        return route_text
    runs = _runs(gm, legs)
    for n, run in enumerate(runs):
        if here in run:
            past = n + 1 if run[-1] == here else n
            return _written(legs[past:])
    # Of two ways as near, the later: a unit that went round something goes on, not back.
    nearest = min(((gm.grid.distance(here, cell), -n) for n, run in enumerate(runs)
                   for cell in run), default=None)
    return route_text if nearest is None else _written(legs[-nearest[1]:])


def _runs(gm: GameMap, legs: tuple[Leg, ...]) -> list[list[Cell]]:
    """Each leg's cells, from the waypoint before it to its own (the first leg: its waypoint
    alone, since where the unit set out from is not part of the route)."""
    runs: list[list[Cell]] = []
    for n, leg in enumerate(legs):
        if n == 0:
            runs.append([leg.to])
            continue
        start = legs[n - 1].to
        if leg.to == start:
            runs.append([leg.to])
            continue
        run = road_path(gm, start, leg.to) if leg.by_road else gm.grid.line(start, leg.to)[1:]
        runs.append(run or [leg.to])
    return runs


def _written(legs: Iterable[Leg]) -> str:
    return " ".join(f"{ROAD_WORD} {leg.text}" if leg.by_road else leg.text for leg in legs)


def last_move_route(state: GameState, side: str, unit_id: str,
                    orders: Iterable[Mapping[str, Any]]) -> str:
    """The route of the last move ``side`` gave the unit, among ``orders`` (the logged
    acceptances of commands, oldest first: ``rules.events.CommandAccepted`` as stored); "" when
    it gave it none. Only the side's own orders count; the unit each names is found among
    the side's own units, as the move found it."""
    found = ""
    mine = state.units.get(unit_id)
    if mine is None or mine.side != side:
        return found
    for order in orders:
        command = order.get("command")
        if order.get("side") != side or order.get("kind") != MOVE \
                or not isinstance(command, Mapping):
            continue
        named, route = str(command.get("unit", "")), str(command.get("route", ""))
        if named == unit_id or _unit_of(state, side, named) == unit_id:
            found = route
    return found


def _unit_of(state: GameState, side: str, name: str) -> str:
    try:
        return own_unit(state, side, name).id
    except Refusal:
        return ""  # a marker's move, or a name that no longer answers
