"""Phase deadlines at the umpire: set by the host, counted from the stored start of the phase on
a clock the tests move, a reminder at three quarters of the time, and the deadline's action, each
exactly once, across restarts (a new ``Umpire`` on the same database file)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

import pytest

from rules import commands as cmd
from storage.records import Recipient
from storage.store import Store
from tests.support.tiny_games import (
    BLUE,
    GREY,
    HOST,
    PUBLIC,
    T0,
    TINY,
    TO_BLUE,
    TO_GREY,
    TO_HOST,
    Clock,
    at_once,
    new_game,
    reminders,
    texts,
)
from umpire.clock.phase_clock import duration_words, parse_duration, parse_length
from umpire.clock.phases import (
    HOST_PINGED,
    MARKED_DONE,
    REMINDED,
    check_all,
    check_game,
    describe,
    extend,
    set_length,
)
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError
from umpire.verify.check import verify


@asynccontextmanager
async def opened(db: Path, clock: Clock) -> AsyncIterator[Umpire]:
    async with Store.open(db, clock=clock) as store:
        yield Umpire(store, maps=MapMaker(enabled=False))


def stamp(**after_start: float) -> str:
    """The Discord timestamp of a moment after the start: absolute, then relative."""
    unix = int((T0 + timedelta(**after_start)).timestamp())
    return f"<t:{unix}:f> (<t:{unix}:R>)"


# -- words -----------------------------------------------------------------------------------------
def test_lengths_are_read_and_written_in_the_hosts_words() -> None:
    assert parse_duration("24h") == timedelta(hours=24)
    assert parse_duration(" 30m ") == timedelta(minutes=30)
    assert parse_duration("90m") == timedelta(minutes=90)
    assert parse_duration("2d") == timedelta(days=2)
    assert parse_duration("1d12h") == timedelta(hours=36)
    assert parse_length("none") is None
    for bad in ("", "12", "5x", "h", "0m", "31d", "-3h", "1.5h", "24 hours"):
        with pytest.raises(UmpireError, match=r"length of time|between 1 minute and 30 days"):
            parse_duration(bad)
    assert duration_words(timedelta(hours=26, minutes=5)) == "1 d 2 h"
    assert duration_words(timedelta(minutes=95)) == "1 h 35 min"
    assert duration_words(timedelta(seconds=20)) == "less than a minute"


# -- the reminder and the deadline -----------------------------------------------------------------
async def test_a_reminder_at_three_quarters_then_the_deadline_marks_the_side_done(
        tmp_path: Path) -> None:
    clock = Clock()
    db = tmp_path / "v.db"
    async with opened(db, clock) as umpire:
        await new_game(umpire)
        state = await umpire.repository.state_for("g1")
        assert (state.current.side, state.current.phase.id) == ("blue", "movement")
        reply = await set_length(umpire, "g1", HOST, "4h")
        assert "4 h" in reply.text
        assert any("deadline of 4 h" in t and f"ends at {stamp(hours=4)}." in t
                   for t in await texts(umpire, PUBLIC))

        clock.at(hours=2, minutes=59)
        assert await check_game(umpire, "g1") == []
        clock.at(hours=3)
        assert await check_game(umpire, "g1") == [REMINDED]
        assert await check_game(umpire, "g1") == []  # once
        [reminder] = reminders(await texts(umpire, TO_BLUE))
        assert "Blue Army Movement Phase (turn 1) ends in 1 h" in reminder
        assert "marks your side done" in reminder
        assert reminders(await texts(umpire, TO_GREY)) == []  # not Grey's phase

        clock.at(hours=3, minutes=59)
        assert await check_game(umpire, "g1") == []
        clock.at(hours=4)
        assert await check_game(umpire, "g1") == [MARKED_DONE]
        assert await check_game(umpire, "g1") == []
        state = await umpire.repository.state_for("g1")
        assert state.current.side == "grey"
        public = await texts(umpire, PUBLIC)
        assert any("deadline of the Blue Army Movement Phase (turn 1) has passed: the umpire "
                   "marked Blue Army done" in t for t in public)
        assert any("passed before your side had said it was done" in t
                   for t in await texts(umpire, TO_BLUE))

        # Grey's phase has its own deadline, counted from when it began (at 4 h).
        clock.at(hours=6, minutes=59)
        assert await check_game(umpire, "g1") == []
        clock.at(hours=7)
        assert await check_game(umpire, "g1") == [REMINDED]
        assert len(reminders(await texts(umpire, TO_GREY))) == 1
        assert len(reminders(await texts(umpire, TO_BLUE))) == 1

        # The deadline's command is in the log: the game decides again the same way.
        await umpire.end_game("g1", HOST)
    assert await verify(db, "g1") == 0


async def test_the_clock_is_stored_and_acts_once_across_restarts(tmp_path: Path) -> None:
    clock = Clock()
    db = tmp_path / "v.db"
    async with opened(db, clock) as umpire:
        await new_game(umpire)
        await new_game(umpire, gid="g2")
        await set_length(umpire, "g1", HOST, "2h")
    clock.at(hours=1, minutes=30)
    async with opened(db, clock) as umpire:  # restarted
        assert await check_all(umpire) == [("g1", REMINDED)]
    async with opened(db, clock) as umpire:  # restarted again at the same moment
        assert await check_all(umpire) == []
        assert len(reminders(await texts(umpire, TO_BLUE))) == 1
    clock.at(hours=2)
    async with opened(db, clock) as umpire:
        assert await check_all(umpire) == [("g1", MARKED_DONE)]
    async with opened(db, clock) as umpire:
        assert await check_all(umpire) == []
        assert (await umpire.repository.state_for("g1")).current.side == "grey"
        assert (await umpire.repository.state_for("g2")).current.side == "blue"  # no deadline there
        done = [t for t in await texts(umpire, PUBLIC) if "has passed" in t]
        assert len(done) == 1


async def test_a_done_before_the_deadline_leaves_nothing_for_it_to_do(tmp_path: Path) -> None:
    clock = Clock()
    async with opened(tmp_path / "v.db", clock) as umpire:
        await new_game(umpire)
        await set_length(umpire, "g1", HOST, "1h")
        clock.at(minutes=59)
        await umpire.handle("g1", BLUE, cmd.Done())
        clock.at(minutes=61)
        assert await check_game(umpire, "g1") == []  # Grey's phase began at 59 min
        state = await umpire.repository.state_for("g1")
        assert state.current.side == "grey"
        # The command for a phase that is over is refused and changes nothing.
        seq = state.seq
        with pytest.raises(UmpireError, match="that phase is already over"):
            await umpire.handle("g1", HOST, cmd.DeadlinePassed(turn=1, step=1), is_admin=True)
        assert (await umpire.repository.state_for("g1")).seq == seq
        with pytest.raises(UmpireError, match="only the game's host"):
            await umpire.handle("g1", GREY, cmd.DeadlinePassed(turn=1, step=2))


async def test_a_paused_game_stops_the_clock(tmp_path: Path) -> None:
    clock = Clock()
    async with opened(tmp_path / "v.db", clock) as umpire:
        await new_game(umpire)
        await set_length(umpire, "g1", HOST, "4h")
        clock.at(hours=1)
        await umpire.handle("g1", HOST, cmd.Pause(paused=True))
        clock.at(hours=30)  # long past the deadline, but paused: nothing fires
        assert await check_game(umpire, "g1") == []
        assert "stands still" in (await describe(umpire, "g1", HOST)).text
        clock.at(hours=31)
        await umpire.handle("g1", HOST, cmd.Pause(paused=False))  # 30 h paused
        clock.at(hours=32, minutes=59)
        assert await check_game(umpire, "g1") == []
        clock.at(hours=33)  # 3 h of the phase's time have run
        assert await check_game(umpire, "g1") == [REMINDED]
        clock.at(hours=33, minutes=59)
        assert await check_game(umpire, "g1") == []
        clock.at(hours=34)
        assert await check_game(umpire, "g1") == [MARKED_DONE]


async def test_the_status_post_follows_a_pause(tmp_path: Path) -> None:
    """FLOW-27: while the game is paused the post says the clock stands still and how much time
    is left; resumed, it shows the deadline with the time paused added."""
    clock = Clock()
    async with opened(tmp_path / "v.db", clock) as umpire:
        await new_game(umpire)
        await set_length(umpire, "g1", HOST, "4h")

        async def post() -> str:
            return [t for t in await texts(umpire, PUBLIC) if t.startswith("**Turn 1 ")][-1]

        assert f"Deadline: {stamp(hours=4)}" in await post()
        clock.at(hours=1)
        await umpire.handle("g1", HOST, cmd.Pause(paused=True))
        assert ("Deadline: the clock stands still while the game is paused (3 h left)"
                in await post())
        assert "(3 h left)" in (await umpire.status("g1", BLUE)).text
        clock.at(hours=31)
        await umpire.handle("g1", HOST, cmd.Pause(paused=False))
        assert f"Deadline: {stamp(hours=34)}" in await post()
        assert stamp(hours=34) in (await umpire.status("g1", GREY)).text


async def test_a_length_set_during_a_phase_counts_from_when_it_was_set(tmp_path: Path) -> None:
    clock = Clock()
    async with opened(tmp_path / "v.db", clock) as umpire:
        await new_game(umpire)
        clock.at(hours=10)
        await set_length(umpire, "g1", HOST, "1h")
        assert await check_game(umpire, "g1") == []
        clock.at(hours=11)
        assert await check_game(umpire, "g1") == [MARKED_DONE]


async def test_a_deadline_set_before_the_start_counts_from_the_first_phase(
        tmp_path: Path) -> None:
    clock = Clock()
    async with opened(tmp_path / "v.db", clock) as umpire:
        await umpire.create_game(TINY, HOST, game_id="g1", channel_id=None)
        await umpire.join("g1", BLUE, "blue")
        await umpire.join("g1", GREY, "grey")
        reply = await set_length(umpire, "g1", HOST, "1h")
        assert reply.text == "Done: The host set a deadline of 1 h for each phase."
        clock.at(hours=5)
        assert await check_game(umpire, "g1") == []  # not started: no clock
        await umpire.start("g1", HOST)
        clock.at(hours=5, minutes=45)
        assert await check_game(umpire, "g1") == [REMINDED]
        clock.at(hours=6)
        assert await check_game(umpire, "g1") == [MARKED_DONE]


async def test_the_host_extends_the_phase(tmp_path: Path) -> None:
    clock = Clock()
    async with opened(tmp_path / "v.db", clock) as umpire:
        await new_game(umpire)
        with pytest.raises(UmpireError, match="no phase deadline"):
            await extend(umpire, "g1", HOST, "1h")
        await set_length(umpire, "g1", HOST, "4h")
        clock.at(hours=3)
        assert await check_game(umpire, "g1") == [REMINDED]
        before = await texts(umpire, PUBLIC)
        for bad in ("soon", "0m", "40d"):
            with pytest.raises(UmpireError):
                await extend(umpire, "g1", HOST, bad)
        with pytest.raises(UmpireError, match="only the game's host"):
            await extend(umpire, "g1", BLUE, "12h")
        assert await texts(umpire, PUBLIC) == before  # refused: nothing said, nothing changed
        reply = await extend(umpire, "g1", HOST, "12h")
        assert f"now ends at {stamp(hours=16)}." in reply.text
        assert any("12 h more" in t for t in await texts(umpire, PUBLIC))
        # The reminder's new time (3 h + 9 h) is still to come: it goes again then.
        clock.at(hours=11, minutes=59)
        assert await check_game(umpire, "g1") == []
        clock.at(hours=12)
        assert await check_game(umpire, "g1") == [REMINDED]
        clock.at(hours=15, minutes=59)
        assert await check_game(umpire, "g1") == []
        clock.at(hours=16)
        assert await check_game(umpire, "g1") == [MARKED_DONE]
        # The next phase has the plain length again.
        clock.at(hours=19)
        assert await check_game(umpire, "g1") == [REMINDED]


async def test_under_ping_the_host_is_told_once_and_the_phase_waits(tmp_path: Path) -> None:
    clock = Clock()
    async with opened(tmp_path / "v.db", clock) as umpire:
        await new_game(umpire, options={"deadline_action": "ping"})
        await set_length(umpire, "g1", HOST, "30m")
        clock.at(minutes=23)
        assert await check_game(umpire, "g1") == [REMINDED]
        assert "the host is told" in reminders(await texts(umpire, TO_BLUE))[0]
        clock.at(minutes=30)
        assert await check_game(umpire, "g1") == [HOST_PINGED]
        clock.at(minutes=45)
        assert await check_game(umpire, "g1") == []
        [ping] = await texts(umpire, TO_HOST)
        assert "has passed; waiting for Blue Army" in ping
        assert "/host endphase" in ping
        assert any("the host has been told" in t for t in await texts(umpire, PUBLIC))
        # still Blue's phase
        assert (await umpire.repository.state_for("g1")).current.side == "blue"
        await extend(umpire, "g1", HOST, "1h")  # ends at 1 h 30 min
        clock.at(hours=1, minutes=30)
        assert await check_game(umpire, "g1") == [HOST_PINGED]
        assert len(await texts(umpire, TO_HOST)) == 2


async def test_the_action_is_a_game_option_with_two_words(tmp_path: Path) -> None:
    async with opened(tmp_path / "v.db", Clock()) as umpire:
        with pytest.raises(UmpireError, match="one of done, ping"):
            await umpire.create_game(TINY, HOST, game_id="g1", channel_id=None,
                                     options={"deadline_action": "later"})
        assert await umpire.game("g1") is None
        reply = await umpire.create_game(TINY, HOST, game_id="g2", channel_id=None,
                                         options={"deadline_action": "ping"})
        assert "the host is told and the phase waits" in reply.text or any(
            "the host is told and the phase waits" in t
            for t in await texts(umpire, PUBLIC, gid="g2"))


async def test_only_the_host_sets_the_deadline_and_bad_words_change_nothing(
        tmp_path: Path) -> None:
    async with opened(tmp_path / "v.db", Clock()) as umpire:
        await new_game(umpire)
        with pytest.raises(UmpireError, match="only the game's host"):
            await set_length(umpire, "g1", BLUE, "24h")
        with pytest.raises(UmpireError, match="length of time"):
            await set_length(umpire, "g1", HOST, "tomorrow")
        assert await umpire.store.deadline_setting("g1") is None
        assert "none" in (await describe(umpire, "g1", HOST)).text
        await set_length(umpire, "g1", HOST, "2d")
        assert "already 2 d" in (await set_length(umpire, "g1", HOST, "48h")).text
        await set_length(umpire, "g1", HOST, "none")
        assert any("took the phase deadline away" in t for t in await texts(umpire, PUBLIC))
        assert await check_game(umpire, "g1", T0 + timedelta(days=9)) == []


# -- hidden information ----------------------------------------------------------------------------
async def _blue_hears(tmp_path: Path, grey_finished: bool) -> list[str]:
    """What Blue receives (its DMs and the channel) through a Command Phase both sides play at
    once, with a deadline, whether or not Grey finished early."""
    clock = Clock()
    async with opened(tmp_path / "v.db", clock) as umpire:
        await new_game(umpire, at_once(tmp_path))
        state = await umpire.repository.state_for("g1")
        assert state.current.side is None and state.acting_sides() == ("blue", "grey")
        await set_length(umpire, "g1", HOST, "4h")
        if grey_finished:
            clock.at(minutes=5)
            await umpire.handle("g1", GREY, cmd.Done())
        clock.at(hours=3)
        assert await check_game(umpire, "g1") == [REMINDED]
        clock.at(hours=4)
        assert await check_game(umpire, "g1") == [MARKED_DONE]
        assert (await umpire.repository.state_for("g1")).current.phase.id == "movement"
        grey = reminders(await texts(umpire, TO_GREY))
        assert len(grey) == (0 if grey_finished else 1)
        return await texts(umpire, TO_BLUE, PUBLIC)


async def test_what_blue_hears_of_a_deadline_does_not_depend_on_grey(tmp_path: Path) -> None:
    """In a phase played at once, whether the other side is still at its orders is its own
    (ruling INFO-9): the reminder, the channel's words at the deadline and Blue's own notice are
    the same either way."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    early = await _blue_hears(tmp_path / "a", grey_finished=True)
    late = await _blue_hears(tmp_path / "b", grey_finished=False)
    assert early == late
    assert any("the phase is over for every side" in t for t in early)
    assert not any("Grey Army done" in t for t in early)


async def test_a_player_ready_on_a_shared_side_is_not_reminded(tmp_path: Path) -> None:
    """Two players share Blue: the one who said /done is not reminded, the other is."""
    clock = Clock()
    async with opened(tmp_path / "v.db", clock) as umpire:
        await umpire.create_game(TINY, HOST, game_id="g1", channel_id=None, seed=bytes(32))
        blue_two = 11
        for user, side in ((BLUE, "blue"), (blue_two, "blue"), (GREY, "grey")):
            await umpire.join("g1", user, side)
        await umpire.start("g1", HOST)
        await set_length(umpire, "g1", HOST, "4h")
        await umpire.done("g1", BLUE, request_id="blue-ready")
        # still waits for 11
        assert (await umpire.repository.state_for("g1")).current.side == "blue"
        clock.at(hours=3)
        assert await check_game(umpire, "g1") == [REMINDED]
        assert reminders(await texts(umpire, TO_BLUE)) == []
        assert len(reminders(await texts(umpire, Recipient("player", str(blue_two))))) == 1
