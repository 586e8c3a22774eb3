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
* ``dms_per_player_turn``, ``dms_max``: direct messages each player received during the turns
  (the answers to their own commands are not DMs), per player and turn: the median over the
  players, and the most any player received in a game;
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

from rules.ground.grid import Cell
from rules.state import GameState
from storage.store import Store
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, InteractionHandle
from tests.support.botkit import TOKEN
from umpire.demo.main import Order, reachable_route
from umpire.reads.maps import MapMaker
from umpire.service import Umpire
from umpire.settings import default_map_workers

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = "flank-march"
ACK_LIMIT = 3.0  # Discord's window for the first answer to an interaction
DEFERRED = 5
READY = "ready"
START_TIMEOUT = 60.0
ANSWER_TIMEOUT = 120.0
#: A player's mean pause before each command, in seconds: quick for someone choosing a slash
#: command, its unit and its route in Discord's command picker.
THINK_S = 2.0
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
    #: The answer times of each command (``move``, ``map``, ``done``).
    by_command: dict[str, list[float]] = field(default_factory=dict)

    def add(self, command: str, answered: float, late: bool) -> None:
        self.commands += 1
        self.answers.append(answered)
        self.by_command.setdefault(command, []).append(answered)
        self.late_acks += late


# -- the bot's process ---------------------------------------------------------------------------
async def serve(db: Path, base_url: str, maps: bool = True, workers: int = 0) -> None:
    """The bot on ``db`` (drawing maps unless ``maps`` is false, in ``workers`` processes of
    their own, or in its own with 0), against the fake at
    ``base_url``, until SIGTERM."""
    from bot.client import VedetteBot
    from tests.fakediscord import patched_discord, run_client

    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with Store.open(db) as store:
        drawing = MapMaker(enabled=maps, workers=workers)
        umpire = Umpire(store, scenarios=ROOT / "scenarios", maps=drawing)
        bot = VedetteBot(umpire, outbox_interval=0.2, guild_ready_timeout=0.05)
        try:
            await drawing.warm_up()  # as the bot does while it logs in
            with patched_discord(base_url):
                async with run_client(bot, token=TOKEN, timeout=START_TIMEOUT):
                    sys.stdout.write(READY + "\n")
                    sys.stdout.flush()
                    await stop.wait()
        finally:
            drawing.close()


def serve_profiled(db: Path, base_url: str, maps: bool, workers: int, profile: Path | None
                   ) -> None:
    """``serve``, under cProfile when ``profile`` names a file for the statistics."""
    if profile is None:
        asyncio.run(serve(db, base_url, maps, workers))
        return
    import cProfile

    profiler = cProfile.Profile()
    profiler.enable()
    try:
        asyncio.run(serve(db, base_url, maps, workers))
    finally:
        profiler.disable()
        profiler.dump_stats(profile)


async def start_bot(db: Path, base_url: str, log: Path, *, maps: bool = True, workers: int = 0,
                    profile: Path | None = None) -> asyncio.subprocess.Process:
    flags = ["--profile", str(profile.resolve())] if profile is not None else []
    flags += ["--map-workers", str(workers)] if maps else ["--no-maps"]
    with log.open("wb") as stderr:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.botload", "--serve", str(db), base_url, *flags,
            cwd=ROOT,
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
        return await self.answer(handle, command if timed else None)

    async def answer(self, handle: InteractionHandle, timed: str | None) -> str:
        """The answer's words; ``timed`` names the command whose answer time is counted."""
        callback = await handle.response(timeout=ANSWER_TIMEOUT)
        acked = time.monotonic()
        if callback.type == DEFERRED:
            message = await handle.original_message(timeout=ANSWER_TIMEOUT)
        else:
            message = handle.original or {}
        seen = time.monotonic()
        if timed is not None:
            self.figures.add(timed, seen - handle.sent_at, acked - handle.sent_at > ACK_LIMIT)
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
    # Each player gives short moves at once (``/settings preview:off``, ruling ORD-2), so that a
    # move is one command, as the load measured here has always been.
    for user in (*table.union, *table.confederate):
        await players.say("settings", user, {"preview": "off"}, timed=False)


