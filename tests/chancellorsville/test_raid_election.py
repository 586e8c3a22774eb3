"""The Union commander elects the raid (rule text 002: "If the Union commander elects to use
the raid"), and the Confederate player then "may remove all of his units from the board"
(rulings CV-39 to CV-41).

At the start, before the first turn, the Federal side is asked whether the raid goes; the first
turn opens only once it is answered, and nobody gives orders meanwhile. Under the raid the
Confederate side is then asked whether its units leave the board or stay on it face down. Both
answers are announced publicly, logged and decided again by ``vedette verify``; the host or the
scenario may set either beforehand. Nothing of the hidden set-up decides what either side is
asked or told."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path
from typing import Any

import pytest

from rules import commands as cmd
from rules import events as ev
from rules.chancellorsville.events import (
    CountersPlaced,
    RaidElected,
    RaidRode,
    VictoryDecided,
)
from rules.chancellorsville.raid import raiders
from rules.chancellorsville.raid_module import settings
from rules.engine import Outcome, Refusal, decide, end, start
from rules.knowledge.information import InformationModel
from rules.knowledge.sighted import information_model
from rules.scenario.loader import LoadedScenario, load
from rules.state import GameState, initial_state
from rules.turn.reaction import QuestionAsked, open_questions
from rules.view import project
from storage.store import Store
from tests.fakediscord import FakeDiscord, FakeUser, buttons_of
from tests.support.botkit import EPHEMERAL, forged_button, started_game, text_of
from tests.support.chancellorsville import RULESET, SAMPLE, SEED, dice, set_fields
from umpire.games.catalog import with_options
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError
from umpire.verify.check import verify

HOST, UNION, CONFEDERATE = 1, 101, 201
JSON = dict[str, Any]

#: The Union's question, and the Confederate's once the raid goes.
RAID_Q, COUNTERS_Q = "union:q1", "confederate:q1"
WAITING = "the first turn has not begun"


def bare(text: str | None = None) -> LoadedScenario:
    """The sample as shipped: neither choice set beforehand."""
    return load(text or SAMPLE.read_text(encoding="utf-8"), "cv.toml",
                RULESET.read_text(encoding="utf-8"), "classic.toml")


def begun(out: Outcome) -> bool:
    return any(isinstance(e, ev.PhaseBegan) for e in out.events)


def opened(loaded: LoadedScenario | None = None) -> Outcome:
    return start(initial_state(loaded or bare()), hashlib.sha256(SEED).hexdigest(), dice)


def raid_elected() -> GameState:
    """The Union player has elected the raid; the Confederate is still to choose the board."""
    return decide(opened().state, "union", cmd.Answer(question=RAID_Q, choice="raid"),
                  dice).state


def answer(state: GameState, side: str, question: str, choice: str) -> Outcome:
    return decide(state, side, cmd.Answer(question=question, choice=choice), dice)


def enemies(state: GameState, side: str) -> list[str]:
    """The enemy units ``side``'s view shows, by reference."""
    return [u.ref for u in project(state, side).units if u.side != side]


def of_type(out: Outcome, kind: type) -> list[Any]:
    return [e for e in out.events if isinstance(e, kind)]


# -- the Federal player's choice -------------------------------------------------------------------
def test_the_union_is_asked_at_the_start_and_the_first_turn_waits_for_him() -> None:
    out = opened()
    assert out.state.status.in_play and not begun(out)
    [asked] = of_type(out, QuestionAsked)
    q = asked.question
    assert (asked.audience, q.id, q.choices, q.default, q.before_play) == (
        "side:union", RAID_Q, ("raid", "no-raid"), "no-raid", True)
    assert "announced to both sides" in q.words()
    assert "the first turn opens once it is answered" in q.words()
    state = out.state
    # Nobody gives orders before the first turn, the asker included.
    for side, order in (("union", cmd.Done()), ("confederate", cmd.Done()),
                        ("confederate", cmd.Move(unit="lee-hq", route="C2617"))):
        with pytest.raises(Refusal, match=WAITING):
            decide(state, side, order, dice)
    # The Confederates cannot answer for the Union: the same words as a question never asked.
    with pytest.raises(Refusal) as other:
        answer(state, "confederate", RAID_Q, "no-raid")
    with pytest.raises(Refusal) as none:
        answer(state, "confederate", "confederate:q9", "no-raid")
    assert str(other.value) == str(none.value).replace("confederate:q9", RAID_Q)
    with pytest.raises(Refusal, match="answer raid or no-raid"):
        answer(state, "union", RAID_Q, "maybe")
    # While the choice is open, neither side sees anything of the enemy.
    for side in ("union", "confederate"):
        assert enemies(state, side) == []


