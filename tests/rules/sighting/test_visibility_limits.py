"""Visibility limits (Surprise Move, "Visibility Limits" and "General Comments"; rulings LOS-7,
LOS-8, LOS-10, LOS-12): no turn sees farther than 20 hexes where the Surprise Move module is in
force, whatever the turn track or the ruleset asks, and `vedette scenario check` says so; a turn
of nil visibility sees nothing by sight, next door included, so only the pickets' two hexes stop
a surprise march and no enemy is sighted."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import commands as cmd
from rules.combat import events as cev
from rules.combat.commands import Assault, Fire
from rules.events import UnitMoved
from rules.ground.grid import Cell
from rules.knowledge.sighted import bits_to_cells, presences, rule_for, sight
from rules.refusal import Refusal
from rules.scenario.loader import LoadedScenario, load
from rules.sighting.los import LineOfSight
from rules.sighting.reference import reference_sees, reference_sighting
from rules.sighting.sighting_pass import Presence, full_pass
from rules.state import GameState
from rules.turn.sequence import visibility
from rules.view import IDENTIFIED, project
from tests.support import combat as cs
from tests.support.hand_maps import FLAT5, hand_map
from tests.support.surprise import RULESET, SCENARIO, Game, load_ground
from umpire.cli.main import main

#: The test ground with its belt of woods cut down: flat and clear from end to end, so that
#: sight reaches as far as visibility lets it (A0205 to A2408 is more than 20 hexes).
CLEARED = (".........WWW............", "........................")
FIRST_TURN = 'turn = 1\ntime = "14:00"\n'


def with_turn_one(vis: int, *edits: tuple[str, str]) -> LoadedScenario:
    return load_ground(CLEARED, (FIRST_TURN, f"{FIRST_TURN}visibility = {vis}\n"), *edits)


#: Blue drawn up along the west edge, more than 20 hexes from Grey's east end.
WEST_EDGE = {"blue-hq": "A0101", "blue-gen": "A0102", "blue-1": "A0103", "blue-2": "A0104",
             "blue-3": "A0105", "blue-cav": "A0106"}


def started(loaded: LoadedScenario, without: tuple[str, ...] = ()) -> GameState:
    game = Game(loaded, without=without)
    game.place(**WEST_EDGE)
    return game.state


# -- 1. the 20-hex cap --------------------------------------------------------------------------
def test_a_turn_asking_for_30_is_read_as_20_by_sighting_and_blocked_hexes() -> None:
    at30, at20 = started(with_turn_one(30)), started(with_turn_one(20))
    assert at30.turn == 1
    assert visibility(at30.loaded.scenario, at30.loaded.ruleset, 1, at30.modules) == 20
    assert sight(at30) == sight(at20)
    # The test has teeth: on this open ground 30 hexes would see more than 20 do.
    uncapped = full_pass(rule_for(at30), 30, presences(at30),
                         blocked_radius=2, sides=at30.sides)
    assert uncapped["blue"].seen_cells != sight(at30)["blue"].seen_cells
    assert uncapped["grey"].blocked_cells != sight(at30)["grey"].blocked_cells
    # What the players are told of the turn is what play reads.
    assert project(at30, "blue").visibility == 20


def test_a_ruleset_asking_for_30_is_read_as_20() -> None:
    text = RULESET.read_text(encoding="utf-8").replace("visibility = 20", "visibility = 30")
    assert "visibility = 30" in text
    scen = SCENARIO.read_text(encoding="utf-8").replace(*CLEARED)
    loaded = load(scen, str(SCENARIO), text, str(RULESET))
    state = started(loaded)
    assert loaded.ruleset.visibility == 30
    assert visibility(loaded.scenario, loaded.ruleset, 1, state.modules) == 20
    assert sight(state) == sight(started(with_turn_one(20)))


def test_a_turn_at_12_stays_12() -> None:
    state = started(with_turn_one(12))
    assert visibility(state.loaded.scenario, state.loaded.ruleset, 1, state.modules) == 12
    expected = full_pass(rule_for(state), 12, presences(state), blocked_radius=2,
                         sides=state.sides)
    assert sight(state) == expected
    assert sight(state) != sight(started(with_turn_one(20)))


def test_without_the_surprise_move_module_no_cap_applies() -> None:
    """The other rule texts set no limit: a scenario that does not play Surprise Move (or whose
    players leave it out) sees as far as its turn track says."""
    loaded = with_turn_one(30)
    without = started(loaded, without=("surprise_move",))
    assert visibility(loaded.scenario, loaded.ruleset, 1, without.modules) == 30
    assert sight(without) != sight(started(loaded))
    no_module = with_turn_one(30, ('modules = ["surprise_move"]', "modules = []"))
    assert visibility(no_module.scenario, no_module.ruleset, 1, ()) == 30


def _write_ground(tmp_path: Path, scenario: str) -> Path:
    (tmp_path / RULESET.name).write_text(RULESET.read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / "ground.toml"
    path.write_text(scenario, encoding="utf-8")
    return path


def test_check_warns_about_a_turn_beyond_20_naming_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = SCENARIO.read_text(encoding="utf-8")
    text = text.replace(FIRST_TURN, f"{FIRST_TURN}visibility = 12\n")
    text = text.replace('turn = 3\ntime = "14:40"\n', 'turn = 3\ntime = "14:40"\nvisibility = 30\n')
    text = text.replace('turn = 5\ntime = "15:20"\n', 'turn = 5\ntime = "15:20"\nvisibility = 25\n')
    path = _write_ground(tmp_path, text)
    assert main(["scenario", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}: ok - " in out
    warnings = [line for line in out.splitlines() if "warning" in line]
    assert len(warnings) == 1, out
    assert "turns 3, 5" in warnings[0] and "read as 20" in warnings[0]
    assert "turn 1" not in out and "12" not in warnings[0]


def test_check_warns_about_a_ruleset_beyond_20_naming_the_turns_it_sets(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write_ground(tmp_path, SCENARIO.read_text(encoding="utf-8"))
    ruleset = tmp_path / RULESET.name
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace(
        "visibility = 20", "visibility = 40"), encoding="utf-8")
    assert main(["scenario", "check", str(path)]) == 0
    out = capsys.readouterr().out
    warnings = [line for line in out.splitlines() if "warning" in line]
    assert len(warnings) == 1, out
    # Turns 6 to 8 set their own visibility; the others take the ruleset's 40.
    assert "ruleset" in warnings[0] and "40" in warnings[0] and "turns 1-5" in warnings[0]


def test_check_does_not_warn_where_no_cap_applies_or_none_is_passed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write_ground(tmp_path, SCENARIO.read_text(encoding="utf-8"))
    assert main(["scenario", "check", str(path)]) == 0
    assert "warning" not in capsys.readouterr().out
    text = SCENARIO.read_text(encoding="utf-8").replace('modules = ["surprise_move"]',
                                                        "modules = []")
    text = text.replace(FIRST_TURN, f"{FIRST_TURN}visibility = 30\n")
    path = _write_ground(tmp_path, text)
    assert main(["scenario", "check", str(path)]) == 0
    assert "warning" not in capsys.readouterr().out


# -- 2. nil visibility --------------------------------------------------------------------------
def test_at_nil_visibility_no_cell_is_seen_not_even_next_door() -> None:
    gm = hand_map(FLAT5)
    grid = gm.grid
    rule = LineOfSight(gm)
    centre = grid.index(Cell(2, 2))
    assert rule.visible_from(centre, 0) == 0
    for near in grid.neighbours(Cell(2, 2)):
        assert not rule.sees(centre, grid.index(near), 0)
        assert not reference_sees(gm, centre, grid.index(near), 0)
    # At visibility 1 adjacent cells are seen as before, whatever stands between.
    for near in grid.neighbours(Cell(2, 2)):
        assert rule.sees(centre, grid.index(near), 1)
        assert reference_sees(gm, centre, grid.index(near), 1)


def _pair(gm_cells: tuple[int, int, int, int]) -> list[Presence]:
    a, b, far, other = gm_cells
    return [
        Presence("b", "blue", a, True, True),
        Presence("b-ldr", "blue", a, False, True),
        Presence("r", "red", b, True, True),
        Presence("r-ldr", "red", far, False, True),
        Presence("r2", "red", other, True, True),
    ]


def test_at_nil_visibility_an_adjacent_enemy_is_not_sighted() -> None:
    gm = hand_map(["......."] * 7)
    grid = gm.grid
    a = Cell(3, 3)
    units = _pair((grid.index(a), grid.index(grid.neighbours(a)[0]), grid.index(Cell(0, 6)),
                   grid.index(Cell(6, 0))))
    night = full_pass(LineOfSight(gm), 0, units)
    assert night == reference_sighting(gm, 0, units)
    assert night["blue"].seen_units == frozenset()
    assert night["red"].seen_units == frozenset()
    assert night["blue"].seen_cells == night["red"].seen_cells == 0
    dusk = full_pass(LineOfSight(gm), 1, units)
    assert dusk == reference_sighting(gm, 1, units)
    assert dusk["blue"].seen_units == {"r"} and dusk["red"].seen_units == {"b", "b-ldr"}


def test_at_nil_visibility_a_march_is_blocked_only_within_2_of_enemy_combat_units() -> None:
    gm = hand_map(["........."] * 9)
    grid = gm.grid
    a = Cell(4, 4)
    leader = Cell(0, 8)
    units = _pair((grid.index(a), grid.index(grid.neighbours(a)[0]), grid.index(leader),
                   grid.index(Cell(8, 0))))
    night = full_pass(LineOfSight(gm), 0, units)
    pickets = {grid.index(c) for u in units if u.side == "red" and u.combat
               for c in grid.within(grid.cell(u.cell), 2)}
    assert {i for i in range(grid.size) if night["blue"].blocked(i)} == pickets
    assert night["blue"].blocked_cells == night["blue"].near_enemy_cells
    # The red leader stands alone in a corner: its neighbours are free at night.
    for near in grid.neighbours(leader):
        assert grid.index(near) not in pickets
        assert not night["blue"].blocked(grid.index(near))
    # At visibility 1 the leader's neighbourhood is watched again.
    dusk = full_pass(LineOfSight(gm), 1, units)
    assert dusk["blue"].blocked_cells != dusk["blue"].near_enemy_cells


def test_incremental_sighting_at_nil_visibility_stays_empty() -> None:
    from rules.sighting.sighting_pass import Sighting

    gm = hand_map(FLAT5)
    grid = gm.grid
    s = Sighting(LineOfSight(gm), 0, [Presence("b", "blue", 12, True, True),
                                      Presence("r", "red", 13, True, True)])
    s.move("r", grid.index(Cell(2, 1)))
    s.add(Presence("r2", "red", grid.index(Cell(3, 2)), True, True))
    assert s.side("blue").seen_units == frozenset() and s.side("blue").seen_cells == 0
    s.set_visibility(1)
    assert s.side("blue").seen_units == {"r", "r2"}
    s.set_visibility(0)
    assert s.result() == reference_sighting(gm, 0, s.units.values())


# -- nil visibility in play ---------------------------------------------------------------------
def night_ground(information: str = "hidden") -> LoadedScenario:
    """The test ground with turn 1 a night of nil visibility."""
    return with_turn_one(0, ('information = "open"', f'information = "{information}"'))


def test_in_play_at_nil_visibility_the_view_shows_no_enemy_not_otherwise_known() -> None:
    loaded = night_ground("hidden")
    state = started(loaded)
    # Grey's horse next to blue's column.
    board = loaded.board
    state = cs.place(state, **{"grey-cav": "A0505"})
    view = project(state, "blue")
    assert [u for u in view.units if u.side == "grey"] == []
    assert view.seen_cells == frozenset()
    blocked = bits_to_cells(sight(state)["blue"].blocked_cells, board.grid)
    pickets = {c for u in state.units.values() if u.side == "grey" and u.combat
               and u.cell is not None for c in board.grid.within(u.cell, 2)}
    assert blocked == pickets
    # Under the open model every enemy is shown anyway: nothing is hidden by the night there.
    open_state = cs.place(started(night_ground("open")), **{"grey-cav": "A0505"})
    assert any(u.side == "grey" and u.level == IDENTIFIED
               for u in project(open_state, "blue").units)


def test_in_play_at_nil_visibility_a_move_into_an_unseen_enemy_still_stops_on_contact() -> None:
    game = Game(night_ground("hidden"))
    game.place(**{"grey-cav": "A0708", "blue-2": "A0508"})
    assert game.at(1, "movement", "blue") or game.to(1, "movement", "blue") is None
    assert "grey-cav" not in sight(game.state)["blue"].seen_units
    out = game.do("blue", cmd.Move(unit="2nd Brigade", route="A0708"))
    moved = [e for e in out.events if isinstance(e, UnitMoved) and e.unit == "blue-2"]
    assert moved and moved[0].stopped.startswith("ran into the enemy"), out.events
    assert game.label("blue-2") not in ("A0708", "A0508")


COMBAT_NIGHT = ('turn = 1\ntime = "14:00"\n', 'turn = 1\ntime = "14:00"\nvisibility = 0\n')


def combat_field(information: str) -> GameState:
    text = cs.FIELD.read_text(encoding="utf-8")
    for old, new in (COMBAT_NIGHT, ('information = "open"', f'information = "{information}"')):
        assert old in text
        text = text.replace(old, new)
    ruleset = (cs.FIELD.parent / "../../scenarios/brigade-series.ruleset.toml").resolve()
    loaded = load(text, str(cs.FIELD), ruleset.read_text(encoding="utf-8"), str(ruleset))
    return cs.field(loaded)


@pytest.mark.parametrize("order", [
    Fire(units=("Union Brigade",), target="A0604"),
    Assault(units=("Union Brigade",), target="A0604"),
])
def test_at_nil_visibility_no_fire_or_assault_at_an_enemy_the_view_does_not_show(
        order: Fire | Assault) -> None:
    state = cs.clear_field(combat_field("hidden"), ("u-inf", "c-inf"))
    state = cs.place(state, **{"u-inf": "A0504", "c-inf": "A0604"})
    phase = "fire" if isinstance(order, Fire) else "movement"
    state = cs.at_step(state, phase, "union")
    assert [u for u in project(state, "union").units if u.side == "confederate"] == []
    with pytest.raises(Refusal, match="see no enemy at A0604"):
        cs.run(state, "union", order, cs.Dice(default=3))


def test_at_nil_visibility_an_assault_on_a_shown_enemy_may_be_made() -> None:
    """Under the open model the enemy's counter is shown whatever the light: the assault goes
    in, next door, in the dark."""
    state = cs.clear_field(combat_field("open"), ("u-inf", "c-inf"))
    state = cs.place(state, **{"u-inf": "A0504", "c-inf": "A0604"})
    state = cs.at_step(state, "movement", "union")
    out = cs.run(state, "union", Assault(units=("Union Brigade",), target="A0604"),
                 cs.Dice(default=3))
    assert cs.of_type(out.events, cev.CloseCombatResolved)
