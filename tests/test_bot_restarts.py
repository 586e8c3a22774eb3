"""A move's Confirm button across a crash of the bot, on a real database file reopened by a new
bot: the order is committed through the umpire (with a request id derived from the pending order)
before the pending order is settled, so a crash at any point neither loses the move nor applies
it twice."""

from __future__ import annotations

from typing import Any

import pytest

from bot import pending
from rules import commands as cmd
from tests.test_bot import (
    Table,
    final,
    running,
    settle,
    start_and_reach_blue_movement,
    table,
    text_of,
)

__all__ = ["table"]  # the fixture: a server, its players and the database file

ROUTE = {"unit": "1st Brigade", "route": "road Old Church"}


async def preview_a_move(table: Table) -> tuple[str, dict[str, Any], str, str]:
    """With the bot running and blue to move, alice previews a march: the game id, the preview
    message, and its Confirm and Cancel custom ids."""
    preview = await final(await table.fake.slash("move", ROUTE, user=table.alice))
    confirm, cancel = (b["custom_id"] for b in preview["components"][0]["components"])
    return confirm.split(":")[3], preview, confirm, cancel


def accepted(events: list[Any], request: str) -> int:
    return sum(1 for e in events if e.type == "command_accepted"
               and e.payload["request"] == request)


async def test_a_confirm_that_never_reached_the_umpire_is_applied_after_a_restart(
        table: Table) -> None:
    """The bot stops (crashes) after the preview, before any Confirm reached the umpire: the
    order is still open, and a click on the restarted bot applies the move, once."""
    async with running(table) as bot:
        gid = await start_and_reach_blue_movement(table, bot)
        _, preview, confirm, _ = await preview_a_move(table)
        move = await pending.load(bot.store, confirm.split(":")[-1])
        assert move is not None and move.status == pending.OPEN
    async with running(table) as bot:
        state = await bot.umpire.state_for(gid)
        assert state.units["blue-1"].cell == state.loaded.board.parse("A0104")  # not moved yet
        click = await table.fake.click(preview, confirm, user=table.alice)
        await click.response()
        await table.fake.wait_for(
            lambda: "Ordered" in text_of(table.fake.world.messages[int(preview["id"])]))
        state = await bot.umpire.state_for(gid)
        assert state.units["blue-1"].cell == state.loaded.board.parse("A0304")
        assert accepted(await bot.store.events(gid), pending.request_id(move)) == 1
        settled = await pending.load(bot.store, move.id)
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
        move = await pending.load(bot.store, confirm.split(":")[-1])
        assert move is not None
        await bot.umpire.handle(gid, move.user_id, cmd.Move(unit=move.unit, route=move.route),
                                request_id=pending.request_id(move))
        await settle(bot)
    async with running(table) as bot:
        still = await pending.load(bot.store, move.id)
        assert still is not None and still.status == pending.OPEN  # the crash left it open
        before = await bot.umpire.state_for(gid)
        assert before.units["blue-1"].cell == before.loaded.board.parse("A0304")
        events = len(await bot.store.events(gid))

        click = await table.fake.click(preview, confirm if button == "confirm" else cancel,
                                       user=table.alice)
        await click.response()
        await table.fake.wait_for(
            lambda: "Already ordered" in text_of(table.fake.world.messages[int(preview["id"])]))
        assert "applied once" in text_of(table.fake.world.messages[int(preview["id"])])
        after = await bot.umpire.state_for(gid)
        assert after.units["blue-1"] == before.units["blue-1"]  # same cell, same MPs left
        assert len(await bot.store.events(gid)) == events  # nothing new in the log
        assert accepted(await bot.store.events(gid), pending.request_id(move)) == 1
        settled = await pending.load(bot.store, move.id)
        assert settled is not None and settled.status == pending.CONFIRMED
        assert table.fake.world.messages[int(preview["id"])]["components"] == []
