"""Through the bot, against the local Discord stand-in: a player who clicks **March into the
blocked hex** is then sent, in a direct message, why the column stopped (rulings SM-25 to
SM-28)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import commands as cmd
from rules.surprise import records as rec
from rules.surprise.commands import ExecuteSurpriseMove, OrderSurpriseMove
from tests.fakediscord import FakeDiscord, FakeUser
from tests.support.botkit import private_answer, started_game, text_of
from tests.support.surprise import FORCE, Dice, scenario_file
from umpire.games import dice as umpire_dice


async def test_the_march_into_the_blocked_hex_is_told_why(
        fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dice = Dice(initiative=[2])
    monkeypatch.setattr(umpire_dice, "SeededDice", lambda seed, gid: dice)
    async with started_game(fake, tmp_path, scenario_file(tmp_path),
                            ("blue", "grey")) as (bot, alice, bob):
        umpire = bot.umpire
        await umpire.handle("g1", alice.id, OrderSurpriseMove(
            force=FORCE, route="road A1005", by_initiative=True, detour="ask"))
        # Night, the Grey Horse south of the road: the column will wait before A0605.
        await umpire.handle("g1", alice.id, cmd.Correct(unit="grey-cav", changes={
            "cell": "A0707"}, reason="test set-up"), is_admin=True)
        while (await umpire.repository.state_for("g1")).turn < 7:
            state = await umpire.repository.state_for("g1")
            for side in state.acting_sides():
                await umpire.handle("g1", alice.id if side == "blue" else bob.id, cmd.Done())
        await umpire.handle("g1", alice.id, ExecuteSurpriseMove())
        await umpire.handle("g1", alice.id, cmd.Done())
        await umpire.handle("g1", bob.id, cmd.Done())
        state = await umpire.repository.state_for("g1")
        assert rec.march(state, "blue:m1")["run"]["pending"] is not None
        waiting = await private_answer(fake, "march status", alice, {})
        go = waiting["components"][0]["components"][1]["custom_id"]
        assert go == "vedette:march:go:g1:m1"
        click = await fake.click(waiting, go, user=alice)
        await click.response()

        def told(user: FakeUser = alice) -> str:
            """Everything in the user's direct messages: the bot's and the answers to the
            user's own clicks there."""
            dm = str(fake.dm_channel(user).id)
            return "\n".join(text_of(m) for m in list(fake.world.messages.values())
                             if str(m.get("channel_id")) == dm)

        await fake.wait_for(lambda: "Its head entered" in told(), timeout=10)
        text = told()
        assert ("Its head entered A0605 after 2 MP: a hex within 2 of Grey Horse at A0707. "
                "No detour: you chose to march on.") in text
        assert "After it the column could spend 6 more MP; its head spent" in text
        assert "it could still spend after the blocked hex" in text
        assert "Its head entered" not in told(bob)
