"""Routes as players write them, and movement along them."""

from __future__ import annotations

import pytest

from rules.ground.board import LabelError
from rules.ground.grid import Cell
from rules.orders.movement import MoveError, move_along, path_cost, plan_order
from rules.orders.route import RouteError, expand, parse_route, road_path
from rules.orders.stops import Stop, StopKind
from rules.scenario.loader import LoadedScenario
from rules.state import initial_state

#: A module's stop at a blocked hex, as the stop hooks return it.
BLOCKED = Stop(StopKind.BLOCKED, "blocked hex")


def cells(tiny: LoadedScenario, *labels: str) -> list[Cell]:
    return [tiny.board.parse(x) for x in labels]


def test_labels_and_places(tiny: LoadedScenario) -> None:
    board = tiny.board
    assert board.parse("A0304") == Cell(2, 3)
    assert board.parse("b0101") == Cell(8, 0)
    assert board.parse("old church") == Cell(2, 3)
    assert board.parse("OLD   CHURCH") == Cell(2, 3)
    assert board.label(Cell(15, 5)) == "B0806"
    with pytest.raises(LabelError, match="could be any of: Old Church, Old Mill"):
        board.parse("old")
    assert board.parse("old c") == Cell(2, 3)
    with pytest.raises(LabelError, match="nearest: A0306"):
        board.parse("A0340")


def test_one_sheet_board_accepts_labels_without_the_letter() -> None:
    from tests.support.tiny_games import load_tiny

    text_edit = ('[[map.sheets]]\nletter = "B"', '[[map.sheets]]\nletter = "B"')
    loaded = load_tiny(text_edit)
    with pytest.raises(LabelError):
        loaded.board.parse("0304")  # two sheets: the letter is needed


def test_road_leg_follows_the_road(tiny: LoadedScenario) -> None:
    gm = tiny.map
    route = parse_route(gm, "road B0804")
    path = expand(gm, route, tiny.board.parse("A0104"))
    assert path[-1] == tiny.board.parse("B0804")
    assert len(path) == 15
    for a, b in zip([tiny.board.parse("A0104"), *path], path, strict=False):
        assert gm.road_between(a, b) == "road"


def test_route_with_place_names_of_several_words(tiny: LoadedScenario) -> None:
    route = parse_route(tiny.map, "A0203 old church road B0204")
    assert [leg.text for leg in route.legs] == ["A0203", "old church", "B0204"]
    assert [leg.by_road for leg in route.legs] == [False, False, True]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the route is empty"),
        ("road", "ends with 'road'"),
        ("road road A0101", "'road' twice in a row"),
        ("A0101 Z9999", "'Z9999' is not a label on this map"),
        ("x" * 600, "at most 500 characters"),
    ],
)
def test_bad_routes(tiny: LoadedScenario, text: str, message: str) -> None:
    with pytest.raises(RouteError, match=message):
        parse_route(tiny.map, text)


def test_road_leg_needs_a_road(tiny: LoadedScenario) -> None:
    route = parse_route(tiny.map, "road A0101")
    with pytest.raises(RouteError, match="no road joins A0104 to A0101"):
        expand(tiny.map, route, tiny.board.parse("A0104"))
    assert road_path(tiny.map, tiny.board.parse("A0101"), tiny.board.parse("A0104")) is None


def test_move_pays_terrain_and_road(tiny: LoadedScenario) -> None:
    state = initial_state(tiny)
    unit = state.units["blue-1"]  # infantry in column at A0104, on the road
    gm = tiny.map
    along_road = cells(tiny, "A0204", "A0304", "A0404")
    assert path_cost(gm, unit, unit.cell, along_road) == 1.5  # type: ignore[arg-type]
    result = move_along(gm, unit, along_road)
    assert result.cells == tuple(along_road) and result.mp == 1.5 and result.stopped == ""
    in_line = unit.with_formation("line")
    assert path_cost(gm, in_line, unit.cell, along_road) == 3.0  # type: ignore[arg-type]


