"""Scenario and ruleset files: every kind of mistake gets an exact error naming file and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.scenario.loader import load
from rules.scenario.problems import FileProblems
from umpire.cli.main import main

FIXTURES = Path(__file__).parents[1] / "fixtures"
SCENARIO = (FIXTURES / "tiny.toml").read_text(encoding="utf-8")
RULESET = (FIXTURES / "tiny.ruleset.toml").read_text(encoding="utf-8")


def problems(scenario: str = SCENARIO, ruleset: str = RULESET) -> list[str]:
    with pytest.raises(FileProblems) as caught:
        load(scenario, "s.toml", ruleset, "r.toml")
    return [str(p) for p in caught.value.problems]


def test_the_fixture_is_valid() -> None:
    loaded = load(SCENARIO, "s.toml", RULESET, "r.toml")
    assert loaded.map.grid.size == 96
    assert loaded.board.label(loaded.board.parse("old church")) == "A0304"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('information = "open"', 'information = "foggy"',
         "s.toml: scenario.information: Input should be 'open', 'concealed', 'inverted' or "
         "'hidden'"),
        ('title = "Tiny Skirmish"', 'title = "Tiny Skirmish"\ncolour = 3',
         "s.toml: scenario.colour: unknown field (check its spelling)"),
        ('grid = "hex"', 'grid = "octagon"',
         "s.toml: map.grid: Input should be 'hex' or 'square'"),
        ("sheet_width = 8", "sheet_width = 0",
         "s.toml: map.sheet_width: Input should be greater than or equal to 1"),
        ('name = "Grey Brigade"\nshort = "G Bde"\nkind = "infantry"',
         'name = "Grey Brigade"\nshort = "G Bde"\nkind = "zeppelin"',
         "s.toml: units[4].kind: Input should be 'infantry', 'cavalry', 'artillery', 'leader', "
         "'hq' or 'wagon'"),
        ('time = "14:20"', 'time = "2pm"',
         "s.toml: turns[1].time: String should match pattern '^\\d{1,2}:\\d{2}$'"),
    ],
)
def test_field_errors(old: str, new: str, expected: str) -> None:
    assert old in SCENARIO
    assert expected in problems(SCENARIO.replace(old, new, 1))


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("..ww....\n..ww..h.", "..ww....\n..wX..h.",
         "s.toml: map.sheets[0].terrain (row 3, column 4): character 'X' is not in map.legend"),
        ("..ww....\n..ww..h.", "..ww....\n..ww..h",
         "s.toml: map.sheets[0].terrain (row 3): has 7 characters; sheets are 8 wide"),
        ("00000121", "0000012x",
         "s.toml: map.sheets[0].elevation (row 3, column 8): 'x' is not a digit 0-9"),
        ('"~" = "water" }', '"~" = "lava" }',
         "s.toml: map.sheets[0].terrain (row 5, column 2): terrain 'lava' (legend '~') is not "
         "in the ruleset"),
        ('path = ["A0104", "B0804"]', 'path = ["A0104", "Z9999"]',
         "s.toml: map.roads[0].path[1]: 'Z9999' is not a label on this map or a named place"),
        ('kind = "road"\nname = "Pike"', 'kind = "railway"\nname = "Pike"',
         "s.toml: map.roads[0].kind: road kind 'railway' is not in the ruleset (road)"),
        ('pairs = [["A0503", "A0603"]]', 'pairs = [["A0503", "A0803"]]',
         "s.toml: map.hexsides[0].pairs[0]: A0503 and A0803 are not adjacent, so no side lies "
         "between them"),
        ('at = "A0304"', 'at = "A0904"',
         "s.toml: map.places[0].at: 'A0904' is not a label on this map or a named place"),
        ('command = "blue-div"\nstrength = 8', 'command = "red-div"\nstrength = 8',
         "s.toml: units[1].command: command 'red-div' does not exist"),
        ('leader = "blue-gen"', 'leader = "blue-1"',
         "s.toml: commands[0].leader: leader 'blue-1' is a infantry, not a leader or HQ"),
        ('strength = 8\nat = "A0104"', 'strength = 8\nat = "A0205"',
         "s.toml: units[1].at: A0205 (water) cannot be entered"),
        ('side = "grey"\nname = "Grey Battery"', 'side = "purple"\nname = "Grey Battery"',
         "s.toml: units[5].side: side 'purple' is not one of ['blue', 'grey']"),
        ("turn = 3", "turn = 4",
         "s.toml: turns: turns must be numbered one after another without gaps"),
        ('arrives = { turn = 2, at = "A0101" }', 'arrives = { turn = 9, at = "A0101" }',
         "s.toml: units[3].arrives.turn: turn 9 is after the last turn"),
        ('information = "open"', 'information = "open"\nmodules = ["surprise_move"]',
         "r.toml: tables: rule module 'surprise_move' needs table(s) straggler, initiative, "
         "order_acceptance"),
        ('information = "open"', 'information = "open"\nmodules = ["telepathy"]',
         "s.toml: scenario.modules[0]: unknown rule module 'telepathy'"),
        ('information = "open"', 'information = "open"\noptions = { sighting = "radar" }',
         "s.toml: scenario.options.sighting: unknown sighting rule 'radar'; "
         "known: clear_path, los"),
    ],
)
def test_cross_check_errors(old: str, new: str, expected: str) -> None:
    assert old in SCENARIO
    found = problems(SCENARIO.replace(old, new, 1))
    assert any(p.startswith(expected) for p in found), found


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('{ roll = "6", results = ["P", "F", "F", "F"] },', "",
         "r.toml: tables.mp_accumulation: Value error, rolls 6 have no row: a table covers 1-6"),
        ('{ roll = "5", results = ["P", "P", "F", "F"] },',
         '{ roll = "4-5", results = ["P", "P", "F", "F"] },',
         "r.toml: tables.mp_accumulation: Value error, roll 4 appears in rows '4' and '4-5'"),
        ('{ roll = "4", results = ["P", "P", "P", "F"] },',
         '{ roll = "4", results = ["P", "P", "F"] },',
         "r.toml: tables.mp_accumulation: Value error, row '4' has 3 results for 4 columns"),
        ("cost = { foot = 1, horse = 1, wheeled = 1, leader = 1 }\n\n[terrain.woods]",
         "cost = { foot = 1, horse = 1 }\n\n[terrain.woods]",
         "r.toml: terrain.clear: Value error, cost is missing for movement classes: wheeled, "
         "leader"),
        ("stand_in = true\n", "",
         "r.toml: stand_in: required field is missing"),
    ],
)
def test_ruleset_errors(old: str, new: str, expected: str) -> None:
    assert old in RULESET
    found = problems(ruleset=RULESET.replace(old, new, 1))
    assert expected in found, found


def test_overstacked_start() -> None:
    found = problems(SCENARIO.replace('strength = 6\nat = "A0105"', 'strength = 6\nat = "A0104"'),
                     RULESET.replace("stacking_limit = 2", "stacking_limit = 1"))
    assert "s.toml: units[2].at: more than 1 units start in A0104 (the ruleset's stacking " \
        "limit)" in found


def test_every_problem_is_reported_at_once() -> None:
    broken = SCENARIO.replace('at = "A0304"', 'at = "Q1"').replace("sheet_height = 6",
                                                                  "sheet_height = 6\nfoo = 1")
    found = problems(broken)
    assert any("map.foo" in p for p in found)
    broken = SCENARIO.replace('at = "A0304"', 'at = "Q1"').replace('kind = "road"',
                                                                  'kind = "rail"')
    found = problems(broken)
    assert any("map.places[0].at" in p for p in found)
    assert any("map.roads[0].kind" in p for p in found)


def test_toml_syntax_error_names_the_file() -> None:
    found = problems(SCENARIO + "\n[[units]\n")
    assert found[0].startswith("s.toml: (TOML syntax): ")


def test_check_command_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "check", str(FIXTURES / "tiny.toml")]) == 0
    out = capsys.readouterr().out
    assert "ok - Tiny Skirmish" in out and "blue: 4 units" in out
    (tmp_path / "tiny.ruleset.toml").write_text(RULESET, encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(SCENARIO.replace('grid = "hex"', 'grid = "tri"'), encoding="utf-8")
    assert main(["scenario", "check", str(bad)]) == 1
    assert "map.grid: Input should be 'hex' or 'square'" in capsys.readouterr().out


def test_check_command_checks_a_ruleset_on_its_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shipped = Path(__file__).parents[2] / "scenarios" / "classic-1961.ruleset.toml"
    assert main(["scenario", "check", str(FIXTURES / "tiny.ruleset.toml"), str(shipped)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{FIXTURES / 'tiny.ruleset.toml'}: ok - ruleset Tiny test rules [tiny] (stand-in "
        "numbers); tables: mp_accumulation",
        f"{shipped}: ok - ruleset Chancellorsville, 1961 style (Vedette stand-in numbers) "
        "[classic-1961]; tables: close_combat, raid_outcome, victory (all those of combat, "
        "chancellorsville, raid_victory)",
    ]
    # A row short of a result, and a misspelt key: both named, with the file; the check fails.
    row = '{ roll = "4", results = ["P", "P", "P", "F"] },'
    assert row in RULESET and "stacking_limit = 2\n" in RULESET
    bad = tmp_path / "bad.ruleset.toml"
    bad.write_text(RULESET.replace(row, '{ roll = "4", results = ["P", "P", "F"] },')
                   .replace("stacking_limit = 2\n", "stacking_limit = 2\nstackng = 3\n"),
                   encoding="utf-8")
    assert main(["scenario", "check", str(FIXTURES / "tiny.ruleset.toml"), str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}: 2 problem(s)" in out
    assert f"{bad}: tables.mp_accumulation: Value error, row '4' has 3 results for 4 columns" \
        in out
    assert f"{bad}: stackng: unknown field (check its spelling)" in out
    # A ruleset that is not TOML at all.
    broken = tmp_path / "broken.ruleset.toml"
    broken.write_text("[tables.fire\n", encoding="utf-8")
    assert main(["scenario", "check", str(broken)]) == 1
    assert f"{broken}: (TOML syntax): " in capsys.readouterr().out


def test_a_file_that_is_not_utf8_is_a_problem_naming_file_and_offset(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "tiny.ruleset.toml").write_text(RULESET, encoding="utf-8")
    latin = tmp_path / "latin.toml"
    data = SCENARIO.replace("Tiny Skirmish", "Tiny Skirmish at Ch\u00e2teau").encode("latin-1")
    latin.write_bytes(data)
    assert main(["scenario", "check", str(latin)]) == 1
    out = capsys.readouterr().out
    offset = data.index(b"\xe2")
    assert f"{latin}: (file): is not UTF-8 text: byte 0xe2 at offset {offset}" in out
    # The ruleset is read the same way, and a byte-order mark is no problem.
    fine = tmp_path / "fine.toml"
    fine.write_bytes(b"\xef\xbb\xbf" + SCENARIO.encode("utf-8"))
    (tmp_path / "tiny.ruleset.toml").write_bytes(RULESET.encode("utf-8") + b"# \xff\n")
    assert main(["scenario", "check", str(fine)]) == 1
    assert f"{tmp_path / 'tiny.ruleset.toml'}: (file): is not UTF-8 text: byte 0xff" in \
        capsys.readouterr().out


SHEET_B = 'letter = "B"\nat = [1, 0]'
WIDE = {"sheet_width = 8": "sheet_width = 200"}
BIG = {"sheet_width = 8": "sheet_width = 150", "sheet_height = 6": "sheet_height = 150"}


def edited(text: str, changes: dict[str, str]) -> str:
    for old, new in changes.items():
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


@pytest.mark.parametrize(
    ("scenario", "ruleset", "expected"),
    [
        ({"at = [0, 0]": "at = [100000, 100000]"}, {},
         "s.toml: map.sheets[0].at[0]: Input should be less than or equal to 15"),
        ({SHEET_B: 'letter = "B"\nat = [0, 16]'}, {},
         "s.toml: map.sheets[1].at[1]: Input should be less than or equal to 15"),
        ({"sheet_height = 6": "sheet_height = 100000"}, {},
         "s.toml: map.sheet_height: Input should be less than or equal to 200"),
        (WIDE, {}, "s.toml: map.sheets: the sheets make a board of 400 x 6 cells; a board is at "
                   "most 300 cells across and down"),
        ({SHEET_B: 'letter = "B"\nat = [0, 15]', "sheet_height = 6": "sheet_height = 20"}, {},
         "s.toml: map.sheets: the sheets make a board of 8 x 320 cells"),
        (BIG, {}, "s.toml: map.sheets: the sheets make a board of 300 x 150 = 45000 cells; a "
                  "board has at most 40000 cells"),
        ({'legend = {': 'label = "{sheet}{col:0100000000}{row:02}"\nlegend = {'}, {},
         "s.toml: map.label: Value error, label fields are padded to at most 8 characters"),
        ({"strength = 8": "strength = 100000000"}, {},
         "s.toml: units[1].strength: Input should be less than or equal to 1000"),
        ({"command_range = 4": "command_range = 100000"}, {},
         "s.toml: units[0].command_range: Input should be less than or equal to 300"),
        ({"initiative = 3": "initiative = 3\nmovement = 100000"}, {},
         "s.toml: units[0].movement: Input should be less than or equal to 100"),
        ({"visibility = 4": "visibility = 100000"}, {},
         "s.toml: turns[2].visibility: Input should be less than or equal to 100"),
        ({}, {"visibility = 8": "visibility = 100000"},
         "r.toml: visibility: Input should be less than or equal to 100"),
        ({}, {"horse = 12": "horse = 100000"},
         "r.toml: movement_allowance.horse: Input should be less than or equal to 100"),
        ({}, {"visibility = 8": "visibility = 8\nblocked_radius = 100000"},
         "r.toml: blocked_radius: Input should be less than or equal to 10"),
    ],
)
def test_sizes_beyond_the_bounds_are_problems(scenario: dict[str, str], ruleset: dict[str, str],
                                              expected: str) -> None:
    found = problems(edited(SCENARIO, scenario), edited(RULESET, ruleset))
    assert any(p.startswith(expected) for p in found), found


def test_sizes_at_the_bounds_load() -> None:
    scenario = edited(SCENARIO, {"strength = 8": "strength = 1000",
                                 "visibility = 4": "visibility = 100",
                                 "command_range = 4": "command_range = 300"})
    ruleset = edited(RULESET, {"visibility = 8": "visibility = 100\nblocked_radius = 10",
                               "horse = 12": "horse = 100"})
    loaded = load(scenario, "s.toml", ruleset, "r.toml")
    assert loaded.ruleset.visibility == 100
    # Labels padded to 8 characters are allowed (only the places and units no longer match).
    widest = edited(SCENARIO, {'legend = {': 'label = "{sheet}{col:08}{row:08}"\nlegend = {'})
    assert not [p for p in problems(widest) if "map.label" in p]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({'title = "Tiny Skirmish"': 'title = "**Tiny** Skirmish"'}, "scenario.title"),
        ({'name = "Grey Brigade"': 'name = "Grey @everyone Brigade"'}, "units[4].name"),
        ({'name = "Grey Brigade"': 'name = "Grey <@123> Brigade"'}, "units[4].name"),
        ({'short = "G Bde"': 'short = "G_Bde_"'}, "units[4].short"),
        ({'name = "Grey Brigade"': 'name = """Grey\nBrigade"""'}, "units[4].name"),
    ],
)
def test_names_are_plain_text(change: dict[str, str], field: str) -> None:
    """Players read every name and title in the bot's messages. A name that Discord would read
    as formatting or a mention is a problem naming its field, so no message can be restyled or
    made to call anyone by what a scenario author typed."""
    found = problems(edited(SCENARIO, change))
    assert any(p.startswith(f"s.toml: {field}: ") and "a name is plain text" in p
               for p in found), found