async def play(players: Players, reader: Umpire, table: Table, turns: int, seed: int,
               think: float) -> None:
    """Play until turn ``turns`` is over: a short move and maps in each Movement Phase, and
    /done for every acting side. Each player pauses before each command for ``think``
    seconds on average (half to one and a half times it); the players of a shared side act
    at the same time."""
    rng = random.Random(seed)

    async def say(command: str, user: FakeUser, options: dict[str, Any] | None = None) -> None:
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        await players.say(command, user, options)

    for _ in range(turns * 40):  # a guard against a script that no longer advances
        state = await reader.repository.state_for(table.game_id)
        if state.status != "active" or state.turn > turns:
            return
        for side in [s for s in state.acting_sides() if s not in state.done]:
            mates = table.players(side)
            if state.current.allows("move"):
                route = short_march(state, side, rng)
                if route is not None:
                    await say("move", mates[0], {"unit": route[0], "route": route[1]})
                await asyncio.gather(*(say("map", user) for user in mates))
            # A shared side finishes when each of its players is done (ruling FLOW-1).
            await asyncio.gather(*(say("done", user) for user in mates))
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


def drawn(load: Load) -> str:
    """How the maps were drawn, for the figures' first line."""
    if not load.maps:
        return ", no maps drawn"
    if load.map_workers == 0:
        return ", maps drawn in the bot's process"
    return f", maps drawn by {load.map_workers} worker process(es)"


def percentile(times: list[float], p: int) -> float:
    return times[0] if len(times) < 2 else statistics.quantiles(times, n=100,
                                                                 method="inclusive")[p - 1]


