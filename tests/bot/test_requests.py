"""Every order from the bot carries a request id, so that the same interaction delivered twice
(the gateway replaying it after a resume) or a double click on a button is applied once.

Each test sends the same interaction a second time through the fake Discord (``resend``: same
interaction id, same data) or clicks the same button twice, and checks that the umpire accepted
the order once: one ``command_accepted`` in the log, nothing else added by the second, and the
second told that the order was already accepted (or already settled)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.client import VedetteBot
from bot.cogs.surprise import ALREADY_CHOSEN
from rules import commands as cmd
from rules.surprise import records as rec
from tests.fakediscord import FakeDiscord, FakeUser, InteractionHandle
from tests.support.botkit import (
    EPHEMERAL,
    Table,
    confirm_preview,
    preview_a_move,
    running,
    settle,
    start_and_reach_blue_movement,
    started_game,
    text_of,
)
from tests.support.combat import SEED, SIDES, to_phase
from tests.support.combat_games import INVERTED, NIGHT, variant
from tests.support.surprise import Dice, scenario_file
from umpire.games import dice as umpire_dice
from umpire.reads import pending

ALREADY = "That order was already accepted."


async def answer_to(handle: InteractionHandle) -> str:
    """The text of the bot's (ephemeral) answer to a slash command."""
    callback = await handle.response()
    message = await handle.original_message() if callback.type == 5 else handle.original
    assert message is not None and message["flags"] & EPHEMERAL
    return text_of(message)


async def accepted(bot: VedetteBot, kind: str, gid: str = "g1") -> list[Any]:
    """The ``command_accepted`` events of one command type."""
    return [e for e in await bot.umpire.store.events(gid) if e.type == "command_accepted"
            and (e.payload.get("command") or {}).get("kind") == kind]


async def sent_twice(fake: FakeDiscord, bot: VedetteBot, command: str, user: FakeUser,
                     options: dict[str, Any]) -> tuple[str, str, int]:
    """Run a slash command, then deliver the very same interaction again: both answers, and
    how many events the second delivery added to the log (it must add none)."""
    first = await fake.slash(command, options, user=user)
    said = await answer_to(first)
    logged = len(await bot.umpire.store.events("g1"))
    again = await answer_to(await fake.resend(first))
    return said, again, len(await bot.umpire.store.events("g1")) - logged


async def test_a_fire_delivered_twice_is_fired_once(fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, variant(tmp_path, "open"), SIDES,
                            seed=SEED) as (bot, alice, bob):
        await to_phase(bot, {"union": alice, "confederate": bob}, "fire", "union")
        said, again, added = await sent_twice(fake, bot, "fire", alice, {
            "unit": "Union Brigade", "target": "Rebel Brigade"})
        assert said.startswith("**Fire**: Union Brigade fired at Rebel Brigade")
        assert (again, added) == (ALREADY, 0)
        assert len(await accepted(bot, "fire")) == 1


async def test_an_assault_delivered_twice_is_fought_once(fake: FakeDiscord,
                                                        tmp_path: Path) -> None:
    scenario = variant(tmp_path, "night", INVERTED, NIGHT,
                       ('at = "A0704"\ntags', 'at = "A0604"\ntags'))
    async with started_game(fake, tmp_path, scenario, SIDES, seed=SEED) as (bot, alice, bob):
        await to_phase(bot, {"union": alice, "confederate": bob}, "movement", "confederate")
        said, again, added = await sent_twice(fake, bot, "assault", bob, {
            "units": "Rebel Brigade", "target": "Union Brigade", "advance": False})
        assert said.startswith("**Assault** on A0504")
        assert (again, added) == (ALREADY, 0)
        assert len(await accepted(bot, "assault")) == 1


async def test_a_rally_delivered_twice_is_rolled_once(fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, variant(tmp_path, "open"), SIDES,
                            seed=SEED) as (bot, alice, bob):
        await to_phase(bot, {"union": alice, "confederate": bob}, "movement", "union")
        await bot.umpire.handle("g1", alice.id, cmd.Correct(
            unit="u-inf", changes={"morale": "shaken"}, reason="test set-up"), is_admin=True)
        said, again, added = await sent_twice(fake, bot, "rally", alice,
                                              {"unit": "Union Brigade"})
        assert said.startswith("**Rally**: Union Brigade")
        assert (again, added) == (ALREADY, 0)
        assert len(await accepted(bot, "rally")) == 1


