"""Where a route leads, with a road leg no road carries refused in the moving side's own terms.

A route's road leg that no road carries is refused with a way forward (ruling ORD-5). Whatever
moves (a unit, a concealment marker, the lead element of a surprise march), that way keeps
clear of the enemy the side knows of, read from the side's view alone
(``rules.orders.known.known_enemy``), so that it never walks the troops into an enemy they
see and never tells of one they do not (ruling ORD-46).
"""

from __future__ import annotations

from rules.ground.board import LabelError
from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell
from rules.orders.known import known_enemy
from rules.orders.route import NoRoad, Route, RouteError, expand, parse_route, road_advice
from rules.refusal import Refusal
from rules.state import GameState


def read_route(gm: GameMap, text: str) -> Route:
    """The route an order's text gives; refused, with what is wrong, when it cannot be read."""
    try:
        return parse_route(gm, text)
    except (RouteError, LabelError) as e:
        raise Refusal(str(e)) from None


def expand_for(state: GameState, side: str, route: Route, start: Cell) -> list[Cell]:
    """The cells ``route`` enters from ``start`` (``rules.orders.route.expand``). Refused for
    a road leg no road carries, with a hint that keeps clear of the enemy ``side`` knows of,
    and for any other leg that cannot be followed, with what is wrong."""
    gm = state.loaded.map
    try:
        return expand(gm, route, start)
    except NoRoad as e:
        enemy = known_enemy(state, side).cells
        raise Refusal(e.words(gm, road_advice(gm, e.start, e.leg.to, enemy))) from None
    except (RouteError, LabelError) as e:
        raise Refusal(str(e)) from None