def test_no_raid_is_announced_and_opens_the_first_turn_face_down() -> None:
    out = answer(opened().state, "union", RAID_Q, "no-raid")
    [said] = of_type(out, RaidElected)
    assert (said.audience, said.raid, said.by_default) == ("public", False, False)
    assert "keeps his cavalry: no raid" in said.report(project(out.state, None))
    assert begun(out) and out.state.turn == 1 and out.state.acting_sides()
    assert set(out.state.units) == set(initial_state(bare()).units)
    for side in ("union", "confederate"):
        assert information_model(out.state, side) is InformationModel.INVERTED
    assert not of_type(out, RaidRode) and not open_questions(out.state)


@pytest.mark.parametrize(("choice", "union_sees"), [("off-board", InformationModel.HIDDEN),
                                                    ("face-down", InformationModel.INVERTED)])
def test_the_raid_takes_the_raiders_out_and_the_confederate_chooses_the_board(
        choice: str, union_sees: InformationModel) -> None:
    loaded = bare()
    raid = answer(opened(loaded).state, "union", RAID_Q, "raid")
    [said] = of_type(raid, RaidElected)
    assert said.audience == "public" and said.raid
    assert [e.audience for e in of_type(raid, RaidRode)] == ["public"]
    gone = raiders(loaded, settings(loaded))
    assert gone and not gone & set(raid.state.units)
    assert set(raid.state.units) == set(initial_state(loaded).units) - gone
    # No side has heard of any unit yet: the raiders left before anything was seen.
    assert not any(isinstance(e, ev.Sighted) for e in raid.events)
    # The Confederate is asked next; the first turn still waits.
    [asked] = of_type(raid, QuestionAsked)
    assert (asked.audience, asked.question.id, asked.question.choices,
            asked.question.default) == ("side:confederate", COUNTERS_Q,
                                        ("off-board", "face-down"), "face-down")
    assert not begun(raid)
    with pytest.raises(Refusal, match=WAITING):
        decide(raid.state, "union", cmd.Done(), dice)
    with pytest.raises(Refusal):
        answer(raid.state, "union", COUNTERS_Q, choice)
    placed = answer(raid.state, "confederate", COUNTERS_Q, choice)
    [where] = of_type(placed, CountersPlaced)
    assert (where.audience, where.off_board) == ("public", choice == "off-board")
    assert begun(placed)
    assert information_model(placed.state, "union") is union_sees
    assert information_model(placed.state, "confederate") is InformationModel.OPEN
    # The same game as one whose host set both choices beforehand.
    preset = opened(with_options(loaded, {"raid": True, "off_board": choice == "off-board"}))
    assert begun(preset) and not open_questions(preset.state)
    assert set(preset.state.units) == set(placed.state.units)
    for side in ("union", "confederate"):
        assert project(placed.state, side) == project(preset.state, side)


def test_a_choice_set_beforehand_is_not_asked() -> None:
    loaded = bare()
    assert begun(opened(with_options(loaded, {"raid": False})))
    # The raid set by the host alone: the Confederate units off the board, as such games were
    # always played (their records verify), and nobody is asked.
    raid = opened(with_options(loaded, {"raid": True}))
    assert begun(raid) and not open_questions(raid.state)
    assert information_model(raid.state, "union") is InformationModel.HIDDEN
    assert not raiders(loaded, settings(loaded)) & set(raid.state.units)
    both = opened(with_options(loaded, {"raid": True, "off_board": False}))
    assert begun(both) and not open_questions(both.state)
    assert information_model(both.state, "union") is InformationModel.INVERTED


def test_the_host_opening_the_first_turn_gives_each_choice_its_default() -> None:
    out = decide(opened().state, "", cmd.ForceEndPhase(), dice, host=True)
    [said] = of_type(out, RaidElected)
    assert (said.raid, said.by_default) == (False, True)
    assert "before the Federal player had chosen" in said.report(project(out.state, None))
    assert begun(out) and (out.state.turn, out.state.step) == (1, 0)
    raid = raid_elected()
    out = decide(raid, "", cmd.ForceEndPhase(), dice, host=True)
    [where] = of_type(out, CountersPlaced)
    assert (where.off_board, where.by_default) == (False, True)
    assert begun(out) and (out.state.turn, out.state.step) == (1, 0)
    # No phase deadline runs before the first turn.
    with pytest.raises(Refusal, match=WAITING):
        decide(raid, "", cmd.DeadlinePassed(turn=1, step=0), dice, host=True)


def test_a_game_ended_before_the_choices_reads_no_chart_and_rolls_no_die() -> None:
    """Nothing was played: no raid die, no chart, as for a game ended before its start."""
    for state in (opened().state, raid_elected()):
        assert open_questions(state)  # the premise: a choice is still awaited
        out = end(state, "00", "the players never answered", dice)
        assert not [e for e in out.events if isinstance(e, ev.DieRolled | VictoryDecided)]
        assert isinstance(out.events[-1], ev.GameEnded)


