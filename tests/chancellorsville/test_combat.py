"""Combat in the Chancellorsville variant (rule text 002) on the sample and its 1961-style ruleset:
Stuart's cavalry two columns better against Federal cavalry, attacking and defending, and only
in a fight of Stuart's cavalry alone against Federal cavalry alone; no flank attack on a unit in
a fort, whatever the attackers' positions; the ruleset's cavalry rules A-H, played only in
combats involving cavalry, H by Buford's units alone, loaded and checked; the public notice of
the cavalry rules at game start; and assaults through the umpire under face-down counters."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from rules import events as ev
from rules.chancellorsville.cavalry_notice import CavalryRulesAnnounced
from rules.combat import events as cev
from rules.combat.commands import Assault
from rules.combat.config import side_warnings
from rules.commands import Done
from rules.engine import start
from rules.forces.words import MovementClass
from rules.ground.grid import Cell
from rules.scenario.loader import LoadedScenario
from rules.scenario.problems import FileProblems
from rules.state import GameState, initial_state
from storage.store import Store
from tests.support.combat import Dice, at_step, change, clear_field, of_type, place, run
from tests.support.tiny_games import told
from umpire.cli.main import main
from umpire.games import catalog
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
SAMPLE = SCENARIOS / "chancellorsville-hidden.toml"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RULESET = SCENARIOS / "classic-1961.ruleset.toml"
STUART = "stuart_vs_federal_cavalry"
STUART_DEFENDS = "stuart_defends_against_federal_cavalry"


@pytest.fixture(scope="module")
def sample() -> LoadedScenario:
    return catalog.load_file(SAMPLE)


def _game(loaded: LoadedScenario, side: str) -> GameState:
    """The sample started, at ``side``'s player turn, every unit off the map (no raid, set
    beforehand, so that the first turn opens at the start)."""
    loaded = catalog.with_options(loaded, {"raid": False})
    state = start(initial_state(loaded), "test", Dice(default=1)).state
    return clear_field(at_step(state, "player_turn", side), ())


def _open_ring(loaded: LoadedScenario) -> tuple[Cell, list[Cell]]:
    """A clear hex whose six neighbours are clear, and its neighbours in order round it."""
    gm, grid = loaded.map, loaded.board.grid
    for cell in grid.cells():
        ring = list(grid.neighbours(cell))
        if len(ring) == 6 and gm.terrain_at(cell) == "clear" and all(
                gm.terrain_at(n) == "clear" for n in ring):
            return cell, ring
    raise AssertionError("no clear hex with six clear neighbours")


def _assault(state: GameState, side: str, where: dict[str, Cell], attackers: tuple[str, ...],
             target: str) -> tuple[dict[str, int], str]:
    """The shifts and the column of an assault by ``attackers`` on ``target``'s cell, with the
    units placed at ``where`` (every other unit off the map)."""
    board = state.loaded.board
    state = place(state, **{uid: board.label(c) for uid, c in where.items()})
    names = tuple(state.units[a].name for a in attackers)
    out = run(state, side, Assault(units=names, target=state.units[target].name),
              Dice(default=3))
    report = of_type(out.events, cev.CloseCombatResolved)[0]
    return report.shifts, of_type(out.events, ev.DieRolled)[0].column


def _confederate_infantry(state: GameState, n: int) -> list[str]:
    return [u.id for u in state.units.values()
            if u.side == "confederate" and u.kind == "infantry"][:n]


def _union_infantry(state: GameState) -> str:
    return next(u.id for u in state.units.values() if u.side == "union" and u.kind == "infantry")


# -- Stuart's cavalry (CV-20, CV-21) -------------------------------------------------------------
def test_stuart_attacking_federal_cavalry_gets_two_columns(sample: LoadedScenario) -> None:
    state = _game(sample, "confederate")
    centre, ring = _open_ring(sample)
    # Fitz Lee (3) on Devin (3): 1-1, two columns better is 3-1
    assert _assault(state, "confederate", {"pleasonton-devin": centre, "fitz-lee": ring[0]},
                    ("fitz-lee",), "pleasonton-devin") == ({STUART: 2}, "3-1")
    # Fitz Lee (3) on Morris' regiment (1): 3-1, two better is 5-1
    assert _assault(state, "confederate", {"morris-regt": centre, "fitz-lee": ring[0]},
                    ("fitz-lee",), "morris-regt") == ({STUART: 2}, "5-1")
    # two of Stuart's brigades side by side (60 degrees apart: no flank): 5 to 3 is 1-1 -> 3-1
    assert _assault(state, "confederate",
                    {"pleasonton-devin": centre, "fitz-lee": ring[0], "whf-lee": ring[1]},
                    ("fitz-lee", "whf-lee"), "pleasonton-devin") == ({STUART: 2}, "3-1")


def test_stuart_defending_against_federal_cavalry_gets_two_columns(
        sample: LoadedScenario) -> None:
    state = _game(sample, "union")
    centre, ring = _open_ring(sample)
    # Devin (3) on Fitz Lee (3): 1-1, two columns in the defender's favour is 1-3
    assert _assault(state, "union", {"fitz-lee": centre, "pleasonton-devin": ring[0]},
                    ("pleasonton-devin",), "fitz-lee") == ({STUART_DEFENDS: -2}, "1-3")
    # the table's left edge keeps it on the table: Morris (1) on Fitz Lee (3) is 1-3 -> 1-4
    assert _assault(state, "union", {"fitz-lee": centre, "morris-regt": ring[0]},
                    ("morris-regt",), "fitz-lee") == ({STUART_DEFENDS: -2}, "1-4")
    # the tag makes the difference: an untagged Confederate brigade defends at the true odds
    untagged = change(state, "fitz-lee", tags=())
    assert _assault(untagged, "union", {"fitz-lee": centre, "pleasonton-devin": ring[0]},
                    ("pleasonton-devin",), "fitz-lee") == ({}, "1-1")


def test_stuart_mixed_with_other_units_fights_at_the_true_odds(sample: LoadedScenario) -> None:
    """CV-21: no shift unless Stuart's cavalry alone meets Federal cavalry alone."""
    state = _game(sample, "confederate")
    centre, ring = _open_ring(sample)
    rebel = _confederate_infantry(state, 1)[0]
    state = change(state, rebel, strength=3)
    union_inf = _union_infantry(state)
    state = change(state, union_inf, strength=3)
    # Stuart with Confederate infantry (6 to 3: 2-1, side by side)
    assert _assault(state, "confederate",
                    {"pleasonton-devin": centre, "fitz-lee": ring[0], rebel: ring[1]},
                    ("fitz-lee", rebel), "pleasonton-devin") == ({}, "2-1")
    # Stuart with a foot battery, which does not ride with him (4 to 3: 1-1)
    foot_battery = change(state, "stuart-horse-arty", movement_class=MovementClass.WHEELED)
    assert _assault(foot_battery, "confederate",
                    {"pleasonton-devin": centre, "fitz-lee": ring[0],
                     "stuart-horse-arty": ring[1]},
                    ("fitz-lee", "stuart-horse-arty"), "pleasonton-devin") == ({}, "1-1")
    # Federal cavalry stacked with a foot battery (3 to 4: 1-2)
    foot_battery = change(state, "pleasonton-martin", movement_class=MovementClass.WHEELED)
    assert _assault(foot_battery, "confederate",
                    {"pleasonton-devin": centre, "pleasonton-martin": centre,
                     "fitz-lee": ring[0]},
                    ("fitz-lee",), "pleasonton-devin") == ({}, "1-2")
    # Federal infantry
    assert _assault(state, "confederate", {union_inf: centre, "fitz-lee": ring[0]},
                    ("fitz-lee",), union_inf) == ({}, "1-1")
    # defending: Stuart stacked with infantry, attacked by Devin (3 to 6: 1-2)
    union_turn = at_step(state, "player_turn", "union")
    assert _assault(union_turn, "union",
                    {"fitz-lee": centre, rebel: centre, "pleasonton-devin": ring[0]},
                    ("pleasonton-devin",), "fitz-lee") == ({}, "1-2")
    # defending: Devin with Federal infantry beside him (6 to 3: 2-1)
    assert _assault(union_turn, "union",
                    {"fitz-lee": centre, "pleasonton-devin": ring[0], union_inf: ring[1]},
                    ("pleasonton-devin", union_inf), "fitz-lee") == ({}, "2-1")


