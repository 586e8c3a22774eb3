"""Benchmark of the umpire service: ``uv run python -m bench.umpire``.

On the flank-march sample with every rule module of the samples in force (Surprise Move,
Concealed Forces and combat: the script gives moves and Done only, but each phase's start lists
what each side may do under every module, and every move is watched by all of them), with maps
not drawn (``MapMaker(enabled=False)``) and a real database file (WAL, ``synchronous=FULL``: one
fsync a command), it measures:

* a move: the time ``Umpire.handle`` takes to accept one Move (load the cached state, decide the
  move and the sighting that follows, address the messages, commit), over every move of a
  scripted 22-turn game: short random marches of a few units of each side every Movement Phase,
  cut to what the unit can reach (``umpire.demo.main.reachable_route``), and Done in every
  phase (132 phases in all);
* throughput: 20 games played at once on one file, each replaying that game's commands (moves
  and Done) as fast as the umpire answers; commands a second across all of them.

Targets: a move <= 20 ms (median), >= 200 commands a second. It prints readable figures and, as
its last line, one JSON object with ``move_ms_median`` and ``commands_per_s``, and for the 20
games ``cpu_ms_per_command`` (the CPU time this process used, over the commands) and
``trips_per_command`` (the calls that went to SQLite's connection threads, the reader's and the
writer's, each a hop from the event loop and back: statements, fetches, ``BEGIN`` and
``COMMIT``).

``--maps`` adds, in the same run, the same 20 games with maps, as the bot plays them: after
each command the game's messages are sent (through a transport that drops them), each map
drawn by one map worker process (``umpire.reads.map_workers``). The JSON line gains
``maps_commands_per_s``, ``maps_cpu_ms_per_command`` (this process: the command, the outbox,
the views and their digests), ``maps_worker_cpu_ms_per_command`` (the drawing) and the
messages and pictures a command sent.

``--postgres`` adds, in the same run, the same 20 games on PostgreSQL (a throwaway server that
syncs its commits to disk, started with ``tests/support/pg_server.py``, or
``VEDETTE_TEST_POSTGRES``):
all in one process, then split between this process and a second OS process (half the games
each, as two bot processes with their shards), started together and timed from the first start
to the last end. Both processes are warm when the clock starts, as bot processes that have been
running a while are: this one has played every game above, and the second plays one game of its
own first (a process that has just started computes its sight-line shapes as it meets them,
which would slow it alone). The pair of runs is made ``ROUNDS`` times, one after the other, and
each figure is the median of its rounds: a virtual machine's speed drifts over a minute, and
alternating the two modes keeps a slow spell from falling on one of them only. Each round says
how much of the cores' time the hypervisor gave to other machines meanwhile (``steal``).

The JSON line gains ``pg_commands_per_s_1proc``, ``pg_commands_per_s_2proc`` (the medians) and
``sqlite_commands_per_s`` (the throughput above). Targets: two processes >= 1.5 x one;
PostgreSQL in one process >= 0.5 x SQLite.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import aiosqlite

from rules import commands as cmd
from rules.ground.grid import Cell
from storage.store import Store
from umpire.demo.main import Order, reachable_route
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError

SCENARIO = "flank-march"
WITHOUT: tuple[str, ...] = ()
SEED = bytes(range(32))
HOST = 1
PLAYERS = {"union": 101, "confederate": 201}
MOVERS = {
    "confederate": ["doles", "iverson", "oneal", "colquitt", "ramseur", "paxton", "jones",
                    "warren", "nicholls", "heth", "2nd-va-cav", "1st-va-cav", "3rd-4th-va-cav",
                    "carter-bn", "hp-jones-bn"],
    "union": ["6th-ny-cav", "17th-pa-cav", "8th-pa-cav", "barlow", "von-gilsa", "mclean",
              "buschbeck", "martin-btty", "schimmelfennig", "krzyzanowski", "graham", "ward"],
}
MOVES_PER_PHASE = 5
GAMES = 20
TARGET_MOVE_MS = 20.0
TARGET_COMMANDS_PER_S = 200.0
TARGET_TWO_VS_ONE = 1.5
TARGET_PG_VS_SQLITE = 0.5
#: Rounds of (one process, two processes) on PostgreSQL; each figure is the rounds' median.
ROUNDS = 3
ROOT = Path(__file__).resolve().parent.parent

Step = tuple[int, cmd.Move | cmd.Done]


async def new_game(umpire: Umpire, gid: str) -> None:
    await umpire.create_game(SCENARIO, HOST, game_id=gid, without=WITHOUT, seed=SEED)
    for side, user in PLAYERS.items():
        await umpire.join(gid, user, side)
    await umpire.start(gid, HOST)


async def scripted_game(db: Path) -> tuple[list[float], list[Step], int]:
    """Play a whole game with random short marches; the time of each accepted move, the
    commands accepted (to replay), and how many moves were refused."""
    rng = random.Random(1)
    times: list[float] = []
    steps: list[Step] = []
    refused = 0
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await new_game(umpire, "bench")
        board = (await umpire.repository.state_for("bench")).loaded.board
        while True:
            state = await umpire.repository.state_for("bench")
            if state.status != "active":
                break
            side = state.acting_sides()[0]
            user = PLAYERS[side]
            for unit in rng.sample(MOVERS[side], MOVES_PER_PHASE if state.current.allows("move")
                                   else 0):
                here = state.units[unit].cell
                if here is None:
                    continue
                for _ in range(10):  # a destination a few cells away that the unit can reach
                    dest = Cell(here.col + rng.randint(-3, 3), here.row + rng.randint(-3, 3))
                    if dest == here or not board.on_a_sheet(dest):
                        continue
                    route = reachable_route(state, Order(side, unit, board.label(dest)))
                    if route is None:
                        continue
                    move = cmd.Move(unit=unit, route=route)
                    start = time.perf_counter()
                    try:
                        await umpire.handle("bench", user, move)
                    except UmpireError:
                        refused += 1
                        continue
                    times.append(time.perf_counter() - start)
                    steps.append((user, move))
                    state = await umpire.repository.state_for("bench")
                    break
            await umpire.handle("bench", user, cmd.Done())
            steps.append((user, cmd.Done()))
    return times, steps, refused


async def set_up_games(target: str, gids: Sequence[str]) -> None:
    """Create, seat and start the games (not timed)."""
    async with Store.open(target) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        for gid in gids:
            await new_game(umpire, gid)


async def play_games(target: str, gids: Sequence[str], steps: Sequence[Step],
                     barrier: tuple[Path, Path] | None = None, sent: Dropped | None = None
                     ) -> tuple[float, float, int, float]:
    """Play ``steps`` in each of the (set up) games, all at once, on one ``Umpire`` of
    ``target``: when it started and ended (wall clock), how many commands were refused and the
    CPU time this process used meanwhile.
    With a ``barrier`` ``(ready, go)``, it writes ``ready`` once its store is open and starts
    when ``go`` appears. With ``sent``, the game's outbox is sent through it after each command,
    as the bot does, every map drawn by ``sent.maps``."""
    refused = 0
    async with Store.open(target) as store:
        umpire = Umpire(store, maps=sent.maps if sent is not None else MapMaker(enabled=False))
        if barrier is not None:
            ready, go = barrier
            ready.write_text("ready\n", encoding="utf-8")
            while not go.exists():
                await asyncio.sleep(0.002)

        async def play(gid: str) -> None:
            nonlocal refused
            for n, (user, command) in enumerate(steps):
                try:
                    await umpire.handle(gid, user, command, request_id=f"{gid}-{n}")
                except UmpireError:
                    refused += 1
                if sent is not None:
                    await umpire.drain(gid, sent)

        start, cpu = time.time(), time.process_time()
        await asyncio.gather(*(play(gid) for gid in gids))
        end, cpu = time.time(), time.process_time() - cpu
        for gid in gids:
            assert (await umpire.repository.state_for(gid)).status == "ended", gid
    return start, end, refused, cpu


class Dropped:
    """A transport that takes every message and drops it, counting the pictures; the maps are
    drawn by ``maps``' worker processes, as the bot draws them."""

    def __init__(self, maps: MapMaker) -> None:
        self.maps = maps
        self.messages = 0
        self.pictures = 0

    async def send(self, kind: str, target: str, text: str, image: bytes | None,
                   image_name: str | None, *, key: str = "", pictures: Sequence[object] = (),
                   **_: object) -> None:
        self.messages += 1
        self.pictures += max(len(pictures), image is not None)


