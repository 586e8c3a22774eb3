"""The bot as a process of its own, for the crash tests that kill it with SIGKILL and the tests
of several processes sharing the shards, run as ``python -m tests.processes.bot_process DB_PATH
BASE_URL SCENARIOS_DIR [--shards IDS --shard-count N] [--outbox-interval SECONDS]``.

It opens the database file, connects the bot to the fake Discord at ``BASE_URL`` (which the
test runs) with the test token, prints ``ready`` (flushed) once the bot is ready, and serves
until it is killed. Nothing here cleans up on purpose: the point is to be stopped without any.

``BotProcess`` is the test's side: it starts the driver, waits for ``ready``, and kills it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from pathlib import Path
from types import TracebackType
from typing import Self

import storage.db
from bot.client import VedetteBot
from bot.shards import ShardPlan, format_ids
from storage.store import Store
from tests.fakediscord import patched_discord, run_client
from tests.support.botkit import TOKEN
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

ROOT = Path(__file__).resolve().parents[2]
READY = "ready"
#: Generous: a fresh interpreter imports discord.py and the rules on a loaded machine.
START_TIMEOUT = 60.0


async def serve(db: str | Path, base_url: str, scenarios: Path, *,
                shards: ShardPlan | None = None, outbox_interval: float = 0.2) -> None:
    """Run the bot on ``db`` (a database file, or any target ``Store.open`` takes) against the
    fake at ``base_url`` until the process is killed; only ``shards``' shards, if given."""
    async with Store.open(db) as store:
        umpire = Umpire(store, scenarios=scenarios, maps=MapMaker(enabled=False))
        bot = VedetteBot(umpire, outbox_interval=outbox_interval, guild_ready_timeout=0.05,
                         shards=shards)
        with patched_discord(base_url):
            async with run_client(bot, token=TOKEN, timeout=START_TIMEOUT):
                sys.stdout.write(READY + "\n")
                sys.stdout.flush()
                await asyncio.Event().wait()


class BotProcess:
    """The driver in a child process: ``async with BotProcess(...) as bot`` starts it and waits
    until it is ready; ``await bot.kill()`` sends SIGKILL. Leaving the block kills it too (if
    still alive), so no test leaves a bot behind. ``log`` keeps its stderr."""

    def __init__(self, db: str | Path, base_url: str, scenarios: Path, log: Path, *,
                 shards: ShardPlan | None = None, outbox_interval: float = 0.2) -> None:
        self.args = [str(db), base_url, str(scenarios), "--outbox-interval", str(outbox_interval)]
        if shards is not None:
            self.args += ["--shards", format_ids(shards.ids), "--shard-count", str(shards.count)]
        self.log = log
        self.process: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> Self:
        with self.log.open("wb") as stderr:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.processes.bot_process", *self.args, cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"},
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=stderr)
        assert self.process.stdout is not None
        try:
            line = await asyncio.wait_for(self.process.stdout.readline(), START_TIMEOUT)
        except TimeoutError:
            line = b""
        if line.decode().strip() != READY:
            await self.kill()
            raise RuntimeError(f"the bot process did not start:\n{self.log.read_text()}")
        return self

    async def kill(self) -> None:
        """SIGKILL: no clean-up of any kind runs in the bot."""
        assert self.process is not None
        if self.process.returncode is None:
            os.kill(self.process.pid, signal.SIGKILL)
        await asyncio.wait_for(self.process.wait(), 30)

    @property
    def killed(self) -> bool:
        return self.process is not None and self.process.returncode == -signal.SIGKILL

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.kill()


def main(argv: list[str]) -> int:
    from bot.shards import plan

    parser = argparse.ArgumentParser(prog="python -m tests.processes.bot_process")
    parser.add_argument("db")  # as given: a URL must keep its "//"
    parser.add_argument("base_url")
    parser.add_argument("scenarios", type=Path)
    parser.add_argument("--shards", default=None)
    parser.add_argument("--shard-count", default=None)
    parser.add_argument("--outbox-interval", type=float, default=0.2)
    args = parser.parse_args(argv)
    # Two bot processes may share one SQLite file (tests/test_shards.py) on a loaded machine:
    # a writer waits for the other's write lock however long it takes, not the store's 5 s.
    storage.db.BUSY_TIMEOUT_MS = 600_000
    asyncio.run(serve(args.db, args.base_url, args.scenarios,
                      shards=plan(args.shards, args.shard_count),
                      outbox_interval=args.outbox_interval))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
