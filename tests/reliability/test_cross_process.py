"""Two umpires on one database, as two bot processes are: each with its own store connections
and its own caches, their commands for the same games racing to commit.

A commit that finds the game moved on is decided again from the log (``umpire.games.retrying``): no
player ever hears that the game changed meanwhile, nothing is applied twice or lost, and a
command the other process made invalid gets the rules' own refusal. Each umpire's copy of a game
(its state, the count of secret rolls told, its drawn maps) follows the other's commits.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from rules import commands as cmd
from rules.state import to_snapshot
from rules.surprise.commands import OrderSurpriseMove
from storage.store import Store
from tests.support import pg_server
from tests.support.tiny_games import (
    BLUE,
    FLANK,
    GREY,
    HOST,
    TINY,
    TO_BLUE,
    TO_GREY,
    U1,
    U2,
    Clock,
    done_commands,
    reminders,
    tiny_orders,
)
from umpire.clock.phases import check_all, extend, set_length
from umpire.demo import main as demo
from umpire.games import seats
from umpire.games.retrying import RETRY, RetryPolicy
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError
from umpire.words import replies as wording

ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).parents[1] / "processes" / "cross_process_worker.py"
#: Words no player may ever read for a race between processes.
RACE_WORDS = ("changed meanwhile", wording.BUSY)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
async def target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The database both umpires share: a SQLite file, or a fresh schema on the test
    PostgreSQL server (``tests/support/pg_server.py``; skipped, saying why, without one)."""
    if request.param == "sqlite":
        yield str(tmp_path / "shared.db")
        return
    url: str = request.getfixturevalue("pg_url")
    name, schema_url = await pg_server.fresh_schema(url)
    try:
        yield schema_url
    finally:
        await pg_server.drop_schema(url, name)


@asynccontextmanager
async def umpires(target: str, n: int = 2, *, maps: bool = False,
                  retry: RetryPolicy | None = None) -> AsyncIterator[list[Umpire]]:
    """``n`` umpires on ``target``, each with a store of its own (its own connections)."""
    async with AsyncExitStack() as stack:
        out = []
        for _ in range(n):
            store = await stack.enter_async_context(Store.open(target))
            out.append(Umpire(store, maps=MapMaker(enabled=maps), retry=retry or RETRY))
        yield out


async def tiny_game(umpire: Umpire, gid: str, seed: bytes) -> None:
    await umpire.create_game(TINY, HOST, game_id=gid, seed=seed)
    await umpire.join(gid, BLUE, "blue")
    await umpire.join(gid, GREY, "grey")
    await umpire.start(gid, HOST)


async def same_everywhere(gid: str, every: Sequence[Umpire]) -> None:
    """Every umpire reports the state the whole log replays to; the log has no gap."""
    events = await every[0].store.events(gid)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    truth = to_snapshot(await every[0].repository.replay_all(gid))
    for umpire in every:
        assert to_snapshot(await umpire.repository.state_for(gid)) == truth


def roll_numbers(texts: Sequence[str]) -> list[int]:
    return [int(n) for t in texts for n in re.findall(r"your side's roll (\d+);", t)]


async def test_commands_for_the_same_games_race_between_two_umpires(target: str) -> None:
    """Six games, each command of a round sent at once to one of two umpires at random: every
    command the rules accept is in its game's log once, no answer speaks of the race, both
    umpires report the state the log replays to."""
    gids = [f"race{n}" for n in range(6)]
    accepted: dict[str, list[str]] = {gid: [] for gid in gids}
    refusals: list[str] = []
    async with umpires(target) as (a, b):
        for n, gid in enumerate(gids):
            await tiny_game(a, gid, bytes([n + 1]) * 32)
        rng = random.Random(18)

        async def send(gid: str, request: str, user: int, command: cmd.Command) -> None:
            umpire = rng.choice((a, b))
            try:
                await umpire.handle(gid, user, command, request_id=request)
            except UmpireError as e:
                refusals.append(str(e))
                return
            accepted[gid].append(request)

        async def play(n: int, gid: str) -> None:
            k = 0
            for commands in tiny_orders(n):
                batch = []
                for user, command in commands:
                    batch.append(send(gid, f"{gid}/{k}", user, command))
                    k += 1
                await asyncio.gather(*batch)

        await asyncio.gather(*(play(n, gid) for n, gid in enumerate(gids)))
        assert not [r for r in refusals if any(w in r for w in RACE_WORDS)]
        assert sum(len(r) for r in accepted.values()) >= len(gids) * 15
        for gid in gids:
            logged = [e.payload["request"] for e in await a.store.events(gid)
                      if e.type == "command_accepted" and e.payload["request"]]
            assert Counter(logged) == Counter(accepted[gid])
            assert (await a.repository.state_for(gid)).status == "ended"
            await same_everywhere(gid, (a, b))


