"""One of two processes sharing a database (``tests/reliability/test_cross_process.py``): an umpire
of its own, sent its share (every other command) of each round of each game's commands, the two
processes keeping step round by round, so that their commands for a game arrive at once.

Usage: ``python tests/processes/cross_process_worker.py TARGET FOLDER INDEX GAME…``. It writes
``FOLDER/report-INDEX.json``: the requests accepted per game, the refusals' words, and the state
of each game (its snapshot as JSON) as this process reports it once both are done."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import storage.db
from rules import commands as cmd
from rules.state import to_snapshot
from storage.store import Store
from tests.support.tiny_games import tiny_orders
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError

#: Two worker processes write to one SQLite file at once, on a test machine that may be loaded:
#: a writer waits for the other's write lock however long that takes, rather than failing after
#: the store's 5 s (``storage.db.BUSY_TIMEOUT_MS``, meant for a second process run by mistake).
#: Set when the worker runs, not when a test imports this module.
PATIENT_BUSY_TIMEOUT_MS = 600_000


async def barrier(folder: Path, name: str, me: int) -> None:
    """Wait until the other process has reached ``name`` too."""
    (folder / f"{name}-{me}").touch()
    while not (folder / f"{name}-{1 - me}").exists():
        await asyncio.sleep(0.005)


async def main(target: str, folder: Path, me: int, gids: list[str]) -> None:
    accepted: dict[str, list[str]] = {gid: [] for gid in gids}
    refusals: list[str] = []
    async with Store.open(target) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))

        async def send(gid: str, request: str, user: int, command: cmd.Command) -> None:
            try:
                await umpire.handle(gid, user, command, request_id=request)
            except UmpireError as e:
                refusals.append(str(e))
                return
            accepted[gid].append(request)

        async def play(n: int, gid: str) -> None:
            k = 0
            for r, commands in enumerate(tiny_orders(n)):
                await barrier(folder, f"{gid}-round{r}", me)
                batch = []
                for user, command in commands:
                    if k % 2 == me:
                        batch.append(send(gid, f"{gid}/{k}", user, command))
                    k += 1
                await asyncio.gather(*batch)

        await asyncio.gather(*(play(n, gid) for n, gid in enumerate(gids)))
        await barrier(folder, "finished", me)
        states = {gid: json.dumps(to_snapshot(await umpire.repository.state_for(gid)),
                                  sort_keys=True)
                  for gid in gids}
    (folder / f"report-{me}.json").write_text(json.dumps(
        {"accepted": accepted, "refusals": refusals, "states": states}))


if __name__ == "__main__":
    storage.db.BUSY_TIMEOUT_MS = PATIENT_BUSY_TIMEOUT_MS
    asyncio.run(main(sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]))