def test_move_errors_name_the_step(tiny: LoadedScenario) -> None:
    state = initial_state(tiny)
    unit = state.units["blue-2"]  # A0105, infantry, 6 MP
    gm = tiny.map
    with pytest.raises(MoveError, match=r"step 1 \(A0105 to A0205\): water cannot be entered"):
        move_along(gm, unit, cells(tiny, "A0205"))
    with pytest.raises(MoveError, match=r"step 1 \(A0105 to A0305\): the cells do not touch"):
        move_along(gm, unit, cells(tiny, "A0305"))
    spent = unit.moved_to(tiny.board.parse("A0203"), 6)
    with pytest.raises(MoveError, match=r"2nd Brigade has no MP left this phase: its "
                       r"first step \(A0203 to A0303, \w+\) costs \d MP"):
        move_along(gm, spent, cells(tiny, "A0303"))


def test_a_route_longer_than_the_mps_stops_where_they_run_out(tiny: LoadedScenario) -> None:
    """ORD-1: the woods cost 2 each, so the 6 MPs pay for three cells of four; the unit stops
    at the third, told why, and the fourth is priced but not reached."""
    unit = initial_state(tiny).units["blue-2"].moved_to(tiny.board.parse("A0203"), 0)
    woods = cells(tiny, "A0303", "A0302", "A0402", "A0502")
    plan = plan_order(tiny.map, unit, woods)
    assert [s.reached for s in plan.steps] == [True, True, True, False]
    assert [s.left for s in plan.steps] == [4.0, 2.0, 0.0, 0.0]
    assert plan.path == tuple(woods[:3]) and plan.budget == 6.0
    result = move_along(tiny.map, unit, woods)
    assert result.cells == tuple(woods[:3]) and result.mp == 6.0
    assert result.stop is not None and result.stop.kind is StopKind.OUT_OF_MP
    assert result.stopped == "its MPs ran out at A0402"


def test_a_short_route_falls_back_past_full_friends_where_the_mps_run_out(
        tiny: LoadedScenario) -> None:
    """ORD-1 with CORE-3: the MPs run out in a full friendly cell: the unit ends in the last
    cell before it with room; with no such cell the order is refused before any walk."""
    unit = initial_state(tiny).units["blue-2"].moved_to(tiny.board.parse("A0203"), 0)
    woods = cells(tiny, "A0303", "A0302", "A0402", "A0502")
    full = woods[2]
    result = move_along(tiny.map, unit, woods, friendly_count=lambda c: 2 if c == full else 0)
    assert result.cells == tuple(woods[:2]) and result.mp == 4.0
    assert result.stopped == ("its MPs ran out at A0402, in a full friendly cell, and fell back "
                              "to A0302")
    with pytest.raises(MoveError, match="its MPs run out at A0402, and that cell and every one "
                       "before it already hold 2 units"):
        move_along(tiny.map, unit, woods, friendly_count=lambda c: 2 if c in woods else 0)


def test_a_step_that_cannot_be_taken_is_refused_even_beyond_the_mps(
        tiny: LoadedScenario) -> None:
    """ORD-1: the route as written must be possible whole, paid for or not."""
    unit = initial_state(tiny).units["blue-2"].moved_to(tiny.board.parse("A0203"), 0)
    bad = cells(tiny, "A0303", "A0302", "A0402", "A0502", "A0702")
    with pytest.raises(MoveError, match=r"step 5 \(A0502 to A0702\): the cells do not touch"):
        move_along(tiny.map, unit, bad)


def test_each_step_says_what_it_costs_and_why(tiny: LoadedScenario) -> None:
    """The reason of each step's price: road rate in a road formation, terrain otherwise (in
    line where that costs more), a hexside's extra."""
    state = initial_state(tiny)
    column = state.units["blue-1"]  # infantry in column at A0104, on the road
    road = plan_order(tiny.map, column, cells(tiny, "A0204", "A0304"))
    assert [(s.cost, s.why) for s in road.steps] == [(0.5, "by road, in column")] * 2
    in_line = plan_order(tiny.map, column.with_formation("line"), cells(tiny, "A0204"))
    assert (in_line.steps[0].cost, in_line.steps[0].why) == (1.0, "clear, the road not used in "
                                                                   "line")
    over = state.units["blue-2"].moved_to(tiny.board.parse("A0503"), 0)
    stream = plan_order(tiny.map, over, cells(tiny, "A0603")).steps[0]
    assert stream.cost == 2.0 and stream.why.endswith("+1 for the stream")


