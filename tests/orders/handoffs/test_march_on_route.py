"""What is left of a march's route for a unit standing along it, and which of the side's orders
gives the route of its last move (ruling FLOW-76)."""

from __future__ import annotations

from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell
from rules.orders.march_on import last_move_route, route_ahead
from rules.orders.route import road_path
from rules.scenario.loader import load
from rules.state import GameState, initial_state
from tests.support.concealed import RULESET, SCENARIO

ROUTE = "B1014 B0812 B0610 B0408"


def _state() -> GameState:
    return initial_state(load(SCENARIO.read_text(), str(SCENARIO), RULESET.read_text(),
                              str(RULESET)))


def _cell(gm: GameMap, label: str) -> Cell:
    return gm.board.parse(label)


def test_the_unit_goes_on_from_where_it_stands() -> None:
    """Before the first waypoint: the whole route; on the way between two waypoints: on to
    the next; at a waypoint: from the one after it; at the end: nothing."""
    gm = _state().loaded.map
    assert route_ahead(gm, ROUTE, _cell(gm, "B1016")) == ROUTE
    between = gm.grid.line(_cell(gm, "B1014"), _cell(gm, "B0812"))[1]
    assert between not in (_cell(gm, "B1014"), _cell(gm, "B0812"))
    assert route_ahead(gm, ROUTE, between) == "B0812 B0610 B0408"
    assert route_ahead(gm, ROUTE, _cell(gm, "B0812")) == "B0610 B0408"
    assert route_ahead(gm, ROUTE, _cell(gm, "B0408")) == ""
    assert route_ahead(gm, "B0915", _cell(gm, "B0915")) == ""


def test_a_road_leg_keeps_its_road() -> None:
    """Half-way along a road leg, the rest goes on by road."""
    gm = _state().loaded.map
    roads = [c for c in gm.board.grid.cells() if gm.has_road(c)]
    a, b = roads[0], next(c for c in roads[1:]
                          if len(road_path(gm, roads[0], c) or []) >= 4)
    run = road_path(gm, a, b)
    assert run is not None
    route = f"{gm.board.label(a)} road {gm.board.label(b)}"
    assert route_ahead(gm, route, run[1]) == f"road {gm.board.label(b)}"


def test_off_the_route_it_goes_on_to_the_waypoint_whose_way_runs_nearest() -> None:
    """A unit that went round something, a cell off the way to B0812, goes on to B0812."""
    gm = _state().loaded.map
    line = gm.grid.line(_cell(gm, "B1014"), _cell(gm, "B0812"))
    beside = next(n for n in gm.grid.neighbours(line[1])
                  if all(n not in gm.grid.line(_cell(gm, a), _cell(gm, b))
                         for a, b in (("B1014", "B0812"), ("B0812", "B0610"),
                                      ("B0610", "B0408"))))
    assert route_ahead(gm, ROUTE, beside) == "B0812 B0610 B0408"


def test_the_last_move_is_the_side_s_own_to_that_unit() -> None:
    """The last move the side gave the unit, by id or by a name the unit answers to; another
    unit's, another kind of order, and the enemy's are passed over."""
    state = _state()
    orders = [
        {"kind": "move", "side": "union", "command": {"unit": "barlow", "route": "B1014"}},
        {"kind": "move", "side": "union", "command": {"unit": "Barlow", "route": ROUTE}},
        {"kind": "move", "side": "union", "command": {"unit": "buschbeck", "route": "B0512"}},
        {"kind": "formation", "side": "union", "command": {"unit": "barlow"}},
        {"kind": "move", "side": "confederate", "command": {"unit": "barlow", "route": "X"}},
    ]
    assert last_move_route(state, "union", "barlow", orders) == ROUTE
    assert last_move_route(state, "union", "von-gilsa", orders) == ""
    assert last_move_route(state, "confederate", "barlow", orders) == ""
