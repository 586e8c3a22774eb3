"""Memory of one bot process serving many games: ``uv run python -m bench.memory [--games N]``.

``N`` games of ``flank-march`` (500 by default), every rule module of the scenario in force, are
set up on one SQLite file, each with a player a side, and started; then each player looks at
their ``/map`` (the phase map's fitted window), as at the start of a phase. Every game is then
loaded in the process, with its sides' views and the pictures it keeps, and the ground the
pictures were cut from.

The maps are drawn as the bot draws them: by ``--map-workers N`` processes beside it (by
default as many as the bot would start), or in its own process with 0.

Measured: ``rss_mb_500_games``, the process's resident memory (as the kernel counts it) once
every game has been served, and ``rss_mb_start``, the same before the first game, with the
program loaded; ``per_game_kb``, the difference over the games; ``workers_rss_mb``, the map
workers' resident memory, all together, once they have drawn every whole layer they were asked
for. It prints readable figures and, as its last line, one JSON object with those keys.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from render import ground
from storage.store import Store
from umpire.reads.maps import MapMaker
from umpire.service import Umpire
from umpire.settings import default_map_workers

SCENARIO = "flank-march"
GAMES = 500
HOST = 1


def rss_mb(pid: int | str = "self") -> float:
    """The resident memory of a process (this one by default) now, in MiB (``statm``)."""
    pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def workers_mb(maps: MapMaker) -> float:
    """The resident memory of the map worker processes, in MiB, all together."""
    if maps.workers is None:
        return 0.0
    return sum(rss_mb(pid) for pid in maps.workers.pids())


async def serve(games: int, folder: Path, map_workers: int) -> dict[str, float]:
    maps = MapMaker(enabled=True, workers=map_workers)
    try:
        return await _served(games, folder, maps)
    finally:
        maps.close()


async def _served(games: int, folder: Path, maps: MapMaker) -> dict[str, float]:
    async with Store.open(folder / "vedette.db") as store:
        umpire = Umpire(store, maps=maps)
        await maps.warm_up()  # as the bot does at start: the workers are there
        gc.collect()
        start = rss_mb()
        began = time.perf_counter()
        for n in range(games):
            gid = f"g{n}"
            union, confederate = 10_000 + 2 * n, 10_001 + 2 * n
            await umpire.create_game(SCENARIO, HOST, game_id=gid)
            await umpire.join(gid, union, "union")
            await umpire.join(gid, confederate, "confederate")
            await umpire.start(gid, HOST)
            for user in (union, confederate):
                reply = await umpire.my_map(gid, user)
                assert reply.image is not None
        served_s = time.perf_counter() - began
        await asyncio.to_thread(ground.settle)
        layers = ground.kept_bytes()
        if maps.workers is not None:
            layers += await maps.workers.settle()
        gc.collect()
        end = rss_mb()
        workers = workers_mb(maps)
    per_game = (end - start) * 1024 / games
    print(f"{games} games of {SCENARIO}, each set up, started and its two sides' maps drawn, in "
          f"{served_s:.0f} s")
    print(f"  resident memory: {start:.0f} MB with the program loaded, {end:.0f} MB with every "
          f"game served ({per_game:.0f} KB a game); whole terrain layers kept: "
          f"{layers / 2**20:.1f} MB")
    count = maps.workers.count if maps.workers is not None else 0
    print(f"  map workers: {count}" + (f", {workers:.0f} MB all together" if count else
                                       " (maps drawn in the bot's process)"))
    return {"rss_mb_500_games" if games == GAMES else f"rss_mb_{games}_games": round(end, 1),
            "rss_mb_start": round(start, 1), "per_game_kb": round(per_game, 1),
            "map_workers": count, "workers_rss_mb": round(workers, 1), "games": games}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.memory",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--map-workers", type=int, default=default_map_workers(), metavar="N",
                        help="processes drawing the maps beside the bot's (0: in the bot's own "
                        "process); by default as the bot has it")
    args = parser.parse_args(argv)
    if args.games < 1 or args.map_workers < 0:
        parser.error("--games must be at least 1, --map-workers at least 0")
    with tempfile.TemporaryDirectory(prefix="vedette-memory-") as tmp:
        result = asyncio.run(serve(args.games, Path(tmp), args.map_workers))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
