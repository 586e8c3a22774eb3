"""The bot killed with SIGKILL while Discord holds its answer, then started again on the same
database file.

The bot that dies is a process of its own (``tests.processes.bot_process``). The fake Discord, in
the test, holds the bot's request so that the kill falls at a known point: after Discord acted on it
(posted the message, took the deferral) and before the bot heard back, or with the request
still on its way (the final edit). The restarted bot runs in the test, where its store can be
read.

- The outbox: a message Discord posted but the bot never marked sent is sent again after the
  restart, with the same nonce; Discord answers with the message already posted, the channel
  shows it once, and the delivery is marked sent.
- A move's Confirm: killed while the click's deferral waits for Discord, nothing was
  committed, and Confirm on the restarted bot applies the move once; killed with the final
  edit in flight, after the commit, a second click answers that the order was already
  confirmed and the unit has moved once.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from storage.records import Recipient
from storage.store import Store
from tests.fakediscord import InteractionHandle
from tests.processes.bot_process import BotProcess
from tests.support.botkit import (
    FIXTURES,
    JSON,
    Table,
    accepted,
    final,
    preview_a_move,
    public,
    running,
    set_up,
    settle,
    start_and_reach_blue_movement,
    text_of,
)
from umpire.reads import pending
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is a POSIX signal")

#: Waits for the bot process, which shares two cores with the rest of the machine.
WAIT = 30.0
START = "A0104"  # blue-1 before the move (tests/fixtures/tiny.toml)
MOVED = "A0304"  # and after "road Old Church"


async def answer(handle: InteractionHandle) -> JSON:
    """The bot process's answer to an interaction (as ``final``, with room for a slow one)."""
    callback = await handle.response(timeout=WAIT)
    if callback.type == 5:
        return await handle.original_message(timeout=WAIT)
    assert handle.original is not None
    return handle.original


def bot_process(table: Table, tmp_path: Path, name: str) -> BotProcess:
    return BotProcess(table.db, table.fake.base_url, FIXTURES, tmp_path / f"{name}.log")


async def stands_at(table: Table, gid: str, cell: str) -> bool:
    """Whether blue-1 stands at ``cell``, as the database file says (read with no bot on it)."""
    async with Store.open(table.db) as store:
        state = await Umpire(store, maps=MapMaker(enabled=False)).repository.state_for(gid)
        return state.units["blue-1"].cell == state.loaded.board.parse(cell)


# -- the outbox ----------------------------------------------------------------------------------
async def test_a_message_discord_posted_before_a_kill_is_posted_once(table: Table,
                                                                     tmp_path: Path) -> None:
    """The bot process starts the game; Discord posts the first public message and holds its
    answer; the process is killed, so the delivery is never marked sent. The restarted bot
    sends it again with the same nonce, Discord answers with the message it posted, and the
    channel shows it once."""
    path = f"/channels/{table.channel.id}/messages"
    async with running(table) as bot:
        gid = await set_up(table, bot)
        await settle(bot)
    posts_before = len(table.fake.requests_to("POST", path))

    async with bot_process(table, tmp_path, "killed") as child:
        hold = table.fake.hold_next("POST", path)
        start = await table.fake.slash("game start", user=table.alice, channel=table.channel)
        held = await hold.arrived(timeout=WAIT)
        assert "started" in text_of(await answer(start))  # the answer did not wait for it
        await child.kill()
    assert child.killed
    hold.release()  # too late: no one is there to read it
    text, key = held.json["content"], held.json["nonce"]
    assert held.json["enforce_nonce"] is True
    assert public(table).count(text) == 1  # Discord posted it
    assert len(table.fake.requests_to("POST", path)) == posts_before + 1  # and nothing after
    async with Store.open(table.db) as store:
        waiting = [d for d in await store.pending_deliveries(gid) if d.text == text]
    assert len(waiting) == 1 and waiting[0].kind == "public"  # never marked sent

    async with running(table) as bot:
        await settle(bot)
        sent = await bot.umpire.store.deliveries_for(gid, Recipient("public", ""))
        assert [d.status for d in sent if d.id == waiting[0].id] == ["sent"]
        assert all(d.status == "sent" for d in sent)
    tries = [r for r in table.fake.requests_to("POST", path) if r.json["content"] == text]
    assert len(tries) == 2  # sent again after the restart
    assert {r.json["nonce"] for r in tries} == {key}
    assert tries[1].status == 200 and tries[1].response["id"] == held.response["id"]
    assert public(table).count(text) == 1  # posted once