HORSE_BATTERIES = ("pleasonton-martin", "raid-horse-arty-1", "raid-horse-arty-2",
                   "stuart-horse-arty")


def test_the_sample_horse_batteries_ride_as_cavalry_and_keep_their_movement(
        sample: LoadedScenario) -> None:
    """CV-21: horse class, so the cavalry's terrain costs (woods 2, not the guns' 3), movement 8."""
    state = initial_state(sample)
    woods = sample.ruleset.terrain["woods"]
    for uid in HORSE_BATTERIES:
        unit = state.units[uid]
        assert (unit.kind, unit.movement_class, unit.movement) == (
            "artillery", MovementClass.HORSE, 8), uid
        assert woods.cost_for(unit.movement_class, unit.formation) == 2
    assert "stuart" in state.units["stuart-horse-arty"].tags
    assert woods.cost_for(MovementClass.WHEELED, state.units["stuart-horse-arty"].formation) == 3


def test_stuart_gets_his_columns_against_pleasonton_as_set_up(sample: LoadedScenario) -> None:
    """CV-21: horse artillery fights with its cavalry. Pleasonton's division starts as one stack
    of Devin's cavalry and Martin's horse battery; Stuart attacking it, or attacked by it, has
    his two columns."""
    start_cells = {u.id: u.at for u in sample.scenario.units}
    assert start_cells["pleasonton-devin"] == start_cells["pleasonton-martin"] == "C2316"
    state = _game(sample, "confederate")
    centre, ring = _open_ring(sample)
    stack = {"pleasonton-devin": centre, "pleasonton-martin": centre}
    # Fitz Lee (3) on Devin and Martin (4): 1-2, two columns better is 2-1
    assert _assault(state, "confederate", {**stack, "fitz-lee": ring[0]},
                    ("fitz-lee",), "pleasonton-devin") == ({STUART: 2}, "2-1")
    # both of Pleasonton's units on Fitz Lee (4 to 3): 1-1, two in the defender's favour is 1-3
    union_turn = at_step(state, "player_turn", "union")
    assert _assault(union_turn, "union",
                    {"fitz-lee": centre, "pleasonton-devin": ring[0],
                     "pleasonton-martin": ring[0]},
                    ("pleasonton-devin", "pleasonton-martin"), "fitz-lee") == (
                        {STUART_DEFENDS: -2}, "1-3")


