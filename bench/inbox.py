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

from tests.fakediscord import FakeDiscord
from tests.support.botkit import READY, TOKEN, play_story, text_of
from umpire.demo.main import SCENARIO, TURNS


async def run(turns: int, folder: Path) -> dict[str, float | int]:
    async with FakeDiscord(token=TOKEN) as fake:
        story = await play_story(fake, folder, turns)
    told = [[text_of(m) for m in messages] for turn in story.sent for messages in turn.values()]
    ready = [sum(t.startswith(READY) for t in texts) for texts in told]
    every = [len(texts) for texts in told]
    news = [n - r for n, r in zip(every, ready, strict=True)]
    longest = max(len(t) for texts in told for t in texts)
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
