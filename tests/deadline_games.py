"""Games with phase deadlines: a clock the tests set, a started tiny game, the texts each
recipient was sent, and the reminders among them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from storage.records import Recipient
from umpire.service import Umpire

FIXTURES = Path(__file__).parent / "fixtures"

TINY = str(FIXTURES / "tiny.toml")

HOST, BLUE, GREY = 1, 10, 20

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