def test_stuart_gets_his_columns_with_his_horse_battery(sample: LoadedScenario) -> None:
    """CV-21: Stuart's own horse battery (horse class, tagged stuart) fights with his cavalry;
    a battery alone is not a cavalry fight, and one not tagged stuart is not his."""
    state = _game(sample, "confederate")
    centre, ring = _open_ring(sample)
    with_battery = {"pleasonton-devin": centre, "fitz-lee": ring[0],
                    "stuart-horse-arty": ring[1]}
    # Fitz Lee and his battery (4) on Devin (3): 1-1, two better is 3-1
    assert _assault(state, "confederate", with_battery,
                    ("fitz-lee", "stuart-horse-arty"), "pleasonton-devin") == ({STUART: 2}, "3-1")
    # the battery alone (1 to 3: 1-3): no cavalry of Stuart's in the fight
    assert _assault(state, "confederate", with_battery,
                    ("stuart-horse-arty",), "pleasonton-devin") == ({}, "1-3")
    # a horse battery not tagged stuart is not Stuart's
    untagged = change(state, "stuart-horse-arty", tags=())
    assert _assault(untagged, "confederate", with_battery,
                    ("fitz-lee", "stuart-horse-arty"), "pleasonton-devin") == ({}, "1-1")
    # defending: Fitz Lee stacked with his battery (4), attacked by Devin (3): 1-2 -> 1-4
    union_turn = at_step(state, "player_turn", "union")
    assert _assault(union_turn, "union",
                    {"fitz-lee": centre, "stuart-horse-arty": centre,
                     "pleasonton-devin": ring[0]},
                    ("pleasonton-devin",), "fitz-lee") == ({STUART_DEFENDS: -2}, "1-4")
    # Martin's battery alone attacking Fitz Lee (1 to 3): no Federal cavalry in the fight
    assert _assault(union_turn, "union",
                    {"fitz-lee": centre, "pleasonton-martin": ring[0]},
                    ("pleasonton-martin",), "fitz-lee") == ({}, "1-3")