async def test_secret_rolls_are_numbered_in_order_whichever_umpire_tells_them(
        target: str) -> None:
    """The flank march's secret rolls (its acceptance, then the MPs it saves each turn) are
    told to the Confederates by whichever umpire commits the step: each umpire counts the rolls
    already told from the log once the other has committed, so the numbers run 1, 2, 3… with
    none twice and none skipped."""
    union, confederate = demo.PLAYERS["union"], demo.PLAYERS["confederate"]
    async with umpires(target) as (a, b):
        await a.create_game(FLANK, HOST, game_id="rolls", seed=demo.SEEDS["success"],
                            without=demo.WITHOUT)
        await a.join("rolls", union, "union")
        await a.join("rolls", confederate, "confederate")
        await a.start("rolls", HOST)
        state = await b.repository.state_for("rolls")
        await b.handle("rolls", confederate, OrderSurpriseMove(
            force=demo.jackson_force(state), route=demo.MARCH_ROUTE, detour="ask",
            name="Jackson's flank march"))
        player = {"union": union, "confederate": confederate}
        for n in range(80):
            state = await (a, b)[n % 2].repository.state_for("rolls")
            if state.turn > 5:
                break
            # Each acting side's Done through another umpire, at once.
            await asyncio.gather(*(u.handle("rolls", player[side], cmd.Done())
                                   for u, side in zip((a, b)[n % 2:] + (a, b)[:n % 2],
                                                      state.acting_sides(), strict=False)))
        told = [d.text for d in await a.store.deliveries_for("rolls",
                                                             ("player", str(confederate)))]
        numbers = roll_numbers(told)
        assert len(numbers) >= 3, (state.turn, numbers)
        assert numbers == list(range(1, len(numbers) + 1))
        await same_everywhere("rolls", (a, b))


async def test_a_stale_commit_is_decided_again(target: str) -> None:
    """Both umpires hold the game at the same seq and each gets a move at once: one commits,
    the other finds the log moved on and decides its move again. Without deciding again (one
    try only) the same race costs a player their order, which shows that the race is real."""
    async with umpires(target) as (a, b), \
            umpires(target, retry=RetryPolicy(tries=1)) as (once_a, once_b):
        lost = 0
        for n in range(4):
            for pair in ((a, b), (once_a, once_b)):
                gid = f"stale{n}-{pair[0].repository.retry.tries}"
                await tiny_game(a, gid, bytes([n + 7]) * 32)
                for umpire in pair:
                    await umpire.repository.state_for(gid)  # both copies at the same seq
                both = await asyncio.gather(
                    pair[0].handle(gid, BLUE, cmd.Move(unit="blue-1", route="A0204"),
                                   request_id="m1"),
                    pair[1].handle(gid, BLUE, cmd.Move(unit="blue-2", route="A0304"),
                                   request_id="m2"), return_exceptions=True)
                if pair[0] is a:
                    assert [getattr(r, "repeated", r) for r in both] == [False, False]
                    await same_everywhere(gid, pair)
                else:
                    lost += sum(isinstance(r, UmpireError) and str(r) == wording.BUSY
                                for r in both)
        assert lost > 0


