"""Phases that pass by themselves, through the bot against the local Discord stand-in: the
Command Phase with nothing to order passes for both sides; a Fire Phase with no target waits for
the side's Done by default and passes by itself only under ``auto_pass_alone``."""

from __future__ import annotations

from pathlib import Path

from storage.records import Recipient
from tests.fakediscord import FakeDiscord, FakeUser
from tests.support.botkit import private_answer, started_game, text_of
from tests.support.hand_maps import FIRE_PASSED, apart_file

SIDES = ("union", "confederate")
SEED = bytes(range(32))


def dms(fake: FakeDiscord, user: FakeUser) -> list[str]:
    return [text_of(m) for m in fake.dms_to(user)]


async def test_a_fire_phase_with_no_target_waits_for_done_by_default(
        fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, apart_file(tmp_path), SIDES,
                            seed=SEED) as (bot, alice, bob):
        # Nothing to order in the Command Phase: it passed for both, the Union moves.
        state = await bot.umpire.repository.state_for("g1")
        assert (state.turn, state.current.phase.id, state.current.side) == (1, "movement",
                                                                            "union")
        await private_answer(fake, "done", alice, {})
        await private_answer(fake, "done", bob, {})
        await bot.outbox.idle()
        state = await bot.umpire.repository.state_for("g1")
        assert (state.current.phase.id, state.current.side) == ("fire", "union")
        [call] = [t for t in dms(fake, alice)
                  if t.startswith("Your orders, please: Union Fire Phase")]
        assert "Nothing to do in it: none of your units has a target in sight." in call
        assert not any(FIRE_PASSED in t for t in dms(fake, alice))


async def test_under_auto_pass_alone_the_fire_phases_pass_by_themselves(
        fake: FakeDiscord, tmp_path: Path) -> None:
    scenario = apart_file(tmp_path, "auto_pass_alone = true")
    async with started_game(fake, tmp_path, scenario, SIDES, seed=SEED) as (bot, alice, bob):
        answers = {alice.id: text_of(await private_answer(fake, "done", alice, {})),
                   bob.id: text_of(await private_answer(fake, "done", bob, {}))}
        await bot.outbox.idle()
        state = await bot.umpire.repository.state_for("g1")
        # Both Fire Phases, the End of Turn and the next Command Phase passed: the Union moves.
        assert (state.turn, state.current.phase.id, state.current.side) == (2, "movement",
                                                                            "union")
        for user in (alice, bob):
            # each side's Fire Phase passed on its own /done: the answer says so
            told = [*dms(fake, user), answers[user.id]]
            assert any(FIRE_PASSED in t for t in told)
            assert not any(t.startswith("Your orders, please") and "Fire Phase" in t
                           for t in told)
        # Each side was told in its own message that its phase passed, and why; the channel
        # hears of the finish only, never that it was a pass nor why (ruling FLOW-15).
        channel = [d.text for d in await bot.umpire.store.deliveries_for(
            "g1", Recipient("public", ""), limit=100)]
        assert channel and not any("passed" in t or "target" in t for t in channel)
