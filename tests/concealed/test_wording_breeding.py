"""The breeding die says what came of it (ruling INFO-17): the owner's roll line names the marker
that kept the force and the decoy, and so do the after-action report's list of rolls and
``vedette verify --rolls`` once the game is over; the enemy is told the same whichever marker
kept the force."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from rules import events as ev
from rules.commands import Done
from rules.concealed.commands import BreedDecoy, ConcealForce
from rules.concealed.events import DecoyBred, breeding_purpose
from tests.fakediscord import FakeDiscord, FakeUser
from tests.support.botkit import TOKEN, private_answer, started_game, text_of
from tests.support.concealed import (
    COLSTON,
    GREY_AT,
    SCENARIO,
    SEED,
    Rigged,
    conceal,
    concealed_ground,
    real_under,
)
from umpire.games import dice as umpire_dice
from umpire.games.routing import messages_for
from umpire.verify.check import logged_outcome, roll_words, verify
from umpire.verify.record import LoggedEvent
from umpire.words import after_action

SIDES = ("confederate", "union")
#: The breeding die's value for the force under the first marker by id (1), or the second (2).
DIE = {1: 1, 2: 6}


def outcome(kept: str, decoy: str) -> str:
    return f"marker {kept} keeps the force, marker {decoy} is the decoy"


# -- the roll's words, on the engine -------------------------------------------------------------
def breed_batch(holds: int) -> tuple[list[Any], str, str]:
    """Grey conceals its division on turn 1 and breeds a decoy on turn 2, the die putting the
    force under the first marker by id (``holds`` 1) or the second (2): the batch's messages,
    the marker that kept the force and the decoy."""
    game = concealed_ground(GREY_AT)
    game.to(1, "movement", "grey")
    parent = conceal(game)
    game.to(2, "movement", "grey")
    game.dice.set(which=[DIE[holds]])
    before = game.state
    out = game.do("grey", BreedDecoy(marker=parent))
    first, second = sorted(game.state.markers)
    kept, decoy = (first, second) if real_under(game, first) else (second, first)
    return messages_for(before, list(out.events), out.state, "g1", {}), kept, decoy


@pytest.mark.parametrize("holds", (1, 2))
def test_the_owners_roll_line_says_which_marker_kept_the_force(holds: int) -> None:
    told, kept, decoy = breed_batch(holds)
    first, second = sorted((kept, decoy))
    assert kept == (first if holds == 1 else second)  # the die read as the rule reads it
    rolls = [m.text for m in told if m.target == "grey" and m.text.startswith("Secret roll")]
    assert rolls == [f"Secret roll for which of markers {first} and {second} holds the force: "
                     f"{DIE[holds]} on 1d6: {outcome(kept, decoy)} (game `g1`, your side's "
                     "roll 1; after the game `vedette verify --rolls` shows it in the log)"]


def test_the_enemy_is_told_the_same_of_the_breeding_whichever_marker_kept_the_force() -> None:
    """A cheater's test on the engine: the same batch, the force under either marker."""
    first_holds, kept_one, _ = breed_batch(1)
    second_holds, kept_two, _ = breed_batch(2)
    assert kept_one != kept_two  # the games differ, and the owner is told how
    assert ([m.text for m in first_holds if m.target == "grey"]
            != [m.text for m in second_holds if m.target == "grey"])
    blue = [[(m.kind, m.target, m.text) for m in told if m.target != "grey"]
            for told in (first_holds, second_holds)]
    assert blue[0] == blue[1]
    assert not [t for _, _, t in blue[0] if "keeps the force" in t or "Secret roll" in t]


def test_a_roll_is_settled_only_by_its_own_event_told_to_its_own_side() -> None:
    roll = ev.DieRolled(audience="side:grey", purpose=breeding_purpose("2210", "7431"),
                        dice="1d6", value=5)
    bred = DecoyBred(audience="side:grey", parent="1000", kept="7431", decoy="2210")
    assert ev.roll_outcome(roll, [bred]) == outcome("7431", "2210")
    other = DecoyBred(audience="side:grey", parent="1000", kept="7431", decoy="3333")
    assert ev.roll_outcome(roll, [other]) == ""
    assert ev.roll_outcome(roll, [bred.model_copy(update={"audience": "side:blue"})]) == ""
    assert ev.roll_outcome(roll, [roll, bred]) == ""  # the next roll's event is not this one's
    read = roll.model_copy(update={"table": "fire", "result": "1"})
    assert ev.roll_outcome(read, [bred]) == ""  # a table's result says what came of it


# -- through the bot ---------------------------------------------------------------------------
def rig(monkeypatch: pytest.MonkeyPatch, holds: int) -> None:
    def maker(seed: bytes, game_id: str) -> Rigged:
        return Rigged(seed, game_id, holds)

    monkeypatch.setattr(umpire_dice, "SeededDice", maker)


async def say(fake: FakeDiscord, command: str, user: FakeUser, options: dict[str, Any]) -> str:
    return text_of(await private_answer(fake, command, user, options))


async def to_movement(umpire: Any, users: dict[str, FakeUser], turn: int,
                      side: str = "confederate") -> None:
    """Every acting side says done until ``side``'s movement phase of ``turn``."""
    for _ in range(60):
        state = await umpire.repository.state_for("g1")
        if (state.turn == turn and state.current.allows("move")
                and side in state.acting_sides()):
            return
        for acting in state.acting_sides():
            await umpire.handle("g1", users[acting].id, Done())
    raise AssertionError(f"never reached the {side} movement phase of turn {turn}")