async def test_a_command_the_other_umpire_made_invalid_gets_the_rules_refusal(
        target: str) -> None:
    """Blue's Done reaches one umpire while a blue move reaches the other, a little later each
    time. Whenever the Done is committed first, the move is decided in Grey's phase and refused
    as it is refused when it simply comes after the Done: the same words, nothing changed. (The
    last move is sent once the Done was answered, so that the Done surely comes first at least
    once, however slow the machine.)"""
    move = cmd.Move(unit="blue-1", route="A0204")
    async with umpires(target) as (a, b):
        refused = 0
        for n, later in enumerate((0, 0.002, 0.005, 0.01, 0.02, 0.04, 0.08, 0.3, None)):
            gid = f"late{n}"
            await tiny_game(a, gid, bytes([n + 30]) * 32)
            await b.repository.state_for(gid)
            done = asyncio.ensure_future(a.handle(gid, BLUE, cmd.Done(), request_id="done"))

            async def move_later(gid: str = gid, later: float | None = later,
                                 done: asyncio.Future[Any] = done) -> Any:
                if later is None:
                    await asyncio.wait([done])
                else:
                    await asyncio.sleep(later)
                return await b.handle(gid, BLUE, move, request_id="move")

            got = await asyncio.gather(done, move_later(), return_exceptions=True)
            assert not isinstance(got[0], BaseException)
            await same_everywhere(gid, (a, b))
            kinds = [e.payload["kind"] for e in await a.store.events(gid)
                     if e.type == "command_accepted"]
            if isinstance(got[1], UmpireError):
                refused += 1
                assert kinds == ["start", "done"]
                with pytest.raises(UmpireError) as again:
                    await a.handle(gid, BLUE, move, request_id="move-again")
                assert str(got[1]) == str(again.value)
            else:
                assert not isinstance(got[1], BaseException)
                assert kinds == ["start", "move", "done"]
        assert refused > 0


async def test_side_mates_ready_at_once_on_two_umpires_finish_their_side(
        target: str) -> None:
    """The two Union players say Done at the same moment, each to another umpire: each may
    find the other not yet ready when it looks, but the side still finishes its step, with
    exactly one Done in the log."""
    async with umpires(target) as (a, b):
        for n in range(6):
            gid = f"ready{n}"
            await a.create_game(FLANK, HOST, game_id=gid, seed=bytes([n + 50]) * 32)
            for user, side in ((U1, "union"), (U2, "union"), (21, "confederate"),
                               (22, "confederate")):
                await a.join(gid, user, side)
            await a.start(gid, HOST)
            await b.repository.state_for(gid)
            await asyncio.gather(a.done(gid, U1), b.done(gid, U2))
            assert "union" in (await a.repository.state_for(gid)).done
            [done] = await done_commands(a.store, gid)
            assert done.side == "union"
            await same_everywhere(gid, (a, b))


async def test_joins_racing_on_two_umpires_seat_the_player_once(target: str) -> None:
    """One player's join reaches both umpires at once (a double click), and another player
    asks for two sides at once: nobody meets a storage error, each is seated once, and the
    seat is one of those asked for."""
    async with umpires(target) as (a, b):
        await a.create_game(TINY, HOST, game_id="seats", seed=bytes([3]) * 32)
        await b.repository.state_for("seats")
        answers = await asyncio.gather(a.join("seats", BLUE, "blue"),
                                       b.join("seats", BLUE, "blue"),
                                       a.join("seats", GREY, "grey"),
                                       b.join("seats", GREY, "blue"), return_exceptions=True)
        assert all(not isinstance(r, BaseException) for r in answers), answers
        players = {p.user_id: p.side for p in await a.store.players("seats")}
        assert players[BLUE] == "blue" and players[GREY] in ("grey", "blue")
        assert len(await a.store.players("seats")) == 2


