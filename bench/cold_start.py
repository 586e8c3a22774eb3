"""Cold start of the bot: ``uv run python -m bench.cold_start [--runs N]``.

A host restarts the bot (an update, a reboot) while games are under way; the players should not
notice. Here a game of ``flank-march`` is set up and its map looked at once through a first
``vedette run`` process (which leaves its cache folder behind, as a host's bot does), and then
``N`` fresh ``vedette run`` processes (3 by default) are started one after the other against the
local fake Discord (``tests.fakediscord``), each asked for a Union player's ``/map`` the moment
its gateway session is up.

Measured, as the median over the fresh processes:

* ``ready_s``: from starting the process to its first request to Discord (the log-in): the time
  the process spends on its own before Discord is contacted (imports, settings, the database);
* ``first_map_ms``: from that first ``/map`` sent to its picture visible.

The first run (a new database, every cache cold) is printed beside them, for comparison.
It prints readable figures and, as its last line, one JSON object with those keys.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.botload import DEFERRED, Figures, Players, Table, set_up, stop_bot
from tests.fakediscord import FakeDiscord
from tests.support.botkit import TOKEN, vedette_command

START_TIMEOUT = 60.0
RUNS = 3


@dataclass
class Start:
    """One process's figures: seconds to its log-in, milliseconds to its first map."""

    ready_s: float
    first_map_ms: float


def bot_env(fake: FakeDiscord, db: Path) -> dict[str, str]:
    """``vedette run``'s environment: the fake Discord, the database, and Python left to keep
    its compiled modules, as on a host's machine (the first run writes them, a restart reads
    them; without them each start compiles the whole program again, a second or more)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISCORD_", "VEDETTE_")) and k != "PYTHONDONTWRITEBYTECODE"}
    return env | {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": fake.api_url,
                  "DISCORD_GATEWAY_URL": fake.gateway_url, "VEDETTE_DB": str(db),
                  "VEDETTE_LOG_LEVEL": "WARNING", "PYTHONUNBUFFERED": "1"}


async def start_once(fake: FakeDiscord, folder: Path, table: Table, *, fresh: bool) -> Start:
    """A ``vedette run`` process on ``folder``'s database, timed to its log-in and to the
    first map it draws; ``fresh``: the game is set up first (a new database)."""
    logins = len(fake.requests_to("GET", "/users/@me"))
    identifies = sum(p["op"] == 2 for p in fake.gateway.received)
    log = (folder / "bot.log").open("ab")
    started = time.monotonic()
    process = await asyncio.create_subprocess_exec(
        *vedette_command(), "run", cwd=folder, env=bot_env(fake, folder / "vedette.db"),
        stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log)
    try:
        login = await fake.wait_for_request("GET", "/users/@me", count=logins + 1,
                                            timeout=START_TIMEOUT)
        await fake.wait_for(
            lambda: sum(p["op"] == 2 for p in fake.gateway.received) > identifies
            and fake.gateway.is_connected(table.channel.guild_id),
            timeout=START_TIMEOUT, what="gateway session")
        players = Players(fake, Figures())
        if fresh:
            await set_up(players, table)
        sent = time.monotonic()
        handle = await fake.slash("map", {}, user=table.union[0], channel=table.channel)
        callback = await handle.response(timeout=START_TIMEOUT)
        message = (await handle.original_message(timeout=START_TIMEOUT)
                   if callback.type == DEFERRED else handle.original or {})
        shown = time.monotonic()
        if not message.get("attachments"):
            raise RuntimeError(f"no picture came back: {message.get('content')!r}")
        return Start(login.received - started, (shown - sent) * 1000)
    finally:
        await stop_bot(process)
        log.close()


async def run(runs: int, folder: Path) -> dict[str, float]:
    async with FakeDiscord(token=TOKEN) as fake:
        guild = fake.add_guild("Cold Start Club")
        table = Table(fake.add_text_channel(guild, "game"),
                      (fake.add_user("host", guild=guild), fake.add_user("mate", guild=guild)),
                      (fake.add_user("reb", guild=guild),))
        first = await start_once(fake, folder, table, fresh=True)
        starts = [await start_once(fake, folder, table, fresh=False) for _ in range(runs)]
    ready = statistics.median(s.ready_s for s in starts)
    first_map = statistics.median(s.first_map_ms for s in starts)
    print(f"a game of flank-march under way; {runs} fresh `vedette run` processes, one after "
          "the other, each asked for a /map as soon as its gateway session was up")
    print(f"  process start to log-in: median {ready:.2f} s "
          f"({', '.join(f'{s.ready_s:.2f}' for s in starts)}); the very first run "
          f"{first.ready_s:.2f} s")
    print(f"  first /map after the restart: median {first_map:.0f} ms "
          f"({', '.join(f'{s.first_map_ms:.0f}' for s in starts)}); on a new database with "
          f"every cache cold {first.first_map_ms:.0f} ms")
    return {"ready_s": round(ready, 3), "first_map_ms": round(first_map, 1), "runs": runs,
            "first_run_ready_s": round(first.ready_s, 3),
            "first_run_first_map_ms": round(first.first_map_ms, 1)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cold_start",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=RUNS, help="fresh processes to time")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    with tempfile.TemporaryDirectory(prefix="vedette-cold-start-") as tmp:
        result = asyncio.run(run(args.runs, Path(tmp)))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
