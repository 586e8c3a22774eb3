"""The moments of play a rule module hooks (game start, game end, positions changed), the
reaction window (a question put to a side at once, its default after a deadline or at the
step's end), and stops that are never refusals, through a small test-only module
(tests/support/probe_module.py)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError

from rules import commands as cmd
from rules import events as ev
from rules.engine import Outcome, Refusal, decide, end, end_if_over, start
from rules.forces.location import Withdrawn
from rules.modules import catalog as rule_modules
from rules.orders.movement import MoveError
from rules.orders.stops import StopKind
from rules.state import GameState, initial_state, with_units
from rules.turn.reaction import Question, open_questions
from rules.view import project
from storage.store import Store
from tests.support.probe_module import (
    BLUE,
    GREY,
    HOST,
    NAME,
    TRIPWIRE,
    Probe,
    _question_asked,
    notes,
    probe_scenario,
    registered,
    score,
)
from tests.support.tiny_games import load_tiny
from umpire.clock.questions import time_out_all, time_out_questions
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError
from umpire.verify.check import verify

SEED = bytes(range(32))


def dice(seq: int, purpose: str, spec: str) -> int:
    """Dice that depend on the log position and purpose, as the seeded dice do."""
    return int(hashlib.sha256(f"{seq}:{purpose}:{spec}".encode()).hexdigest(), 16) % 6 + 1


def started(probe: Probe) -> GameState:
    state = replace(initial_state(load_tiny()), modules=(NAME,))
    return start(state, hashlib.sha256(SEED).hexdigest(), dice).state


def do(state: GameState, side: str, command: cmd.Command, host: bool = False) -> Outcome:
    return decide(state, side, command, dice, host)


# -- game start and end --------------------------------------------------------------------------
def test_the_start_hook_runs_before_the_first_sighting_pass(probe: Probe) -> None:
    state = replace(initial_state(load_tiny()), modules=(NAME,))
    out = start(state, hashlib.sha256(SEED).hexdigest(), dice)
    kinds = [e.type for e in out.events]
    # The first sighting pass belongs to the first step, which opens after the hook.
    assert kinds.index("game_started") < kinds.index("probe_noted") < kinds.index("phase_began")
    assert notes(out.state)[0] == ("start after 0 sightings", ())


def test_the_start_hook_may_take_a_unit_out_before_anyone_sights_it(probe: Probe) -> None:
    """A choice settled before turn 1 (a force left off the board) is made in the start hook:
    the unit is withdrawn before the first sighting pass, so no side ever sights it, and its
    own side reads it as withdrawn."""
    state = replace(initial_state(load_tiny()), modules=(NAME,))
    grey = next(u for u in state.units.values() if u.side == "grey" and u.combat)
    probe.withdraw_at_start = grey.id
    out = start(state, hashlib.sha256(SEED).hexdigest(), dice)
    assert isinstance(out.state.units[grey.id].location, Withdrawn)
    seen = [uid for e in out.events if isinstance(e, ev.Sighted) for uid in e.seen]
    assert grey.id not in seen
    assert all(u.ref != grey.id for u in project(out.state, "blue").units)
    assert [o.ref for o in project(out.state, "grey").off_map if isinstance(o.location,
                                                                          Withdrawn)] == [grey.id]


def test_the_end_hook_rolls_before_the_seed_both_ways(probe: Probe) -> None:
    state = started(probe)
    by_host = end(state, SEED.hex(), "enough", dice)
    kinds = [e.type for e in by_host.events]
    assert kinds[-3:] == ["die_rolled", "probe_scored", "game_ended"]
    roll = by_host.events[-3]
    assert roll.purpose == "probe victory"  # type: ignore[attr-defined]
    assert score(by_host.state) == roll.value  # type: ignore[attr-defined]
    # The last turn played: the same hook, in the same batch as the end.
    out = None
    for _ in range(100):
        side = state.acting_sides()[0]
        out = do(state, side, cmd.Done())
        if end_if_over(out, SEED.hex()):
            break
        state = out.state
    assert out is not None and out.finished
    assert [e.type for e in out.events][-3:] == ["die_rolled", "probe_scored", "game_ended"]
    assert out.state.status == "ended" and score(out.state) is not None


# -- positions changed ----------------------------------------------------------------------------
def test_positions_changed_after_moves_arrivals_and_corrections(probe: Probe) -> None:
    state = started(probe)
    moved = do(state, "blue", cmd.Move(unit="1st Brigade", route="A0304"))
    assert notes(moved.state)[-1] == ("moved", ("blue-1",))
    # The hook sees sighting already brought up to date by the move.
    kinds = [e.type for e in moved.events]
    assert "sighted" not in kinds or kinds.index("sighted") < kinds.index("probe_noted")
    fixed = do(moved.state, "blue", cmd.Correct(unit="grey-1", changes={"cell": "B0604"},
                                                 reason="set-up error"), host=True)
    assert notes(fixed.state)[-1] == ("moved", ("grey-1",))
    state = fixed.state
    while state.turn < 2:  # Blue's cavalry arrives in turn 2
        state = do(state, state.acting_sides()[0], cmd.Done()).state
    assert ("moved", ("blue-cav",)) in notes(state)


# -- stops ----------------------------------------------------------------------------------------
def test_a_new_module_stop_ends_the_move_and_is_never_a_refusal(probe: Probe) -> None:
    state = started(probe)
    probe.tripwire = state.loaded.board.parse("A0204")
    out = do(state, "blue", cmd.Move(unit="1st Brigade", route="A0304"))
    (moved,) = [e for e in out.events if e.type == "unit_moved"]
    wire = probe.tripwire
    assert moved.path == ((wire.col, wire.row),)  # type: ignore[attr-defined]
    assert moved.stopped == TRIPWIRE.words  # type: ignore[attr-defined]
    assert TRIPWIRE.kind is StopKind.RULE
    # Stopped in a cell its own side has filled: it falls back, with no cell left it halts
    # where it stood. Still a move, not a refusal.
    full = with_units(state, {uid: state.units[uid].placed(wire)
                              for uid in ("blue-2", "blue-cav")})
    halted = do(full, "blue", cmd.Move(unit="1st Brigade", route="A0304"))
    (stop,) = [e for e in halted.events if e.type == "unit_halted"]
    assert stop.reason.startswith(TRIPWIRE.words)  # type: ignore[attr-defined]
    assert "in a full friendly cell" in stop.reason  # type: ignore[attr-defined]


def test_a_stop_hook_that_raises_a_move_error_is_not_turned_into_a_refusal(
        probe: Probe) -> None:
    """Only the order's own check may refuse it: an error raised while walking is a fault,
    raised as it is, never the polite refusal that would tell the side something."""
    state = started(probe)
    probe.raise_in_stop = MoveError("the probe knows where the enemy is")
    with pytest.raises(MoveError) as raised:
        do(state, "blue", cmd.Move(unit="1st Brigade", route="A0304"))
    assert not isinstance(raised.value, Refusal)
    # What the side itself knows is wrong is still refused, before any hook is asked.
    with pytest.raises(Refusal, match="does not leave the unit's cell"):
        do(state, "blue", cmd.Move(unit="1st Brigade", route="A0104"))


def test_a_stop_hook_must_return_a_stop(probe: Probe) -> None:
    state = started(probe)
    probe.tripwire = state.loaded.board.parse("A0204")
    probe.stop_reason = lambda *_: "a bare string"  # type: ignore[method-assign,assignment,return-value]
    with pytest.raises(TypeError, match="returns a Stop or None"):
        do(state, "blue", cmd.Move(unit="1st Brigade", route="A0304"))


# -- the reaction window --------------------------------------------------------------------------
def alarmed(probe: Probe, **setup: object) -> GameState:
    """Blue's 1st Brigade has just marched into the alarm cell: Grey is asked at once."""
    state = started(probe)
    probe.alarm = state.loaded.board.parse("A0304")
    for key, value in setup.items():
        setattr(probe, key, value)
    out = do(state, "blue", cmd.Move(unit="1st Brigade", route="A0304"))
    (asked,) = [e for e in out.events if e.type == "question_asked"]
    assert asked.audience == "side:grey"
    return out.state