# -- a move's Confirm ----------------------------------------------------------------------------
async def test_a_confirm_killed_before_its_deferral_is_applied_once_after_a_restart(
        table: Table, tmp_path: Path) -> None:
    """Alice clicks Confirm on the bot process; Discord takes the click's deferral and holds
    its answer, and the process is killed there: before the umpire saw the move. Nothing was
    committed; Confirm on the restarted bot applies the move, once."""
    async with running(table) as bot:
        gid = await start_and_reach_blue_movement(table, bot)
        _, preview, confirm, _ = await preview_a_move(table)
        move = await pending.load(bot.umpire.store, confirm.split(":")[-1])
        assert move is not None
        request = pending.request_id(move)
        events = len(await bot.umpire.store.events(gid))

    async with bot_process(table, tmp_path, "killed") as child:
        hold = table.fake.hold_next("POST", "/interactions/*/callback")
        click = await table.fake.click(preview, confirm, user=table.alice)
        deferral = await hold.arrived(timeout=WAIT)
        assert deferral.path.startswith(f"/interactions/{click.id}/")
        assert deferral.json["type"] == 6  # deferred: the commit comes after the answer
        await child.kill()
    assert child.killed
    hold.release()
    async with Store.open(table.db) as store:
        assert len(await store.events(gid)) == events  # nothing committed
        still = await pending.load(store, move.id)
        assert still is not None and still.status == pending.OPEN
    assert await stands_at(table, gid, START)

    async with running(table) as bot:
        click = await table.fake.click(preview, confirm, user=table.alice)
        await click.response(timeout=WAIT)
        await table.fake.wait_for(
            lambda: "Ordered" in text_of(table.fake.world.messages[int(preview["id"])]),
            timeout=WAIT, what="the confirmed preview")
        assert accepted(await bot.umpire.store.events(gid), request) == 1
        settled = await pending.load(bot.umpire.store, move.id)
        assert settled is not None and settled.status == pending.CONFIRMED
    assert await stands_at(table, gid, MOVED)


async def test_a_confirm_killed_before_its_final_edit_is_not_applied_twice(
        table: Table, tmp_path: Path) -> None:
    """Alice clicks Confirm on the bot process; it commits the move and settles the order, and
    is killed while its final edit of the preview is on its way, so the preview keeps its
    buttons. On the restarted bot a second click answers that the order was already
    confirmed, and the unit has moved once."""
    async with running(table) as bot:
        gid = await start_and_reach_blue_movement(table, bot)
        _, preview, confirm, _ = await preview_a_move(table)
        move = await pending.load(bot.umpire.store, confirm.split(":")[-1])
        assert move is not None
        request = pending.request_id(move)

    async with bot_process(table, tmp_path, "killed") as child:
        # The edit never reaches Discord: the preview keeps its buttons, as a player may see
        # them when the bot died with the edit in flight.
        hold = table.fake.hold_next("PATCH", "/webhooks/*/messages/@original", acted=False)
        click = await table.fake.click(preview, confirm, user=table.alice)
        edit = await hold.arrived(timeout=WAIT)
        assert click.token in edit.path
        assert edit.json["content"].startswith("Ordered")  # after the commit
        await child.kill()
    assert child.killed
    hold.drop()
    assert table.fake.world.messages[int(preview["id"])]["components"]  # Confirm still there
    async with Store.open(table.db) as store:
        events = await store.events(gid)
        assert accepted(events, request) == 1
        settled = await pending.load(store, move.id)
        assert settled is not None and settled.status == pending.CONFIRMED
    assert await stands_at(table, gid, MOVED)

    async with running(table) as bot:
        again = await table.fake.click(preview, confirm, user=table.alice)
        reply = await final(again)
        assert "already confirmed" in text_of(reply)
        assert len(await bot.umpire.store.events(gid)) == len(events)  # nothing new in the log
    assert await stands_at(table, gid, MOVED)
