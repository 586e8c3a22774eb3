"""Load benchmark of the bot itself: ``uv run python -m bench.botload [--games N --turns T]``.

The real bot runs as a process of its own (maps drawn, the shipped scenarios, a real database
file), connected to the local fake Discord (``tests.fakediscord``) that this process runs. Here,
``N`` games of ``flank-march`` (20 by default) are set up and played at once through slash
commands, each in its own channel with three players (two sharing the Union, one Confederate):
``/game create``, ``/game join``, ``/game start``, then ``T`` turns (2 by default) in which each
side, in its Movement Phase, makes one short ``/move`` and looks at its ``/map`` (each Union
player), and every acting side says ``/done``. What to order is worked out from the database
file (read only), never sent to the bot as anything but commands.

Measured:

* ``p50_ms``, ``p99_ms``: from the interaction sent to its answer visible (the final message,
  after a "thinking" deferral if the bot deferred), over every command of the turns;
* ``late_acks``: interactions whose first callback came after Discord's 3 seconds;
* ``posts_per_turn``: messages posted (not edited) in the games' channels during the turns, per
  game and turn;
* ``db_bytes_per_turn``: the database file in use (checkpointed once the outbox is empty, its
  free pages left out: SQLite reuses them) over games x turns; setting the games up included.

It prints readable figures and, as its last line, one JSON object with those keys.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.grid import Cell
from rules.state import GameState
from storage.store import Store
from tests.botkit import TOKEN
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, InteractionHandle
from umpire.demo import Order, reachable_route
from umpire.maps import MapMaker
from umpire.service import Umpire

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = "flank-march"
ACK_LIMIT = 3.0  # Discord's window for the first answer to an interaction
DEFERRED = 5
READY = "ready"
START_TIMEOUT = 60.0
ANSWER_TIMEOUT = 120.0
GAME_ID = re.compile(r"You host game `([^`]+)`")


@dataclass
class Table:
    """One game's channel and players: ``union`` (the host first) and ``confederate``."""

    channel: FakeChannel
    union: tuple[FakeUser, FakeUser]
    confederate: tuple[FakeUser]
    game_id: str = ""

    def players(self, side: str) -> tuple[FakeUser, ...]:
        return self.union if side == "union" else self.confederate


@dataclass
class Figures:
    answers: list[float] = field(default_factory=list)
    late_acks: int = 0
    commands: int = 0


# -- the bot's process ---------------------------------------------------------------------------
async def serve(db: Path, base_url: str) -> None:
    """The bot on ``db`` with maps drawn, against the fake at ``base_url``, until killed."""
    from bot.client import VedetteBot
    from tests.fakediscord import patched_discord, run_client

    async with Store.open(db) as store:
        umpire = Umpire(store, scenarios=ROOT / "scenarios", maps=MapMaker(enabled=True))
        bot = VedetteBot(umpire, outbox_interval=0.2, guild_ready_timeout=0.05)
        with patched_discord(base_url):
            async with run_client(bot, token=TOKEN, timeout=START_TIMEOUT):
                sys.stdout.write(READY + "\n")
                sys.stdout.flush()
                await asyncio.Event().wait()


async def start_bot(db: Path, base_url: str, log: Path) -> asyncio.subprocess.Process:
    with log.open("wb") as stderr:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.botload", "--serve", str(db), base_url, cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"},
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=stderr)
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), START_TIMEOUT)
    if line.decode().strip() != READY:
        await stop_bot(process)
        raise RuntimeError(f"the bot did not start:\n{log.read_text()}")
    return process


async def stop_bot(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), 30)
        except TimeoutError:
            process.kill()
            await process.wait()


# -- the players ---------------------------------------------------------------------------------
class Players:
    """Sends commands as the players and times the answers."""

    def __init__(self, fake: FakeDiscord, figures: Figures) -> None:
        self.fake = fake
        self.figures = figures

    async def say(self, command: str, user: FakeUser, options: dict[str, Any] | None = None,
                  channel: FakeChannel | None = None, *, timed: bool = True) -> str:
        handle = await self.fake.slash(command, options or {}, user=user, channel=channel)
        return await self.answer(handle, timed)

    async def answer(self, handle: InteractionHandle, timed: bool) -> str:
        callback = await handle.response(timeout=ANSWER_TIMEOUT)
        acked = time.monotonic()
        if callback.type == DEFERRED:
            message = await handle.original_message(timeout=ANSWER_TIMEOUT)
        else:
            message = handle.original or {}
        seen = time.monotonic()
        if timed:
            self.figures.commands += 1
            self.figures.answers.append(seen - handle.sent_at)
            self.figures.late_acks += acked - handle.sent_at > ACK_LIMIT
        parts = [message.get("content") or ""]
        parts += [e.get("description") or "" for e in message.get("embeds") or []]
        return "\n".join(parts)


async def set_up(players: Players, table: Table) -> None:
    host = table.union[0]
    created = await players.say("game create", host, {"scenario": SCENARIO}, table.channel,
                                timed=False)
    found = GAME_ID.search(created)
    if found is None:
        raise RuntimeError(f"no game created: {created}")
    table.game_id = found[1]
    for side in ("union", "confederate"):
        for user in table.players(side):
            await players.say("game join", user, {"side": side}, table.channel, timed=False)
    started = await players.say("game start", host, channel=table.channel, timed=False)
    if "started" not in started:
        raise RuntimeError(f"game {table.game_id} did not start: {started}")