def process_cpu(pids: Sequence[int]) -> float:
    """CPU seconds used so far by the processes ``pids`` (those still alive), from ``/proc``."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


async def games_with_maps(target: str, steps: list[Step]) -> tuple[Run, Dropped, float]:
    """The ``GAMES`` games again, each command followed by its game's outbox sent (through
    ``Dropped``) with its maps drawn by one map worker: the run, what was sent, and the CPU
    seconds the worker used."""
    gids = [f"m{n:02d}" for n in range(GAMES)]
    await set_up_games(target, gids)
    maps = MapMaker(workers=1)
    try:
        await maps.warm_up()
        assert maps.workers is not None
        sent = Dropped(maps)
        before = process_cpu(maps.workers.pids())
        with counted_trips() as trips:
            start, end, refused, cpu = await play_games(target, gids, steps, sent=sent)
        worker = process_cpu(maps.workers.pids()) - before
    finally:
        maps.close()
    return Run(end - start, GAMES * len(steps), refused, cpu, None, trips.count), sent, worker


@dataclass(frozen=True, slots=True)
class Run:
    """One throughput run: its wall time, the commands sent, those refused, and the CPU time
    the umpires' processes used."""

    wall: float
    commands: int
    refused: int
    cpu: float
    #: The CPU time the PostgreSQL server used meanwhile (``None``: not known).
    server_cpu: float | None = None
    #: The trips to SQLite's connection threads (``Trips``; 0 on PostgreSQL).
    trips: int = 0

    @property
    def rate(self) -> float:
        return self.commands / self.wall