class PausingStore(Store):
    """A store that, once, stops right after a read the umpire decides by (``pause_after``)
    until ``go`` is set: the other process's write then lands between this process's read
    and its write, in exactly the order the test names."""

    pause_after = ""
    skip = 0  # reads of that kind to let through first
    paused = asyncio.Event()
    go = asyncio.Event()

    async def _pause(self, read: str) -> None:
        if self.pause_after == read:
            if self.skip:
                self.skip -= 1
                return
            self.pause_after = ""
            self.paused.set()
            await self.go.wait()

    async def game_now(self, game_id: str) -> Any:
        found = await super().game_now(game_id)
        await self._pause("game_now")
        return found

    async def players(self, game_id: str) -> Any:
        found = await super().players(game_id)
        await self._pause("players")
        return found

    async def get_player(self, game_id: str, user_id: int) -> Any:
        found = await super().get_player(game_id, user_id)
        await self._pause("get_player")
        return found

    async def get_game(self, game_id: str) -> Any:
        found = await super().get_game(game_id)
        await self._pause("get_game")
        return found

    async def step_deadline(self, game_id: str, turn: int, step: int) -> Any:
        found = await super().step_deadline(game_id, turn, step)
        await self._pause("step_deadline")
        return found

    def pause_once(self, after: str, skip: int = 0) -> None:
        """Stop, once, right after an ``after`` read: the next but ``skip``."""
        self.paused, self.go = asyncio.Event(), asyncio.Event()
        self.pause_after, self.skip = after, skip


async def paused(store: PausingStore) -> None:
    """Wait for the store to pause; a read the umpire no longer makes fails the test (it
    would wait forever)."""
    try:
        await asyncio.wait_for(store.paused.wait(), 60)
    except TimeoutError:
        raise AssertionError(f"no {store.pause_after!r} read came to pause after") from None


async def meanwhile(store: PausingStore, waiting: Any, other: Any) -> Any:
    """Run ``waiting`` (an awaitable on ``store``) until it pauses, then ``other`` to the end,
    then the rest of ``waiting``: the other process's write lands between the read and the
    write. What ``waiting`` returns (or raises)."""
    task = asyncio.ensure_future(waiting)
    await paused(store)
    await other
    store.go.set()
    return (await asyncio.gather(task, return_exceptions=True))[0]


THIRD = 303


async def test_a_join_seated_while_the_start_is_decided_is_in_its_roster(target: str) -> None:
    """A join written after the start read the seats and before it committed: the start is
    decided again, and its roster names the new player too (nobody is seated unannounced)."""
    async with umpires(target, 1) as (b,), PausingStore.open(target) as store:
        a = Umpire(store, maps=MapMaker(enabled=False))
        await a.create_game(TINY, HOST, game_id="roster", seed=bytes([4]) * 32)
        await a.join("roster", BLUE, "blue")
        await a.join("roster", GREY, "grey")
        store.paused, store.go = asyncio.Event(), asyncio.Event()
        store.pause_after = "game_now"  # the seats, read with the game
        starting = asyncio.create_task(a.start("roster", HOST))
        await paused(store)
        await b.join("roster", THIRD, "blue")
        store.go.set()
        await starting
        roster = [d.text for d in await a.store.deliveries_for("roster", ("public", ""))
                  if d.text.startswith("**Seats**")]
        assert len(roster) == 1 and f"<@{THIRD}>" in roster[0]
        assert {p.user_id for p in await a.store.players("roster")} == {BLUE, GREY, THIRD}


async def test_a_join_decided_before_the_start_and_written_after_it_is_a_request(
        target: str) -> None:
    """A join decided while the game was in setup, whose write comes after the start: it is
    decided again, as a join after the start, so it asks the host for the seat."""
    async with umpires(target, 1) as (a,), PausingStore.open(target) as store:
        b = Umpire(store, maps=MapMaker(enabled=False))
        await a.create_game(TINY, HOST, game_id="late", seed=bytes([5]) * 32)
        await a.join("late", BLUE, "blue")
        await a.join("late", GREY, "grey")
        store.paused, store.go = asyncio.Event(), asyncio.Event()
        store.pause_after = "get_player"
        joining = asyncio.create_task(b.join("late", THIRD, "blue"))
        await paused(store)
        await a.start("late", HOST)
        store.go.set()
        answer = await joining
        assert "sent to the host" in answer.text
        assert THIRD not in {p.user_id for p in await a.store.players("late")}
        assert await a.store.seat_request("late", THIRD) is not None