def test_a_question_holds_the_phasing_side_until_it_is_answered(probe: Probe) -> None:
    state = alarmed(probe)
    (question,) = open_questions(state)
    assert (question.id, question.side, question.topic) == ("grey:q1", "grey", "blue-1")
    assert question.choices == ("fire", "hold") and question.default == "hold"
    for held in (cmd.Move(unit="2nd Brigade", route="A0104"), cmd.Done(),
                 cmd.SetFormation(unit="2nd Brigade", formation="column")):
        with pytest.raises(Refusal, match="wait: the Grey Army player is answering"):
            do(state, "blue", held)
    # Blue cannot answer Grey's question, nor Grey give a choice it was not offered.
    with pytest.raises(Refusal, match="no question 'grey:q1' is waiting for your answer"):
        do(state, "blue", cmd.Answer(question="grey:q1", choice="fire"))
    with pytest.raises(Refusal, match="answer fire or hold"):
        do(state, "grey", cmd.Answer(question="grey:q1", choice="charge"))
    answered = do(state, "grey", cmd.Answer(question="grey:q1", choice="fire"))
    assert notes(answered.state)[-1] == ("grey:q1 fire", ("blue-1",))
    assert open_questions(answered.state) == []
    after = do(answered.state, "blue", cmd.Move(unit="2nd Brigade", route="A0104"))
    assert [e.type for e in after.events if e.type == "unit_moved"]
    with pytest.raises(Refusal, match="no question 'grey:q1'"):
        do(answered.state, "grey", cmd.Answer(question="grey:q1", choice="fire"))


