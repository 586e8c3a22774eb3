"""Several bot processes sharing Discord's shards: the shard plan (``vedette run --shards 0-3
--shard-count 8``) and its refusals, the fake Discord routing as Discord does (a guild to its
shard, DMs to shard 0, a session per shard), and two real bot processes, shards 0 and 1 of 2, on
one database (a SQLite file; PostgreSQL too, when a server is at hand) playing one game whose
server is on shard 1 while its DMs come through shard 0."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.shards import ShardError, ShardPlan, format_ids, plan
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeUser,
    InteractionHandle,
    buttons_of,
    patched_discord,
    run_client,
)
from tests.fakediscord.gateway import IDENTIFY, RESUME
from tests.processes.bot_process import BotProcess
from tests.support.botkit import EPHEMERAL, FIXTURES, TINY, TOKEN, text_of, vedette_command

JSON = dict[str, Any]
APPLICATION_COMMAND = 2


# -- the plan -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("shards", "count", "ids"), [
    ("0-3", "8", (0, 1, 2, 3)),
    ("5", "8", (5,)),
    ("0,2,5", "8", (0, 2, 5)),
    (" 6-7, 0-1 ", "8", (0, 1, 6, 7)),
    (None, "3", (0, 1, 2)),  # a count alone: every shard in this process
    ("", "2", (0, 1)),
])
def test_a_shard_plan_is_read(shards: str | None, count: str, ids: tuple[int, ...]) -> None:
    read = plan(shards, count)
    assert read == ShardPlan(ids, int(count))
    assert read.first == (0 in ids)
    assert read.options() == {"shard_ids": list(ids), "shard_count": int(count)}


def test_no_plan_means_every_shard_discord_asks_for() -> None:
    assert plan(None, None) is None
    assert plan("", " ") is None


@pytest.mark.parametrize(("shards", "count", "says"), [
    ("0-3", None, "needs --shard-count"),
    ("0-3", "", "needs --shard-count"),
    ("0-8", "8", "shard 8 does not exist with a shard count of 8"),
    ("3-1", "8", "runs backwards"),
    ("0-2,2", "8", "shard(s) 2 named more than once"),
    ("0-3", "0", "between 1 and"),
    ("0", "eight", "whole number"),
    ("0", "-2", "whole number"),
    ("a-b", "8", "not a shard or a range"),
    ("1,", "8", "not a shard or a range"),
    ("-1", "8", "not a shard or a range"),
    ("0", "100000", "between 1 and"),
])
def test_a_bad_shard_plan_is_refused(shards: str | None, count: str | None, says: str) -> None:
    with pytest.raises(ShardError, match=says.replace("(", r"\(").replace(")", r"\)")):
        plan(shards, count)


@pytest.mark.parametrize(("ids", "count"), [((), 2), ((2,), 2), ((1, 0), 2), ((0, 0), 2),
                                            ((-1,), 2), ((0,), 0)])
def test_a_plan_made_in_code_holds_the_same_rule(ids: tuple[int, ...], count: int) -> None:
    # An empty list of shards would make discord.py connect every shard.
    with pytest.raises(ShardError):
        ShardPlan(ids, count)


def test_shards_are_written_as_ranges() -> None:
    assert format_ids((0, 1, 2, 5, 7, 8)) == "0-2,5,7-8"
    assert plan(format_ids((0, 1, 2, 5, 7, 8)), "9") == ShardPlan((0, 1, 2, 5, 7, 8), 9)
    assert ShardPlan((1, 2), 4).describe() == "shard(s) 1-2 of 4"


@pytest.fixture
def run_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``vedette run``'s environment in an empty folder (no .env): a token, a database path
    that does not exist yet; the database path."""
    for name in list(os.environ):
        if name.startswith(("DISCORD_", "VEDETTE_")):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "vedette.db"
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("VEDETTE_DB", str(db))
    yield db


