"""``/march`` through the bot, against the local Discord stand-in: ordering with an autocomplete
of the player's own forces only, ``/march status`` with the route map, and the persistent detour
buttons."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import commands as cmd
from rules.surprise import records as rec
from rules.surprise.commands import OrderSurpriseMove
from tests.fakediscord import FakeDiscord
from tests.support.botkit import confirm_preview, private_answer, started_game, text_of
from tests.support.surprise import Dice, scenario_file
from umpire.games import dice as umpire_dice
from umpire.reads.naming import Named, complete_list


def test_force_choices_complete_the_last_item() -> None:
    names = ["1st Division", "1st Brigade", "2nd Brigade", "Blue Horse"]
    known = [Named(f"r{i}", n, (n.lower(), f"r{i}")) for i, n in enumerate(names)]
    assert [name for _, name in complete_list("", known, known)] == names
    assert complete_list("1st Division, bl", known, known) == [("r0,r3",
                                                               "1st Division, Blue Horse")]
    assert complete_list("2nd", known, known) == [("r2", "2nd Brigade")]


async def test_order_status_and_detour_buttons(fake: FakeDiscord, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    dice = Dice(initiative=[2, 2])
    monkeypatch.setattr(umpire_dice, "SeededDice", lambda seed, gid: dice)
    async with started_game(fake, tmp_path, scenario_file(tmp_path), ("blue", "grey"),
                            maps=True) as (bot, alice, bob):
        offered = await fake.autocomplete("march order", {"force": "", "route": "x"},
                                          focused="force", user=alice)
        choices = [c["name"] for c in (await offered.response()).choices]
        assert "1st Division" in choices and not [c for c in choices if "Grey" in c]
        previewed = await private_answer(fake, "march order", alice, {
            "force": "1st Division, Blue Horse", "route": "road A1005", "initiative": True,
            "detour": "ask"})
        assert "**Surprise move 1st Division + Blue Horse**:" in text_of(previewed)
        ordered = await confirm_preview(fake, previewed, alice)  # previewed first (ORD-20)
        assert "**Surprise move 1st Division + Blue Horse** ordered" in text_of(ordered)
        refused = await private_answer(fake, "march order", bob, {"force": "1st Brigade",
                                                         "route": "road A1005"})
        assert text_of(refused).startswith("You have no unit called '1st Brigade'.")
        status = await private_answer(fake, "march status", alice, {})
        assert "accumulating MPs in place" in text_of(status)
        assert status["attachments"] and not status.get("components")
        nothing = await private_answer(fake, "march status", bob, {})
        assert text_of(nothing) == "You have no surprise move under way."
        # Night, a Grey picket south of the road: the column will wait before it.
        umpire = bot.umpire
        await umpire.handle("g1", alice.id, cmd.Correct(unit="grey-cav", changes={
            "cell": "A0707"}, reason="test set-up"), is_admin=True)
        while (await umpire.repository.state_for("g1")).turn < 7:
            state = await umpire.repository.state_for("g1")
            for side in state.acting_sides():
                await umpire.handle("g1", alice.id if side == "blue" else bob.id, cmd.Done())
        executed = await private_answer(fake, "march execute", alice, {})
        assert "set off at the start of your next movement phase" in text_of(executed)
        await umpire.handle("g1", alice.id, cmd.Done())
        await umpire.handle("g1", bob.id, cmd.Done())
        state = await umpire.repository.state_for("g1")
        assert rec.march(state, "blue:m1")["run"]["pending"] is not None
        waiting = await private_answer(fake, "march status", alice, {})
        assert "**Waiting for you**" in text_of(waiting)
        buttons = waiting["components"][0]["components"]
        assert [b["custom_id"] for b in buttons] == ["vedette:march:try:g1:m1",
                                                     "vedette:march:go:g1:m1"]
        click = await fake.click(waiting, buttons[0]["custom_id"], user=alice)
        await click.response()
        shown = int(waiting["id"])
        await fake.wait_for(lambda shown=shown: "goes round" in  # type: ignore[misc]
                            text_of(fake.world.messages[shown]))
        state = await umpire.repository.state_for("g1")
        assert rec.march(state, "blue:m1")["status"] == rec.EXECUTED
        assert fake.world.messages[shown]["components"] == []


async def test_march_commands_refused_plainly(fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, scenario_file(tmp_path), ("blue", "grey"),
                            maps=True) as (bot, alice, _):
        [group] = [c for c in bot.command_payload() if c["name"] == "march"]
        assert {o["name"] for o in group["options"]} == {"order", "execute", "rally", "cancel",
                                                         "forced", "status"}
        execute = await private_answer(fake, "march execute", alice, {})
        assert "no surprise move under way" in text_of(execute)
        await bot.umpire.handle("g1", alice.id, OrderSurpriseMove(force="1st Brigade",
                                                                   route="road A1005"))
        execute = await private_answer(fake, "march execute", alice, {})
        assert "not been accepted yet" in text_of(execute)
        cancel = await private_answer(fake, "march cancel", alice, {"mode": "reverse"})
        assert "countermanded before it was accepted" in text_of(cancel)
