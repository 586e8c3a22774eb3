"""``/host deadline`` and the phases' clock through the fake Discord: the host sets and extends a
deadline (announced in the channel), the bot's outbox loop reminds the player still at the phase
by DM (once for each deadline), and at the deadline marks their side done once, also after
the bot restarts. The store's clock is one the test moves; the loop reads it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.client import VedetteBot
from storage.store import Store
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, patched_discord, run_client
from tests.support.botkit import EPHEMERAL, FIXTURES, TOKEN, text_of
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
PASSES = 0.7  # a few passes of the outbox loop (every 0.2 s)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def at(self, **after_start: float) -> None:
        self.now = T0 + timedelta(**after_start)


@dataclass
class Table:
    fake: FakeDiscord
    channel: FakeChannel
    alice: FakeUser  # the host, Blue
    bob: FakeUser  # Grey
    db: Path
    clock: Clock


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    async with FakeDiscord(token=TOKEN, callback_deadline=3.0) as fake:
        guild = fake.add_guild("Wargames Club")
        channel = fake.add_text_channel(guild, "skirmish")
        alice = fake.add_user("alice", guild=guild)
        bob = fake.add_user("bob", guild=guild)
        clock = Clock()
        async with Store.open(tmp_path / "vedette.db", clock=clock) as store:
            umpire = Umpire(store, maps=MapMaker(enabled=False))
            await umpire.create_game(str(FIXTURES / "tiny.toml"), alice.id, game_id="g1",
                                     guild_id=guild.id, channel_id=channel.id)
            await umpire.join("g1", alice.id, "blue", in_server=True)
            await umpire.join("g1", bob.id, "grey", in_server=True)
            await umpire.start("g1", alice.id)
        yield Table(fake, channel, alice, bob, tmp_path / "vedette.db", clock)


@asynccontextmanager
async def running(table: Table) -> AsyncIterator[VedetteBot]:
    async with Store.open(table.db, clock=table.clock) as store:
        bot = VedetteBot(Umpire(store, maps=MapMaker(enabled=False)), outbox_interval=0.2,
                         guild_ready_timeout=0.05)
        with patched_discord(table.fake.base_url):
            async with run_client(bot, token=TOKEN):
                yield bot


async def say(table: Table, command: str, user: FakeUser, options: dict[str, Any],
              channel: FakeChannel | None = None) -> str:
    handle = await table.fake.slash(command, options, user=user, channel=channel)
    callback = await handle.response()
    message = await handle.original_message() if callback.type == 5 else handle.original
    assert message is not None and message["flags"] & EPHEMERAL
    return text_of(message)


def public(table: Table) -> list[str]:
    return [text_of(m) for m in table.fake.messages_in(table.channel)]


def reminders(table: Table, user: FakeUser) -> list[str]:
    return [t for t in (text_of(m) for m in table.fake.dms_to(user)) if t.startswith("Reminder")]


async def test_the_host_sets_a_deadline_and_the_bot_reminds_then_ends_the_phase(
        table: Table) -> None:
    fake = table.fake
    async with running(table) as bot:
        refused = await say(table, "host deadline", table.bob, {"length": "4h"}, table.channel)
        assert refused == "only the game's host can do that"
        bad = await say(table, "host deadline", table.alice, {"length": "soon"}, table.channel)
        assert "not a length of time" in bad
        both = await say(table, "host deadline", table.alice, {"length": "4h", "extend": "1h"},
                         table.channel)
        assert "not both" in both
        assert "Phase deadline: none." in await say(table, "host deadline", table.alice, {},
                                                    table.channel)
        await bot.outbox.idle()
        assert not any("deadline" in t for t in public(table))  # refused: nothing said

        done = await say(table, "host deadline", table.alice, {"length": "4h"}, table.channel)
        assert done.startswith("Done: The host set a deadline of 4 h")
        await fake.wait_for(lambda: any("deadline of 4 h" in t for t in public(table)),
                            what="the deadline's announcement")

        table.clock.at(hours=3)
        await fake.wait_for(lambda: len(reminders(table, table.alice)) == 1, what="a reminder")
        await asyncio.sleep(PASSES)
        [reminder] = reminders(table, table.alice)
        assert "Blue Army Movement Phase (turn 1) ends in 1 h" in reminder
        assert reminders(table, table.bob) == []

        extended = await say(table, "host deadline", table.alice, {"extend": "1h"},
                             table.channel)
        assert "1 h more" in extended
        await fake.wait_for(lambda: any("1 h more" in t for t in public(table)),
                            what="the extension's announcement")

        # Extended, the phase ends at 5 h; the reminder's new time (3 h 45 min) is after the
        # extension was given, so it goes again.
        table.clock.at(hours=4, minutes=30)
        await fake.wait_for(lambda: len(reminders(table, table.alice)) == 2,
                            what="the extended phase's reminder")
        assert "ends in 30 min" in reminders(table, table.alice)[1]
        assert (await bot.umpire.repository.state_for("g1")).current.side == "blue"
        table.clock.at(hours=5)
        await fake.wait_for(lambda: any("has passed" in t for t in public(table)),
                            what="the deadline's post")
        assert (await bot.umpire.repository.state_for("g1")).current.side == "grey"

    async with running(table) as bot:  # restarted: nothing is done again
        await asyncio.sleep(PASSES)
        await bot.outbox.idle()
        assert len([t for t in public(table) if "has passed" in t]) == 1
        assert len(reminders(table, table.alice)) == 2
        assert any("the umpire marked it done" in text_of(m) for m in fake.dms_to(table.alice))
        # Grey's phase began at 5 h: its reminder is due at 8 h.
        table.clock.at(hours=7, minutes=59)
        await asyncio.sleep(PASSES)
        assert reminders(table, table.bob) == []
        table.clock.at(hours=8)
        await fake.wait_for(lambda: len(reminders(table, table.bob)) == 1, what="Grey's reminder")
        await asyncio.sleep(PASSES)
        assert len(reminders(table, table.bob)) == 1


def stamp(**after_start: float) -> str:
    """The relative Discord timestamp of a moment after the start (each reader sees it in
    their own time zone)."""
    return f"<t:{int((T0 + timedelta(**after_start)).timestamp())}:R>"


def status_posts(table: Table) -> list[dict[str, Any]]:
    return [m for m in table.fake.messages_in(table.channel)
            if text_of(m).startswith("**Turn 1 ")]


async def test_everyone_sees_the_deadline_as_a_timestamp(table: Table) -> None:
    fake = table.fake
    async with running(table) as bot:
        await bot.outbox.idle()
        [post] = status_posts(table)
        assert "Deadline" not in text_of(post)  # no deadline: nothing said of one
        assert "Deadline: none" in await say(table, "game status", table.bob, {}, table.channel)

        # The host sets one: the turn's status post is edited to show it.
        await say(table, "host deadline", table.alice, {"length": "4h"}, table.channel)
        await fake.wait_for(lambda: stamp(hours=4) in text_of(status_posts(table)[0]),
                            what="the status post showing the deadline")
        [edited] = status_posts(table)
        assert edited["id"] == post["id"]
        assert f"Deadline: <t:{int((T0 + timedelta(hours=4)).timestamp())}:f> " \
               f"({stamp(hours=4)})" in text_of(edited)
        assert any(stamp(hours=4) in t for t in public(table) if "deadline of 4 h" in t)
        # Players read it with /game status and /help.
        assert stamp(hours=4) in await say(table, "game status", table.bob, {}, table.channel)
        assert stamp(hours=4) in await say(table, "help", table.alice, {}, table.channel)

        # Only the host sets it: the others' tries change nothing.
        for options in ({"length": "1h"}, {"extend": "2d"}, {"length": "none"}):
            refused = await say(table, "host deadline", table.bob, options, table.channel)
            assert refused == "only the game's host can do that"
        setting = await bot.umpire.store.deadline_setting("g1")
        assert setting is not None and setting.length_seconds == 4 * 3600
        assert (await bot.umpire.store.step_deadline("g1", 1, 1)).extra_seconds == 0

        # The host extends the phase: the post shows the phase's new deadline.
        table.clock.at(hours=1)
        await say(table, "host deadline", table.alice, {"extend": "1h"}, table.channel)
        await fake.wait_for(lambda: stamp(hours=5) in text_of(status_posts(table)[0]),
                            what="the status post showing the extended deadline")
        assert stamp(hours=4) not in text_of(status_posts(table)[0])
        assert stamp(hours=5) in await say(table, "game status", table.alice, {},
                                           table.channel)

        # Blue finishes at 2 h: Grey's phase has its own 4 h (the extension was Blue's phase's).
        table.clock.at(hours=2)
        await say(table, "done", table.alice, {}, table.channel)
        await fake.wait_for(lambda: any(t.startswith("Your orders, please")
                                        for t in (text_of(m) for m in fake.dms_to(table.bob))),
                            what="Grey's call for orders")
        [call] = [t for t in (text_of(m) for m in fake.dms_to(table.bob))
                  if t.startswith("Your orders, please")]
        assert f"Orders due by <t:{int((T0 + timedelta(hours=6)).timestamp())}:f> " \
               f"({stamp(hours=6)})." in call
        await fake.wait_for(lambda: stamp(hours=6) in text_of(status_posts(table)[0]),
                            what="the status post showing Grey's deadline")
        assert stamp(hours=6) in await say(table, "help", table.bob, {}, table.channel)
        assert stamp(hours=6) not in await say(table, "help", table.alice, {}, table.channel)

        # Grey's reminder, at three quarters of its phase's time, names the same moment.
        table.clock.at(hours=5)
        await fake.wait_for(lambda: len(reminders(table, table.bob)) == 1, what="a reminder")
        [reminder] = reminders(table, table.bob)
        assert stamp(hours=6) in reminder

        # Taking the deadline away takes it off the post.
        await say(table, "host deadline", table.alice, {"length": "none"}, table.channel)
        await fake.wait_for(lambda: "Deadline" not in text_of(status_posts(table)[0]),
                            what="the status post without a deadline")