async def play(players: Players, reader: Umpire, table: Table, turns: int, seed: int) -> None:
    """Play until turn ``turns`` is over: a short move and maps in each Movement Phase, and
    /done for every acting side."""
    rng = random.Random(seed)
    for _ in range(turns * 40):  # a guard against a script that no longer advances
        state = await reader.state_for(table.game_id)
        if state.status != "active" or state.turn > turns:
            return
        for side in [s for s in state.acting_sides() if s not in state.done]:
            first = table.players(side)[0]
            if state.current.allows("move"):
                route = short_march(state, side, rng)
                if route is not None:
                    await players.say("move", first, {"unit": route[0], "route": route[1]})
                for user in table.players(side):
                    await players.say("map", user)
            # A shared side finishes when each of its players is done (ruling FLOW-1).
            for user in table.players(side):
                await players.say("done", user)
    raise RuntimeError(f"game {table.game_id} did not get through {turns} turns")


def short_march(state: GameState, side: str, rng: random.Random) -> tuple[str, str] | None:
    """A unit of ``side`` and a route of a cell or two it can take now, or ``None``."""
    board = state.loaded.board
    units = sorted(u.id for u in state.units.values()
                   if u.side == side and u.cell is not None and u.mp_left > 0)
    for unit in rng.sample(units, min(8, len(units))):
        here = state.units[unit].cell
        assert here is not None
        dest = Cell(here.col + rng.randint(-2, 2), here.row + rng.randint(-2, 2))
        if dest == here or not board.on_a_sheet(dest):
            continue
        route = reachable_route(state, Order(side, unit, board.label(dest)))
        if route is not None:
            return unit, route
    return None


# -- the run -------------------------------------------------------------------------------------
def checkpointed_size(db: Path) -> tuple[int, int]:
    """The file's size with the write-ahead log folded in, and the part of it in use: less
    its free pages (space that pictures held until they were sent, which SQLite reuses for the
    next ones)."""
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        free = int(conn.execute("PRAGMA freelist_count").fetchone()[0])
        page = int(conn.execute("PRAGMA page_size").fetchone()[0])
    size = sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))
    return size, size - free * page


async def outbox_empty(reader: Store, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while await reader.pending_deliveries(limit=1):
        if time.monotonic() > end:
            raise RuntimeError("the outbox was not sent")
        await asyncio.sleep(0.2)


async def run(games: int, turns: int, folder: Path) -> dict[str, float | int]:
    db = folder / "vedette.db"
    figures = Figures()
    async with FakeDiscord(token=TOKEN) as fake:
        guild = fake.add_guild("Load Club")
        tables = [Table(fake.add_text_channel(guild, f"game-{n}"),
                        (fake.add_user(f"u{n}a", guild=guild),
                         fake.add_user(f"u{n}b", guild=guild)),
                        (fake.add_user(f"c{n}", guild=guild),))
                  for n in range(games)]
        async with Store.open(db):  # the schema, before two processes open the file
            pass
        bot = await start_bot(db, fake.base_url, folder / "bot.log")
        try:
            players = Players(fake, figures)
            start = time.perf_counter()
            await asyncio.gather(*(set_up(players, t) for t in tables))
            setup_s = time.perf_counter() - start

            def posts() -> int:
                return sum(len(fake.requests_to("POST", f"/channels/{t.channel.id}/messages"))
                           for t in tables)

            async with Store.open(db) as store:
                await outbox_empty(store)
                before = posts()
                reader = Umpire(store, maps=MapMaker(enabled=False))
                start = time.perf_counter()
                await asyncio.gather(*(play(players, reader, t, turns, n)
                                       for n, t in enumerate(tables)))
                play_s = time.perf_counter() - start
                await outbox_empty(store)
                posted = posts() - before
        finally:
            await stop_bot(bot)
    size, used = checkpointed_size(db)
    cuts = statistics.quantiles(figures.answers, n=100, method="inclusive")
    game_turns = games * turns
    print(f"{games} games of {SCENARIO} at once on one bot process, 3 players each, {turns} "
          f"turn(s): set up in {setup_s:.1f} s, played in {play_s:.1f} s")
    print(f"  {figures.commands} commands: answer visible after p50 "
          f"{statistics.median(figures.answers) * 1000:.0f} ms, p99 {cuts[98] * 1000:.0f} ms, "
          f"max {max(figures.answers) * 1000:.0f} ms; {figures.late_acks} first answers later "
          f"than {ACK_LIMIT:g} s")
    print(f"  channel posts: {posted / game_turns:.1f} per game and turn")
    print(f"  database: a {size}-byte file, {used} bytes in use, {used // game_turns} bytes "
          "per game and turn")
    return {"p50_ms": round(statistics.median(figures.answers) * 1000, 1),
            "p99_ms": round(cuts[98] * 1000, 1), "late_acks": figures.late_acks,
            "posts_per_turn": round(posted / game_turns, 2),
            "db_bytes_per_turn": used // game_turns, "games": games, "turns": turns,
            "commands": figures.commands}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.botload", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--turns", type=int, default=2)
    parser.add_argument("--serve", nargs=2, metavar=("DB", "BASE_URL"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        asyncio.run(serve(Path(args.serve[0]), args.serve[1]))
        return 0
    if args.games < 1 or args.turns < 1:
        parser.error("--games and --turns must be at least 1")
    with tempfile.TemporaryDirectory(prefix="vedette-botload-") as tmp:
        result = asyncio.run(run(args.games, args.turns, Path(tmp)))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
