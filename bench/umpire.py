"""Benchmark of the umpire service: ``uv run python -m bench.umpire``.

On the flank-march sample (Surprise Move and Concealed Forces left out, as in the demo), with
maps not drawn (``MapMaker(enabled=False)``) and a real database file (WAL, ``synchronous=FULL``:
one fsync a command), it measures:

* a move: the time ``Umpire.handle`` takes to accept one Move (load the cached state, decide the
  move and the sighting that follows, address the messages, commit), over every move of a
  scripted 22-turn game: short random marches of a few units of each side every Movement Phase,
  cut to what the unit can reach (``umpire.demo.reachable_route``);
* throughput: 20 games played at once on one file, each replaying that game's commands (moves
  and Done) as fast as the umpire answers; commands a second across all of them.

Targets: a move <= 20 ms (median), >= 200 commands a second. It prints readable figures and, as
its last line, one JSON object with ``move_ms_median`` and ``commands_per_s``.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from rules import commands as cmd
from rules.grid import Cell
from storage.store import Store
from umpire.demo import Order, reachable_route
from umpire.maps import MapMaker
from umpire.service import Umpire, UmpireError

SCENARIO = "flank-march"
WITHOUT = ("surprise_move", "concealed_forces", "combat")
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
        board = (await umpire.state_for("bench")).loaded.board
        while True:
            state = await umpire.state_for("bench")
            if state.status != "active":
                break
            side = state.acting_sides()[0]
            user = PLAYERS[side]
            for unit in rng.sample(MOVERS[side], MOVES_PER_PHASE):
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
                    state = await umpire.state_for("bench")
                    break
            await umpire.handle("bench", user, cmd.Done())
            steps.append((user, cmd.Done()))
    return times, steps, refused


async def concurrent_games(db: Path, steps: list[Step]) -> tuple[float, int, int]:
    """``GAMES`` games on one file, each replaying ``steps``, all at once: the wall time, the
    commands sent and how many were refused."""
    refused = 0
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        gids = [f"g{n:02d}" for n in range(GAMES)]
        for gid in gids:
            await new_game(umpire, gid)

        async def play(gid: str) -> None:
            nonlocal refused
            for n, (user, command) in enumerate(steps):
                try:
                    await umpire.handle(gid, user, command, request_id=f"{gid}-{n}")
                except UmpireError:
                    refused += 1

        start = time.perf_counter()
        await asyncio.gather(*(play(gid) for gid in gids))
        wall = time.perf_counter() - start
        for gid in gids:
            assert (await umpire.state_for(gid)).status == "ended", gid
    return wall, GAMES * len(steps), refused


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


async def main() -> None:
    with tempfile.TemporaryDirectory(prefix="vedette-bench-") as tmp:
        times, steps, refused = await scripted_game(Path(tmp) / "one.db")
        cuts = statistics.quantiles(times, n=10)
        median = statistics.median(times)
        print(f"flank-march, one game on a file, maps off: {len(times)} moves accepted "
              f"({refused} refused and not timed), {len(steps)} commands in all")
        print(f"  a move: median {_ms(median)} ms, mean {_ms(statistics.fmean(times))} ms, "
              f"p10 {_ms(cuts[0])} ms, p90 {_ms(cuts[-1])} ms, max {_ms(max(times))} ms "
              f"(target <= {TARGET_MOVE_MS:g} ms)")
        wall, sent, failed = await concurrent_games(Path(tmp) / "many.db", steps)
        rate = sent / wall
        print(f"{GAMES} games at once on one file: {sent} commands ({failed} refused) in "
              f"{wall:.2f} s: {rate:.0f} commands/s (target >= {TARGET_COMMANDS_PER_S:g})")
    missed = [what for what, ok in (("move time", _ms(median) <= TARGET_MOVE_MS),
                                    ("throughput", rate >= TARGET_COMMANDS_PER_S)) if not ok]
    print("targets met" if not missed else f"target(s) missed: {', '.join(missed)}")
    print(json.dumps({"move_ms_median": _ms(median), "commands_per_s": round(rate, 1),
                      "moves_timed": len(times), "games": GAMES, "commands": sent}))


if __name__ == "__main__":
    asyncio.run(main())