async def test_a_done_decided_in_a_phase_the_other_umpire_ended_is_decided_again(
        target: str) -> None:
    """A Union player's Done is read in the Command Phase; before it is written, another
    process ends that phase. The Done is decided again in the phase that is current: the player
    is ready there (the rules' answer to a Done given now), never in the phase that is over,
    and the side-mate's note names the current phase."""
    async with umpires(target, 1) as (b,), PausingStore.open(target) as store:
        a = Umpire(store, maps=MapMaker(enabled=False))
        gid = "ready-late"
        await a.create_game(FLANK, HOST, game_id=gid, seed=bytes([7]) * 32)
        for user, side in ((U1, "union"), (U2, "union"), (21, "confederate"),
                           (22, "confederate")):
            await a.join(gid, user, side)
        await a.start(gid, HOST)
        before = await a.repository.state_for(gid)
        assert "union" in before.acting_sides()
        store.pause_once("game_now")  # U1's seat, read with the game
        reply = await meanwhile(store, a.done(gid, U1),
                                b.handle(gid, HOST, cmd.ForceEndPhase(), is_admin=True))
        assert not isinstance(reply, BaseException), reply
        now = await a.repository.state_for(gid)
        assert (now.turn, now.step) != (before.turn, before.step)
        assert U1 not in await store.ready_players(gid, before.turn, before.step)
        assert U1 in await store.ready_players(gid, now.turn, now.step)
        # U2's orders message of the new step, edited to say U1 is ready; none of the old.
        notes = [d.text.rpartition("\n\n")[2] for d in await store.deliveries_for(
            gid, ("player", str(U2))) if "\n\nReady to end" in d.text]
        assert notes and all("Command Phase" not in t for t in notes), notes


async def test_no_reminder_goes_out_for_a_phase_the_other_umpire_ended(target: str) -> None:
    """The clock reads Blue's phase with its reminder due; before the reminder is written,
    another process ends the phase. The pass writes nothing (no reminder to Blue for a phase
    that is over); the next pass reads the game again and finds Grey's phase, not yet due."""
    clock = Clock()
    async with Store.open(target, clock=clock) as other, \
            PausingStore.open(target, clock=clock) as store:
        a, b = (Umpire(s, maps=MapMaker(enabled=False)) for s in (store, other))
        gid = "remind-late"
        await tiny_game(a, gid, bytes([11]) * 32)
        await set_length(a, gid, HOST, "4h")
        clock.at(hours=3)
        store.pause_once("players")
        did = await meanwhile(store, check_all(a),
                              b.handle(gid, HOST, cmd.ForceEndPhase(), is_admin=True))
        assert did == []
        assert reminders(await texts_to(b, gid, TO_BLUE)) == []
        assert await check_all(a) == []
        clock.at(hours=6, minutes=30)
        assert await check_all(a) == [(gid, "reminded")]
        assert reminders(await texts_to(b, gid, TO_BLUE)) == []
        assert len(reminders(await texts_to(b, gid, TO_GREY))) == 1