def test_stream_costs_extra_and_cliffs_stop(tiny: LoadedScenario) -> None:
    gm = tiny.map
    unit = initial_state(tiny).units["blue-2"].moved_to(tiny.board.parse("A0503"), 0)
    assert gm.step_cost(*cells(tiny, "A0503", "A0603"), "foot", "line") == 2.0
    result = move_along(gm, unit, cells(tiny, "A0603"))
    assert result.mp == 2.0


def test_running_into_the_enemy_stops_short(tiny: LoadedScenario) -> None:
    unit = initial_state(tiny).units["blue-1"]
    path = cells(tiny, "A0204", "A0304")
    enemy = tiny.board.parse("A0304")
    result = move_along(tiny.map, unit, path, enemy_at=lambda c: c == enemy)
    assert result.cells == (tiny.board.parse("A0204"),)
    assert result.stopped == "ran into the enemy"
    assert result.stop is not None and result.stop.kind is StopKind.CONTACT


def test_stop_hook_ends_the_move(tiny: LoadedScenario) -> None:
    unit = initial_state(tiny).units["blue-1"]
    path = cells(tiny, "A0204", "A0304", "A0404")
    result = move_along(tiny.map, unit, path,
                        stop=lambda u, c: BLOCKED if c == path[1] else None)
    assert result.cells == tuple(path[:2]) and result.stopped == "blocked hex"
    assert result.stop == BLOCKED


def test_stacking_limit_at_the_end(tiny: LoadedScenario) -> None:
    unit = initial_state(tiny).units["blue-2"]
    target = tiny.board.parse("A0104")
    with pytest.raises(MoveError, match="already holds 2 units: the stacking limit is 2"):
        move_along(tiny.map, unit, [target], friendly_count=lambda c: 2 if c == target else 0)


def test_contact_past_a_full_cell_falls_back_to_room(tiny: LoadedScenario) -> None:
    """CORE-3 with CORE-4: the unit cannot stop in the full cell before the enemy, so it ends
    in the last cell on its way with room for it, having paid to get there."""
    unit = initial_state(tiny).units["blue-1"]
    path = cells(tiny, "A0204", "A0304", "A0404")
    full, enemy = path[1], path[2]
    result = move_along(tiny.map, unit, path, enemy_at=lambda c: c == enemy,
                        friendly_count=lambda c: 2 if c == full else 0)
    assert result.cells == (path[0],) and result.mp == 0.5
    assert result.stopped.startswith("ran into the enemy at A0404 past full friendly cells, "
                                     "and fell back to A0204")
    # A rule's stop in a full cell falls back the same way.
    stopped = move_along(tiny.map, unit, path, friendly_count=lambda c: 2 if c == full else 0,
                         stop=lambda u, c: BLOCKED if c == full else None)
    assert stopped.cells == (path[0],)
    assert stopped.stop is not None and stopped.stop.kind is StopKind.BLOCKED
    assert stopped.stopped == "blocked hex, in a full friendly cell, and fell back to A0204"


def test_an_order_is_checked_whole_before_any_enemy(tiny: LoadedScenario) -> None:
    """A route ending in a full cell is refused whether or not an enemy stands on it, and
    where the MPs run out is settled before any enemy is looked for: an enemy in the cell the
    unit cannot pay for changes nothing (ORD-1), so the answer tells nothing of it."""
    unit = initial_state(tiny).units["blue-2"].moved_to(tiny.board.parse("A0203"), 0)
    woods = cells(tiny, "A0303", "A0302", "A0402", "A0502")
    alone = move_along(tiny.map, unit, woods)
    assert move_along(tiny.map, unit, woods, enemy_at=lambda c: c == woods[3]) == alone
    for enemy_at in (lambda c: False, lambda c: c == woods[1]):
        with pytest.raises(MoveError, match="A0402 already holds 2 units"):
            move_along(tiny.map, unit, woods[:3], enemy_at=enemy_at,
                       friendly_count=lambda c: 2 if c == woods[2] else 0)
