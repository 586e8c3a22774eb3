"""The sample scenario for Concealed Forces: ``flank-march``'s tags (``independent``,
``skirmisher``, ``detached``) load and do what the module reads them for, and the scenario check
refuses the module under an information model that hides enemy counters (ruling CF-4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.concealed.commands import ConcealForce
from rules.concealed.pool import decoy_pool
from rules.concealed.records import (
    DETACHED_TAG,
    INDEPENDENT_TAG,
    SKIRMISHER_TAG,
    ForceKind,
    forces,
    is_detached,
)
from rules.forces.location import InMarker
from rules.forces.words import Echelon, UnitKind
from rules.refusal import Refusal
from rules.scenario.loader import LoadedScenario, load
from rules.scenario.problems import FileProblems
from rules.state import initial_state
from tests.support.surprise import Dice, Game
from umpire.cli.main import main

SCENARIOS = Path(__file__).parents[2] / "scenarios"
SCENARIO = SCENARIOS / "flank-march.toml"
RULESET = SCENARIOS / "brigade-series.ruleset.toml"
MODULES = 'modules = ["surprise_move", "concealed_forces", "combat"]'
UNION_SIDE = 'id = "union"\nname = "Army of the Potomac"\n'
CONFEDERATE_SIDE = 'id = "confederate"\nname = "Army of Northern Virginia"\n'


def flank_text(*edits: tuple[str, str]) -> str:
    text = SCENARIO.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def load_flank(*edits: tuple[str, str]) -> LoadedScenario:
    return load(flank_text(*edits), str(SCENARIO), RULESET.read_text(encoding="utf-8"),
                str(RULESET))


def problems_of(*edits: tuple[str, str]) -> list[tuple[str, str]]:
    with pytest.raises(FileProblems) as e:
        load_flank(*edits)
    return [(p.field, p.message) for p in e.value.problems]


def in_movement_phase(side: str, loaded: LoadedScenario | None = None) -> Game:
    """Turn 1, at the start of ``side``'s Movement Phase."""
    game = Game(loaded or load_flank(), Dice())
    while not (game.state.current.allows("move") and side in game.state.acting_sides()):
        game.step()
    return game


# --- the tags -------------------------------------------------------------------------------------

def test_the_sample_plays_concealed_forces_under_the_concealed_model() -> None:
    header = load_flank().scenario.scenario
    assert header.information == "concealed"
    assert "concealed_forces" in header.modules


def test_the_tags_load_on_the_units_the_sample_names() -> None:
    units = {u.id: u for u in load_flank().scenario.units}
    tagged = {tag: {uid for uid, u in units.items() if tag in u.tags}
              for tag in (DETACHED_TAG, INDEPENDENT_TAG, SKIRMISHER_TAG)}
    assert tagged[DETACHED_TAG] == {"barlow", "23rd-ga", "archer", "thomas"}
    assert tagged[INDEPENDENT_TAG] == {"mcintosh"}
    assert tagged[SKIRMISHER_TAG] == {"berdan"}
    brigade = units["mcintosh"]
    # an independent cavalry brigade: a cavalry counter of brigade size under no division
    assert brigade.kind is UnitKind.CAVALRY and brigade.echelon is Echelon.BRIGADE
    assert brigade.command == "aop" and brigade.at is not None
    # the detached brigades are each away from their division, at or near the furnace
    assert {units[u].command for u in ("archer", "thomas")} == {"hill-div"}
    assert units["23rd-ga"].command == "rodes-div" and units["barlow"].command == "steinwehr-div"


def test_detached_units_start_detached_and_no_other_does() -> None:
    state = initial_state(load_flank())
    assert {u for u in state.units if is_detached(state, u)} == {
        "barlow", "23rd-ga", "archer", "thomas"}


def test_the_independent_brigade_counts_for_a_decoy() -> None:
    state = initial_state(load_flank())
    union_divisions = {c.id for c in state.commands.values()
                       if c.side == "union" and c.echelon is Echelon.DIVISION}
    assert len(union_divisions) == 9
    assert decoy_pool(state, "union") == len(union_divisions) + 1
    # without the tag the brigade is one more cavalry counter and no decoy
    untagged = initial_state(load_flank(('tags = ["independent"]', "tags = []")))
    assert decoy_pool(untagged, "union") == len(union_divisions)


def test_the_independent_brigade_conceals_alone() -> None:
    game = in_movement_phase("union")
    game.do("union", ConcealForce(leader="mcintosh"))
    [(marker, record)] = forces(game.state).items()
    assert record["kind"] == ForceKind.CAVALRY and record["units"] == ["mcintosh"]
    assert game.state.units["mcintosh"].location == InMarker(marker)
    # untagged, it is a cavalry counter of the army like any other, and may not
    untagged = in_movement_phase("union", load_flank(('tags = ["independent"]', "tags = []")))
    with pytest.raises(Refusal, match="only an independent cavalry brigade"):
        untagged.do("union", ConcealForce(leader="mcintosh"))


