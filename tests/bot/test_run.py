"""``vedette run`` as a real process against the local Discord stand-in: it connects, pushes its
commands, answers one, and closes cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.fakediscord import FakeDiscord
from tests.support.botkit import vedette_command

TOKEN = "vedette-run-token"


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is a POSIX signal")
async def test_vedette_run_answers_and_stops_on_sigterm(tmp_path: Path) -> None:
    async with FakeDiscord(token=TOKEN) as fake:
        guild = fake.add_guild("Wargames Club")
        channel = fake.add_text_channel(guild, "skirmish")
        alice = fake.add_user("alice", guild=guild)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "VEDETTE_"))}
        env |= {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": fake.api_url,
                "DISCORD_GATEWAY_URL": fake.gateway_url, "VEDETTE_DB": str(tmp_path / "v.db"),
                "VEDETTE_LOG_LEVEL": "INFO", "PYTHONUNBUFFERED": "1"}
        process = await asyncio.create_subprocess_exec(
            *vedette_command(), "run", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        try:
            # READY reached and the commands pushed (first start: they were never pushed).
            await fake.wait_for(lambda: bool(fake.commands()), timeout=30, what="command sync")
            await fake.wait_for(lambda: fake.gateway.is_connected(guild.id), timeout=30,
                                what="gateway session")
            await fake.wait_for(lambda: any(p["op"] == 2 for p in fake.gateway.received),
                                timeout=30, what="IDENTIFY")
            handle = await fake.slash("game status", user=alice, channel=channel)
            callback = await handle.response(timeout=10)
            assert callback.ephemeral
            assert "not in a game" in (callback.content or "")
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
            output, _ = await asyncio.wait_for(process.communicate(), 30)
        log = output.decode(errors="replace")
        assert process.returncode == 0, log
        assert "closed" in log
        assert "Traceback" not in log
        await fake.wait_for(lambda: not fake.gateway.connections, what="gateway closed")


async def test_vedette_backup_copies_the_database(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main
    from storage.store import Store

    db = tmp_path / "live.db"
    async with Store.open(db) as store:
        await store.set_state("marker", "kept")
    out = tmp_path / "backup.db"
    code = await asyncio.to_thread(main, ["backup", "--db", str(db), "--out", str(out)])
    assert code == 0, capsys.readouterr()
    async with Store.open(out) as copy:
        assert await copy.get_state("marker") == "kept"
    again = await asyncio.to_thread(main, ["backup", "--db", str(db), "--out", str(out)])
    assert again == 1 and "exists" in capsys.readouterr().err
    missing = await asyncio.to_thread(main, ["backup", "--db", str(tmp_path / "no.db"),
                                             "--out", str(tmp_path / "x.db")])
    assert missing == 2


async def test_vedette_sync_pushes_the_commands_and_exits(tmp_path: Path) -> None:
    async with FakeDiscord(token=TOKEN) as fake:
        guild = fake.add_guild("Wargames Club")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "VEDETTE_"))}
        env |= {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": fake.api_url,
                "DISCORD_GATEWAY_URL": fake.gateway_url, "VEDETTE_DB": str(tmp_path / "v.db"),
                "VEDETTE_DEV_GUILD": str(guild.id)}
        process = await asyncio.create_subprocess_exec(
            *vedette_command(), "sync", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        output, _ = await asyncio.wait_for(process.communicate(), 30)
        assert process.returncode == 0, output.decode()
        pushed = {c["name"] for c in fake.commands(guild)}
        assert f"{len(pushed)} slash commands pushed to guild {guild.id}" in output.decode()
        assert pushed >= {"game", "move", "inbox", "host", "fire"}
        assert fake.commands() == []  # the dev guild only
        assert not fake.gateway.received  # no gateway session needed
        # VEDETTE_GLOBAL_COMMANDS: the dev guild and globally, so that DMs have them too.
        process = await asyncio.create_subprocess_exec(
            *vedette_command(), "sync", cwd=tmp_path,
            env=env | {"VEDETTE_GLOBAL_COMMANDS": "true"},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        output, _ = await asyncio.wait_for(process.communicate(), 30)
        assert process.returncode == 0, output.decode()
        assert (f"{len(pushed)} slash commands pushed to guild {guild.id} and every server and "
                "DMs") in output.decode()
        assert {c["name"] for c in fake.commands()} == pushed
