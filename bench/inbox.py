"""How many messages each player gets: ``uv run python -m bench.inbox [--turns T]``.

The flank-march story of ``vedette demo`` (the success variant: Jackson's march, then the fight
on the XI Corps flank from turn 6), played by two players a side through the real bot and the
local fake Discord (``tests.fakediscord``), maps off. Printed, per player and turn: the direct
messages received (median and most), those that were a side-mate's readiness (ruling FLOW-3)
apart, and the longest message in characters. The answers to a player's own commands are not
direct messages. The last line is one JSON object with those figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from pathlib import Path

from bot.client import VedetteBot
from storage.store import Store
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import patched_discord, run_client
from tests.support.botkit import TOKEN, text_of
from umpire.demo.main import SCENARIO, SEEDS, TURNS, WITHOUT, Seats, play_turn
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

#: How a side-mate's readiness is told.
READY = "Ready to end the "


async def run(turns: int, folder: Path) -> dict[str, float | int]:
    async with FakeDiscord(token=TOKEN) as fake, Store.open(folder / "v.db") as store:
        guild = fake.add_guild("Inbox Club")
        players = {side: (fake.add_user(f"{side}-1", guild=guild),
                          fake.add_user(f"{side}-2", guild=guild))
                   for side in ("union", "confederate")}
        everyone = [u for pair in players.values() for u in pair]
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        host = players["union"][0].id
        await umpire.create_game(SCENARIO, host, game_id="g1", without=WITHOUT,
                                 seed=SEEDS["success"])
        for side, pair in players.items():
            for user in pair:
                await umpire.join("g1", user.id, side, in_server=True)
        await umpire.start("g1", host)
        seats = Seats("g1", {side: (a.id, b.id) for side, (a, b) in players.items()})
        news: list[int] = []
        ready: list[int] = []
        bot = VedetteBot(umpire, outbox_interval=0.2, guild_ready_timeout=0.05)
        with patched_discord(fake.base_url):
            async with run_client(bot, token=TOKEN):
                await bot.outbox.idle()
                for turn in range(1, turns + 1):
                    before = {u.id: len(fake.dms_to(u)) for u in everyone}
                    await play_turn(umpire, turn, "success", seats)
                    await bot.outbox.idle()
                    for u in everyone:
                        told = [text_of(m) for m in fake.dms_to(u)[before[u.id]:]]
                        readiness = sum(t.startswith(READY) for t in told)
                        news.append(len(told) - readiness)
                        ready.append(readiness)
        longest = max(len(text_of(m)) for u in everyone for m in fake.dms_to(u))
    every = [n + r for n, r in zip(news, ready, strict=True)]
    print(f"{SCENARIO}, the demo's story, {turns} turns, two players a side through the bot:")
    print(f"  direct messages per player and turn: median {statistics.median(every):g}, "
          f"most {max(every)}")
    print(f"    of which a side-mate's readiness: median {statistics.median(ready):g}, "
          f"most {max(ready)}; the rest: median {statistics.median(news):g}, most {max(news)}")
    print(f"  longest message: {longest} characters")
    return {"dms_median": statistics.median(every), "dms_most": max(every),
            "news_median": statistics.median(news), "news_most": max(news),
            "ready_median": statistics.median(ready), "longest": longest, "turns": turns}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.inbox",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=TURNS)
    args = parser.parse_args(argv)
    if not 1 <= args.turns <= TURNS:
        parser.error(f"--turns must be 1 to {TURNS}")
    with tempfile.TemporaryDirectory(prefix="vedette-inbox-") as tmp:
        result = asyncio.run(run(args.turns, Path(tmp)))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
