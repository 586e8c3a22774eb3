"""``vedette verify``: re-derive every die roll of a game from its published seed."""

from __future__ import annotations

import hashlib
from pathlib import Path

from storage.store import Store
from umpire.dice import roll


async def verify(db: Path, game_id: str | None) -> int:
    if not db.is_file():
        print(f"vedette verify: no database file at {db}")
        return 2
    async with Store.open(db) as store:
        games = await store.list_games()
        if game_id is None:
            if len(games) != 1:
                ids = ", ".join(g.id for g in games) or "none"
                print(f"vedette verify: {db} holds {len(games)} games ({ids}); choose one with "
                      "--game")
                return 2
            game = games[0]
        else:
            found = [g for g in games if g.id == game_id]
            if not found:
                print(f"vedette verify: no game {game_id!r} in {db}")
                return 2
            game = found[0]
        events = await store.events(game.id)
    seed: bytes | None = None
    commitment = ""
    for e in events:
        if e.type == "game_ended":
            seed = bytes.fromhex(str(e.payload["seed_hex"]))
        elif e.type == "game_started":
            commitment = str(e.payload["seed_sha256"])
    if seed is None:
        print(f"game {game.id} has not ended: its seed is still secret, so its rolls cannot be "
              "checked yet")
        return 1
    problems = []
    if hashlib.sha256(seed).hexdigest() != commitment:
        problems.append("the published seed does not match the commitment made at the start")
    rolls = [e for e in events if e.type == "die_rolled"]
    for e in rolls:
        expected = roll(seed, game.id, e.seq, str(e.payload["purpose"]), str(e.payload["dice"]))
        if expected != e.payload["value"]:
            problems.append(f"event {e.seq} ({e.payload['purpose']}): logged "
                            f"{e.payload['value']}, the seed gives {expected}")
    if problems:
        for p in problems:
            print(p)
        return 1
    print(f"game {game.id}: commitment matches; all {len(rolls)} rolls verified")
    return 0