def test_check_warns_of_a_condition_naming_a_side_the_scenario_lacks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The Stuart conditions name the side id union: a scenario whose Federal side is called
    otherwise still loads, but the check names each condition that can never match."""
    path = _variant(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace('"union"', '"usa"'),
                    encoding="utf-8")
    assert main(["scenario", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}: ok - " in out
    warnings = [line for line in out.splitlines() if "warning" in line]
    assert len(warnings) == 2, out
    for name, line in zip((STUART, STUART_DEFENDS), warnings, strict=True):
        assert f"combat.conditions.close_combat.{name} " in line
        assert "union" in line and "usa, confederate" in line
    # the sample as written, and a scenario with sides blue and grey under such a ruleset
    assert main(["scenario", "check", str(SAMPLE)]) == 0
    assert "warning" not in capsys.readouterr().out
    assert main(["scenario", "check", str(FIXTURES / "scouts.toml")]) == 0
    out = capsys.readouterr().out
    assert "ok - " in out and "stuart_vs_federal_cavalry names side(s) union" in out


def test_side_warnings_read_every_subject_and_negation() -> None:
    conditions = {"close_combat": {"a": "night", "b": "not defenders:side=usa",
                                   "c": "any_attacker:side=blue or unit:side=red"},
                  "morale": {"d": "unit:side=grey", "e": "uphill"}}
    assert side_warnings(conditions, ["blue", "grey"]) == (
        "combat.conditions.close_combat.b names side(s) usa, which this scenario does not have "
        "(its sides: blue, grey): no unit ever matches that test",
        "combat.conditions.close_combat.c names side(s) red, which this scenario does not have "
        "(its sides: blue, grey): no unit ever matches that test",
    )
    assert side_warnings(conditions, ["blue", "grey", "usa", "red"]) == ()


def test_stuart_and_a_flank_attack_add_up(sample: LoadedScenario) -> None:
    """CV-22: the shifts that hold are summed: Stuart's two and the flank's one."""
    state = _game(sample, "confederate")
    centre, ring = _open_ring(sample)
    # Fitz Lee and W. H. F. Lee from opposite sides: 5 to 3 is 1-1, +3 is 4-1
    assert _assault(state, "confederate",
                    {"pleasonton-devin": centre, "fitz-lee": ring[0], "whf-lee": ring[3]},
                    ("fitz-lee", "whf-lee"), "pleasonton-devin") == (
                        {STUART: 2, "flank": 1}, "4-1")


# -- forts and flanks (CV-23) ----------------------------------------------------------------------
def _flank_case(sample: LoadedScenario) -> tuple[GameState, str, list[str]]:
    """Three Confederate attackers of strength 2 (cavalry among them, so that the flank attack,
    cavalry rule E, may be played) and a Union division of strength 6."""
    state = _game(sample, "confederate")
    attackers = ["fitz-lee", *_confederate_infantry(state, 2)]
    defender = _union_infantry(state)
    for uid in attackers:
        state = change(state, uid, strength=2)
    return change(state, defender, strength=6), defender, attackers


def test_no_flank_attack_on_a_fort_whatever_the_attackers_positions(
        sample: LoadedScenario) -> None:
    state, defender, attackers = _flank_case(sample)
    grid = sample.board.grid
    forts = [c for c in grid.cells() if sample.map.is_fort(c) and len(grid.neighbours(c)) == 6]
    # one fort in an even column and one in an odd one: their neighbours lie differently
    chosen = [next(c for c in forts if c.col % 2 == parity) for parity in (0, 1)]
    centre, ring = _open_ring(sample)
    for fort in chosen:
        around = list(grid.neighbours(fort))
        for k in (2, 3):
            for cells in itertools.combinations(range(6), k):
                where = {defender: fort} | {a: around[i] for a, i in zip(attackers, cells,
                                                                         strict=False)}
                shifts, column = _assault(state, "confederate", where, tuple(attackers[:k]),
                                          defender)
                assert "flank" not in shifts, (sample.board.label(fort), cells)
                assert column == ("1-2" if k == 2 else "1-1")  # 4 or 6 to 6: the true odds
    # the same geometries on open ground: every pair not side by side is a flank attack (the
    # nine pairs of the fifteen whose hexes are 120 or 180 degrees apart), every triple too
    flanked = 0
    for cells in itertools.combinations(range(6), 2):
        where = {defender: centre} | {a: ring[i] for a, i in zip(attackers, cells, strict=False)}
        shifts, column = _assault(state, "confederate", where, tuple(attackers[:2]), defender)
        side_by_side = (cells[1] - cells[0]) in (1, 5)
        assert shifts == ({} if side_by_side else {"flank": 1})
        assert column == ("1-2" if side_by_side else "1-1")
        flanked += not side_by_side
    assert flanked == 9
    for cells in itertools.combinations(range(6), 3):
        where = {defender: centre} | {a: ring[i] for a, i in zip(attackers, cells, strict=False)}
        assert _assault(state, "confederate", where, tuple(attackers), defender) == (
            {"flank": 1}, "2-1")


def test_flank_attack_is_played_only_in_combats_involving_cavalry(
        sample: LoadedScenario) -> None:
    """Cavalry rule E is a cavalry rule: infantry alone on infantry has no flank attack, but
    infantry on cavalry has."""
    state = _game(sample, "confederate")
    centre, ring = _open_ring(sample)
    a, b = _confederate_infantry(state, 2)
    for uid in (a, b):
        state = change(state, uid, strength=2)
    union_inf = _union_infantry(state)
    state = change(state, union_inf, strength=4)
    converging = {a: ring[0], b: ring[3]}
    assert _assault(state, "confederate", {union_inf: centre} | converging, (a, b),
                    union_inf) == ({}, "1-1")
    state = change(state, "pleasonton-devin", strength=4)
    assert _assault(state, "confederate", {"pleasonton-devin": centre} | converging, (a, b),
                    "pleasonton-devin") == ({"flank": 1}, "2-1")


# -- the cavalry rules' place in the ruleset (CV-24, CV-25) -----------------------------------
def _variant(tmp_path: Path, ruleset_edits: tuple[tuple[str, str], ...] = (),
             scenario_edits: tuple[tuple[str, str], ...] = ()) -> Path:
    """The sample and its ruleset with text edits, in their own files."""
    rtext = RULESET.read_text(encoding="utf-8")
    for old, new in ruleset_edits:
        assert old in rtext, old
        rtext = rtext.replace(old, new, 1)
    (tmp_path / RULESET.name).write_text(rtext, encoding="utf-8")
    stext = SAMPLE.read_text(encoding="utf-8")
    for old, new in scenario_edits:
        assert old in stext, old
        stext = stext.replace(old, new, 1)
    path = tmp_path / SAMPLE.name
    path.write_text(stext, encoding="utf-8")
    return path


def test_the_sample_ruleset_lists_rules_a_to_h_as_stand_ins(sample: LoadedScenario) -> None:
    rules = sample.ruleset.cavalry_rules
    assert sorted(rules) == list("ABCDEFGH")
    assert all(r.stand_in and "stand-in" in r.title for r in rules.values())
    assert {k: r.shift for k, r in rules.items() if r.shift} == {"E": "flank"}
    assert rules["H"].only_tagged == "buford"
    assert [u.id for u in sample.scenario.units if "buford" in u.tags] == ["buford-reserve"]


H_SHIFT = (("flank = 1\n", "flank = 1\nbuford_h = 1\n"),
           ('defender_on_hill = "defenders:terrain=hill"',
            'defender_on_hill = "defenders:terrain=hill"\nbuford_h = "attackers:side=union"'),
           ('only_tagged = "buford"', 'only_tagged = "buford"\nshift = "buford_h"'))


def test_rule_h_is_played_for_buford_alone(tmp_path: Path) -> None:
    """With rule H mapped to a shift of one column for the attacker, only an attack in which
    every Federal cavalry unit is Buford's gets it (CV-25)."""
    loaded = catalog.load_file(_variant(tmp_path, H_SHIFT))
    state = _game(loaded, "union")
    centre, ring = _open_ring(loaded)
    rebel = _confederate_infantry(state, 1)[0]
    state = change(state, rebel, strength=3)
    state = change(state, "buford-reserve", strength=3)
    union_inf = _union_infantry(state)
    state = change(state, union_inf, strength=3)
    # Buford (3) on Fitz Lee (3): 1-1, rule H one better
    assert _assault(state, "union", {"fitz-lee": centre, "buford-reserve": ring[0]},
                    ("buford-reserve",), "fitz-lee") == ({STUART_DEFENDS: -2, "buford_h": 1},
                                                         "1-2")
    # Buford on infantry: a combat involving cavalry, Buford's alone on his side
    assert _assault(state, "union", {rebel: centre, "buford-reserve": ring[0]},
                    ("buford-reserve",), rebel) == ({"buford_h": 1}, "2-1")
    # Buford with Federal infantry beside him: still his alone among the cavalry (6 to 3)
    assert _assault(state, "union", {rebel: centre, "buford-reserve": ring[0], union_inf: ring[1]},
                    ("buford-reserve", union_inf), rebel) == ({"buford_h": 1}, "3-1")
    # Devin is not Buford's: no rule H, alone or with Buford
    assert _assault(state, "union", {rebel: centre, "pleasonton-devin": ring[0]},
                    ("pleasonton-devin",), rebel) == ({}, "1-1")
    assert _assault(state, "union",
                    {rebel: centre, "buford-reserve": ring[0], "pleasonton-devin": ring[1]},
                    ("buford-reserve", "pleasonton-devin"), rebel) == ({}, "2-1")
    # infantry alone on infantry: no cavalry in the combat, no cavalry rule
    assert _assault(state, "union", {rebel: centre, union_inf: ring[0]}, (union_inf,),
                    rebel) == ({}, "1-1")


