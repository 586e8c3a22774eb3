"""The bot's record of a side's private thread (its id, the members it added, the players it
could not add), kept in the game's options, while another bot process sharing the database
changes the record of another side: neither change is lost (``bot.threads``)."""

from __future__ import annotations

from bot.threads import MEMBERS_OPTION, THREADS_OPTION, record_sync, record_thread
from storage.store import Store
from tests.fakediscord.state import PRIVATE_THREAD
from tests.support.botkit import (
    Table,
    final,
    game_id,
    play_until,
    running,
    say,
    set_up,
    settle,
    text_of,
)
from umpire.reads.maps import MapMaker
from umpire.service import Umpire


async def test_a_sync_keeps_what_another_process_recorded_meanwhile(table: Table) -> None:
    fake = table.fake
    async with running(table) as bot:
        await set_up(table, bot)
        await say(table, "game options", table.alice, {"delivery": "threads"},
                  channel=table.channel)
        gid = await game_id(bot, table)
        await say(table, "game start", table.alice, channel=table.channel)
        await play_until(table, bot, gid, "blue")
        await settle(bot)
        game = await bot.umpire.game(gid)
        assert game is not None
        ids = game.options[THREADS_OPTION]
        assert set(ids) == {"blue"}  # nothing was sent to grey yet
        blue = fake.world.channels[int(ids["blue"])]

        # dave is seated on blue: the bot adds him to blue's thread, and while Discord has
        # not yet answered, the other process makes grey's thread and adds bob to it.
        await say(table, "game join", table.dave, {"side": "blue"}, channel=table.channel)
        hold = fake.hold_next("PUT", f"/channels/{blue.id}/thread-members/{table.dave.id}")
        seat = await fake.slash("host seat", {"user": table.dave, "side": "blue"},
                                user=table.alice, channel=table.channel)
        await hold.arrived(timeout=10)
        async with Store.open(table.db) as store:
            other = Umpire(store, maps=MapMaker(enabled=False))
            grey = fake.world.create_thread(table.channel, "Grey", type=PRIVATE_THREAD,
                                            invitable=False, archive=10080)
            await other.change_game_options(gid, record_thread("grey", None, str(grey.id)))
            grey.thread_members.add(table.bob.id)
            await other.change_game_options(gid, record_sync(
                "grey", had=[], now=[table.bob.id], reported=[], cleared=[]))
        hold.release()
        assert "now commands Blue Army" in text_of(await final(seat))
        await fake.wait_for(lambda: table.dave.id in blue.thread_members)

        game = await bot.umpire.game(gid)
        assert game is not None
        members = game.options[MEMBERS_OPTION]
        assert sorted(members["blue"]) == sorted([table.alice.id, table.dave.id])
        # Bob is recorded as added to grey's thread: were he unseated, he would be removed.
        assert members["grey"] == [table.bob.id]
        assert game.options[THREADS_OPTION] == {**ids, "grey": str(grey.id)}
