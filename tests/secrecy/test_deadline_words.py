"""The deadline a side is told does not depend on what the enemy does out of its sight (ruling
FLOW-27, with INFO-9 and INFO-13): everything a deadline is counted from is public (the length
the host set, the moment the phase began, the host's extensions and pauses). The same game is
played twice on a clock the test moves, changing only when Grey finishes a phase both sides
play at once (who has finished it is hidden), and Blue's output is compared byte for byte:
every message to Blue or the channel (the status post's edits, the calls for orders, the
reminder), and its ``/game status`` and ``/help`` at each moment."""

from __future__ import annotations

from pathlib import Path

from rules import commands as cmd
from storage.store import Store
from tests.support.tiny_games import (
    BLUE,
    GREY,
    HOST,
    PUBLIC,
    TO_BLUE,
    Clock,
    at_once,
    texts,
)
from umpire.clock.phases import check_all, set_length
from umpire.reads.maps import MapMaker
from umpire.service import Umpire


async def blue_hears(tmp_path: Path, name: str, grey_done_at: float) -> list[str]:
    """What Blue is told in a game where Grey finishes the Command Phase ``grey_done_at``
    hours after the start (Blue finishes it at 3 h 30 min, after its reminder)."""
    folder = tmp_path / name
    folder.mkdir()
    clock = Clock()
    heard: list[str] = []
    async with Store.open(folder / "v.db", clock=clock) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(at_once(folder), HOST, game_id="g1", channel_id=None,
                                 seed=bytes(32))
        await umpire.join("g1", BLUE, "blue")
        await umpire.join("g1", GREY, "grey")
        await set_length(umpire, "g1", HOST, "4h")
        await umpire.start("g1", HOST)

        async def read() -> None:
            heard.append((await umpire.status("g1", BLUE)).text)
            heard.append((await umpire.help_for("g1", BLUE)).text)

        grey_done = False
        for hours in (0.5, 1, 2, 3, 3.25, 3.5, 4, 6.5):
            clock.at(hours=hours)
            if not grey_done and hours >= grey_done_at:
                await umpire.handle("g1", GREY, cmd.Done())  # hidden: played at once
                grey_done = True
            if hours == 3.5:
                await umpire.handle("g1", BLUE, cmd.Done())  # the phase ends now
            await check_all(umpire)
            await read()
        heard += await texts(umpire, PUBLIC, TO_BLUE)
    return heard


async def test_the_deadline_blue_is_told_is_the_same_whenever_grey_finishes(
        tmp_path: Path) -> None:
    early = await blue_hears(tmp_path, "early", grey_done_at=1)
    late = await blue_hears(tmp_path, "late", grey_done_at=3.25)
    assert early == late
    told = "\n".join(early)
    # The deadlines are there to compare: the Command Phase's (4 h), Blue's Movement Phase's
    # (from 3 h 30 min, when the Command Phase ended), in the status post, the call for
    # orders, the reminder, /game status and /help.
    command_ends = f"<t:{int(Clock().at(hours=4).timestamp())}:R>"
    movement_ends = f"<t:{int(Clock().at(hours=7, minutes=30).timestamp())}:R>"
    assert any(command_ends in t and t.startswith("Reminder") for t in early)
    assert any(movement_ends in t and t.startswith("Your orders, please") for t in early)
    assert any(movement_ends in t and t.startswith("**Turn 1 ") for t in early)
    assert told.count(movement_ends) >= 4
