"""A question put at once, through the bot against the fake Discord: a revealed force's
opportunity fire (ruling CF-11) reaches its owner as one DM with a button per choice and the
moment the question times out (ruling CORE-14); a press answers it; the enemy's forged press, a
stranger's, a choice not offered and a press after the answer are refused privately and change
nothing; and the asked side's DM is the same whatever the enemy holds out of its sight."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from bot.client import VedetteBot
from bot.views import answer_custom_id
from rules import commands as cmd
from rules.concealed.commands import ConcealForce
from rules.turn.reaction import open_questions
from storage.store import Store
from tests.fakediscord import FakeDiscord, FakeUser, buttons_of, patched_discord, run_client
from tests.support.botkit import (
    EPHEMERAL,
    TOKEN,
    forged_button,
    moves_at_once,
    started_game,
    text_of,
)
from tests.support.concealed_reveal import FIELD
from umpire.clock.questions import time_out_questions
from umpire.reads.maps import MapMaker
from umpire.service import Umpire
from umpire.words.replies import NOT_PLAYING

SIDES = ("confederate", "union")  # alice is the Confederates (and host), bob the Union
JSON = dict[str, Any]
SEED = bytes(range(32))


@asynccontextmanager
async def three_at_table(fake: FakeDiscord, tmp_path: Path
                         ) -> AsyncIterator[tuple[VedetteBot, FakeUser, FakeUser, FakeUser]]:
    """Game ``g1`` on the field, started: alice (the host) and carol share the Confederates,
    bob is the Union."""
    guild = fake.add_guild("Wargames Club")
    alice, carol, bob = (fake.add_user(n, guild=guild) for n in ("alice", "carol", "bob"))
    store = await Store.open(tmp_path / "vedette.db")
    try:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(FIELD), alice.id, game_id="g1", seed=SEED)
        for user, side in ((alice, "confederate"), (carol, "confederate"), (bob, "union")):
            await umpire.join("g1", user.id, side, in_server=True)
        await umpire.start("g1", alice.id)
        await moves_at_once(umpire, alice, carol, bob)
        bot = VedetteBot(umpire, outbox_interval=0.2, guild_ready_timeout=0.05)
        with patched_discord(fake.base_url):
            async with run_client(bot, token=TOKEN):
                yield bot, alice, carol, bob
    finally:
        await store.close()


async def to_phase(bot: VedetteBot, users: dict[str, FakeUser], turn: int, side: str) -> None:
    """Every acting side says done until ``side``'s movement phase of ``turn``."""
    for _ in range(60):
        state = await bot.umpire.repository.state_for("g1")
        if state.turn == turn and state.current.allows("move") and side in state.acting_sides():
            return
        for acting in state.acting_sides():
            await bot.umpire.handle("g1", users[acting].id, cmd.Done())
            if acting == "confederate" and "carol" in users:
                await bot.umpire.handle("g1", users["carol"].id, cmd.Done())
    raise AssertionError(f"never reached the {side} movement phase of turn {turn}")


async def asked(bot: VedetteBot, alice: FakeUser, bob: FakeUser, *,
                extra: tuple[str, str] | None = None, carol: FakeUser | None = None) -> None:
    """Ash's division conceals on turn 1; on turn 2 the Union Brigade marches up and finds it,
    and the Confederates are asked whether it fires, charges or holds. ``extra``: an order
    the Union gives out of the Confederates' sight first (a unit and a route)."""
    users = {"confederate": alice, "union": bob} | ({"carol": carol} if carol else {})
    await to_phase(bot, users, 1, "confederate")
    await bot.umpire.handle("g1", alice.id, ConcealForce(leader="General Ash"))
    await to_phase(bot, users, 2, "union")
    if extra is not None:
        await bot.umpire.handle("g1", bob.id, cmd.Move(unit=extra[0], route=extra[1]))
    await bot.umpire.handle("g1", bob.id, cmd.Move(unit="u-inf", route="A1005"))
    await bot.outbox.idle()


def question_dm(fake: FakeDiscord, user: FakeUser) -> JSON:
    [dm] = [m for m in fake.dms_to(user) if "may react at once" in text_of(m)]
    return dm


def buttons(message: JSON) -> list[JSON]:
    return buttons_of(message)


async def press(fake: FakeDiscord, message: JSON, custom_id: str, user: FakeUser) -> str:
    """The bot's private answer to a press."""
    handle = await fake.click(message, custom_id, user=user)
    callback = await handle.response()
    said = await handle.original_message() if callback.type == 5 else handle.original
    assert said is not None and said["flags"] & EPHEMERAL, said
    return text_of(said)