async def test_a_march_order_delivered_twice_is_ordered_once(fake: FakeDiscord,
                                                            tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, scenario_file(tmp_path), ("blue", "grey"),
                            maps=False) as (bot, alice, _):
        # The order is previewed first (ruling ORD-20): the command delivered twice shows it
        # twice and sends nothing; its Confirm delivered twice sends it once.
        said, again, added = await sent_twice(fake, bot, "march order", alice, {
            "force": "1st Division", "route": "road A1005"})
        assert "Confirm to send" in said and "Confirm to send" in again and added == 0
        handle = await fake.slash("march order", {"force": "1st Division",
                                                  "route": "road A1005"}, user=alice)
        await handle.response()
        preview = await handle.original_message()
        logged = len(await bot.umpire.store.events("g1"))
        confirm = preview["components"][0]["components"][0]["custom_id"]
        click = await fake.click(preview, confirm, user=alice)
        await click.response()
        shown = int(preview["id"])
        await fake.wait_for(lambda: "ordered" in text_of(fake.world.messages[shown]))
        twice = await fake.resend(click)  # the Confirm delivered again
        assert "already confirmed" in ((await twice.response()).content or "")
        assert len(await bot.umpire.store.events("g1")) > logged
        state = await bot.umpire.repository.state_for("g1")
        assert len(rec.side_marches(state, "blue", rec.OPEN)) == 1


async def test_a_confirm_clicked_twice_or_delivered_twice_moves_once(table: Table) -> None:
    async with running(table) as bot:
        gid = await start_and_reach_blue_movement(table, bot)
        _, message, confirm, _ = await preview_a_move(table)
        before = len(await accepted(bot, "move", gid))
        first = await table.fake.click(message, confirm, user=table.alice)
        second = await table.fake.click(message, confirm, user=table.alice)  # a double click
        await first.response()
        await second.response()
        again = await table.fake.resend(first)
        await again.response()
        shown = int(message["id"])
        await table.fake.wait_for(
            lambda: "Ordered" in text_of(table.fake.world.messages[shown]))
        await settle(bot)
        assert len(await accepted(bot, "move", gid)) == before + 1
        move = await pending.load(bot.umpire.store, confirm.split(":")[-1])
        assert move is not None and move.status == pending.CONFIRMED


async def test_detour_buttons_clicked_twice_choose_once(fake: FakeDiscord, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    dice = Dice(initiative=[2, 2, 2, 2])
    monkeypatch.setattr(umpire_dice, "SeededDice", lambda seed, gid: dice)
    async with started_game(fake, tmp_path, scenario_file(tmp_path), ("blue", "grey"),
                            maps=False) as (bot, alice, bob):
        umpire = bot.umpire
        await umpire.handle("g1", alice.id, cmd.Correct(unit="grey-cav", changes={
            "cell": "A0707"}, reason="test set-up"), is_admin=True)
        ordering = await fake.slash("march order", {
            "force": "1st Division, Blue Horse", "route": "road A1005", "initiative": True,
            "detour": "ask"}, user=alice)
        await answer_to(ordering)
        await confirm_preview(fake, await ordering.original_message(), alice)
        while (await umpire.repository.state_for("g1")).turn < 7:
            state = await umpire.repository.state_for("g1")
            for side in state.acting_sides():
                await umpire.handle("g1", alice.id if side == "blue" else bob.id, cmd.Done())
        await answer_to(await fake.slash("march execute", {}, user=alice))
        await umpire.handle("g1", alice.id, cmd.Done())
        await umpire.handle("g1", bob.id, cmd.Done())
        status = await fake.slash("march status", {}, user=alice)
        await status.response()
        waiting = await status.original_message()
        attempt = waiting["components"][0]["components"][0]["custom_id"]
        assert attempt == "vedette:march:try:g1:m1"
        clicks = [await fake.click(waiting, attempt, user=alice),
                  await fake.click(waiting, attempt, user=alice)]  # a double click
        for click in clicks:
            await click.response()
        shown = int(waiting["id"])
        await fake.wait_for(lambda: "goes round" in text_of(fake.world.messages[shown]))
        clicks.append(await fake.resend(clicks[0]))  # the first click delivered again
        await clicks[2].response()
        # Every repeat is told it counts once; the message keeps the choice's result.
        await fake.wait_for(lambda: sum(bool(c.followups) for c in clicks) == 2)
        told = sorted(text_of(m) for c in clicks for m in c.followups)
        assert told == [ALREADY_CHOSEN] * 2
        await bot.outbox.idle()
        assert "goes round" in text_of(fake.world.messages[shown])
        assert len(await accepted(bot, "surprise_detour")) == 1
        state = await umpire.repository.state_for("g1")
        assert rec.march(state, "blue:m1")["status"] == rec.EXECUTED