async def concurrent_games(target: str, steps: list[Step], prefix: str = "g",
                           server: Path | None = None) -> Run:
    """``GAMES`` games on one database in this process, each replaying ``steps``, all at
    once; with the ``server``'s folder, the CPU time the PostgreSQL server used while they
    were played (not set up). On SQLite, the trips to its connections' threads are counted."""
    gids = [f"{prefix}{n:02d}" for n in range(GAMES)]
    await set_up_games(target, gids)
    before = server_cpu(server)
    with counted_trips() as trips:
        start, end, refused, cpu = await play_games(target, gids, steps)
    return Run(end - start, GAMES * len(steps), refused, cpu, _used(before, server),
               trips.count)


class Trips:
    """How many calls went to SQLite's connection threads (each a hop from the event loop to
    a thread and back: ``aiosqlite`` runs every statement, commit and fetch so)."""

    count = 0


@contextmanager
def counted_trips() -> Iterator[Trips]:
    """Count the trips to SQLite's connection threads while inside."""
    trips = Trips()
    original = cast(Callable[..., Awaitable[Any]], vars(aiosqlite.Connection)["_execute"])

    async def counted(conn: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        trips.count += 1
        return await original(conn, fn, *args, **kwargs)

    aiosqlite.Connection._execute = counted  # type: ignore[assignment, method-assign]
    try:
        yield trips
    finally:
        aiosqlite.Connection._execute = original  # type: ignore[assignment, method-assign]


async def two_processes(target: str, steps: list[Step], folder: Path, prefix: str = "two",
                        server: Path | None = None) -> Run:
    """The same ``GAMES`` games split between this process and a second OS process (each its
    own ``Umpire`` on ``target``, as two bot processes with their shards), started together:
    timed from the first start to the last end, the CPU time of both."""
    gids = [f"{prefix}{n:02d}" for n in range(GAMES)]
    await set_up_games(target, gids)
    mine, theirs = gids[: GAMES // 2], gids[GAMES // 2:]
    script, go, result = (folder / f"{prefix}.steps.json", folder / f"{prefix}.go",
                          folder / f"{prefix}.result.json")
    ready = (folder / f"{prefix}.ready-1", folder / f"{prefix}.ready-2")
    script.write_text(json.dumps([[user, json.loads(command.model_dump_json())]
                                  for user, command in steps]), encoding="utf-8")
    other = subprocess.Popen(
        [sys.executable, "-m", "bench.umpire", "--play", target, str(script), str(ready[1]),
         str(go), str(result), *theirs], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        playing = asyncio.create_task(play_games(target, mine, steps, (ready[0], go)))
        while not all(path.exists() for path in ready):
            if other.poll() is not None:
                raise RuntimeError("the second process ended before it was ready")
            await asyncio.sleep(0.005)
        before = server_cpu(server)  # both set up and warm
        go.write_text("go\n", encoding="utf-8")
        start, end, refused, cpu = await playing
        code = await asyncio.to_thread(other.wait, 600)
    finally:
        if other.poll() is None:
            other.kill()
            other.wait()
    if code != 0:
        raise RuntimeError(f"the second process failed ({code})")
    found = json.loads(result.read_text(encoding="utf-8"))
    wall = max(end, found["end"]) - min(start, found["start"])
    return Run(wall, GAMES * len(steps), refused + int(found["refused"]),
               cpu + float(found["cpu"]), _used(before, server))


def _used(before: float | None, server: Path | None) -> float | None:
    """The server's CPU seconds since ``before``."""
    after = server_cpu(server)
    return None if before is None or after is None else after - before


def _play_main(argv: Sequence[str]) -> int:
    """The second process of :func:`two_processes`:
    ``--play TARGET STEPS READY GO RESULT GAME…``."""
    target, script, ready, go, result, *gids = argv
    steps: list[Step] = []
    for user, body in json.loads(Path(script).read_text(encoding="utf-8")):
        command = cmd.Move.model_validate(body) if body["kind"] == "move" else cmd.Done()
        steps.append((int(user), command))
    start, end, refused, cpu = asyncio.run(_warm_then_play(target, gids, steps,
                                                          (Path(ready), Path(go))))
    Path(result).write_text(json.dumps({"start": start, "end": end, "refused": refused,
                                        "cpu": cpu}), encoding="utf-8")
    return 0


async def _warm_then_play(target: str, gids: Sequence[str], steps: Sequence[Step],
                          barrier: tuple[Path, Path]) -> tuple[float, float, int, float]:
    """Play one game of this process's own first (not timed), then ``play_games``: the first
    commands a fresh process decides compute shapes and fill caches that a process which has
    been running a while (this bench's first process) already has."""
    warm = f"{gids[0]}-warm"
    await set_up_games(target, [warm])
    await play_games(target, [warm], steps)
    return await play_games(target, gids, steps, barrier)


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


async def main(postgres: bool, maps: bool = False) -> None:
    figures: dict[str, float | int] = {}
    missed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="vedette-bench-") as tmp:
        times, steps, refused = await scripted_game(Path(tmp) / "one.db")
        cuts = statistics.quantiles(times, n=10)
        median = statistics.median(times)
        print(f"flank-march, one game on a file, maps off: {len(times)} moves accepted "
              f"({refused} refused and not timed), {len(steps)} commands in all")
        print(f"  a move: median {_ms(median)} ms, mean {_ms(statistics.fmean(times))} ms, "
              f"p10 {_ms(cuts[0])} ms, p90 {_ms(cuts[-1])} ms, max {_ms(max(times))} ms "
              f"(target <= {TARGET_MOVE_MS:g} ms)")
        run = await concurrent_games(str(Path(tmp) / "many.db"), steps)
        rate, sent = run.rate, run.commands
        print(f"{GAMES} games at once on one file: {sent} commands ({run.refused} refused) in "
              f"{run.wall:.2f} s: {rate:.0f} commands/s (target >= {TARGET_COMMANDS_PER_S:g})")
        _cpu_line(run)
        missed += [what for what, ok in (("move time", _ms(median) <= TARGET_MOVE_MS),
                                         ("throughput", rate >= TARGET_COMMANDS_PER_S))
                   if not ok]
        print(f"  trips to SQLite's threads: {run.trips / sent:.1f} a command")
        figures |= {"move_ms_median": _ms(median), "commands_per_s": round(rate, 1),
                    "cpu_ms_per_command": round(run.cpu / sent * 1000, 2),
                    "trips_per_command": round(run.trips / sent, 2),
                    "moves_timed": len(times), "games": GAMES, "commands": sent}
        if maps:
            figures |= await map_figures(str(Path(tmp) / "maps.db"), steps)
        if postgres:
            figures |= await postgres_figures(steps, Path(tmp), rate, missed)
    # The figures depend on what else the machine runs: say how busy it was.
    figures["load_average_1min"] = round(os.getloadavg()[0], 2)
    print(f"load average (1 min) at the end: {figures['load_average_1min']} on "
          f"{os.cpu_count()} cores")
    print("targets met" if not missed else f"target(s) missed: {', '.join(missed)}")
    print(json.dumps(figures))


async def map_figures(target: str, steps: list[Step]) -> dict[str, float | int]:
    """The same games with their messages sent and maps drawn, as the bot does."""
    run, sent, worker = await games_with_maps(target, steps)
    per = run.commands
    print(f"{GAMES} games at once, each message sent and its maps drawn by one map worker: "
          f"{run.rate:.0f} commands/s; a command: {run.cpu / per * 1000:.1f} ms of CPU in the "
          f"umpire's process, {worker / per * 1000:.1f} ms in the worker's, "
          f"{sent.messages / per:.1f} messages and {sent.pictures / per:.2f} pictures; "
          f"{run.trips / per:.1f} trips to SQLite's threads")
    return {"maps_commands_per_s": round(run.rate, 1),
            "maps_cpu_ms_per_command": round(run.cpu / per * 1000, 2),
            "maps_worker_cpu_ms_per_command": round(worker / per * 1000, 2),
            "maps_pictures_per_command": round(sent.pictures / per, 2),
            "maps_messages_per_command": round(sent.messages / per, 2)}


async def postgres_figures(steps: list[Step], folder: Path, sqlite_rate: float,
                           missed: list[str]) -> dict[str, float | int]:
    """The same 20 games on PostgreSQL, in one process and then split between two; each
    figure beside SQLite's, measured in this run."""
    from tests.support import pg_server

    outside = os.environ.get(pg_server.ENV_URL, "").strip()
    # A server that syncs its commits to disk, as SQLite's file does (synchronous=FULL).
    server = pg_server.Server(outside) if outside else pg_server.start(durable=True)
    try:
        schema, url = await pg_server.fresh_schema(server.url)
        try:
            await _say_durability(url)
            one, two = await _postgres_runs(url, steps, folder, sqlite_rate, server.folder)
        finally:
            await pg_server.drop_schema(server.url, schema)
    finally:
        server.stop()
    missed += [what for what, ok in (
        ("PostgreSQL against SQLite", one >= TARGET_PG_VS_SQLITE * sqlite_rate),
        ("two processes against one", two >= TARGET_TWO_VS_ONE * one)) if not ok]
    return {"pg_commands_per_s_1proc": round(one, 1), "pg_commands_per_s_2proc": round(two, 1),
            "sqlite_commands_per_s": round(sqlite_rate, 1)}


async def _say_durability(url: str) -> None:
    """How the server treats a commit: the comparison with SQLite's fsync per commit is fair
    only if it waits for the disk too (a server given in the environment may not)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        fsync = await conn.fetchval("SHOW fsync")
        synchronous = await conn.fetchval("SHOW synchronous_commit")
    finally:
        await conn.close()
    print(f"PostgreSQL server: fsync {fsync}, synchronous_commit {synchronous}"
          + ("" if (fsync, synchronous) == ("on", "on") else
             " (commits do not wait for the disk: not comparable with SQLite's figure)"))


async def _postgres_runs(url: str, steps: list[Step], folder: Path, sqlite_rate: float,
                         server: Path | None) -> tuple[float, float]:
    """Commands a second on PostgreSQL with every game in one process, then split in two, over
    ``ROUNDS`` rounds: the medians. With the ``server``'s folder (one started here), the CPU
    time its processes used too."""
    ones: list[float] = []
    twos: list[float] = []
    for n in range(1, ROUNDS + 1):
        print(f"PostgreSQL, round {n} of {ROUNDS}:")
        stolen = Steal.now()
        one = await concurrent_games(url, steps, prefix=f"one{n}-", server=server)
        print(f"  {GAMES} games in one process: {one.commands} commands ({one.refused} refused) "
              f"in {one.wall:.2f} s: {one.rate:.0f} commands/s{stolen.since()}")
        _cpu_line(one)
        stolen = Steal.now()
        two = await two_processes(url, steps, folder, prefix=f"two{n}-", server=server)
        print(f"  {GAMES} games split between two processes: {two.commands} commands "
              f"({two.refused} refused) in {two.wall:.2f} s: {two.rate:.0f} commands/s "
              f"({two.rate / one.rate:.2f} x one process){stolen.since()}")
        _cpu_line(two)
        _ceiling_line(one, two)
        ones.append(one.rate)
        twos.append(two.rate)
    one_rate, two_rate = statistics.median(ones), statistics.median(twos)
    print(f"PostgreSQL, medians of {ROUNDS} rounds: one process {one_rate:.0f} commands/s "
          f"(target >= {TARGET_PG_VS_SQLITE:g} x SQLite's {sqlite_rate:.0f}); two processes "
          f"{two_rate:.0f} commands/s ({two_rate / one_rate:.2f} x one; target >= "
          f"{TARGET_TWO_VS_ONE:g} x)")
    return one_rate, two_rate


@dataclass(frozen=True, slots=True)
class Steal:
    """The machine's CPU time counters (``/proc/stat``) at one moment: how much of it the
    hypervisor gave to other virtual machines since (a figure measured while it did is
    slower for reasons of no one's code here)."""

    steal: int
    total: int

    @classmethod
    def now(cls) -> Steal:
        try:
            first = Path("/proc/stat").read_text(encoding="ascii").split("\n", 1)[0].split()
            ticks = [int(t) for t in first[1:9]]
        except (OSError, ValueError):
            return cls(0, 0)
        return cls(ticks[7] if len(ticks) > 7 else 0, sum(ticks))

    def since(self) -> str:
        """``", steal 3.1%"``: the share of the cores' time stolen since; ``""`` unknown."""
        later = Steal.now()
        if not self.total or later.total <= self.total:
            return ""
        return f", steal {100 * (later.steal - self.steal) / (later.total - self.total):.1f}%"


def _cpu_line(run: Run) -> None:
    """The CPU a command cost, in the umpires and in the server, and what that allows on this
    machine's cores at most (if nothing else ran on them)."""
    umpire_ms = run.cpu / run.commands * 1000
    line = f"  CPU a command: {umpire_ms:.1f} ms in the umpire's process(es)"
    if run.server_cpu is not None:
        server_ms = run.server_cpu / run.commands * 1000
        ceiling = (os.cpu_count() or 1) / (umpire_ms + server_ms) * 1000
        line += (f", {server_ms:.1f} ms in PostgreSQL's: at most {ceiling:.0f} commands/s on "
                 f"{os.cpu_count()} idle cores")
    print(line)


def _ceiling_line(one: Run, two: Run) -> None:
    """The most two processes could give over one, from the CPU this round measured: one
    process is held by its one Python thread (a command's umpire CPU), two by the cores they
    share with the server (each command's umpire and server CPU)."""
    if two.server_cpu is None:
        return
    cores = min(2, os.cpu_count() or 1)
    spent = (two.cpu + two.server_cpu) / two.commands
    ceiling = min(cores * one.commands / one.cpu, (os.cpu_count() or 1) / spent)
    bound = ceiling / (one.commands / one.cpu)
    print(f"  two processes could give at most {bound:.2f} x one on these cores "
          f"(reached {two.rate / one.rate / bound:.0%} of it)")


def server_cpu(folder: Path | None) -> float | None:
    """CPU seconds used so far by the PostgreSQL server whose folder is ``folder`` (its
    postmaster, the children it reaped and those alive), from ``/proc``; ``None`` without."""
    if folder is None:
        return None
    try:
        postmaster = int((folder / "data" / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # a process that ended meanwhile
        pid, parent = int(entry.name), int(fields[1])
        if pid == postmaster:
            total += sum(int(f) for f in fields[11:15])  # its own and its reaped children's
        elif parent == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / tick


def _main(argv: Sequence[str]) -> int:
    if argv[:1] == ["--play"]:
        return _play_main(argv[1:])
    if not set(argv) <= {"--postgres", "--maps"}:
        print("usage: python -m bench.umpire [--postgres] [--maps]", file=sys.stderr)
        return 2
    asyncio.run(main(postgres="--postgres" in argv, maps="--maps" in argv))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