def test_a_defensive_rule_h_helps_buford_defending(tmp_path: Path) -> None:
    edits = (("flank = 1\n", "flank = 1\nbuford_h = -1\n"),
             ('defender_on_hill = "defenders:terrain=hill"',
              'defender_on_hill = "defenders:terrain=hill"\nbuford_h = "defenders:side=union"'),
             ('only_tagged = "buford"', 'only_tagged = "buford"\nshift = "buford_h"'))
    loaded = catalog.load_file(_variant(tmp_path, edits))
    state = _game(loaded, "confederate")
    centre, ring = _open_ring(loaded)
    rebel = _confederate_infantry(state, 1)[0]
    state = change(state, rebel, strength=3)
    state = change(state, "buford-reserve", strength=3)
    assert _assault(state, "confederate", {"buford-reserve": centre, rebel: ring[0]}, (rebel,),
                    "buford-reserve") == ({"buford_h": -1}, "1-2")
    assert _assault(state, "confederate", {"pleasonton-devin": centre, rebel: ring[0]},
                    (rebel,), "pleasonton-devin") == ({}, "1-1")


@pytest.mark.parametrize(("edits", "scenario_edits", "expected"), [
    ((('shift = "flank"', 'shift = "flanck"'),), (),
     r"cavalry_rules\.E\.shift: 'flanck' is not a column shift of the close_combat table"),
    ((('stand_in = true\nshift = "flank"', 'stand_in = true\nshift = "defender_in_woods"'),
      ('defender_in_woods = "defenders:terrain=woods"\n', '')), (),
     r"cavalry_rules\.E\.shift: 'defender_in_woods' has no condition"),
    ((('only_tagged = "buford"', 'only_tagged = "buford"\nshift = "flank"'),), (),
     r"cavalry_rules\.H\.shift: 'flank' is already rule E's"),
    ((('[cavalry_rules.H]', '[cavalry_rules.HH]'),), (),
     r"cavalry_rules\.HH: a cavalry rule is named by one capital letter"),
    ((('[cavalry_rules.H]', '[cavalry_rules.X]'),), (),
     r"cavalry_rules: rule module 'chancellorsville' .* plays cavalry rule\(s\) H, which the "
     r"ruleset does not list"),
    (H_SHIFT, (('tags = ["raid", "buford"]', 'tags = ["raid", "bufford"]'),),
     r"cavalry_rules\.H\.only_tagged: no unit of scenario 'chancellorsville-hidden' is tagged "
     r"'buford'"),
    ((('title = "Cavalry rule A (stand-in)"\n', ''),), (),
     r"cavalry_rules\.A\.title"),
    ((('text = "Placeholder for the article\'s cavalry rule B. Not played by the umpire."\n'
       'stand_in = true', 'text = ""'),), (), r"cavalry_rules\.B\.stand_in"),
])
def test_bad_cavalry_rules_are_problems_of_the_ruleset_file(
        tmp_path: Path, edits: tuple[tuple[str, str], ...],
        scenario_edits: tuple[tuple[str, str], ...], expected: str) -> None:
    with pytest.raises(FileProblems) as caught:
        catalog.load_file(_variant(tmp_path, edits, scenario_edits))
    assert re.search(expected, str(caught.value)), str(caught.value)
    assert any(p.file.endswith(RULESET.name) for p in caught.value.problems)


