"""The Chancellorsville raid option (rule text 002, module ``raid_victory``): which units ride
off, worked out from the order of battle and the scenario's settings; that they are never in the
game for anyone; the public word that the raid went; what each side then sees; and the checks of
the scenario's ``[settings.raid_victory]``."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

import pytest

from rules import commands as cmd
from rules.chancellorsville.events import RaidRode
from rules.chancellorsville.raid import raiders
from rules.chancellorsville.raid_module import settings
from rules.engine import decide, start
from rules.forces.words import MovementClass
from rules.knowledge.information import InformationModel
from rules.knowledge.levels import GHOST, IDENTIFIED
from rules.knowledge.sighted import information_model
from rules.scenario.loader import LoadedScenario, load
from rules.scenario.problems import FileProblems
from rules.state import initial_state
from rules.view import project
from storage.store import Store
from tests.support.chancellorsville import RULESET, SAMPLE, SEED, dice, raided, sample, started
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

HOST, UNION, CONFEDERATE = 1, 101, 201
SETTINGS = '[settings.raid_victory]\nfederal = "union"\nconfederate = "confederate"\n'


def tagged(loaded: LoadedScenario) -> set[str]:
    return {u.id for u in loaded.scenario.units if "raid" in u.tags}


def problems(*edits: tuple[str, str]) -> list[str]:
    with pytest.raises(FileProblems) as caught:
        sample(*edits)
    return [f"{p.field}: {p.message}" for p in caught.value.problems]


# -- who rides off ---------------------------------------------------------------------------------
def test_the_raid_takes_exactly_the_articles_units() -> None:
    loaded = raided()
    gone = raiders(loaded, settings(loaded))
    assert gone == tagged(loaded)  # the tags document the article's list; the rule is the OOB
    assert {"buford-reserve", "averell-sargent", "gregg-wyndham", "whf-lee"} <= gone
    assert not {"pleasonton-devin", "pleasonton-martin", "morris-regt", "hooker-hq",
                "stuart-hq", "fitz-lee"} & gone


def test_raided_units_are_never_created() -> None:
    plain, loaded = initial_state(sample()), initial_state(raided())
    assert tagged(sample()) <= set(plain.units)
    assert not tagged(sample()) & set(loaded.units)
    assert set(plain.units) - set(loaded.units) == tagged(sample())


def test_without_the_raid_nothing_is_left_out() -> None:
    state = started(sample())
    assert tagged(sample()) <= set(state.units)
    assert information_model(state, "confederate") is InformationModel.INVERTED
    assert information_model(state, "union") is InformationModel.INVERTED


def test_the_rule_is_read_from_the_order_of_battle_not_the_tags() -> None:
    # Keep only Morris: Pleasonton's whole division rides off, and the tags change nothing.
    loaded = raided(sample(('stays = ["pleasonton-div", "morris-regt"]',
                            'stays = ["morris-regt"]')))
    gone = raiders(loaded, settings(loaded))
    assert gone == tagged(loaded) | {"pleasonton-devin", "pleasonton-martin"}
    # A Federal unit of movement 8 that is an HQ stays; one of movement 4 never rides.
    assert "hooker-hq" not in gone and "i-hq" not in gone
    # Nobody follows the raid: W. H. F. Lee stays.
    loaded = raided(sample(('follows = ["whf-lee"]', "follows = []")))
    assert "whf-lee" not in raiders(loaded, settings(loaded))
    # Following by command takes the whole command (Stuart's division), but not its HQ.
    loaded = raided(sample(('follows = ["whf-lee"]', 'follows = ["cavalry-div"]')))
    cavalry = {u.id for u in loaded.scenario.units if u.command == "cavalry-div"}
    assert cavalry - {"stuart-hq"} <= raiders(loaded, settings(loaded))


def test_a_followed_command_keeps_its_headquarters() -> None:
    """CV-11: headquarters never ride, on either side: a command that follows the raid leaves
    its HQ, and the command is still led by a unit in the game."""
    loaded = raided(sample(('follows = ["whf-lee"]', 'follows = ["cavalry-div"]')))
    gone = raiders(loaded, settings(loaded))
    assert "stuart-hq" not in gone
    assert {"fitz-lee", "whf-lee", "stuart-horse-arty"} <= gone
    state = initial_state(loaded)
    assert state.commands["cavalry-div"].leader == "stuart-hq"
    assert "stuart-hq" in state.units


def test_a_movement_allowance_from_the_ruleset_counts_as_the_units_own() -> None:
    # Drop Morris' own movement: the ruleset's allowance for horse (8) is read instead, and he
    # is still the unit that stays only because the settings keep him.
    loaded = raided(sample(('strength = 1\nmovement = 8\nat = "C1510"',
                            'strength = 1\nat = "C1510"'),
                           ('stays = ["pleasonton-div", "morris-regt"]',
                            'stays = ["pleasonton-div"]')))
    assert loaded.ruleset.movement_allowance[MovementClass.HORSE] == 8
    assert "morris-regt" in raiders(loaded, settings(loaded))


# -- the start, and what each side sees ------------------------------------------------------------
def test_the_raid_is_announced_publicly_without_naming_a_unit() -> None:
    loaded = raided()
    out = start(initial_state(loaded), hashlib.sha256(SEED).hexdigest(), dice)
    said = [e for e in out.events if isinstance(e, RaidRode)]
    assert len(said) == 1 and said[0].audience == "public"
    text = said[0].report(project(out.state, "union"))
    assert "raid" in text
    names = {u.name for u in sample().scenario.units if u.id in tagged(loaded)}
    shorts = {u.short or u.name[:10] for u in sample().scenario.units if u.id in tagged(loaded)}
    assert "Morris' regiment" in text  # what stays is named; no removed counter is
    assert not any(name in text for name in names | shorts | tagged(loaded))
    quiet = start(initial_state(sample()), hashlib.sha256(SEED).hexdigest(), dice)
    assert not any(isinstance(e, RaidRode) for e in quiet.events)


def test_the_raid_announcement_follows_the_settings() -> None:
    """What the news says stays and followed is what the settings remove, not fixed words."""
    def said(loaded: LoadedScenario) -> str:
        out = start(initial_state(loaded), hashlib.sha256(SEED).hexdigest(), dice)
        [news] = [e for e in out.events if isinstance(e, RaidRode)]
        return news.report(project(out.state, "union"))
    text = said(raided())
    assert "1st Cavalry Division (Pleasonton)" in text and "Morris' regiment" in text
    assert "(7 units)" in text and "1 unit of the Confederate cavalry followed it" in text
    alone = said(raided(sample(('follows = ["whf-lee"]', "follows = []"),
                               ('stays = ["pleasonton-div", "morris-regt"]', "stays = []"))))
    assert "followed" not in alone and "Pleasonton" not in alone and "Morris" not in alone
    assert "(10 units)" in alone


def test_under_the_raid_the_confederates_see_the_union_face_up() -> None:
    state = started(raided())
    assert information_model(state, "confederate") is InformationModel.OPEN
    assert information_model(state, "union") is InformationModel.HIDDEN
    grey = project(state, "confederate")
    union = {u.name for u in state.units.values() if u.side == "union" and u.cell is not None}
    shown = [u for u in grey.units if u.side == "union"]
    assert {u.name for u in shown} == union and len(shown) == len(union)
    assert {u.level for u in shown} == {IDENTIFIED}  # every one, sighted or not, face up


def test_under_the_raid_the_union_sees_only_sighted_confederates_and_ghosts() -> None:
    state = started(raided())
    blue = project(state, "union")
    sighted = {uid for uid, m in state.memory["union"].items() if m.in_sight}
    names = {state.units[uid].name for uid in sighted}
    shown = [u for u in blue.units if u.side == "confederate"]
    assert {u.name for u in shown} == names and {u.level for u in shown} == {IDENTIFIED}
    assert len(sighted) < sum(1 for u in state.units.values() if u.side == "confederate")
    # A sighted Confederate moved out of every Union unit's sight (into the woods, where only
    # a unit next door sights it: open ground is seen as far as a clear path runs, CV-6)
    # leaves a ghost.
    uid = sorted(sighted)[0]
    out = decide(state, "", cmd.Correct(unit=uid, changes={"cell": "C0302"}, reason="test"),
                 dice, host=True)
    blue = project(out.state, "union")
    mine = [u for u in blue.units if u.name == state.units[uid].name]
    assert [u.level for u in mine] == [GHOST]
    assert mine[0].cell == state.units[uid].cell  # where it was last seen


def test_no_raided_unit_reaches_any_view() -> None:
    state = started(raided())
    gone = tagged(sample())
    words = {w for u in sample().scenario.units if u.id in gone for w in (u.id, u.name)}
    for side in (None, "union", "confederate"):
        view = project(state, side)
        assert not {u.ref for u in view.units} & gone
        assert not {u.name for u in view.units} & words
        assert not any(w in r for r in view.reports for w in words)


def test_a_snapshot_of_a_raided_game_reads_back_without_the_raiders() -> None:
    from rules.state import from_snapshot, to_snapshot

    state = started(raided())
    back = from_snapshot(state.loaded, to_snapshot(state))
    assert set(back.units) == set(state.units)
    assert replace(back, loaded=state.loaded).units == state.units


# -- through the umpire ----------------------------------------------------------------------------
async def test_a_raided_game_never_shows_a_raider_to_anyone(tmp_path: Path) -> None:
    gone = tagged(sample())
    words = {w for u in sample().scenario.units if u.id in gone
             for w in (u.id, u.name, u.short or u.name[:10])}
    async with Store.open(tmp_path / "raid.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(SAMPLE), HOST, game_id="g1", seed=SEED,
                                 options={"raid": True, "off_board": True})
        await umpire.join("g1", UNION, "union")
        await umpire.join("g1", CONFEDERATE, "confederate")
        await umpire.start("g1", HOST)
        for _ in range(4):
            state = await umpire.repository.state_for("g1")
            for side in state.acting_sides():
                await umpire.handle("g1", UNION if side == "union" else CONFEDERATE, cmd.Done())
        texts = [d.text for d in await store.pending_deliveries("g1")]
        assert any("raid option is played" in t for t in texts)
        for user in (UNION, CONFEDERATE):
            texts.append((await umpire.units_text("g1", user)).text)
            texts += await umpire.unit_names("g1", user)
            texts += await umpire.visible_enemy_names("g1", user)
        leaked = [(w, t) for t in texts for w in words if w in t]
        assert leaked == []
        assert not gone & set((await umpire.repository.state_for("g1")).units)


# -- the scenario's settings ---------------------------------------------------------------------
def test_the_sample_settings_load() -> None:
    s = settings(sample())
    assert (s.federal, s.confederate, s.raid_movement) == ("union", "confederate", 8)


@pytest.mark.parametrize(("edit", "expected"), [
    (('federal = "union"', 'federal = "yankees"'),
     "settings.raid_victory.federal: 'yankees' is not one of the sides"),
    (('confederate = "confederate"\nraid', 'confederate = "union"\nraid'),
     "settings.raid_victory.confederate: the two armies must be different sides"),
    (('stays = ["pleasonton-div", "morris-regt"]', 'stays = ["pleasonton-div", "fitz-lee"]'),
     "settings.raid_victory.stays[1]: 'fitz-lee' belongs to 'confederate', not 'union'"),
    (('follows = ["whf-lee"]', 'follows = ["rooney"]'),
     "settings.raid_victory.follows[0]: 'rooney' is neither a command nor a unit"),
    (('follows = ["whf-lee"]', 'follows = ["whf-lee", "lee-hq"]'),
     "settings.raid_victory.follows[1]: 'lee-hq' is a headquarters or leader"),
    (('follows = ["whf-lee"]', 'follows = ["stuart-hq"]'),
     "settings.raid_victory.follows[0]: 'stuart-hq' is a headquarters or leader"),
    (('stays = ["pleasonton-div", "morris-regt"]', 'stays = ["hooker-hq", "morris-regt"]'),
     "settings.raid_victory.stays[0]: 'hooker-hq' is a headquarters or leader"),
    (('{ place = "Banks Ford", points = 2, holder = "union" }',
      '{ place = "Bank Ford", points = 2, holder = "union" }'),
     "settings.raid_victory.victory.places[2].place: 'Bank Ford' is not one of the map's places"),
    (('{ place = "Banks Ford", points = 2, holder = "union" }',
      '{ place = "Banks Ford", points = 2, holder = "french" }'),
     "settings.raid_victory.victory.places[2].holder: 'french' is neither army's side"),
    (('{ place = "Banks Ford", points = 2, holder = "union" }',
      '{ place = "Chancellorsville", points = 2 }'),
     "settings.raid_victory.victory.places[2].place: 'Chancellorsville' is scored twice"),
    (("raid_movement = 8", "raid_movment = 8"),
     "settings.raid_victory.raid_movment: unknown field (check its spelling)"),
    (("per_strength = 1", "per_strength = -1"),
     "settings.raid_victory.victory.per_strength: Input should be greater than or equal to 0"),
])
def test_bad_settings_are_named_by_field(edit: tuple[str, str], expected: str) -> None:
    found = problems(edit)
    assert any(f.startswith(expected) for f in found), found


def test_the_module_needs_its_settings() -> None:
    found = problems(("[settings.raid_victory]\n", "[settings.raid_victory_gone]\n"),
                     ("[settings.raid_victory.victory]", "[settings.raid_victory_gone.victory]"))
    assert "settings.raid_victory.federal: required field is missing" in found
    assert any(f.startswith("settings.raid_victory_gone: settings for 'raid_victory_gone', "
                            "which is not one of the scenario's modules") for f in found)


def test_settings_for_a_module_that_takes_none_are_refused() -> None:
    found = problems(("[settings.raid_victory]\n", '[settings.combat]\nx = 1\n\n'
                      '[settings.raid_victory]\n'))
    assert "settings.combat: rule module 'combat' takes no settings" in found


def test_a_ruleset_whose_chart_lacks_a_column_is_refused() -> None:
    ruleset = RULESET.read_text(encoding="utf-8").replace(
        'columns = ["Successful Raid", "No Raid"]', 'columns = ["Raid", "No Raid"]')
    with pytest.raises(FileProblems) as caught:
        load(SAMPLE.read_text(encoding="utf-8"), "cv.toml", ruleset, "classic.toml")
    assert any("victory table needs the column(s) 'Successful Raid'" in p.message
               for p in caught.value.problems)


def test_settings_text_constant_is_in_the_sample() -> None:
    assert SETTINGS in SAMPLE.read_text(encoding="utf-8")
