"""The tiny and flank-march games as the reliability and ready-player tests play them: the
players, a script of orders, and the commands that finished phases.

Games with phase deadlines: a clock the tests set, a started tiny game, the texts each
recipient was sent, and the reminders among them.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rules import commands as cmd
from rules import events as ev
from rules.reading import event_from_json
from rules.scenario.loader import LoadedScenario, load
from storage.records import Recipient
from storage.store import Store
from umpire.service import Umpire

FLANK = str(Path(__file__).parents[2] / "scenarios" / "flank-march.toml")


U1, U2, C1, C2 = 11, 12, 21, 22  # two Union players, two Confederate ones


async def flank_game(store: Store, union: int, confederate: int, *,
                     in_server: bool = False) -> Umpire:
    """The flank march as ``vedette demo`` plays it (without Concealed Forces, the seed whose
    march succeeds), game ``g1`` hosted by the Union player, one player a side, started."""
    from umpire.demo.main import SCENARIO, SEEDS, WITHOUT
    from umpire.reads.maps import MapMaker

    umpire = Umpire(store, maps=MapMaker(enabled=False))
    await umpire.create_game(SCENARIO, union, game_id="g1", without=WITHOUT,
                             seed=SEEDS["success"])
    await umpire.join("g1", union, "union", in_server=in_server)
    await umpire.join("g1", confederate, "confederate", in_server=in_server)
    await umpire.start("g1", union)
    return umpire


async def done_commands(store: Store, gid: str = "g1") -> list[ev.CommandAccepted]:
    accepted = [event_from_json(json.dumps(r.payload), r.audience)
                for r in await store.events(gid) if r.type == "command_accepted"]
    return [e for e in accepted if isinstance(e, ev.CommandAccepted) and e.kind == "done"]


FIXTURES = Path(__file__).parents[1] / "fixtures"


TINY = str(FIXTURES / "tiny.toml")


HOST, BLUE, GREY, STRANGER = 1, 10, 20, 999


def at_once(tmp_path: Path) -> str:
    """The tiny scenario with a Command Phase both sides play at once (moves allowed in it)."""
    ruleset = (FIXTURES / "tiny.ruleset.toml").read_text(encoding="utf-8")
    assert 'actions = ["order"]' in ruleset
    (tmp_path / "tiny.ruleset.toml").write_text(
        ruleset.replace('actions = ["order"]', 'actions = ["move"]'), encoding="utf-8")
    path = tmp_path / "tiny.toml"
    path.write_text((FIXTURES / "tiny.toml").read_text(encoding="utf-8"), encoding="utf-8")
    return str(path)


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


T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


class Clock:
    """The store's clock, moved by the test: events are stamped with it, deadlines read it."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def at(self, **after_start: float) -> datetime:
        self.now = T0 + timedelta(**after_start)
        return self.now


async def new_game(umpire: Umpire, scenario: str = TINY, gid: str = "g1",
                   options: dict[str, str | int | bool] | None = None) -> None:
    """The tiny game, started at T0: play opens with Blue's Movement Phase (the Command Phase
    has nothing to do in it)."""
    await umpire.create_game(scenario, HOST, game_id=gid, channel_id=None, options=options,
                             seed=bytes(32))
    await umpire.join(gid, BLUE, "blue")
    await umpire.join(gid, GREY, "grey")
    await umpire.start(gid, HOST)


async def texts(umpire: Umpire, *recipients: Recipient, gid: str = "g1") -> list[str]:
    return [d.text for d in await umpire.store.deliveries_for(gid, *recipients, limit=1000)]


PUBLIC = Recipient("public", "")


TO_BLUE = Recipient("player", str(BLUE))


TO_GREY = Recipient("player", str(GREY))


TO_HOST = Recipient("host", str(HOST))


def reminders(all_texts: list[str]) -> list[str]:
    return [t for t in all_texts if t.startswith("Reminder")]


def load_tiny(scenario_edit: tuple[str, str] | None = None) -> LoadedScenario:
    """The tiny scenario with its ruleset, loaded; ``scenario_edit`` replaces one text in it."""
    text = (FIXTURES / "tiny.toml").read_text(encoding="utf-8")
    if scenario_edit:
        assert scenario_edit[0] in text
        text = text.replace(*scenario_edit)
    ruleset = (FIXTURES / "tiny.ruleset.toml").read_text(encoding="utf-8")
    return load(text, "tiny.toml", ruleset, "tiny.ruleset.toml")


async def told(store: Store, side: str, *users: int, gid: str = "g1") -> list[str]:
    """Everything ``side`` (its players ``users``) has been told or holds for its next
    dossier, in order: DMs sent or waiting, the answers to its commands, then the held news."""
    recipients = [Recipient("side", side), *(Recipient("player", str(u)) for u in users)]
    sent = [d.text for d in await store.deliveries_for(gid, *recipients, limit=10_000)]
    return sent + [h.text for h in (await store.held_news(gid)).get(side, [])]