@pytest.mark.parametrize("read", ["get_game", "step_deadline"])
async def test_an_extension_decided_in_a_phase_the_other_umpire_ended_is_decided_again(
        target: str, read: str) -> None:
    """The host's extension is read in Blue's phase; before it is written, another process
    ends the phase (right after the host is checked, or after Blue's deadline is read). The
    extension is decided again: it gives the current (Grey's) phase the time, and no
    announcement speaks of Blue's phase, which is over."""
    clock = Clock()
    async with Store.open(target, clock=clock) as other, \
            PausingStore.open(target, clock=clock) as store:
        a, b = (Umpire(s, maps=MapMaker(enabled=False)) for s in (store, other))
        gid = "extend-late"
        await tiny_game(a, gid, bytes([12]) * 32)
        await set_length(a, gid, HOST, "4h")
        blue = await a.repository.state_for(gid)
        store.pause_once(read)
        reply = await meanwhile(store, extend(a, gid, HOST, "2h"),
                                b.handle(gid, HOST, cmd.ForceEndPhase(), is_admin=True))
        assert not isinstance(reply, BaseException), reply
        now = await a.repository.state_for(gid)
        assert now.current.side == "grey" != blue.current.side
        extended = await store.step_deadline(gid, now.turn, now.step)
        assert extended.extra_seconds == 2 * 3600
        assert (await store.step_deadline(gid, blue.turn, blue.step)).extra_seconds == 0
        said = [t for t in await texts_to(b, gid, ("public", "")) if "more: it now ends" in t]
        assert len(said) == 1 and "Grey" in said[0] and "Blue" not in said[0], said


async def texts_to(umpire: Umpire, gid: str, recipient: Any) -> list[str]:
    return [d.text for d in await umpire.store.deliveries_for(gid, recipient, limit=1000)]


@pytest.mark.parametrize("change", ["seat", "unseat", "leave"])
async def test_a_seat_decided_in_play_is_not_written_after_the_other_umpire_ended_the_game(
        target: str, change: str) -> None:
    """The host seats a player who asked (or takes a seat away), or a player leaves, while the
    game is in play; before the seat is written, another process ends the game. The seat is
    decided again on the ended game: no seat changes after the end is announced, and nobody
    is seated in a game that is over."""
    async with umpires(target, 1) as (b,), PausingStore.open(target) as store:
        a = Umpire(store, maps=MapMaker(enabled=False))
        gid = f"seat-late-{change}"
        await tiny_game(a, gid, bytes([13]) * 32)
        await a.join(gid, THIRD, "blue")  # after the start: a request to the host
        if change == "seat":
            doing = a.seat(gid, HOST, THIRD, "blue")
        elif change == "unseat":
            doing = a.unseat(gid, HOST, GREY, "absent")
        else:
            doing = a.leave(gid, GREY)
        # A seat lost is read once before it is decided (``Readying.leave``/``unseat``).
        store.pause_once("get_player", skip=0 if change == "seat" else 1)
        got = await meanwhile(store, doing, b.end_game(gid, HOST, reason="over"))
        assert (await a.repository.state_for(gid)).status == "ended"
        assert not [t for t in await texts_to(b, gid, ("public", ""))
                    if t.startswith("**Seat:**")]
        assert THIRD not in {p.user_id for p in await store.players(gid)}
        if change == "seat":
            assert isinstance(got, UmpireError) and str(got) == seats.OVER
        if change == "unseat":
            assert isinstance(got, UmpireError) and str(got) == seats.OVER
            assert GREY in {p.user_id for p in await store.players(gid)}
        assert await store.former_side(gid, GREY) is None


async def test_a_seat_request_decided_in_play_is_not_written_after_the_game_ended(
        target: str) -> None:
    """A join after the start is a request to the host; if another process ends the game
    before it is written, it is decided again on the ended game: the host is not asked."""
    async with umpires(target, 1) as (b,), PausingStore.open(target) as store:
        a = Umpire(store, maps=MapMaker(enabled=False))
        gid = "request-late"
        await tiny_game(a, gid, bytes([14]) * 32)
        store.pause_once("get_player")
        got = await meanwhile(store, a.join(gid, THIRD, "blue"),
                              b.end_game(gid, HOST, reason="over"))
        assert isinstance(got, UmpireError) and str(got) == seats.OVER
        assert await store.seat_request(gid, THIRD) is None
        assert not [t for t in await texts_to(b, gid, ("host", str(HOST))) if "asks" in t]