async def bred_through_the_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, holds: int
                               ) -> tuple[list[str], list[str], str, str]:
    """Flank-march through the bot: the Confederates conceal Colston and breed a decoy, the
    die putting the force under the first marker by id or the second as ``holds`` says, and
    play on to the Union's movement of turn 3. Returns what the Confederate player got
    (the answer to the breeding, DMs) and what the Union player got (DMs, /log), the kept
    marker and the decoy."""
    rig(monkeypatch, holds)
    tmp_path.mkdir()
    async with (FakeDiscord(token=TOKEN, callback_deadline=3.0) as fake,
                started_game(fake, tmp_path, SCENARIO, SIDES, seed=SEED) as (bot, alice, bob)):
        users = {"confederate": alice, "union": bob}
        await to_movement(bot.umpire, users, 1)
        await say(fake, "conceal force", alice, {"leader": COLSTON})
        await to_movement(bot.umpire, users, 2)
        [parent] = sorted((await bot.umpire.repository.state_for("g1")).markers)
        answer = await say(fake, "conceal breed", alice, {"marker": f"marker {parent}"})
        state = await bot.umpire.repository.state_for("g1")
        first, second = sorted(state.markers)
        kept, decoy = (first, second) if holds == 1 else (second, first)
        await to_movement(bot.umpire, users, 3, "union")
        await bot.outbox.idle()
        owner = [answer, *(text_of(m) for m in fake.dms_to(alice))]
        enemy = [text_of(m) for m in fake.dms_to(bob)]
        # The /log mentions the players, whose ids each fake Discord makes afresh.
        log = (await bot.umpire.log_text("g1", bob.id, last=100)).text
        enemy.append(re.sub(r"<@\d+>", "<@player>", log))
    return owner, enemy, kept, decoy


async def test_the_owners_answer_says_which_marker_kept_the_force_and_the_enemys_never(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cheater's test through the bot: the force under the first marker in one game, under
    the second in the other; the owner's answer says which, the Union player's DMs and /log
    are the same text for text."""
    owner_one, enemy_one, kept_one, decoy_one = await bred_through_the_bot(
        tmp_path / "first", monkeypatch, 1)
    owner_two, enemy_two, kept_two, decoy_two = await bred_through_the_bot(
        tmp_path / "second", monkeypatch, 2)
    assert (kept_one, decoy_one) == (decoy_two, kept_two)  # same markers, the other way round
    said = [(owner_one, kept_one, decoy_one, 1), (owner_two, kept_two, decoy_two, 6)]
    for owner, kept, decoy, die in said:
        assert any(f"holds the force: {die} on 1d6: {outcome(kept, decoy)} (game `g1`" in t
                   for t in owner), owner
    assert enemy_one == enemy_two
    assert not [t for t in enemy_one if "keeps the force" in t or "which of markers" in t]


async def test_after_the_game_the_rolls_listed_say_which_marker_kept_the_force(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The game's own dice (no rigging), ended by the host: ``vedette verify --rolls`` passes
    it, and its list of side rolls and the after-action report's say what the breeding die
    decided, as the game's state has it."""
    async with (FakeDiscord(token=TOKEN, callback_deadline=3.0) as fake,
                started_game(fake, tmp_path, SCENARIO, SIDES, seed=SEED) as (bot, alice, bob)):
        umpire = bot.umpire
        users = {"confederate": alice, "union": bob}
        await to_movement(umpire, users, 1)
        await umpire.handle("g1", alice.id, ConcealForce(leader=COLSTON))
        await to_movement(umpire, users, 2)
        [parent] = sorted((await umpire.repository.state_for("g1")).markers)
        await umpire.handle("g1", alice.id, BreedDecoy(marker=parent))
        state = await umpire.repository.state_for("g1")
        forces = state.module_data["concealed_forces"]["forces"]
        [kept] = [m for m in state.markers if forces[m]["units"]]
        [decoy] = [m for m in state.markers if m != kept]
        await umpire.end_game("g1", alice.id, reason="The test is over.")
        state = await umpire.repository.state_for("g1")
        events = [LoggedEvent(e.seq, e.type, e.audience, e.payload)
                  for e in await umpire.store.events("g1")]
    said = f"which of markers {min(kept, decoy)} and {max(kept, decoy)} holds the force: "
    [reported] = [line for line in after_action.roll_lines(state, events) if said in line]
    assert reported.endswith(f"on 1d6: {outcome(kept, decoy)}")
    capsys.readouterr()
    assert await verify(tmp_path / "vedette.db", "g1", rolls=True) == 0
    printed = capsys.readouterr().out
    [listed] = [line for line in printed.splitlines() if said in line]
    assert "confederate roll " in listed and listed.endswith(outcome(kept, decoy))


def test_a_log_with_nothing_after_the_roll_lists_it_as_before() -> None:
    """A roll nothing in the log settles (its events cut off, or of an unknown kind) is listed
    as it always was: purpose, value and dice."""
    payload = {"type": "die_rolled", "purpose": breeding_purpose("2210", "7431"),
               "dice": "1d6", "value": 2}
    roll = LoggedEvent(5, "die_rolled", "side:grey", payload)
    odd = LoggedEvent(6, "no_such_event", "side:grey", {"type": "no_such_event"})
    for events in ([roll], [roll, odd]):
        words = roll_words(payload, logged_outcome(events, 0))
        assert words == "which of markers 2210 and 7431 holds the force: 2 on 1d6"