def test_the_default_applies_after_the_deadline(probe: Probe) -> None:
    state = alarmed(probe, seconds=30)
    assert open_questions(state)[0].seconds == 30
    with pytest.raises(Refusal, match="only the game's host"):
        do(state, "blue", cmd.AnswerTimeout(question="grey:q1"))
    timed_out = do(state, "", cmd.AnswerTimeout(question="grey:q1"), host=True)
    assert notes(timed_out.state)[-1] == ("grey:q1 hold by default", ("blue-1",))
    (answered,) = [e for e in timed_out.events if e.type == "question_answered"]
    assert answered.by_default and answered.choice == "hold"  # type: ignore[attr-defined]
    do(timed_out.state, "blue", cmd.Done())  # movement goes on


def test_a_question_without_a_clock_waits_for_the_end_of_the_step(probe: Probe) -> None:
    state = alarmed(probe, holds=False)
    with pytest.raises(Refusal, match="waits until the phase ends"):
        do(state, "", cmd.AnswerTimeout(question="grey:q1"), host=True)
    # It does not hold Blue: Blue finishes, and the step's end gives the default first.
    out = do(state, "blue", cmd.Done())
    kinds = [e.type for e in out.events]
    assert kinds.index("question_answered") < kinds.index("phase_began")
    assert ("grey:q1 hold by default", ("blue-1",)) in notes(out.state)
    assert open_questions(out.state) == []


def test_the_host_ending_the_phase_settles_a_holding_question(probe: Probe) -> None:
    state = alarmed(probe)
    out = do(state, "", cmd.ForceEndPhase(), host=True)
    assert ("grey:q1 hold by default", ("blue-1",)) in notes(out.state)


def test_questions_are_numbered_among_the_asked_sides_own() -> None:
    with registered() as probe:
        state = alarmed(probe, holds=False)
        state = do(state, "blue", cmd.Move(unit="2nd Brigade", route="A0104 A0204 A0304")).state
        assert [q.id for q in open_questions(state)] == ["grey:q1", "grey:q2"]