# -- nothing hidden decides what is asked or told --------------------------------------------------
def heard(out: Outcome, side: str) -> list[str]:
    """What ``side`` is told in an outcome: the public events and its own, in full."""
    return [e.model_dump_json() for e in out.events
            if e.audience in ("public", f"side:{side}")]


def edited(changes: dict[str, dict[str, str | int]]) -> LoadedScenario:
    text = SAMPLE.read_text(encoding="utf-8")
    for uid, fields in changes.items():
        text = set_fields(text, uid, fields)
    return bare(text)


@pytest.mark.parametrize(("watcher", "moved"), [
    # Fitz Lee is sighted by the Union as soon as the first turn opens.
    ("union", {"fitz-lee": {"at": "C3417"}, "lee-hq": {"at": "C3020"}}),
    # Buford's division rides off on the raid, and stands elsewhere.
    ("confederate", {"buford-reserve": {"at": "C2012"}, "hooker-hq": {"at": "C4030"}}),
])
def test_before_the_first_turn_neither_side_sees_anything_of_the_enemy_set_up(
        watcher: str, moved: dict[str, dict[str, str | int]]) -> None:
    """Enemy units moved: until the choices are made, the watching side is asked and told
    the same, and its view shows no enemy counter."""
    told: list[list[str]] = []
    for loaded in (bare(), edited(moved)):
        out = opened(loaded)
        assert [q.id for q in open_questions(out.state)] == [RAID_Q]  # the premise
        said = [*heard(out, watcher), repr(project(out.state, watcher))]
        out = answer(out.state, "union", RAID_Q, "raid")
        said += [*heard(out, watcher), repr(project(out.state, watcher))]
        assert not enemies(out.state, watcher)
        told.append(said)
    assert told[0] == told[1]


@pytest.mark.parametrize(("raid", "board", "hidden"), [
    # Under face-down counters a unit's place is public and its identity hidden: W. H. F. Lee
    # (no raid) and Lee's headquarters (the raid) are never sighted as the first turn opens.
    ("no-raid", "", {"whf-lee": {"strength": 4}}),
    ("raid", "face-down", {"lee-hq": {"name": "Headquarters, ANV"}}),
    # Off the board, an unsighted unit's place is hidden too.
    ("raid", "off-board", {"lee-hq": {"at": "C4121", "name": "Headquarters, ANV"}}),
])
def test_hidden_confederate_set_up_changes_nothing_the_union_is_asked_or_told(
        raid: str, board: str, hidden: dict[str, dict[str, str | int]]) -> None:
    told: list[list[str]] = []
    for loaded in (bare(), edited(hidden)):
        out = opened(loaded)
        said = [*heard(out, "union"), repr(project(out.state, "union"))]
        out = answer(out.state, "union", RAID_Q, raid)
        said += [*heard(out, "union"), repr(project(out.state, "union"))]
        if raid == "raid":
            out = answer(out.state, "confederate", COUNTERS_Q, board)
            said += [*heard(out, "union"), repr(project(out.state, "union"))]
        assert begun(out)  # the premise: the first turn opened, and these stay unidentified
        shown = {u.ref: u for u in project(out.state, "union").units}
        assert not any(shown[uid].name for uid in hidden if uid in shown)
        told.append(said)
    assert told[0] == told[1]


# -- through the umpire: logged, announced and verified --------------------------------------------
async def _elected(db: Path) -> list[str]:
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        created = await umpire.create_game(str(SAMPLE), HOST, game_id="g1", seed=SEED)
        assert "the Federal player chooses at the start" in created.text
        await umpire.join("g1", UNION, "union")
        await umpire.join("g1", CONFEDERATE, "confederate")
        await umpire.start("g1", HOST)
        with pytest.raises(UmpireError, match=WAITING):
            await umpire.handle("g1", UNION, cmd.Done())
        await umpire.handle("g1", UNION, cmd.Answer(question=RAID_Q, choice="raid"))
        await umpire.handle("g1", CONFEDERATE, cmd.Answer(question=COUNTERS_Q,
                                                          choice="off-board"))
        state = await umpire.repository.state_for("g1")
        assert state.acting_sides() and information_model(state, "union") is \
            InformationModel.HIDDEN
        await umpire.end_game("g1", HOST)
        return [d.text for d in await store.pending_deliveries("g1", limit=10_000)
                if d.kind == "public"]