def test_a_scenario_without_the_module_needs_no_cavalry_rules(tmp_path: Path) -> None:
    text = RULESET.read_text(encoding="utf-8")
    text = text[:text.index("[cavalry_rules.A]")] + text[text.index("# The raid roll"):]
    (tmp_path / RULESET.name).write_text(text, encoding="utf-8")
    stext = SAMPLE.read_text(encoding="utf-8")
    without = stext.replace('modules = ["combat", "chancellorsville", "raid_victory"]',
                            'modules = ["combat"]')
    # the raid's settings go with its module
    settings = without.index("\n[settings.raid_victory]\n")
    after = without.index("# ====", without.index("[settings.raid_victory.victory]"))
    without = without[:settings] + without[after:]
    (tmp_path / SAMPLE.name).write_text(without, encoding="utf-8")
    assert catalog.load_file(tmp_path / SAMPLE.name).ruleset.cavalry_rules == {}
    (tmp_path / SAMPLE.name).write_text(stext, encoding="utf-8")
    with pytest.raises(FileProblems, match="A, B, C, D, E, F, G, H"):
        catalog.load_file(tmp_path / SAMPLE.name)


# -- the public notice at game start (CV-26) ------------------------------------------------------
def test_the_cavalry_rules_are_announced_once_publicly_at_the_start(
        sample: LoadedScenario) -> None:
    out = start(initial_state(catalog.with_options(sample, {"raid": False})), "test",
                Dice(default=1))
    notices = of_type(out.events, CavalryRulesAnnounced)
    assert len(notices) == 1 and notices[0].audience == "public"
    started = next(i for i, e in enumerate(out.events) if isinstance(e, ev.GameStarted))
    assert out.events.index(notices[0]) == started + 1
    assert [r.letter for r in notices[0].rules] == list("ABCDEFGH")
    # no rule is played at the start of a later step
    assert not of_type(run(out.state, "union", Done(), Dice(default=1)).events,
                       CavalryRulesAnnounced)