@pytest.mark.parametrize(("argv", "env", "says"), [
    (["--shards", "3-1", "--shard-count", "8"], {}, "runs backwards"),
    (["--shards", "0-3"], {}, "needs --shard-count"),
    (["--shards", "2", "--shard-count", "2"], {}, "shard 2 does not exist"),
    (["--shard-count", "0"], {}, "between 1 and"),
    ([], {"VEDETTE_SHARDS": "0-1"}, "needs --shard-count"),
    ([], {"VEDETTE_SHARDS": "0", "VEDETTE_SHARD_COUNT": "two"}, "whole number"),
    # The option wins over the setting, each on its own: shard 4 with the setting's count.
    (["--shards", "4"], {"VEDETTE_SHARD_COUNT": "4"}, "shard 4 does not exist"),
])
async def test_vedette_run_refuses_a_bad_plan_and_starts_nothing(
        run_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        argv: list[str], env: dict[str, str], says: str) -> None:
    from bot.cli import main

    async with FakeDiscord(token=TOKEN, shards=2) as fake:
        monkeypatch.setenv("DISCORD_API_BASE", fake.api_url)
        monkeypatch.setenv("DISCORD_GATEWAY_URL", fake.gateway_url)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        code = await asyncio.to_thread(main, ["run", *argv])
        err = capsys.readouterr().err
        assert code == 2, err
        assert err.startswith("vedette run: ") and says in err, err
        assert "Traceback" not in err
        # Nothing started: no database made, Discord never asked anything.
        assert not run_env.exists()
        assert fake.requests == [] and fake.gateway.received == []


