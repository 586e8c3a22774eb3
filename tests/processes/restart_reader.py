"""A restarted process reading games back, for the restart tests, run as
``python -m tests.processes.restart_reader [--as-bot] DB_PATH...``.

It is what a bot (``--as-bot``: with the bot's own imports) or the ``vedette`` command line does
first after a restart, and nothing else: it opens each database file and, for every game in it,
reads the game back from its snapshot and log, replays the whole log from the start, answers
``/game status``, each player's ``/units`` and ``/log``, and, in a game still in play, sends the
acting side's Done (a command that must be decided on the state read back; its request id
names the import mode, so that both modes may read the same files in turn). No rule module's
package is imported before that: their events must be known all the same.

It prints one JSON line a game: ``{"db", "game", "status", "seq", "same_state", "done"}``,
where ``same_state`` says whether the state read back equals the full replay and ``done`` is the
umpire's answer to the Done (``null`` when the game is not in play). Any failure to read a game
ends the process with a traceback and a non-zero code.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from pathlib import Path
from typing import Any

from rules.commands import Done
from rules.state import to_snapshot
from storage.store import Store
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

#: What the bot's process has imported by the time it reads its games.
BOT_ENTRY = "bot.main"


async def read_back(db: Path, request: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        for record in await store.list_games():
            gid = record.id
            state = await umpire.repository.state_for(gid)
            replayed = await umpire.repository.replay_all(gid)
            await umpire.status(gid, record.host_user_id)
            for player in await store.players(gid):
                await umpire.units_text(gid, player.user_id)
                await umpire.log_text(gid, player.user_id)
            done = None
            if state.status == "active":
                side = state.acting_sides()[0]
                user = next(p.user_id for p in await store.players(gid) if p.side == side)
                done = (await umpire.handle(gid, user, Done(), request_id=request)).text
            out.append({"db": str(db), "game": gid, "status": state.status, "seq": state.seq,
                        "same_state": to_snapshot(state) == to_snapshot(replayed),
                        "done": done})
    return out


def main(argv: list[str]) -> int:
    request = "restart-cli"
    if argv[:1] == ["--as-bot"]:
        importlib.import_module(BOT_ENTRY)
        argv, request = argv[1:], "restart-bot"
    if not argv:
        print("usage: python -m tests.processes.restart_reader [--as-bot] DB_PATH...",
              file=sys.stderr)
        return 2
    for db in argv:
        for line in asyncio.run(read_back(Path(db), request)):
            print(json.dumps(line))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