# -- through the umpire, under face-down counters (CV-27) ---------------------------------------
HOST, UNION, CONFEDERATE = 1, 101, 201
SEED = bytes(range(32))


def _placed(text: str, where: dict[str, str]) -> str:
    """Scenario text with units' starting hexes changed."""
    for uid, label in where.items():
        text, n = re.subn(rf'(id = "{uid}"\n(?:[^\[]*?\n)?)at = "[^"]*"', rf'\1at = "{label}"',
                          text, count=1)
        assert n == 1, uid
    return text


def _sample_with(tmp_path: Path, where: dict[str, str]) -> Path:
    text = SAMPLE.read_text(encoding="utf-8").replace(
        'ruleset = "classic-1961.ruleset.toml"', f'ruleset = "{RULESET}"')
    path = tmp_path / "cv.toml"
    path.write_text(_placed(text, where), encoding="utf-8")
    return path


async def _new_game(store: Store, scenario: Path) -> Umpire:
    umpire = Umpire(store, maps=MapMaker(enabled=False))
    await umpire.create_game(str(scenario), HOST, game_id="g1", seed=SEED,
                             options={"raid": False})
    await umpire.join("g1", UNION, "union")
    await umpire.join("g1", CONFEDERATE, "confederate")
    await umpire.start("g1", HOST)
    return umpire