def run_process_env(fake: FakeDiscord, db: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "VEDETTE_"))}
    return env | {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": fake.api_url,
                  "DISCORD_GATEWAY_URL": fake.gateway_url, "VEDETTE_DB": str(db),
                  "VEDETTE_LOG_LEVEL": "INFO", "PYTHONUNBUFFERED": "1"}


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is a POSIX signal")
async def test_vedette_run_serves_only_its_shards(tmp_path: Path) -> None:
    async with FakeDiscord(token=TOKEN, shards=2) as fake:
        _, guild = guilds_on_both_shards(fake)
        channel = fake.add_text_channel(guild, "skirmish")
        alice = fake.add_user("alice", guild=guild)
        process = await asyncio.create_subprocess_exec(
            *vedette_command(), "run", "--shards", "1", "--shard-count", "2", cwd=tmp_path,
            env=run_process_env(fake, tmp_path / "v.db"),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        try:
            await fake.wait_for(lambda: fake.gateway.is_connected(guild.id), timeout=60,
                                what="shard 1's session")
            handle = await fake.slash("game status", user=alice, channel=channel)
            callback = await handle.response(timeout=10)
            assert "not in a game" in (callback.content or "")
            # Shard 0 is another process's: no DM reaches this one, and it pushed no commands.
            assert not fake.gateway.is_connected(None)
            with pytest.raises(RuntimeError, match="no gateway connection"):
                await fake.slash("game status", user=alice)
            assert fake.commands() == []
            assert [p["d"]["shard"] for p in fake.gateway.received if p["op"] == IDENTIFY
                    ] == [[1, 2]]
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
            output, _ = await asyncio.wait_for(process.communicate(), 30)
        log = output.decode(errors="replace")
        assert process.returncode == 0, log
        assert "serving shard(s) 1 of 2" in log and "another process's" in log, log
        assert not fake.requests_to("PUT", "/applications/*/commands")


async def test_vedette_run_says_when_discord_refuses_the_shard_count(tmp_path: Path) -> None:
    async with FakeDiscord(token=TOKEN, shards=2) as fake:
        process = await asyncio.create_subprocess_exec(
            *vedette_command(), "run", "--shards", "0", "--shard-count", "3", cwd=tmp_path,
            env=run_process_env(fake, tmp_path / "v.db"),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        try:
            output, _ = await asyncio.wait_for(process.communicate(), 60)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        log = output.decode(errors="replace")
        assert process.returncode == 1, log
        assert "vedette: Discord refused the shard plan" in log, log
        assert "Traceback" not in log, log
        assert fake.gateway.current == {}


# -- the fake Discord shards as Discord does -------------------------------------------------------
class OneShard(discord.AutoShardedClient):
    """A client for some shards of two, recording the interactions it is given."""

    def __init__(self, *shard_ids: int, count: int = 2) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05,
                         shard_ids=list(shard_ids), shard_count=count)
        self.seen: list[int] = []

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        self.seen.append(interaction.id)


def guilds_on_both_shards(fake: FakeDiscord) -> tuple[FakeGuild, FakeGuild]:
    """A guild on shard 0 and one on shard 1, and no other (ids from distinct milliseconds
    spread out: a guild made on a shard that has one already is taken out of the world
    again, or that shard would hold two)."""
    found: dict[int, FakeGuild] = {}
    while len(found) < 2:
        guild = fake.add_guild(f"Club {len(fake.world.guilds)}")
        shard = fake.gateway.shard_for(guild.id)
        if shard in found:
            del fake.world.guilds[guild.id]
        else:
            found[shard] = guild
    return found[0], found[1]


async def ping(fake: FakeDiscord, user: FakeUser, channel: FakeChannel | None
               ) -> InteractionHandle:
    data = {"id": "1", "name": "ping", "type": 1}
    return await fake.send_interaction(APPLICATION_COMMAND, data, user=user, channel=channel)


async def test_the_fake_routes_guilds_to_their_shard_and_dms_to_shard_0() -> None:
    async with FakeDiscord(token=TOKEN, shards=2) as fake:
        first, second = guilds_on_both_shards(fake)
        on_0 = fake.add_text_channel(first, "zero")
        on_1 = fake.add_text_channel(second, "one")
        alice = fake.add_user("alice", guild=first)
        fake.add_member(second, alice)
        assert (fake.shard_of(on_0), fake.shard_of(on_1), fake.shard_of(None)) == (0, 1, 0)
        zero, one = OneShard(0), OneShard(1)
        with patched_discord(fake.base_url):
            async with run_client(zero, token=TOKEN), run_client(one, token=TOKEN):
                # Each IDENTIFY names its shard and the count; each shard its own session,
                # with only its own guilds.
                identified = [p["d"]["shard"] for p in fake.gateway.received
                              if p["op"] == IDENTIFY]
                assert sorted(identified) == [[0, 2], [1, 2]]
                sessions = {s: fake.gateway.current[s] for s in (0, 1)}
                assert sessions[0].session_id != sessions[1].session_id
                assert sessions[0].connection is not sessions[1].connection
                assert [g.id for g in zero.guilds] == [first.id]
                assert [g.id for g in one.guilds] == [second.id]
                ready = {s: fake.gateway.routed_to(s, "READY")[0]["shard"] for s in (0, 1)}
                assert ready == {0: [0, 2], 1: [1, 2]}

                # A guild's interactions go to its shard; a DM's, and a DM button's, to 0.
                in_0 = await ping(fake, alice, on_0)
                in_1 = await ping(fake, alice, on_1)
                in_dm = await ping(fake, alice, None)
                dm = await one.create_dm(discord.Object(id=alice.id))
                view = discord.ui.View()
                view.add_item(discord.ui.Button(label="Done", custom_id="done:1"))
                sent = await dm.send("Your orders, please", view=view)  # from shard 1's side
                click = await fake.click(sent.id, "done:1", user=alice)
                await fake.wait_for(lambda: len(zero.seen) == 3 and len(one.seen) == 1,
                                    what="interactions on both shards")
                assert zero.seen == [in_0.id, in_dm.id, click.id]
                assert one.seen == [in_1.id]
                assert [int(d["id"]) for d in fake.gateway.routed_to(1, "INTERACTION_CREATE")
                        ] == [in_1.id]

                # Shard 1 alone is told to reconnect: it RESUMEs its own session, gets what
                # was sent meanwhile, and shard 0's session never noticed.
                connection_0 = sessions[0].connection
                await fake.request_reconnect(shard=1)
                await fake.wait_for(lambda: any(p["op"] == RESUME
                                                for p in fake.gateway.received),
                                    what="RESUME")
                [resume] = [p["d"] for p in fake.gateway.received if p["op"] == RESUME]
                assert resume["session_id"] == sessions[1].session_id
                await fake.wait_for(lambda: bool(fake.gateway.routed_to(1, "RESUMED")),
                                    what="RESUMED")
                assert fake.gateway.current[0] is sessions[0]
                assert sessions[0].connection is connection_0
                assert fake.gateway.current[1] is sessions[1]
                again = await ping(fake, alice, on_1)
                await fake.wait_for(lambda: len(one.seen) == 2, what="the interaction")
                assert one.seen[-1] == again.id and len(zero.seen) == 3


async def test_the_fake_refuses_an_identify_with_another_shard_count() -> None:
    async with FakeDiscord(token=TOKEN, shards=2) as fake:
        wrong = OneShard(0, count=3)
        with patched_discord(fake.base_url), pytest.raises(discord.ConnectionClosed) as closed:
            async with run_client(wrong, token=TOKEN):
                pass
        assert closed.value.code == 4010
        assert fake.gateway.current == {}


# -- two bot processes, one game -------------------------------------------------------------------
#: Both processes' background outbox passes run often, beside each command's own drain: the
#: outbox leases must keep them from sending one delivery twice.
BUSY_OUTBOX = 0.2
STEP = 30.0  # generous: two bot processes and the test share a loaded machine


class TwoProcesses:
    """The fake Discord with two shards, a server on shard 1 with the game's channel, alice
    (host, Blue) and bob (Grey), and the database file both bot processes share."""

    def __init__(self, fake: FakeDiscord, db: str | Path) -> None:
        self.fake = fake
        self.db = db
        _, self.guild = guilds_on_both_shards(fake)
        self.channel = fake.add_text_channel(self.guild, "skirmish")
        self.alice = fake.add_user("alice", guild=self.guild)
        self.bob = fake.add_user("bob", guild=self.guild)
        self.handles: dict[int, list[int]] = {0: [], 1: []}  # shard -> interactions sent to it

    async def _sent(self, handle: InteractionHandle, channel: FakeChannel | None
                    ) -> InteractionHandle:
        self.handles[self.fake.shard_of(channel)].append(handle.id)
        return handle

    async def say(self, command: str, user: FakeUser, options: JSON | None = None, *,
                  channel: FakeChannel | None = None) -> JSON:
        """A slash command (in a DM unless ``channel``); the bot's final, ephemeral answer,
        once every delivery it queued has been sent."""
        handle = await self._sent(await self.fake.slash(command, options or {}, user=user,
                                                        channel=channel), channel)
        return await self._answer(handle)

    async def click(self, message: JSON, custom_id: str, user: FakeUser) -> JSON:
        channel = self.fake.world.channels[int(message["channel_id"])]
        on = None if channel.guild_id is None else channel
        handle = await self._sent(await self.fake.click(message, custom_id, user=user), on)
        return await self._answer(handle)

    async def confirm(self, preview: JSON, user: FakeUser) -> str:
        """Click Confirm under a preview; the preview's words once the bot has replaced them."""
        shown = int(preview["id"])
        before = text_of(self.fake.world.messages[shown])
        handle = await self.fake.click(preview, button(preview, "Confirm"), user=user)
        self.handles[0].append(handle.id)  # a preview in a DM
        await handle.response(timeout=STEP)
        await self.fake.wait_for(lambda: text_of(self.fake.world.messages[shown]) != before,
                                 timeout=STEP, what="the confirmed preview")
        await self.settled()
        return text_of(self.fake.world.messages[shown])

    async def _answer(self, handle: InteractionHandle) -> JSON:
        callback = await handle.response(timeout=STEP)
        message = (await handle.original_message(timeout=STEP) if callback.type == 5
                   else handle.original)
        assert message is not None and message["flags"] & EPHEMERAL, message
        await self.settled()
        return message

    async def settled(self) -> None:
        """Wait until the shared database holds no delivery still to send."""
        from storage.store import Store

        async with Store.open(self.db) as store:
            for _ in range(int(STEP / 0.1)):
                if not await store.pending_deliveries():
                    return
                await asyncio.sleep(0.1)
        raise AssertionError("deliveries still pending")

    def dms(self, user: FakeUser) -> list[str]:
        return [text_of(m) for m in self.fake.dms_to(user)]

    def orders(self, user: FakeUser) -> JSON:
        """The user's latest "Your orders, please" DM (with its Done button)."""
        return [m for m in self.fake.dms_to(user) if "Your orders, please" in text_of(m)][-1]


def button(message: JSON, label: str) -> str:
    [found] = [b["custom_id"] for b in buttons_of(message) if b.get("label") == label]
    custom_id: str = found
    return custom_id


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is a POSIX signal")
async def test_two_processes_on_two_shards_play_one_game(tmp_path: Path) -> None:
    await two_processes_play_one_game(tmp_path, tmp_path / "vedette.db")


async def two_processes_play_one_game(tmp_path: Path, target: str | Path) -> None:
    """The game played by two bot processes on the database ``target``, then checked."""
    async with FakeDiscord(token=TOKEN, shards=2) as fake:
        t = TwoProcesses(fake, target)
        assert fake.shard_of(t.channel) == 1 and fake.shard_of(None) == 0
        common = {"outbox_interval": BUSY_OUTBOX}
        # Shard 1's process first: it must not push the slash commands; shard 0's does.
        async with BotProcess(t.db, fake.base_url, FIXTURES, tmp_path / "one.log",
                              shards=ShardPlan((1,), 2), **common):
            assert fake.gateway.is_connected(t.guild.id)
            assert not fake.requests_to("PUT", "/applications/*/commands")
            async with BotProcess(t.db, fake.base_url, FIXTURES, tmp_path / "zero.log",
                                  shards=ShardPlan((0,), 2), **common):
                await fake.wait_for(lambda: bool(fake.commands()), timeout=STEP,
                                    what="the command push")
                await play(t)
            await finish(t)
        logs = {name: (tmp_path / f"{name}.log").read_text() for name in ("one", "zero")}
    for name, log in logs.items():
        assert "Traceback" not in log, (name, log)
    assert len(fake.requests_to("PUT", "/applications/*/commands")) == 1
    # Every shard got exactly the interactions sent to its servers (or DMs), each exactly once.
    for shard, sent in t.handles.items():
        routed = [int(d["id"]) for d in fake.gateway.routed_to(shard, "INTERACTION_CREATE")]
        assert routed == sent, shard
    assert t.handles[0] and t.handles[1]


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is a POSIX signal")
async def test_commands_racing_in_two_processes_all_land(tmp_path: Path) -> None:
    await commands_racing_in_two_processes(tmp_path, tmp_path / "vedette.db")


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is a POSIX signal")
async def test_commands_racing_in_two_processes_all_land_on_postgresql(
        tmp_path: Path, pg_target: str) -> None:
    await commands_racing_in_two_processes(tmp_path, pg_target)


async def commands_racing_in_two_processes(tmp_path: Path, target: str | Path) -> None:
    """Moves for one game sent to both processes at once, on the database ``target``."""
    async with FakeDiscord(token=TOKEN, shards=2) as fake:
        t = TwoProcesses(fake, target)
        common = {"outbox_interval": BUSY_OUTBOX}
        async with BotProcess(t.db, fake.base_url, FIXTURES, tmp_path / "zero.log",
                              shards=ShardPlan((0,), 2), **common), \
                BotProcess(t.db, fake.base_url, FIXTURES, tmp_path / "one.log",
                           shards=ShardPlan((1,), 2), **common):
            await fake.wait_for(lambda: bool(fake.commands()), timeout=STEP,
                                what="the command push")
            gid = await set_up(t)
            said = text_of(await t.say("settings", t.alice, {"preview": "off"}))
            assert "off" in said.lower(), said
            # Each round: one move in the server (shard 1's process) and one in a DM (shard
            # 0's), sent together, both for the same game. Both are given, whichever commits
            # first; neither is refused for the other.
            for in_server, in_dm in ((("1st Brigade", "A0103"), ("2nd Brigade", "A0106")),
                                     (("2nd Brigade", "A0105"), ("1st Brigade", "A0102"))):
                handles = await asyncio.gather(
                    fake.slash("move", {"unit": in_server[0], "route": in_server[1]},
                               user=t.alice, channel=t.channel),
                    fake.slash("move", {"unit": in_dm[0], "route": in_dm[1]}, user=t.alice))
                t.handles[1].append(handles[0].id)
                t.handles[0].append(handles[1].id)
                answers = [text_of(await t._answer(h)) for h in handles]
                for (unit, cell), answer in zip((in_server, in_dm), answers, strict=True):
                    assert f"{unit} moved 1 cell(s) to {cell}" in answer, answer
            ended = text_of(await t.say("game end", t.alice, channel=t.channel))
            assert "The game is over" in ended, ended
            verified = text_of(await t.say("game verify", t.bob, {"game": gid}))
            assert "decided again give every event of the log, with no gaps" in verified
        await finish(t)
    for shard, sent in t.handles.items():
        routed = [int(d["id"]) for d in fake.gateway.routed_to(shard, "INTERACTION_CREATE")]
        assert routed == sent, shard


async def set_up(t: TwoProcesses) -> str:
    """The tiny game made, joined and started in the server; its id."""
    created = text_of(await t.say("game create", t.alice, {"scenario": TINY}, channel=t.channel))
    assert "You host game" in created, created
    for user, side in ((t.alice, "blue"), (t.bob, "grey")):
        joined = text_of(await t.say("game join", user, {"side": side}, channel=t.channel))
        assert "You command" in joined, joined
    assert "started" in text_of(await t.say("game start", t.alice, channel=t.channel))
    return created.split("`")[1]


async def play(t: TwoProcesses) -> None:
    """A turn: set up and started in the server (shard 1's process), orders given in DMs and
    by DM buttons (shard 0's), each process reading what the other committed."""
    gid = await set_up(t)
    assert "Tiny Skirmish" in text_of(t.fake.messages_in(t.channel)[0])
    # The start went out from shard 1's process, DMs included.
    assert any("Your orders, please: Blue Army Movement Phase" in d for d in t.dms(t.alice))

    # alice moves in her DM (shard 0's process) and confirms the preview with its button.
    preview = await t.say("move", t.alice, {"unit": "2nd Brigade", "route": "A0106"})
    confirmed = await t.confirm(preview, t.alice)
    assert "2nd Brigade moved 1 cell(s) to A0106" in confirmed, confirmed
    # Her orders DM's Done button ends Blue's phase: bob is asked for Grey's orders.
    done = await t.click(t.orders(t.alice), button(t.orders(t.alice), "Done"), t.alice)
    assert "finished" in text_of(done), text_of(done)
    assert "Your orders, please: Grey Army Movement Phase" in text_of(t.orders(t.bob))

    # Shard 1's process sees shard 0's commits: the status in the server says Grey's phase.
    status = text_of(await t.say("game status", t.bob, channel=t.channel))
    assert "Turn 1" in status and "Movement Phase (Grey Army)" in status, status
    moved = await t.say("move", t.bob, {"unit": "Grey Battery", "route": "B0603"})
    assert "Grey Battery moved 1 cell(s) to B0603" in await t.confirm(moved, t.bob)
    done = await t.click(t.orders(t.bob), button(t.orders(t.bob), "Done"), t.bob)
    assert "finished" in text_of(done), text_of(done)
    assert "Your orders, please: Blue Army Movement Phase, turn 2 (game" in text_of(
        t.orders(t.alice))

    # The host ends the game in the server; the verification there checks every roll.
    in_dm = text_of(await t.say("game status", t.alice))
    in_server = text_of(await t.say("game status", t.alice, channel=t.channel))
    for said in (in_dm, in_server):
        assert "Turn 2" in said and "Movement Phase (Blue Army)" in said, said
    ended = text_of(await t.say("game end", t.alice, channel=t.channel))
    assert "The game is over" in ended, ended
    verified = text_of(await t.say("game verify", t.bob, {"game": gid}))
    assert verified.startswith(f"**Game `{gid}` verified**"), verified
    assert "decided again give every event of the log, with no gaps" in verified, verified


async def finish(t: TwoProcesses) -> None:
    """Both processes stopped: the log has no gap, every delivery went out, each DM once."""
    from storage.records import Recipient
    from storage.store import Store

    async with Store.open(t.db) as store:
        [game] = await store.list_games(channel_id=t.channel.id)
        events = await store.events(game.id)
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        assert await store.pending_deliveries(game.id) == []
        private = [d for user, side in ((t.alice, "blue"), (t.bob, "grey"))
                   for d in await store.deliveries_for(
                       game.id, Recipient("player", str(user.id)), Recipient("side", side),
                       limit=1000)]
        assert private and all(d.status == "sent" for d in private), [
            (d.id, d.status, d.last_error) for d in private if d.status != "sent"]
    # Each DM arrived once, and was sent once: one request per message, none posted again.
    for user in (t.alice, t.bob):
        channel = t.fake.world.dm_channel_ids[user.id]
        nonces = [m.get("nonce") for m in t.fake.dms_to(user)]
        assert None not in nonces and len(set(nonces)) == len(nonces), user.username
        posts = [r.json.get("nonce") for r in t.fake.requests_to(
            "POST", f"/channels/{channel}/messages")]
        assert sorted(posts) == sorted(nonces), user.username


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is a POSIX signal")
async def test_two_processes_on_two_shards_play_one_game_on_postgresql(
        tmp_path: Path, pg_target: str) -> None:
    await two_processes_play_one_game(tmp_path, pg_target)
