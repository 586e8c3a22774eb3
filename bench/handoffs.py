"""How many times each player hands the game on: ``uv run python -m bench.handoffs [--turns T]``.

The flank-march story of ``vedette demo`` (the success variant: Jackson's march, then the fight
on the XI Corps flank from turn 6), two players a side, played through the umpire on a database
file twice: as the demo plays it, every player saying ``/done`` in every phase of theirs
(before), and as ``umpire.demo.handoffs`` plays it, with standing orders and Done for the turn
(after). A hand-off is one ``/done`` (or a press of Done or Done for the turn). Printed: the
hand-offs of each way, per player per turn. The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from rules import commands as cmd
from storage.store import Store
from umpire.demo import handoffs
from umpire.demo.main import SCENARIO, SEEDS, TURNS, WITHOUT, Seats, play_turn
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

PLAYERS = {"union": (11, 12), "confederate": (21, 22)}


async def _count(db: Path, turns: int, *, standing: bool) -> int:
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(SCENARIO, PLAYERS["union"][0], game_id="g1", without=WITHOUT,
                                 seed=SEEDS["success"])
        for side, pair in PLAYERS.items():
            for user in pair:
                await umpire.join("g1", user, side)
        seats = Seats("g1", PLAYERS)
        if standing:
            await handoffs.stand_at_start(umpire, seats)
        await umpire.start("g1", PLAYERS["union"][0])
        count = 0
        original = umpire.handle

        async def handle(game_id: str, user: int, command: cmd.Command, **kw: Any) -> Any:
            nonlocal count
            count += isinstance(command, cmd.Done)
            return await original(game_id, user, command, **kw)

        async def hand_off(user: int, whole: bool) -> None:
            nonlocal count
            count += 1
            await umpire.done("g1", user, until_turn=whole)

        umpire.handle = handle  # type: ignore[method-assign, assignment]
        for turn in range(1, turns + 1):
            if standing:
                await handoffs.play_turn(umpire, turn, seats, hand_off)
            else:
                await play_turn(umpire, turn, "success", seats)
        return count


async def run(turns: int, folder: Path) -> dict[str, float | int]:
    before = await _count(folder / "before.db", turns, standing=False)
    after = await _count(folder / "after.db", turns, standing=True)
    players = sum(len(p) for p in PLAYERS.values())
    return {"turns": turns, "players": players, "before": before, "after": after,
            "before_per_player_turn": round(before / players / turns, 2),
            "after_per_player_turn": round(after / players / turns, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.handoffs", description=__doc__)
    parser.add_argument("--turns", type=int, default=TURNS)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        figures = asyncio.run(run(args.turns, Path(tmp)))
    print(f"flank-march, {figures['players']} players, {args.turns} turns")
    print(f"  before (/done every phase):        {figures['before']} hand-offs, "
          f"{figures['before_per_player_turn']} a player a turn")
    print(f"  after (standing orders, whole turn): {figures['after']} hand-offs, "
          f"{figures['after_per_player_turn']} a player a turn")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