#: O'Neal's brigade, at the head of the column, starts a hex beyond Rodes' command range: closed up.
CLOSED_UP = ('at = "A1310"', 'at = "A1311"')


def test_the_23rd_georgia_at_the_furnace_does_not_hold_rodes_back() -> None:
    game = in_movement_phase("confederate", load_flank(CLOSED_UP))
    game.do("confederate", ConcealForce(leader="rodes"))
    [record] = forces(game.state).values()
    assert "23rd-ga" not in record["units"] and "colquitt" in record["units"]
    assert game.state.units["23rd-ga"].cell is not None
    # without the tag the regiment is out of command and Rodes may not conceal
    text = ('tags = ["detached"]  # away from its division: stays on the map when Rodes '
            'conceals', "")
    untagged = in_movement_phase("confederate", load_flank(CLOSED_UP, text))
    with pytest.raises(Refusal, match=r"23rd Georgia .* is out of command"):
        untagged.do("confederate", ConcealForce(leader="rodes"))


def test_archer_and_thomas_stay_when_the_light_division_conceals() -> None:
    game = in_movement_phase("confederate")
    game.do("confederate", ConcealForce(leader="ap-hill"))
    [record] = forces(game.state).values()
    assert set(record["units"]) == {"ap-hill", "heth"}  # the others come up later
    assert game.state.units["archer"].cell is not None
    assert game.state.units["thomas"].cell is not None


# --- the information model -----------------------------------------------------------------------

@pytest.mark.parametrize("model", ["hidden", "inverted"])
def test_the_module_is_refused_under_a_model_that_hides_enemy_counters(model: str) -> None:
    found = problems_of(('information = "concealed"', f'information = "{model}"'))
    assert found == [("scenario.information",
                      "rule module 'concealed_forces' (Concealed Forces (rule text 001)) is "
                      "played under the 'concealed' or 'open' information model only, not "
                      f"{model!r}")]


def test_one_side_choosing_another_model_is_refused_naming_the_side() -> None:
    found = problems_of((CONFEDERATE_SIDE, CONFEDERATE_SIDE + 'information = "hidden"\n'))
    assert found == [("sides[1].information",
                      "rule module 'concealed_forces' (Concealed Forces (rule text 001)) is "
                      "played under the 'concealed' or 'open' information model only, for "
                      "every side: side 'confederate' chooses 'hidden'")]
    both = problems_of(('information = "concealed"', 'information = "hidden"'),
                       (UNION_SIDE, UNION_SIDE + 'information = "inverted"\n'))
    assert [f for f, _ in both] == ["scenario.information", "sides[0].information"]


@pytest.mark.parametrize("edits", [
    (('information = "concealed"', 'information = "open"'),),
    ((UNION_SIDE, UNION_SIDE + 'information = "open"\n'),),
    # without the module, any model will do
    (('information = "concealed"', 'information = "hidden"'),
     (MODULES, 'modules = ["surprise_move", "combat"]')),
])
def test_the_open_and_concealed_models_load(edits: tuple[tuple[str, str], ...]) -> None:
    assert load_flank(*edits).id == "flank-march"


def test_scenario_check_names_the_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    path = tmp_path / "flank-hidden.toml"
    path.write_text(flank_text(
        ('information = "concealed"', 'information = "hidden"'),
        ('ruleset = "brigade-series.ruleset.toml"', f'ruleset = "{RULESET}"')), encoding="utf-8")
    assert main(["scenario", "check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "1 problem(s)" in out
    assert "scenario.information: rule module 'concealed_forces' (Concealed Forces" in out
    assert main(["scenario", "check", str(SCENARIO)]) == 0


def test_the_modules_options_are_checked_when_the_scenario_loads() -> None:
    """A reaction always has a clock (the finder's side cannot end its phase while it waits,
    ruling CF-11), and an option takes the kind of value its default has."""
    modules = 'modules = ["surprise_move", "concealed_forces", "combat"]'
    found = problems_of((modules, modules + '\noptions = { cf_reaction_seconds = 0, '
                                            'cf_opportunity_fire = "yes" }'))
    assert ("scenario.options.cf_reaction_seconds",
            "rule module 'concealed_forces''s option 'cf_reaction_seconds' is at least 1") in found
    assert ("scenario.options.cf_opportunity_fire",
            "rule module 'concealed_forces''s option 'cf_opportunity_fire' is true or false, "
            "not 'yes'") in found
    loaded = load_flank((modules, modules + "\noptions = { cf_reaction_seconds = 60 }"))
    assert loaded.scenario.scenario.options["cf_reaction_seconds"] == 60