def test_a_default_must_be_one_of_the_choices() -> None:
    with pytest.raises(ValidationError, match="not one of the choices"):
        Question(id="grey:q1", module=NAME, side="grey", topic="x", choices=("a", "b"),
                 default="c")
    with pytest.raises(ValidationError):
        Question(id="grey:q1", module=NAME, side="grey", topic="x", choices=("a",),
                 default="a")


async def play_and_end(db: Path, scenario: str) -> None:
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(scenario, HOST, game_id="g1", channel_id=None)
        await umpire.join("g1", BLUE, "blue")
        await umpire.join("g1", GREY, "grey")
        await umpire.start("g1", HOST)
        await umpire.handle("g1", BLUE, cmd.Move(unit="1st Brigade", route="A0304"))
        await umpire.end_game("g1", HOST)


def test_verify_rederives_the_end_hooks_roll(probe: Probe, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(rule_modules.KNOWN_MODULES, NAME, "a test-only module")
    db = tmp_path / "game.db"
    asyncio.run(play_and_end(db, probe_scenario(tmp_path)))
    assert asyncio.run(verify(db, None)) == 0, capsys.readouterr().out
    capsys.readouterr()
    with sqlite3.connect(db) as conn:
        seq, payload = conn.execute(
            "SELECT seq, payload FROM events WHERE type = 'die_rolled' ORDER BY seq DESC"
        ).fetchone()
        data = json.loads(payload)
        assert data["purpose"] == "probe victory"
        data["value"] = data["value"] % 6 + 1  # a friendlier victory roll
        conn.execute("DROP TRIGGER IF EXISTS events_append_only")
        conn.execute("UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(data), seq))
        conn.execute("DELETE FROM snapshots")
    assert asyncio.run(verify(db, None)) != 0
    assert "probe victory" in capsys.readouterr().out


async def test_the_umpire_applies_the_default_when_the_time_is_up(
        probe: Probe, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rule_modules.KNOWN_MODULES, NAME, "a test-only module")
    probe.seconds = 60
    async with Store.open(tmp_path / "game.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await _question_asked(umpire, probe, tmp_path, "g1")
        (asked,) = [e for e in await store.events("g1") if e.type == "question_asked"]
        with pytest.raises(UmpireError, match="wait: the Grey Army player is answering"):
            await umpire.handle("g1", BLUE, cmd.Done())
        early = asked.created_at + timedelta(seconds=59)
        assert await time_out_questions(umpire, "g1", early) == []
        late = asked.created_at + timedelta(seconds=60)
        assert await time_out_questions(umpire, "g1", late) == ["grey:q1"]
        assert await time_out_questions(umpire, "g1", late) == []  # applied once
        state = await umpire.repository.state_for("g1")
        assert notes(state)[-1] == ("grey:q1 hold by default", ("blue-1",))
        await umpire.handle("g1", BLUE, cmd.Done())  # Blue's movement goes on


async def test_the_bots_clock_times_out_every_games_questions_after_a_restart(
        probe: Probe, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``time_out_all`` (the bot's outbox loop calls it on every pass) applies each game's
    expired questions once, counting from the stored question, so that a question asked before
    a restart still times out after it."""
    monkeypatch.setitem(rule_modules.KNOWN_MODULES, NAME, "a test-only module")
    probe.seconds = 60
    async with Store.open(tmp_path / "game.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await _question_asked(umpire, probe, tmp_path, "g1")
        await _question_asked(umpire, probe, tmp_path, "g2")
        (asked, _) = [e for e in await store.events("g1") if e.type == "question_asked"] + [
            e for e in await store.events("g2") if e.type == "question_asked"]
    async with Store.open(tmp_path / "game.db") as store:  # the bot restarted
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        assert await time_out_all(umpire, asked.created_at + timedelta(seconds=30)) == []
        late = asked.created_at + timedelta(seconds=3600)
        assert await time_out_all(umpire, late) == [("g1", "grey:q1"), ("g2", "grey:q1")]
        assert await time_out_all(umpire, late) == []
        await umpire.handle("g2", BLUE, cmd.Done())  # Blue's movement goes on
