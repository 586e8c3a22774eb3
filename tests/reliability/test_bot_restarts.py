"""The bot across a crash, on a real database file reopened by a new bot.

A move's Confirm button: the order is committed through the umpire (with a request id derived
from the pending order) before the pending order is settled, so a crash at any point neither
loses the move nor applies it twice. The outbox: a message Discord accepted just before a crash
is sent again after the restart, with the same nonce, and Discord posts it once."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from bot.transport import DiscordTransport
from rules import commands as cmd
from storage.records import Recipient
from tests.support.botkit import (
    Table,
    accepted,
    preview_a_move,
    public,
    running,
    say,
    set_up,
    settle,
    start_and_reach_blue_movement,
    text_of,
)
from umpire.outbox.drain import NONCE_LENGTH, nonce
from umpire.reads import pending


async def test_a_confirm_that_never_reached_the_umpire_is_applied_after_a_restart(
        table: Table) -> None:
    """The bot stops (crashes) after the preview, before any Confirm reached the umpire: the
    order is still open, and a click on the restarted bot applies the move, once."""
    async with running(table) as bot:
        gid = await start_and_reach_blue_movement(table, bot)
        _, preview, confirm, _ = await preview_a_move(table)
        move = await pending.load(bot.umpire.store, confirm.split(":")[-1])
        assert move is not None and move.status == pending.OPEN
    async with running(table) as bot:
        state = await bot.umpire.repository.state_for(gid)
        assert state.units["blue-1"].cell == state.loaded.board.parse("A0104")  # not moved yet
        click = await table.fake.click(preview, confirm, user=table.alice)
        await click.response()
        await table.fake.wait_for(
            lambda: "Ordered" in text_of(table.fake.world.messages[int(preview["id"])]))
        state = await bot.umpire.repository.state_for(gid)
        assert state.units["blue-1"].cell == state.loaded.board.parse("A0304")
        assert accepted(await bot.umpire.store.events(gid), pending.request_id(move)) == 1
        settled = await pending.load(bot.umpire.store, move.id)
        assert settled is not None and settled.status == pending.CONFIRMED
        assert table.fake.world.messages[int(preview["id"])]["components"] == []


@pytest.mark.parametrize("button", ["confirm", "cancel"])
async def test_a_confirm_committed_just_before_a_crash_is_not_applied_twice(
        table: Table, button: str) -> None:
    """The bot committed the confirmed move and crashed before settling the pending order (the
    commit is made here as that bot made it: through the umpire, with the pending order's
    request id). On the restarted bot, Confirm answers that the move was already ordered and
    does not apply it again, and the order is settled; a Cancel clicked then cannot undo the
    move either, and gets the same answer."""
    async with running(table) as bot:
        gid = await start_and_reach_blue_movement(table, bot)
        _, preview, confirm, cancel = await preview_a_move(table)
        move = await pending.load(bot.umpire.store, confirm.split(":")[-1])
        assert move is not None
        await bot.umpire.handle(gid, move.user_id, cmd.Move(unit=move.unit, route=move.route),
                                request_id=pending.request_id(move))
        await settle(bot)
    async with running(table) as bot:
        still = await pending.load(bot.umpire.store, move.id)
        assert still is not None and still.status == pending.OPEN  # the crash left it open
        before = await bot.umpire.repository.state_for(gid)
        assert before.units["blue-1"].cell == before.loaded.board.parse("A0304")
        events = len(await bot.umpire.store.events(gid))

        click = await table.fake.click(preview, confirm if button == "confirm" else cancel,
                                       user=table.alice)
        await click.response()
        await table.fake.wait_for(
            lambda: "Already ordered" in text_of(table.fake.world.messages[int(preview["id"])]))
        assert "applied once" in text_of(table.fake.world.messages[int(preview["id"])])
        after = await bot.umpire.repository.state_for(gid)
        assert after.units["blue-1"] == before.units["blue-1"]  # same cell, same MPs left
        assert len(await bot.umpire.store.events(gid)) == events  # nothing new in the log
        assert accepted(await bot.umpire.store.events(gid), pending.request_id(move)) == 1
        settled = await pending.load(bot.umpire.store, move.id)
        assert settled is not None and settled.status == pending.CONFIRMED
        assert table.fake.world.messages[int(preview["id"])]["components"] == []


# -- the outbox across a crash ---------------------------------------------------------------------
async def post_without_marking_sent(table: Table, bot: Any, gid: str) -> Any:
    """What a bot does before it crashes between Discord's answer and ``mark_sent``: its outbox
    stopped, it hands the first pending public delivery to Discord as a drain does (same
    transport, same key) and never marks it sent. Returns the delivery."""
    await bot.outbox.stop()
    table.fake.faults.clear()  # Discord is back
    (delivery, *_) = [d for d in await bot.umpire.store.pending_deliveries(gid)
                      if d.kind == "public"]
    game = await bot.umpire.game(gid)
    record = await bot.umpire.store.get_game(gid)
    await DiscordTransport(bot, game).send(delivery.kind, delivery.target, delivery.text,
                                           delivery.image, delivery.image_name,
                                           key=nonce(record.seed,
                                                     f"{delivery.game_id}:{delivery.id}"))
    return delivery


async def queue_public_messages(table: Table, bot: Any) -> str:
    """A started game whose public messages wait in the outbox (the channel failing)."""
    gid = await set_up(table, bot)
    await settle(bot)
    table.fake.fail_next("POST", f"/channels/{table.channel.id}/messages", status=503,
                         times=10**6)
    await say(table, "game start", table.alice, channel=table.channel)
    await settle(bot)
    return gid


async def test_a_message_posted_just_before_a_crash_is_not_posted_twice(table: Table) -> None:
    """Discord accepted a public message, then the bot died before marking it sent. After the
    restart the outbox sends it again with the same nonce (``enforce_nonce``): Discord answers
    with the message already posted, so the channel shows it once, and it is marked sent."""
    path = f"/channels/{table.channel.id}/messages"
    async with running(table) as bot:
        gid = await queue_public_messages(table, bot)
        delivery = await post_without_marking_sent(table, bot, gid)
    assert public(table).count(delivery.text) == 1
    posts = len(table.fake.requests_to("POST", path))
    async with running(table) as bot:
        await settle(bot)
        sent = await bot.umpire.store.deliveries_for(gid, Recipient("public", ""))
        assert all(d.status == "sent" for d in sent)
        assert public(table).count(delivery.text) == 1  # sent again, posted once
        assert len(table.fake.requests_to("POST", path)) > posts  # it was sent again
        nonces = [r.json.get("nonce") for r in table.fake.requests_to("POST", path)
                  if r.json and r.json.get("content") == delivery.text]
        # Every try (failed ones while Discord was down included) carried the same nonce.
        record = await bot.umpire.store.get_game(gid)
        assert record is not None
        assert len(nonces) >= 3 and set(nonces) == {nonce(record.seed, f"{gid}:{delivery.id}")}


def test_a_nonce_does_not_give_away_the_delivery_number() -> None:
    """A player sees the nonces of the messages they get. Were a nonce a plain function of the
    delivery number, trying each number would recover it, and the gaps between two of the
    player's messages would count the messages sent meanwhile to the other side. The nonce is
    keyed with the game's secret seed: without it, no number can be matched to a nonce."""
    seed, other_seed = bytes(range(32)), bytes(range(1, 33))
    assert nonce(seed, "g1:7") == nonce(seed, "g1:7")  # the same on every retry
    assert nonce(seed, "g1:7") != nonce(other_seed, "g1:7")
    assert nonce(seed, "g1:7") != nonce(seed, "g1:8")
    guesses = {hashlib.sha256(f"{prefix}g1:{n}".encode()).hexdigest()[:NONCE_LENGTH]
               for prefix in ("", "vedette:", "vedette-nonce:") for n in range(1000)}
    assert nonce(seed, "g1:7") not in guesses


async def test_a_message_retried_after_discord_forgot_its_nonce_is_posted_again(
        table: Table) -> None:
    """The same crash, with the restart later than Discord remembers nonces: the message is
    posted a second time. Delivery is at least once (docs/hosting.md says so)."""
    async with running(table) as bot:
        gid = await queue_public_messages(table, bot)
        delivery = await post_without_marking_sent(table, bot, gid)
    table.fake.world.nonce_window = 0.0  # the bot came back after the window
    async with running(table) as bot:
        await settle(bot)
        assert public(table).count(delivery.text) == 2
