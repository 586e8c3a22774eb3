"""Reading the combat tables: strength, odds and differential columns, column shifts clamped
at the table's edges, the condition language, the ``[combat]`` section's checks; and the named
shifts of the Chancellorsville variant: Stuart's cavalry two columns better against Federal
cavalry, and no flank attack on a unit in a fort."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from rules import events as ev
from rules.combat import events as cev
from rules.combat.columns import differential_column, odds_column, shifted, strength_column
from rules.combat.commands import Assault
from rules.combat.config import CombatRules, ConditionError, parse_condition
from rules.engine import start
from rules.ground.grid import Cell
from rules.scenario.loader import LoadedScenario
from rules.scenario.problems import FileProblems
from rules.scenario.ruleset import Ruleset
from rules.scenario.tables import Table
from rules.state import GameState, initial_state
from tests.support.combat import Dice, at_step, change, clear_field, of_type, place, run
from umpire.games import catalog

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.fixture(scope="module")
def brigade() -> Ruleset:
    return catalog.load_file(SCENARIOS / "flank-march.toml").ruleset


@pytest.fixture(scope="module")
def hidden() -> LoadedScenario:
    return catalog.load_file(SCENARIOS / "chancellorsville-hidden.toml")


# -- columns ---------------------------------------------------------------------------------------
def test_fire_strength_columns(brigade: Ruleset) -> None:
    fire = brigade.tables["fire"]
    assert [fire.columns[strength_column(fire, n)] for n in (1, 2, 3, 7, 8, 22, 23, 99)] == [
        "1-2", "1-2", "3-4", "5-7", "8-11", "17-22", "23+", "23+"]
    assert strength_column(fire, 0) == 0  # below the table reads its first column


def test_odds_round_down_and_stay_on_the_table(brigade: Ruleset) -> None:
    cc = brigade.tables["close_combat"]
    def col(a: int, d: int) -> str:
        return cc.columns[odds_column(cc, a, d)]
    assert [col(a, d) for a, d in [(1, 3), (5, 10), (10, 10), (14, 10), (15, 10), (29, 10),
                                   (30, 10), (60, 10), (100, 1), (1, 100)]] == [
        "1-3", "1-2", "1-1", "1-1", "3-2", "2-1", "3-1", "6-1", "6-1", "1-3"]


@pytest.mark.parametrize(("index", "shift", "expected"), [
    (8, 2, 8), (8, -1, 7), (0, -1, 0), (0, -3, 0), (1, -2, 0), (7, 2, 8), (3, 2, 5)])
def test_shifts_are_clamped_at_the_edges(brigade: Ruleset, index: int, shift: int,
                                         expected: int) -> None:
    assert shifted(brigade.tables["close_combat"], index, shift) == expected


def test_differential_columns() -> None:
    table = Table(dice="1d6", kind="differential", columns=("-4", "-2", "0", "+2", "4+"),
                  rows=({"roll": "1-6", "results": ("a", "b", "c", "d", "e")},))  # type: ignore[arg-type]
    assert [table.columns[differential_column(table, a, d)]
            for a, d in [(1, 9), (3, 6), (5, 5), (8, 5), (20, 1)]] == ["-4", "-4", "0", "+2",
                                                                        "4+"]


# -- the [combat] section --------------------------------------------------------------------------
def test_conditions_parse() -> None:
    cond = parse_condition("converging and not defenders:terrain=fort or night")
    assert len(cond) == 2 and len(cond[0]) == 2 and cond[0][1].negated
    for bad in ("", "sideways", "attackers:colour=red", "friends:kind=cavalry", "range"):
        with pytest.raises(ConditionError):
            parse_condition(bad)


def test_a_ruleset_must_explain_every_result_code(brigade: Ruleset) -> None:
    data = brigade.model_dump()
    del data["combat"]["fire_results"]["3M"]
    with pytest.raises(ValueError, match="fire_results does not say what 3M"):
        Ruleset.model_validate(data)
    data = brigade.model_dump()
    data["combat"]["conditions"]["fire"]["sideways"] = "night"
    with pytest.raises(ValueError, match="sideways is neither a modifier nor a shift"):
        Ruleset.model_validate(data)


def test_bad_conditions_are_reported_with_the_file(tmp_path: Path) -> None:
    text = (SCENARIOS / "brigade-series.ruleset.toml").read_text(encoding="utf-8")
    text = text.replace('long_range = "range=long"', 'long_range = "range long"')
    (tmp_path / "brigade-series.ruleset.toml").write_text(text, encoding="utf-8")
    scenario = (SCENARIOS / "flank-march.toml").read_text(encoding="utf-8")
    (tmp_path / "flank-march.toml").write_text(scenario, encoding="utf-8")
    with pytest.raises(FileProblems, match=r"conditions\.fire\.long_range"):
        catalog.load_file(tmp_path / "flank-march.toml")


def test_default_section_loads_everywhere() -> None:
    rules = CombatRules()
    assert [s.name for s in rules.morale_states] == ["normal", "shaken", "disorganized",
                                                     "routed"]
    assert rules.reach("artillery") == 10 and rules.band_at("infantry", 2).name == "long"  # type: ignore[union-attr]
    data = tomllib.loads((SCENARIOS / "classic-1961.ruleset.toml").read_text(encoding="utf-8"))
    assert "fire" not in data["tables"]  # combat there is the odds table alone


# -- Stuart's cavalry and forts (rule text 002) on the 1961-style tables ---------------------
def _cv_game(hidden: LoadedScenario) -> GameState:
    state = replace(initial_state(hidden), modules=("combat",))
    state = start(state, "test", Dice(default=1)).state
    return at_step(state, "player_turn", "confederate")


def _clear_ring(hidden: LoadedScenario) -> tuple[Cell, list[Cell]]:
    gm, grid = hidden.map, hidden.board.grid
    for cell in grid.cells():
        ring = list(grid.neighbours(cell))
        if len(ring) == 6 and gm.terrain_at(cell) == "clear" and all(
                gm.terrain_at(n) == "clear" for n in ring):
            return cell, ring
    raise AssertionError("no clear hex with six clear neighbours")


def _shifts(state: GameState, attackers: tuple[str, ...], target: str) -> tuple[dict[str, int],
                                                                            str]:
    names = tuple(state.units[a].name for a in attackers)
    out = run(state, "confederate", Assault(units=names, target=target), Dice(default=3))
    report = of_type(out.events, cev.CloseCombatResolved)[0]
    return report.shifts, of_type(out.events, ev.DieRolled)[0].column


def test_stuart_fights_two_columns_better_against_federal_cavalry(
        hidden: LoadedScenario) -> None:
    state = _cv_game(hidden)
    centre, ring = _clear_ring(hidden)
    label = hidden.board.label
    keep = ("fitz-lee", "pleasonton-devin", "morris-regt", "whf-lee")
    state = clear_field(state, keep)
    state = place(state, **{"pleasonton-devin": label(centre), "fitz-lee": label(ring[0])})
    # 3 to 3 is 1-1; two columns better is 3-1
    devin = state.units["pleasonton-devin"].name
    assert _shifts(state, ("fitz-lee",), devin) == ({"stuart_vs_federal_cavalry": 2}, "3-1")
    untagged = change(state, "fitz-lee", tags=())
    assert _shifts(untagged, ("fitz-lee",), devin) == ({}, "1-1")
    # at the right edge the shift is lost, not carried beyond the table
    strong = change(state, "fitz-lee", strength=30)
    assert _shifts(strong, ("fitz-lee",), devin) == ({"stuart_vs_federal_cavalry": 2}, "6-1")


def test_stuart_shift_is_against_cavalry_only(hidden: LoadedScenario) -> None:
    state = _cv_game(hidden)
    centre, ring = _clear_ring(hidden)
    infantry = next(u for u in state.units.values()
                    if u.side == "union" and u.kind == "infantry")
    state = clear_field(state, ("fitz-lee", infantry.id))
    state = change(state, infantry.id, strength=3)
    state = place(state, **{infantry.id: hidden.board.label(centre),
                            "fitz-lee": hidden.board.label(ring[0])})
    assert _shifts(state, ("fitz-lee",), infantry.name) == ({}, "1-1")


def test_units_in_forts_have_no_flanks(hidden: LoadedScenario) -> None:
    state = _cv_game(hidden)
    label = hidden.board.label
    infantry = next(u for u in state.units.values()
                    if u.side == "union" and u.kind == "infantry")
    # a flank attack is cavalry rule E, played in combats involving cavalry (ruling CV-23):
    # a Confederate division and Fitz Lee's cavalry brigade attack together
    attackers = [next(u for u in state.units.values()
                      if u.side == "confederate" and u.kind == "infantry"),
                 state.units["fitz-lee"]]
    ids = tuple(a.id for a in attackers)
    state = clear_field(state, (infantry.id, *ids))
    for uid in (infantry.id, *ids):
        state = change(state, uid, strength=4)
    centre, ring = _clear_ring(hidden)
    # attacked from two hexes 120 degrees apart: a flank attack, one column better (8 to 4: 2-1)
    open_ground = place(state, **{infantry.id: label(centre), ids[0]: label(ring[1]),
                                  ids[1]: label(ring[5])})
    assert _shifts(open_ground, ids, infantry.name) == ({"flank": 1}, "3-1")
    # the same attack on the fort at C2215 (its neighbours C2315 and C2216 are clear)
    fort = hidden.board.parse("C2215")
    assert hidden.map.is_fort(fort)
    in_fort = place(state, **{infantry.id: "C2215", ids[0]: "C2315", ids[1]: "C2216"})
    assert _shifts(in_fort, ids, infantry.name) == ({}, "2-1")
    # a single attacker is never a flank attack
    alone = place(state, **{infantry.id: label(centre), ids[0]: label(ring[1]), ids[1]: None})
    assert _shifts(alone, ids[:1], infantry.name) == ({}, "1-1")


@pytest.mark.parametrize(("attack", "defence", "roll", "code"), [
    (3, 3, 6, "AE"), (3, 3, 2, "AB"), (3, 2, 1, "EX"), (6, 3, 1, "DB"), (12, 3, 1, "DE")])
def test_the_1961_results(hidden: LoadedScenario, attack: int, defence: int, roll: int,
                          code: str) -> None:
    """Each result of the 1961-style table: eliminations, falling back two hexes, and the
    exchange in which the weaker side is eliminated and the other loses as much."""
    state = _cv_game(hidden)
    centre, ring = _clear_ring(hidden)
    union = next(u for u in state.units.values() if u.side == "union" and u.kind == "infantry")
    rebel = next(u for u in state.units.values()
                 if u.side == "confederate" and u.kind == "infantry")
    state = clear_field(state, (union.id, rebel.id))
    state = change(state, union.id, strength=defence)
    state = change(state, rebel.id, strength=attack)
    state = place(state, **{union.id: hidden.board.label(centre),
                            rebel.id: hidden.board.label(ring[0])})
    out = run(state, "confederate", Assault(units=(rebel.name,), target=union.name),
              Dice(("close combat", roll)))
    assert of_type(out.events, ev.DieRolled)[0].result == code
    assert not [e for e in of_type(out.events, ev.DieRolled) if e.table != "close_combat"]
    after = out.state.units
    grid = hidden.board.grid
    if code == "AE":
        assert after[rebel.id].cell is None and after[rebel.id].strength == 0
    elif code == "AB":
        assert grid.distance(after[rebel.id].cell, centre) == 3  # type: ignore[arg-type]
    elif code == "EX":
        assert after[union.id].cell is None and after[rebel.id].strength == 1
    elif code == "DB":
        assert grid.distance(after[union.id].cell, ring[0]) == 3  # type: ignore[arg-type]
        assert after[rebel.id].cell == centre  # the attacker advanced
    else:
        assert after[union.id].cell is None and after[rebel.id].cell == centre
