"""Deadlines fire once whichever processes run the clock: two ``Umpire`` instances on one
database (each with its own store, as two bot processes have), passing the same deadline at the
same moment, send one reminder, end the phase once, ping the host once, and apply a question's
default once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import timedelta
from pathlib import Path

import pytest

from rules import commands as cmd
from rules.modules import catalog as rule_modules
from storage.sql import Backend
from storage.store import Store
from tests.support.probe_module import BLUE as PROBE_BLUE
from tests.support.probe_module import NAME, _question_asked, notes, registered
from tests.support.tiny_games import (
    HOST,
    PUBLIC,
    TO_BLUE,
    TO_HOST,
    Clock,
    new_game,
    reminders,
    texts,
)
from umpire.clock.phases import HOST_PINGED, MARKED_DONE, REMINDED, check_all, set_length
from umpire.clock.questions import time_out_all
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

ROUNDS = 3  # each race is run a few times: a lucky interleaving must not pass it


@asynccontextmanager
async def two_umpires(target: str, clock: Clock | None = None
                      ) -> AsyncIterator[tuple[Umpire, Umpire]]:
    """Two umpires on one database, each with a store (connections) of its own."""
    async with AsyncExitStack() as stack:
        pair = []
        for _ in range(2):
            store = await stack.enter_async_context(
                Store.open(target) if clock is None else Store.open(target, clock=clock))
            pair.append(Umpire(store, maps=MapMaker(enabled=False)))
        yield pair[0], pair[1]


async def both(first: Umpire, second: Umpire) -> list[tuple[str, str]]:
    """Both umpires' clocks pass at once; what each did, together."""
    done = await asyncio.gather(check_all(first), check_all(second))
    return sorted(done[0] + done[1])


@pytest.fixture(params=[
    pytest.param(Backend.SQLITE, id="sqlite"),
    pytest.param(Backend.POSTGRESQL, id="postgresql", marks=pytest.mark.postgres),
])
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """One database both holders share: a SQLite file, or a PostgreSQL schema (``pg_target``)."""
    if request.param is Backend.SQLITE:
        return str(tmp_path / "shared.db")
    return str(request.getfixturevalue("pg_target"))


async def test_two_umpires_remind_once_and_end_the_phase_once(db_target: str) -> None:
    for round_ in range(ROUNDS):
        clock = Clock()
        gid = f"g{round_}"
        async with two_umpires(db_target, clock) as (first, second):
            await new_game(first, gid=gid)
            await set_length(first, gid, HOST, "4h")
            clock.at(hours=3)
            assert await both(first, second) == [(gid, REMINDED)]
            assert await both(first, second) == []
            assert len(reminders(await texts(second, TO_BLUE, gid=gid))) == 1

            clock.at(hours=4)
            assert await both(first, second) == [(gid, MARKED_DONE)]
            assert await both(first, second) == []
            for umpire in (first, second):
                state = await umpire.repository.state_for(gid)
                assert state.current.side == "grey"  # ended once: Grey's phase, not past it
            events = await first.store.events(gid)
            assert [e.payload["side"] for e in events if e.type == "side_done"] == ["blue"]
            began = [(e.payload["turn"], e.payload["step"])
                     for e in events if e.type == "phase_began"]
            assert began == [(1, 0), (1, 1), (1, 2)]
            public = [t for t in await texts(first, PUBLIC, gid=gid) if "has passed" in t]
            assert len(public) == 1


async def test_two_umpires_ping_the_host_once(db_target: str) -> None:
    for round_ in range(ROUNDS):
        clock = Clock()
        gid = f"p{round_}"
        async with two_umpires(db_target, clock) as (first, second):
            await new_game(first, gid=gid, options={"deadline_action": "ping"})
            await set_length(first, gid, HOST, "1h")
            clock.at(minutes=45)
            assert await both(first, second) == [(gid, REMINDED)]
            clock.at(hours=1)
            assert await both(first, second) == [(gid, HOST_PINGED)]
            assert await both(first, second) == []
            [ping] = await texts(second, TO_HOST, gid=gid)
            assert "has passed; waiting for Blue Army" in ping
            told = [t for t in await texts(first, PUBLIC, gid=gid) if "host has been told" in t]
            assert len(told) == 1
            # the phase waits
            assert (await second.repository.state_for(gid)).current.side == "blue"
            assert len(reminders(await texts(first, TO_BLUE, gid=gid))) == 1


async def test_two_umpires_apply_a_questions_default_once(
        db_target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rule_modules.KNOWN_MODULES, NAME, "a test-only module")
    with registered() as probe:
        probe.seconds = 60
        async with two_umpires(db_target) as (first, second):
            for gid in ("q1", "q2"):
                await _question_asked(first, probe, tmp_path, gid)
            asked = [e for e in await first.store.events("q1") if e.type == "question_asked"]
            late = asked[0].created_at + timedelta(seconds=3600)
            done = await asyncio.gather(time_out_all(first, late), time_out_all(second, late))
            assert sorted(done[0] + done[1]) == [("q1", "grey:q1"), ("q2", "grey:q1")]
            assert await time_out_all(second, late) == []
            for gid in ("q1", "q2"):
                state = await second.repository.state_for(gid)
                defaults = [n for n in notes(state) if n[0] == "grey:q1 hold by default"]
                assert len(defaults) == 1
                await second.handle(gid, PROBE_BLUE, cmd.Done())  # Blue's movement goes on