async def outbox_empty(reader: Store, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while await reader.pending_deliveries(limit=1):
        if time.monotonic() > end:
            raise RuntimeError("the outbox was not sent")
        await asyncio.sleep(0.2)


@dataclass(frozen=True)
class Load:
    """What the players do: ``games`` at once for ``turns`` turns, each player pausing
    ``think`` seconds on average before each command (0: flat out, every answer followed at
    once by the next command)."""

    games: int = 20
    turns: int = 2
    think: float = THINK_S
    maps: bool = True
    #: Processes drawing the maps beside the bot's (0: in the bot's own, in threads).
    map_workers: int = field(default_factory=default_map_workers)


async def run(load: Load, folder: Path, profile: Path | None = None) -> dict[str, float | int]:
    db = folder / "vedette.db"
    figures = Figures()
    async with FakeDiscord(token=TOKEN) as fake:
        guild = fake.add_guild("Load Club")
        tables = [Table(fake.add_text_channel(guild, f"game-{n}"),
                        (fake.add_user(f"u{n}a", guild=guild),
                         fake.add_user(f"u{n}b", guild=guild)),
                        (fake.add_user(f"c{n}", guild=guild),))
                  for n in range(load.games)]
        async with Store.open(db):  # the schema, before two processes open the file
            pass
        bot = await start_bot(db, fake.base_url, folder / "bot.log", maps=load.maps,
                              workers=load.map_workers, profile=profile)
        try:
            players = Players(fake, figures)
            start = time.perf_counter()
            await asyncio.gather(*(set_up(players, t) for t in tables))
            setup_s = time.perf_counter() - start

            def posts() -> int:
                return sum(len(fake.requests_to("POST", f"/channels/{t.channel.id}/messages"))
                           for t in tables)

            def dms() -> dict[int, int]:
                return {u.id: len(fake.dms_to(u)) for t in tables
                        for u in (*t.union, *t.confederate)}

            async with Store.open(db) as store:
                await outbox_empty(store)
                before = posts()
                dms_before = dms()
                reader = Umpire(store, maps=MapMaker(enabled=False))
                start = time.perf_counter()
                await asyncio.gather(*(play(players, reader, t, load.turns, n, load.think)
                                       for n, t in enumerate(tables)))
                play_s = time.perf_counter() - start
                await outbox_empty(store)
                posted = posts() - before
                received = [n - dms_before[u] for u, n in dms().items()]
        finally:
            await stop_bot(bot)
    size, used = checkpointed_size(db)
    game_turns = load.games * load.turns
    rate = figures.commands / play_s
    print(f"{load.games} games of {SCENARIO} at once on one bot process, 3 players each, "
          f"{load.turns} turn(s), players pausing {load.think:g} s on average before each "
          f"command{drawn(load)}: set up in {setup_s:.1f} s, "
          f"played in {play_s:.1f} s ({rate:.1f} commands a second)")
    p50_ms = statistics.median(figures.answers) * 1000
    p99_ms = percentile(figures.answers, 99) * 1000
    print(f"  {figures.commands} commands: answer visible after p50 {p50_ms:.0f} ms, p99 "
          f"{p99_ms:.0f} ms, max {max(figures.answers) * 1000:.0f} ms; {figures.late_acks} "
          f"first answers later than {ACK_LIMIT:g} s")
    for command, times in sorted(figures.by_command.items()):
        print(f"    /{command}: {len(times)}, p50 {statistics.median(times) * 1000:.0f} ms, "
              f"p99 {percentile(times, 99) * 1000:.0f} ms")
    print(f"  channel posts: {posted / game_turns:.1f} per game and turn")
    per_turn = statistics.median(received) / load.turns
    print(f"  direct messages: {per_turn:.1f} per player and turn (median over the "
          f"{len(received)} players), at most {max(received)} to one player in "
          f"{load.turns} turn(s)")
    print(f"  database: a {size}-byte file, {used} bytes in use, {used // game_turns} bytes "
          "per game and turn")
    return {"p50_ms": round(p50_ms, 1), "p99_ms": round(p99_ms, 1),
            "late_acks": figures.late_acks,
            "posts_per_turn": round(posted / game_turns, 2),
            "dms_per_player_turn": round(per_turn, 2), "dms_max": max(received),
            "db_bytes_per_turn": used // game_turns, "games": load.games, "turns": load.turns,
            "think_s": load.think, "maps": load.maps, "map_workers": load.map_workers,
            "commands": figures.commands,
            "commands_per_s": round(rate, 1)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.botload", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--games", type=int, default=Load.games)
    parser.add_argument("--turns", type=int, default=Load.turns)
    parser.add_argument("--think", type=float, default=Load.think, metavar="SECONDS",
                        help="a player's mean pause before each command (0: flat out)")
    parser.add_argument("--no-maps", action="store_true",
                        help="the bot draws no maps (to tell their cost from the rest)")
    parser.add_argument("--map-workers", type=int, default=default_map_workers(), metavar="N",
                        help="processes drawing the maps beside the bot's (0: in the bot's "
                        "own process, in threads); by default as the bot has it")
    parser.add_argument("--profile", type=Path, metavar="FILE",
                        help="write the bot process's cProfile statistics to FILE")
    parser.add_argument("--serve", nargs=2, metavar=("DB", "BASE_URL"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve_profiled(Path(args.serve[0]), args.serve[1], not args.no_maps, args.map_workers,
                       args.profile)
        return 0
    if args.games < 1 or args.turns < 1 or args.think < 0:
        parser.error("--games and --turns must be at least 1, --think at least 0")
    if args.map_workers < 0:
        parser.error("--map-workers must be at least 0")
    load = Load(args.games, args.turns, args.think, not args.no_maps, args.map_workers)
    with tempfile.TemporaryDirectory(prefix="vedette-botload-") as tmp:
        result = asyncio.run(run(load, Path(tmp), args.profile))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