async def press_forged(fake: FakeDiscord, custom_id: str, user: FakeUser) -> str:
    return await press(fake, forged_button(fake, user, custom_id), custom_id, user)


async def log_length(bot: VedetteBot) -> int:
    return len(await bot.umpire.store.events("g1"))


async def test_a_question_has_its_buttons_and_its_deadline(fake: FakeDiscord,
                                                           tmp_path: Path) -> None:
    async with three_at_table(fake, tmp_path) as (bot, alice, carol, bob):
        await asked(bot, alice, bob, carol=carol)
        [question] = open_questions(await bot.umpire.repository.state_for("g1"))
        # No reaction time in the scenario: the question lasts until the phase ends.
        assert question.side == "confederate" and question.seconds is None
        dm = question_dm(fake, alice)
        assert buttons(question_dm(fake, carol)) == buttons(dm)
        # One button per choice, the default marked, each naming the game, question, choice.
        shown = buttons(dm)
        assert [b["label"] for b in shown] == ["Fire", "Charge", "Hold (default)"]
        assert [b["custom_id"] for b in shown] == [
            f"vedette:answer:g1:{question.id}:{c}" for c in question.choices]
        assert all(len(b["custom_id"]) <= 100 for b in shown)
        # The game has no phase deadline: the default comes when the phase ends, and no
        # clock gives it before.
        [stored] = [e for e in await bot.umpire.store.events("g1")
                    if e.type == "question_asked"]
        assert "Answer before the phase ends." in text_of(dm)
        assert question.words() in text_of(dm)  # the rules' words stand as they are
        later = stored.created_at + timedelta(days=2)
        assert await time_out_questions(bot.umpire, "g1", later) == []
        # The enemy's forged press of a choice (and of its own made-up question): refused,
        # nothing changes.
        length = await log_length(bot)
        fire = shown[0]["custom_id"]
        said = await press_forged(fake, fire, bob)
        assert said.startswith(f"no question '{question.id}' is waiting for your answer")
        own = answer_custom_id("g1", "union:q1", "fire")
        assert own is not None
        assert "no question 'union:q1' is waiting" in await press_forged(fake, own, bob)
        not_offered = answer_custom_id("g1", question.id, "retreat")
        assert not_offered is not None
        assert await press_forged(fake, not_offered, alice) == "answer fire or charge or hold"
        stranger = fake.add_user("mallory")
        assert await press_forged(fake, fire, stranger) == NOT_PLAYING
        assert await log_length(bot) == length
        assert open_questions(await bot.umpire.repository.state_for("g1")) == [question]

        # Alice's side-mate holds: the side has answered, with that choice.
        await press(fake, question_dm(fake, carol), shown[2]["custom_id"], carol)
        answered = [e.payload for e in await bot.umpire.store.events("g1")
                    if e.type == "question_answered"]
        assert answered == [{"type": "question_answered", "question": question.id,
                             "choice": "hold", "by_default": False}]
        # A second press comes too late: refused, nothing changes.
        length = await log_length(bot)
        said = await press(fake, dm, fire, alice)
        assert said.startswith(f"no question '{question.id}' is waiting for your answer")
        assert await log_length(bot) == length


async def owner_question(tmp_path: Path, extra: tuple[str, str] | None) -> tuple[str, JSON]:
    """The question DM the Confederates get (its words and its buttons), the times in it
    taken out, in a game where the Union first gives ``extra`` out of their sight."""
    tmp_path.mkdir()
    async with (FakeDiscord(token=TOKEN, callback_deadline=3.0) as fake,
                started_game(fake, tmp_path, FIELD, SIDES, seed=SEED) as (bot, alice, bob)):
        await asked(bot, alice, bob, extra=extra)
        state = await bot.umpire.repository.state_for("g1")
        assert (state.loaded.board.label(state.units["u-inf2"].cell) == "A0509") == bool(extra)
        dm = question_dm(fake, alice)
        # The words and the buttons: the rest of the components holds the same words.
        return text_of(dm), {"buttons": buttons_of(dm)}


async def test_the_question_does_not_tell_what_the_enemy_did_out_of_sight(
        tmp_path: Path) -> None:
    """A cheater's test: the Union moves a second brigade far off the Confederates' sight or
    leaves it be; the question its owner gets reads the same, buttons and all."""
    still = await owner_question(tmp_path / "still", None)
    moved = await owner_question(tmp_path / "moved", ("u-inf2", "A0509"))
    assert "Answer before the phase ends." in still[0]
    assert still == moved
