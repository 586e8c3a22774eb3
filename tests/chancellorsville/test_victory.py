"""The Chancellorsville victory option (rule text 002): the raid roll at the end picks the
chart's column, the chart is read with the Federal margin, who holds a place is kept for the
umpire only, and ``vedette verify`` re-derives the roll."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from rules import commands as cmd
from rules.chancellorsville.events import PlacesHeld, VictoryDecided
from rules.chancellorsville.raid_module import settings
from rules.chancellorsville.victory import RAID_ROLL, holders, score
from rules.engine import LAST_TURN_PLAYED, DiceSource, Outcome, decide, end, end_if_over
from rules.events import DieRolled, GameEnded
from rules.forces.location import Eliminated
from rules.state import GameState, initial_state, with_units
from rules.view import project
from storage.store import Store
from tests.support.chancellorsville import SAMPLE, SEED, dice, raided, sample, started
from umpire.answers import UmpireError
from umpire.games.catalog import with_options
from umpire.reads.maps import MapMaker
from umpire.service import Umpire
from umpire.verify.check import verify

HOST, UNION, CONFEDERATE = 1, 101, 201
SEED_HEX = SEED.hex()


def fixed(value: int) -> DiceSource:
    """Dice that always show ``value`` (the raid roll is the only roll at the end)."""
    return lambda seq, purpose, spec: value


def ended(state: GameState, roll: int = 3) -> Outcome:
    return end(state, SEED_HEX, "the host ends it", fixed(roll))


def decided(out: Outcome) -> VictoryDecided:
    found = [e for e in out.events if isinstance(e, VictoryDecided)]
    assert len(found) == 1
    return found[0]


def host_moves(state: GameState, unit: str, to: str) -> GameState:
    return decide(state, "", cmd.Correct(unit=unit, changes={"cell": to}, reason="test"),
                  dice, host=True).state


# -- the roll and the column ---------------------------------------------------------------------
@pytest.mark.parametrize(("roll", "column"), [(1, "Successful Raid"), (2, "Successful Raid"),
                                              (3, "No Raid"), (6, "No Raid")])
def test_the_raid_roll_picks_the_column(roll: int, column: str) -> None:
    out = ended(started(raided()), roll)
    rolls = [e for e in out.events if isinstance(e, DieRolled) and e.purpose == RAID_ROLL]
    assert len(rolls) == 1 and rolls[0].audience == "public" and rolls[0].value == roll
    assert rolls[0].table == "raid_outcome"
    result = decided(out)
    assert (result.raid, result.roll, result.column) == (True, roll, column)
    # the event comes before the seed is revealed
    kinds = [type(e) for e in out.events]
    assert kinds.index(VictoryDecided) < kinds.index(GameEnded)


def test_without_the_raid_no_die_is_rolled_and_no_raid_is_read() -> None:
    out = ended(started(sample()), 1)
    assert not any(isinstance(e, DieRolled) for e in out.events)
    result = decided(out)
    assert (result.raid, result.roll, result.column) == (False, 0, "No Raid")
    assert "not sent" in result.report(project(out.state, None))


def test_both_columns_read_the_same_margin_differently() -> None:
    # At the start the places are even (8 to 8): a draw without a raid, a Union marginal
    # victory after a successful one.
    success = ended(started(raided()), 1)
    ok, failed = decided(success), decided(ended(started(raided()), 4))
    assert ok.margin == failed.margin == 0
    assert (ok.result, failed.result) == ("USA-M", "DRAW")
    assert ok.words == "Union marginal victory"
    text = ok.report(project(success.state, "union"))
    assert "raid roll is 1" in text and "Successful Raid" in text and "USA-M" in text


def test_the_option_off_reads_no_chart() -> None:
    loaded = with_options(raided(), {"victory_roll": False})
    out = ended(started(loaded), 1)
    assert not any(isinstance(e, DieRolled | VictoryDecided | PlacesHeld) for e in out.events)


# -- the score -------------------------------------------------------------------------------------
def test_a_place_changes_hands_and_stays_held_after_its_occupier_leaves() -> None:
    state = started(sample())
    s = settings(state.loaded)
    assert holders(state, s)["Fredericksburg"] == "confederate"
    out = decide(state, "", cmd.Correct(unit="robinson", changes={"cell": "Fredericksburg"},
                                        reason="test"), dice, host=True)
    held = [e for e in out.events if isinstance(e, PlacesHeld)]
    assert [e.held for e in held] == [{"Fredericksburg": "union"}]
    assert all(e.audience == "umpire" for e in held)  # no player learns it before the end
    after = host_moves(out.state, "robinson", "C4827")
    assert holders(after, s)["Fredericksburg"] == "union"
    assert score(after, s).margin == score(state, s).margin + 2 * 3


def test_eliminated_enemy_strength_scores() -> None:
    state = started(raided())
    s = settings(state.loaded)
    before = score(state, s)
    unit = state.units["anderson"]
    gone = with_units(state, {"anderson": replace(unit, strength=0, location=Eliminated())})
    assert score(gone, s).federal == before.federal + 1 * unit.strength
    assert score(gone, s).confederate == before.confederate


def test_the_margin_beyond_the_chart_reads_its_end_row() -> None:
    state = started(sample())
    wiped = with_units(state, {u.id: replace(u, strength=0, location=Eliminated())
                               for u in state.units.values() if u.side == "confederate"
                               and u.kind != "hq"})
    result = decided(ended(wiped))
    assert result.margin > 20 and result.result == "USA-D"


# -- the last turn ---------------------------------------------------------------------------------
def test_the_last_turn_reads_the_chart_before_the_seed() -> None:
    state = started(raided())
    last = replace(state, turn=state.last_turn)
    out = Outcome(last, dice)
    for _ in range(40):
        for side in out.state.acting_sides():
            step = decide(out.state, side, cmd.Done(), dice)
            out = replace(step, events=[*out.events, *step.events])
        if out.finished:
            break
    assert end_if_over(out, SEED_HEX)
    kinds = [type(e) for e in out.events]
    assert VictoryDecided in kinds and kinds.index(VictoryDecided) < kinds.index(GameEnded)
    ended_event = next(e for e in out.events if isinstance(e, GameEnded))
    assert ended_event.reason == LAST_TURN_PLAYED


# -- through the umpire, and verify ----------------------------------------------------------------
async def _played_and_ended(db: Path) -> list[str]:
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(SAMPLE), HOST, game_id="g1", seed=SEED,
                                 options={"raid": True, "off_board": True})
        await umpire.join("g1", UNION, "union")
        await umpire.join("g1", CONFEDERATE, "confederate")
        await umpire.start("g1", HOST)
        state = await umpire.repository.state_for("g1")
        for side in state.acting_sides():
            await umpire.handle("g1", UNION if side == "union" else CONFEDERATE, cmd.Done())
        await umpire.end_game("g1", HOST)
        return [d.text for d in await store.pending_deliveries("g1") if d.kind == "public"]


def test_the_host_ending_early_rolls_a_checked_die(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "cv.db"
    public = asyncio.run(_played_and_ended(db))
    assert any(t.startswith("**Victory.** The Federal raid roll is") for t in public)
    assert asyncio.run(verify(db, None)) == 0, capsys.readouterr().out
    capsys.readouterr()
    with sqlite3.connect(db) as conn:
        seq, payload = conn.execute(
            "SELECT seq, payload FROM events WHERE type = 'die_rolled' ORDER BY seq DESC"
        ).fetchone()
        data = json.loads(payload)
        assert data["purpose"] == RAID_ROLL
        data["value"] = data["value"] % 6 + 1  # a friendlier raid roll
        conn.execute("DROP TRIGGER IF EXISTS events_append_only")
        conn.execute("UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(data), seq))
        conn.execute("DELETE FROM snapshots")
    assert asyncio.run(verify(db, None)) != 0
    assert RAID_ROLL in capsys.readouterr().out


def test_a_game_ended_before_it_starts_reads_no_chart_and_rolls_no_die() -> None:
    """No result for a game nobody played, and no roll on a seed never committed to."""
    out = end(initial_state(raided()), "00", "changed our minds", fixed(1))
    assert not [e for e in out.events if isinstance(e, (VictoryDecided, DieRolled))]
    assert isinstance(out.events[-1], GameEnded)


@pytest.mark.parametrize(("options", "words"), [
    ({"raid": "yes"}, "'raid' is true or false"),
    ({"raid": 1}, "'raid' is true or false"),
    ({"riad": True}, "no game option 'riad'"),
    ({"victory_roll": "no"}, "'victory_roll' is true or false"),
])
def test_a_wrong_option_at_creation_is_refused_and_makes_no_game(
        tmp_path: Path, options: dict[str, object], words: str) -> None:
    async def run() -> None:
        async with Store.open(tmp_path / "g.db") as store:
            umpire = Umpire(store, maps=MapMaker(enabled=False))
            with pytest.raises(UmpireError, match=words):
                await umpire.create_game(str(SAMPLE), 1, options=options)  # type: ignore[arg-type]
            assert await store.list_games() == []
    asyncio.run(run())


def test_a_raid_option_for_a_scenario_without_the_module_is_refused(tmp_path: Path) -> None:
    flank = SAMPLE.parent / "flank-march.toml"
    async def run() -> None:
        async with Store.open(tmp_path / "g.db") as store:
            umpire = Umpire(store, maps=MapMaker(enabled=False))
            with pytest.raises(UmpireError, match="belongs to the rule module 'raid_victory'"):
                await umpire.create_game(str(flank), 1, options={"raid": True})
            assert await store.list_games() == []
    asyncio.run(run())