async def test_games_created_at_once_on_two_umpires_get_numbers_of_their_own(
        target: str) -> None:
    """Two umpires create games of one scenario at the same moment, so both count the same
    next number: the one that comes second counts again, and every game gets a number."""
    async with umpires(target) as (a, b):
        made = await asyncio.gather(*(u.create_game(TINY, HOST) for _ in range(3)
                                      for u in (a, b)), return_exceptions=True)
        assert all(not isinstance(r, BaseException) for r in made), made
        ids = {g.id for g in await a.store.list_games()}
        assert len(ids) == 6
        assert all(f"`{gid}`" in "".join(r.text for r in made if not isinstance(r, BaseException))
                   for gid in ids)


async def test_a_map_asked_of_one_umpire_shows_the_other_umpires_move(target: str) -> None:
    """An umpire that drew Blue's map draws it again once the other umpire commits a move, and
    its picture is the one a fresh umpire draws: a cached picture is of its seq only."""
    async with umpires(target, 3, maps=True) as (a, b, fresh):
        await tiny_game(a, "maps", bytes([9]) * 32)
        before = (await a.my_map("maps", BLUE)).image
        await b.handle("maps", BLUE, cmd.Move(unit="blue-1", route="A0204"), request_id="m")
        after = (await a.my_map("maps", BLUE)).image
        assert before is not None and after is not None and after != before
        assert after == (await fresh.my_map("maps", BLUE)).image
        await same_everywhere("maps", (a, b, fresh))


# -- two OS processes ------------------------------------------------------------------------------

def run_workers(target: str, gids: list[str], out: Path) -> list[dict[str, Any]]:
    """Two worker processes (``tests/processes/cross_process_worker.py``), each sent its share of
    every round's commands for every game, both at once; what each reports."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, str(WORKER), target, str(out), str(i), *gids],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for i in range(2)]
    reports = []
    for i, p in enumerate(procs):
        _, stderr = p.communicate(timeout=300)
        assert p.returncode == 0, stderr
        reports.append(json.loads((out / f"report-{i}.json").read_text()))
    return reports


async def test_two_processes_race_for_the_same_games(target: str, tmp_path: Path) -> None:
    """Two OS processes, each with its own umpire on the same database, get the commands of the
    same four games at once (each its share of every round). No answer speaks of the race, the
    logs have no gaps and hold every accepted command once, and each process reports the state
    the log replays to."""
    gids = [f"os{n}" for n in range(4)]
    async with umpires(target, 1) as (setup,):
        for n, gid in enumerate(gids):
            await tiny_game(setup, gid, bytes([n + 90]) * 32)
    reports = await asyncio.to_thread(run_workers, target, gids, tmp_path)
    assert not [r for rep in reports for r in rep["refusals"]
                if any(w in r for w in RACE_WORDS)]
    async with umpires(target, 1) as (check,):
        for gid in gids:
            logged = [e.payload["request"] for e in await check.store.events(gid)
                      if e.type == "command_accepted" and e.payload["request"]]
            accepted = [r for rep in reports for r in rep["accepted"][gid]]
            assert accepted and Counter(logged) == Counter(accepted)
            assert (await check.repository.state_for(gid)).status == "ended"
            await same_everywhere(gid, (check,))
            truth = json.dumps(to_snapshot(await check.repository.replay_all(gid)), sort_keys=True)
            assert [rep["states"][gid] for rep in reports] == [truth, truth]


def test_the_pauses_between_tries_are_random_and_bounded() -> None:
    """Each pause is drawn at random below a bound that doubles with each stale try, up to the
    longest pause: two processes that raced once fall out of step, and none waits long."""
    policy = RetryPolicy(tries=8, first_pause=0.01, longest_pause=0.05)
    for failures, bound in ((1, 0.01), (2, 0.02), (3, 0.04), (4, 0.05), (8, 0.05)):
        pauses = [policy.pause(failures) for _ in range(200)]
        assert all(0 <= p <= bound for p in pauses)
        assert max(pauses) > bound / 2 and len(set(pauses)) > 100