def test_the_choices_are_logged_announced_and_verified(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    db = tmp_path / "cv.db"
    public = asyncio.run(_elected(db))
    assert any("The Federal player sends the cavalry raid." in t for t in public)
    assert any("The Confederate player keeps his units off the board" in t for t in public)
    assert asyncio.run(verify(db, None)) == 0, capsys.readouterr().out


async def _opened_by_the_host(db: Path) -> list[str]:
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(SAMPLE), HOST, game_id="g1", seed=SEED)
        await umpire.join("g1", UNION, "union")
        await umpire.join("g1", CONFEDERATE, "confederate")
        await umpire.start("g1", HOST)
        # No Done for the turn is recorded before the turn is there to be done with.
        with pytest.raises(UmpireError, match=WAITING):
            await umpire.done("g1", UNION, until_turn=True)
        await umpire.handle("g1", HOST, cmd.ForceEndPhase(), is_admin=True)
        state = await umpire.repository.state_for("g1")
        assert state.acting_sides() and not open_questions(state)
        return [d.text for d in await store.pending_deliveries("g1", limit=10_000)]


def test_the_host_opens_the_first_turn_and_cuts_no_phase_short(tmp_path: Path) -> None:
    sent = asyncio.run(_opened_by_the_host(tmp_path / "cv.db"))
    assert any("The host opened the first turn before the Federal player had chosen: no raid."
               in t for t in sent)
    assert not any("before you had finished" in t for t in sent)


# -- through the bot: buttons, and the wrong side's press refused ---------------------------------
async def _press(fake: FakeDiscord, message: JSON, custom_id: str, user: FakeUser) -> str:
    handle = await fake.click(message, custom_id, user=user)
    callback = await handle.response()
    said = await handle.original_message() if callback.type == 5 else handle.original
    assert said is not None and said["flags"] & EPHEMERAL, said
    return text_of(said)


def _asked(fake: FakeDiscord, user: FakeUser, words: str) -> list[JSON]:
    return [m for m in fake.dms_to(user) if words in text_of(m)]


async def test_the_union_player_elects_the_raid_with_a_button(fake: FakeDiscord,
                                                              tmp_path: Path) -> None:
    """alice commands the Union (and hosts), bob the Confederates."""
    async with started_game(fake, tmp_path, SAMPLE, ("union", "confederate"),
                            channel=True) as (bot, alice, bob):
        await bot.outbox.idle()
        [dm] = await _wait(fake, alice, "chooses whether his cavalry rides off")
        ids = {b["label"]: b["custom_id"] for b in buttons_of(dm)}
        assert set(ids) == {"Raid", "No-raid (default)"}
        assert "the first turn opens once it is answered" in text_of(dm)
        assert "before the phase ends" not in text_of(dm)
        assert not _asked(fake, bob, "chooses whether his cavalry rides off")
        # bob's press of the Union's button, forged into his own DM, is refused.
        before = len(await bot.umpire.store.events("g1"))
        refused = await _press(fake, forged_button(fake, bob, ids["Raid"]), ids["Raid"], bob)
        assert "no question" in refused
        assert len(await bot.umpire.store.events("g1")) == before
        # alice's press elects the raid; it is announced in the channel.
        said = await _press(fake, dm, ids["Raid"], alice)
        assert "no question" not in said
        record = await bot.umpire.store.get_game("g1")
        assert record is not None and record.channel_id is not None
        await fake.wait_for(lambda: any("The Federal player sends the cavalry raid." in text_of(m)
                                        for m in fake.messages_in(record.channel_id)),
                            what="the announcement")
        state = await bot.umpire.repository.state_for("g1")
        assert not raiders(state.loaded, settings(state.loaded)) & set(state.units)
        [asked] = await _wait(fake, bob, "chooses where his units stand")
        board = {b["label"]: b["custom_id"] for b in buttons_of(asked)}
        # alice cannot choose for the Confederates either.
        refused = await _press(fake, forged_button(fake, alice, board["Off-board"]),
                               board["Off-board"], alice)
        assert "no question" in refused
        assert await _press(fake, asked, board["Off-board"], bob)
        state = await bot.umpire.repository.state_for("g1")
        assert state.acting_sides() and information_model(state, "union") is \
            InformationModel.HIDDEN


async def _wait(fake: FakeDiscord, user: FakeUser, words: str) -> list[JSON]:
    await fake.wait_for(lambda: bool(_asked(fake, user, words)), what=words)
    return _asked(fake, user, words)


def test_before_the_first_turn_no_counter_of_the_side_shows_turned_face_up() -> None:
    """Which of his counters the enemy sees is shown to their owner once the counters stand on
    the table, not while the first turn waits for the choices (rulings CV-38, CV-41)."""
    waiting = opened(edited({"fitz-lee": {"at": "C3417"}, "lee-hq": {"at": "C3020"}})).state
    assert not any(u.face_up for u in project(waiting, "union").own_units())
    playing = answer(waiting, "union", RAID_Q, "no-raid").state
    assert any(u.face_up for u in project(playing, "union").own_units())  # the control
