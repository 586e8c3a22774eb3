"""A detachment order through the bot, against the fake Discord (Cf 1.3; rulings CF-25, CF-27):
given by Blue's player in the Command Phase, shown on his own `/units` as waiting and then in
effect, refused in the movement phase with the turn sequence's words, never heard of by Grey's
player, and kept in the game's log, where `vedette verify` decides it again."""

from __future__ import annotations

from pathlib import Path

from tests.fakediscord import FakeDiscord
from tests.support.botkit import FIXTURES, private_answer, started_game, text_of
from umpire.verify.check import check
from umpire.verify.record import from_store

SIDES = ("blue", "grey")
SEED = bytes(range(32))
GROUND = FIXTURES / "concealed.toml"


async def test_a_detachment_is_ordered_in_the_command_phase_and_only_its_owner_hears(
        fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, GROUND, SIDES, seed=SEED) as (bot, alice, bob):
        umpire = bot.umpire
        state = await umpire.repository.state_for("g1")
        assert state.current.phase.id == "command" and state.turn == 1

        said = text_of(await private_answer(fake, "conceal detach", alice,
                                            {"unit": "3rd Brigade"}))
        assert ("Ordered: 3rd Brigade is detached from its division from the start of your "
                "next movement phase") in said
        mine = text_of(await private_answer(fake, "units", alice, {"filter": "3rd Brigade"}))
        assert "; to be detached from your next movement phase" in mine
        theirs = text_of(await private_answer(fake, "conceal detach", bob,
                                              {"unit": "3rd Brigade"}))
        assert "You have no unit called '3rd Brigade'" in theirs

        for user in (alice, bob):
            await private_answer(fake, "done", user, {})
        state = await umpire.repository.state_for("g1")
        assert state.current.side == "blue" and state.current.allows("move"), state.current
        mine = text_of(await private_answer(fake, "units", alice, {"filter": "3rd Brigade"}))
        assert "MP left; detached" in mine
        late = text_of(await private_answer(fake, "conceal detach", alice,
                                            {"unit": "3rd Brigade", "detached": False}))
        assert ("you cannot give a detachment order in the Movement and Close Combat Phase: "
                "your Command Phase comes next turn") in late

        await bot.outbox.idle()
        heard = " ".join(text_of(m) for m in fake.dms_to(bob)).casefold()
        # Grey's own calls for orders offer its own detachments; of Blue's it hears nothing.
        assert heard and "3rd brigade" not in heard
        assert "now detached" not in heard and "ordered:" not in heard
        told = " ".join(text_of(m) for m in fake.dms_to(alice))
        assert "3rd Brigade is now detached from its division" in told

        await umpire.end_game("g1", alice.id)  # the seed is told: the log may be checked
        record = await umpire.store.get_game("g1")
        assert record is not None
        verdict = check(await from_store(umpire.store, record))
        assert verdict.readjudicated and not verdict.problems, verdict.problems
        logged = [e.payload.get("command") or {} for e in await umpire.store.events("g1")
                  if e.type == "command_accepted"]
        assert [c["kind"] for c in logged if c.get("kind") == "conceal_detach"] == [
            "conceal_detach"]
