"""The tiny and flank-march games as the reliability and ready-player tests play them: the
players, a script of orders, and the commands that finished phases."""

from __future__ import annotations

import json
import random
from pathlib import Path

from rules import commands as cmd
from rules import events as ev
from rules.reading import event_from_json
from storage.store import Store

FLANK = str(Path(__file__).parent.parent / "scenarios" / "flank-march.toml")

U1, U2, C1, C2 = 11, 12, 21, 22  # two Union players, two Confederate ones

async def done_commands(store: Store, gid: str = "g1") -> list[ev.CommandAccepted]:
    accepted = [event_from_json(json.dumps(r.payload), r.audience)
                for r in await store.events(gid) if r.type == "command_accepted"]
    return [e for e in accepted if isinstance(e, ev.CommandAccepted) and e.kind == "done"]


FIXTURES = Path(__file__).parent / "fixtures"

TINY = str(FIXTURES / "tiny.toml")

HOST, BLUE, GREY, STRANGER = 1, 10, 20, 999

def tiny_orders(n: int) -> list[list[tuple[int, cmd.Command]]]:
    """Game ``n``'s commands, in rounds: the commands of a round are sent all at once."""
    rng = random.Random(n)
    rounds: list[list[tuple[int, cmd.Command]]] = []
    labels = [f"{s}{c:02d}{r:02d}" for s in "AB" for c in range(1, 9) for r in range(1, 7)]
    near = {"blue": ["A0204", "A0304", "A0203", "A0303", "A0404", "A0403", "A0105", "A0205"],
            "grey": ["B0604", "B0603", "B0605", "B0504", "B0503", "B0703", "B0803", "B0802"]}
    units = {"blue": ["blue-gen", "blue-1", "blue-2", "blue-cav"], "grey": ["grey-1", "grey-bat"]}
    for _turn in range(3):
        for side, user in (("blue", BLUE), ("grey", GREY)):
            moves: list[tuple[int, cmd.Command]] = []
            for unit in rng.sample(units[side], k=len(units[side])):
                for _ in range(rng.randint(1, 3)):
                    dest = rng.choice(near[side] + [rng.choice(labels)])
                    moves.append((user, cmd.Move(unit=unit, route=dest)))
            rounds.append(moves)
            rounds.append([(user, cmd.Done())])
    return rounds
