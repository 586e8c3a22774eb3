"""Memory of one bot process serving many games: ``uv run python -m bench.memory [--games N]``.

``N`` games of ``flank-march`` (500 by default), every rule module of the scenario in force, are
set up on one SQLite file, each with a player a side, and started; then each player looks at
their ``/map`` (the phase map's fitted window), as at the start of a phase. Every game is then
loaded in the process, with its sides' views and the pictures it keeps, and the ground the
pictures were cut from.

Measured: ``rss_mb_500_games``, the process's resident memory (as the kernel counts it) once
every game has been served, and ``rss_mb_start``, the same before the first game, with the
program loaded; ``per_game_kb``, the difference over the games. It prints readable figures and,
as its last line, one JSON object with those keys.
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

SCENARIO = "flank-march"
GAMES = 500
HOST = 1


def rss_mb() -> float:
    """The resident memory of this process now, in MiB (``/proc/self/statm``)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


async def serve(games: int, folder: Path) -> dict[str, float]:
    async with Store.open(folder / "vedette.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=True))
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
        gc.collect()
        end = rss_mb()
    per_game = (end - start) * 1024 / games
    print(f"{games} games of {SCENARIO}, each set up, started and its two sides' maps drawn, in "
          f"{served_s:.0f} s")
    print(f"  resident memory: {start:.0f} MB with the program loaded, {end:.0f} MB with every "
          f"game served ({per_game:.0f} KB a game); whole terrain layers kept: "
          f"{ground.kept_bytes() / 2**20:.1f} MB")
    return {"rss_mb_500_games" if games == GAMES else f"rss_mb_{games}_games": round(end, 1),
            "rss_mb_start": round(start, 1), "per_game_kb": round(per_game, 1),
            "games": games}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.memory",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GAMES)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    with tempfile.TemporaryDirectory(prefix="vedette-memory-") as tmp:
        result = asyncio.run(serve(args.games, Path(tmp)))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