def _woods_beside_open(loaded: LoadedScenario) -> tuple[str, str, str]:
    """A woods hex, a clear neighbour and a clear hex beside that neighbour, far from every
    unit of the sample (so that nobody else is in the fight)."""
    gm, grid, board = loaded.map, loaded.board.grid, loaded.board
    starts = [board.parse(u.at) for u in loaded.scenario.units if u.at]
    for cell in grid.cells():
        if not gm.is_woods(cell) or min(grid.distance(cell, s) for s in starts) < 6:
            continue
        for n in grid.neighbours(cell):
            if gm.terrain_at(n) != "clear":
                continue
            for m in grid.neighbours(n):
                if gm.terrain_at(m) == "clear" and not grid.adjacent(m, cell) and m != cell:
                    return board.label(cell), board.label(n), board.label(m)
    raise AssertionError("no woods hex beside open ground")


async def test_assaults_on_the_sample_through_the_umpire(tmp_path: Path,
                                                        sample: LoadedScenario) -> None:
    """Under face-down counters an adjacent enemy is sighted, even in the woods: Devin assaults
    Fitz Lee there (Stuart defends two columns better, the woods one more)."""
    woods, beside, _ = _woods_beside_open(sample)
    scenario = _sample_with(tmp_path, {"fitz-lee": woods, "pleasonton-devin": beside})
    async with Store.open(tmp_path / "cv.db") as store:
        umpire = await _new_game(store, scenario)
        state = await umpire.repository.state_for("g1")
        assert state.current.phase.id == "player_turn" and state.current.side == "union"
        assert state.loaded.scenario.scenario.information == "inverted"
        union_sees = await umpire.visible_enemy_names("g1", UNION)
        assert "Fitz Lee's cavalry brigade" in union_sees  # next door, in the woods
        rebels = [u for u in state.units.values() if u.side == "confederate"]
        assert len(union_sees) < len(rebels)  # others stand face down
        reply = await umpire.handle("g1", UNION, Assault(units=("Pleasonton's division: "
                                                                "Devin's brigade",),
                                                         target="Fitz Lee's cavalry brigade"))
        assert reply.text.startswith("**Assault** on ")
        assert "column 1-4" in reply.text  # 3 to 3, two columns for Stuart and one for woods
        assert "stuart defends against federal cavalry -2, defender in woods -1" in reply.text
        deliveries = await store.pending_deliveries("g1")
        said = await told(store, "confederate", CONFEDERATE)
        assert any(t.startswith("**Assaulted** at ") and "column 1-4" in t for t in said)
        notice = [d for d in deliveries if "Cavalry rules, played in any combat" in d.text]
        assert len(notice) == 1 and notice[0].kind != "player"
        assert "Stand-ins: A, B, C, D, E, F, G, H." in notice[0].text



async def test_stuart_attacks_through_the_umpire(tmp_path: Path,
                                                 sample: LoadedScenario) -> None:
    """In the open, the Confederate turn: Fitz Lee assaults Devin two columns better."""
    _, beside, behind = _woods_beside_open(sample)
    scenario = _sample_with(tmp_path, {"fitz-lee": behind, "pleasonton-devin": beside})
    async with Store.open(tmp_path / "cv.db") as store:
        umpire = await _new_game(store, scenario)
        await umpire.handle("g1", UNION, Done())
        assert "Pleasonton's division: Devin's brigade" in await umpire.visible_enemy_names(
            "g1", CONFEDERATE)
        reply = await umpire.handle("g1", CONFEDERATE, Assault(
            units=("Fitz Lee's cavalry brigade",),
            target="Pleasonton's division: Devin's brigade"))
        assert reply.text.startswith("**Assault** on ")
        assert "column 3-1" in reply.text and "(shifts: stuart vs federal cavalry +2)" in reply.text
        said = await told(store, "union", UNION)
        assert any(t.startswith("**Assaulted** at ") and "column 3-1" in t for t in said)

