"""Outbox leases: a game's outbox is sent by one holder at a time, a lease held by a holder that
died or stalled is taken over once it runs out, and no delivery is sent twice, by two holders in
one process or by two OS processes on one database, nor lost when a process is killed."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.client import VedetteBot
from storage.clock import utc_now
from storage.db import connect
from storage.json_codec import JsonObject
from storage.migrations import MIGRATIONS, SCHEMA_VERSION, migrate
from storage.records import GameRecord, NewDelivery, Picture
from storage.sql import Backend
from storage.store import Store
from umpire.outbox.drain import DEFAULT_LEASE, drain, nonce
from umpire.outbox.holder import holder_is_gone, new_holder
from umpire.reads.maps import MapMaker
from umpire.service import Umpire
from umpire.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
LEASE = 60.0
PUBLIC = "public:"  # the lane of a game's public deliveries, all these tests queue


class Clock:
    """A clock the test moves, shared by the stores of the holders."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


class Recorder:
    """A transport that records each delivery key it accepts (and who sent it), after an
    optional pause and an optional action run during the send."""

    def __init__(self, name: str, sent: list[tuple[str, str]], delay: float = 0.0) -> None:
        self.name = name
        self.sent = sent
        self.delay = delay
        self.during_send: list[Callable[[], Awaitable[None]]] = []

    async def send(self, kind: str, target: str, text: str, image: bytes | None,
                   image_name: str | None, *, key: str = "",
                   buttons: Sequence[JsonObject] = (), edit_key: str = "",
                   mentions: tuple[int, ...] = (), pictures: Sequence[Picture] = ()) -> None:
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.during_send:
            await self.during_send.pop(0)()
        self.sent.append((key, self.name))


async def seed_games(store: Store, games: int, per_game: int) -> list[str]:
    """``games`` games with ``per_game`` public deliveries each; every delivery's key."""
    keys = []
    for g in range(games):
        gid = f"g{g:02d}"
        await store.create_game(GameRecord(gid, "tiny", "tiny.toml", 1, bytes(32)))
        ids = await store.queue_deliveries(
            gid, [NewDelivery("public", "", f"{gid} message {i}") for i in range(per_game)])
        keys += [f"{gid}:{i}" for i in ids]
    return keys


@pytest.fixture(params=[
    pytest.param(Backend.SQLITE, id="sqlite"),
    pytest.param(Backend.POSTGRESQL, id="postgresql", marks=pytest.mark.postgres),
])
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """One database both holders share: a SQLite file, or a PostgreSQL schema (``pg_target``)."""
    if request.param is Backend.SQLITE:
        return str(tmp_path / "shared.db")
    return str(request.getfixturevalue("pg_target"))


# -- the lease itself --------------------------------------------------------------------------
async def test_a_held_outbox_is_skipped_until_its_lease_runs_out(db_target: str) -> None:
    clock = Clock()
    async with Store.open(db_target, clock=clock) as store:
        await seed_games(store, 2, 1)
        assert await store.claim_outboxes("a", LEASE, 10) == ["g00", "g01"]
        assert await store.claim_outboxes("b", LEASE, 10) == []  # a's, and a is alive
        assert await store.claim_outboxes("a", LEASE, 10) == ["g00", "g01"]  # its own again
        clock.advance(LEASE - 1)
        assert await store.renew_lane("a", "g00", PUBLIC, LEASE)  # a goes on; g01 it lets lapse
        clock.advance(2)
        assert await store.claim_outboxes("b", LEASE, 10) == ["g01"]  # taken over
        assert not await store.renew_lane("a", "g01", PUBLIC, LEASE)  # lost: a must stop
        await store.release_outbox("a", "g01")  # a release of what it lost changes nothing
        assert await store.claim_outboxes("c", LEASE, 10) == []
        assert await store.renew_lane("b", "g01", PUBLIC, LEASE)
        await store.release_outbox("b", "g01")
        assert await store.claim_outboxes("c", LEASE, 10) == ["g01"]  # free again at once
        assert not await store.renew_lane("b", "g01", PUBLIC, LEASE)


async def test_only_games_with_deliveries_waiting_are_claimed_a_few_at_a_time(
        db_target: str) -> None:
    async with Store.open(db_target) as store:
        keys = await seed_games(store, 5, 1)
        await store.create_game(GameRecord("quiet", "tiny", "tiny.toml", 1, bytes(32)))
        await store.mark_sent(int(keys[2].split(":")[1]))  # g02 has nothing left to send
        assert await store.claim_outboxes("a", LEASE, 2) == ["g00", "g01"]
        assert await store.claim_outboxes("a", LEASE, 2, after="g01") == ["g03", "g04"]
        assert await store.claim_outboxes("a", LEASE, 2, after="g04") == []
        with pytest.raises(ValueError, match="needs a holder id"):
            await store.claim_outboxes("", LEASE, 2)
        with pytest.raises(ValueError, match="more than 0 seconds"):
            await store.renew_lane("a", "g00", PUBLIC, 0)
        assert await store.outbox_holders() == [(g, "a") for g in ("g00", "g01", "g03", "g04")]
        assert await store.claim_outboxes("b", LEASE, 10, game_id="g03") == []  # a's
        assert await store.claim_outboxes("b", LEASE, 10, game_id="quiet") == []
        assert await store.claim_outboxes("a", LEASE, 0) == []


async def test_migration_10_drops_the_games_leases_and_their_deliveries_still_drain(
        tmp_path: Path) -> None:
    """A database whose outbox was leased a game at a time: the leases go (even one held by a
    process of before), and what waited goes out in lanes."""
    db = tmp_path / "old.db"
    conn = await connect(db)
    try:
        assert await migrate(conn, db, utc_now, MIGRATIONS[:9]) == 9  # a database of before
    finally:
        await conn.close()
    with sqlite3.connect(db) as plain:
        for gid in ("old", "older"):
            plain.execute(
                "INSERT INTO games (id, scenario_id, scenario_path, host_user_id, seed,"
                " created_at, updated_at) VALUES (?, 'tiny', 'tiny.toml', 1, ?, ?, ?)",
                (gid, bytes(32), T0.isoformat(), T0.isoformat()))
            plain.execute(
                "INSERT INTO deliveries (game_id, seq, kind, target, text, created_at)"
                " VALUES (?, 0, 'public', '', 'waiting since before', ?)", (gid, T0.isoformat()))
        plain.execute("INSERT INTO outbox_leases (game_id, holder, expires_at)"
                      " VALUES ('older', 'a-holder-of-before', 1e12)")  # gone with the table
    plain.close()
    async with Store.open(db) as store:
        assert store.schema_version == SCHEMA_VERSION >= 10
    with sqlite3.connect(db) as plain:
        tables = {row[0] for row in plain.execute("SELECT name FROM sqlite_master")}
        assert "outbox_leases" not in tables
        assert plain.execute("SELECT count(*) FROM outbox_lanes").fetchone() == (0,)
    plain.close()
    async with Store.open(db) as store:
        sent: list[tuple[str, str]] = []
        assert await drain(store, Recorder("a", sent), holder="a") == 2
        assert sorted(k.split(":")[0] for k, _ in sent) == ["old", "older"]


async def test_a_claimer_skips_a_lease_row_another_is_taking_instead_of_waiting(
        pg_target: str) -> None:
    """PostgreSQL: a lease row locked by another claimer's transaction is passed over (``FOR
    UPDATE SKIP LOCKED``), never waited for; it is free again once that transaction ends."""
    import asyncpg

    async with Store.open(pg_target) as store:
        await seed_games(store, 3, 1)
        for gid in await store.claim_outboxes("a", LEASE, 10):  # the lanes' rows are made
            await store.release_outbox("a", gid)
        other = await asyncpg.connect(pg_target)
        try:
            async with other.transaction():
                await other.fetch(
                    "SELECT game_id FROM outbox_lanes WHERE game_id = 'g01' FOR UPDATE")
                claimed = await asyncio.wait_for(store.claim_outboxes("b", LEASE, 10), 60)
                assert claimed == ["g00", "g02"]
                assert await asyncio.wait_for(
                    store.claim_outboxes("c", LEASE, 10, game_id="g01"), 60) == []
        finally:
            await other.close()
        assert await store.claim_outboxes("c", LEASE, 10) == ["g01"]


async def test_the_lease_is_a_setting_the_bot_uses(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VEDETTE_OUTBOX_LEASE", "2.5")
    assert Settings(_env_file=None).outbox_lease == 2.5  # type: ignore[call-arg]
    async with Store.open(tmp_path / "v.db") as store:
        bot = VedetteBot(Umpire(store, maps=MapMaker(enabled=False)))
        assert bot.outbox.lease == 2.5
    for bad in ("0", "-1", "soon", "7200"):
        monkeypatch.setenv("VEDETTE_OUTBOX_LEASE", bad)
        with pytest.raises(ValidationError, match="VEDETTE_OUTBOX_LEASE"):
            Settings(_env_file=None)  # type: ignore[call-arg]
    monkeypatch.delenv("VEDETTE_OUTBOX_LEASE")
    assert Settings(_env_file=None).outbox_lease == DEFAULT_LEASE == 60  # type: ignore[call-arg]


# -- two holders in one process ----------------------------------------------------------------
async def test_two_holders_draining_at_once_send_each_delivery_once(db_target: str) -> None:
    async with Store.open(db_target) as first, Store.open(db_target) as second:
        keys = await seed_games(first, 6, 8)
        sent: list[tuple[str, str]] = []
        one, two = Recorder("one", sent, 0.002), Recorder("two", sent, 0.002)
        await asyncio.gather(drain(first, one, holder="one", limit=2),
                             drain(second, two, holder="two", limit=2),
                             drain(second, two, holder="two", limit=2))
        while await first.pending_deliveries(None, limit=1):  # what was held meanwhile
            await asyncio.gather(drain(first, one, holder="one", limit=2),
                                 drain(second, two, holder="two", limit=2))
        assert Counter(k for k, _ in sent) == Counter(keys)  # each once, none lost
        assert {who for _, who in sent} == {"one", "two"}  # both sent some
        for gid in {k.split(":")[0] for k in keys}:  # each game in order
            ids = [int(k.split(":")[1]) for k, _ in sent if k.startswith(f"{gid}:")]
            assert ids == sorted(ids)


async def test_two_umpires_draining_one_game_send_each_delivery_once(db_target: str) -> None:
    async with Store.open(db_target) as first_store, Store.open(db_target) as second_store:
        keys = await seed_games(first_store, 1, 12)
        first = Umpire(first_store, maps=MapMaker(enabled=False))
        second = Umpire(second_store, maps=MapMaker(enabled=False))
        assert first.outbox_holder != second.outbox_holder  # one process, two holders
        sent: list[tuple[str, str]] = []
        a, b = Recorder("first", sent, 0.002), Recorder("second", sent, 0.002)
        counts = await asyncio.gather(first.drain("g00", a), second.drain("g00", b),
                                      first.drain("g00", a))
        assert sorted(counts) == [0, 0, 12]  # the game's outbox is one umpire's at a time
        assert Counter(k for k, _ in sent) == Counter(nonce(bytes(32), k) for k in keys)


async def test_a_holder_that_stopped_renewing_is_taken_over_after_its_lease(
        db_target: str) -> None:
    clock = Clock()
    async with Store.open(db_target, clock=clock) as store:
        keys = await seed_games(store, 2, 3)
        assert await store.claim_outboxes("dead", LEASE, 10) == ["g00", "g01"]  # then nothing
        sent: list[tuple[str, str]] = []
        alive = Recorder("alive", sent)
        assert await drain(store, alive, holder="alive") == 0
        assert await drain(store, alive, "g01", holder="alive") == 0
        clock.advance(LEASE - 0.5)
        assert await drain(store, alive, holder="alive") == 0
        clock.advance(1)
        assert await drain(store, alive, holder="alive") == 6
        assert sorted(k for k, _ in sent) == sorted(keys)


async def test_a_holder_whose_lease_ran_out_during_a_send_stops_and_the_next_sends_the_rest(
        db_target: str) -> None:
    """The slow holder's delivery in flight may go out again from the next holder, with the
    same nonce (Discord drops the second); after it the slow holder sends nothing more."""
    clock = Clock()
    async with Store.open(db_target, clock=clock) as slow_store, \
            Store.open(db_target, clock=clock) as next_store:
        keys = await seed_games(slow_store, 1, 4)
        sent: list[tuple[str, str]] = []
        slow, quick = Recorder("slow", sent), Recorder("next", sent)
        secret = bytes(32)

        async def stall_past_the_lease() -> None:
            clock.advance(LEASE + 1)
            assert await drain(next_store, quick, holder="next", secret=secret) == 4

        slow.during_send.append(stall_past_the_lease)
        assert await drain(slow_store, slow, holder="slow", secret=secret) == 1
        nonces = [nonce(secret, k) for k in keys]
        assert sent == [(n, "next") for n in nonces] + [(nonces[0], "slow")]
        assert not await slow_store.pending_deliveries("g00")


# -- two OS processes --------------------------------------------------------------------------
def _worker(target: str, sent_file: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.processes.lease_worker", target, str(sent_file), *args],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})


def _read_line(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    if not line:
        assert process.stderr is not None
        pytest.fail(f"the worker ended: {process.stderr.read()}")
    return line


def _sent_lines(path: Path) -> list[tuple[str, str]]:
    if not path.exists():
        return []
    return [(key, holder) for key, holder in
            (line.split(" ", 1) for line in path.read_text(encoding="utf-8").splitlines())]


async def test_two_processes_draining_one_database_send_each_delivery_once(
        db_target: str, tmp_path: Path) -> None:
    async with Store.open(db_target) as store:
        keys = await seed_games(store, 8, 10)
    sent_file, go, together = tmp_path / "sent.txt", tmp_path / "go", tmp_path / "together"
    together.mkdir()
    # Long leases: both are alive, and neither may take over what the other holds (however
    # slow the machine); each waits at its first send until the other has one too.
    workers = [_worker(db_target, sent_file, "--lease", "600", "--delay", "0.01", "--go", str(go),
                       "--together", str(together), "2")
               for _ in range(2)]
    try:
        for worker in workers:
            assert _read_line(worker).startswith("holder ")
        go.touch()  # both open: off they go together
        for worker in workers:
            assert worker.wait(timeout=120) == 0, worker.stderr.read() if worker.stderr else ""
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
    sent = _sent_lines(sent_file)
    assert Counter(k for k, _ in sent) == Counter(keys)  # each exactly once, none lost
    assert len({holder for _, holder in sent}) == 2  # both processes sent some
    async with Store.open(db_target) as store:
        assert not await store.pending_deliveries(None)


async def test_a_process_killed_after_claiming_has_its_outbox_sent_once_by_another(
        db_target: str, tmp_path: Path) -> None:
    """The survivor's store runs on a clock the test moves (a store reckons leases by its
    clock): the dead holder's leases hold until that clock passes when they run out, and are
    taken over then, however long the machine took to get there. The worker's lease is long,
    so that it never runs out while the worker is still sending."""
    lease = 600.0
    async with Store.open(db_target) as store:
        keys = await seed_games(store, 2, 5)
    sent_file = tmp_path / "sent.txt"
    worker = _worker(db_target, sent_file, "--lease", str(lease), "--hang-after", "3")
    try:
        assert _read_line(worker).startswith("holder ")
        assert _read_line(worker) == "hanging"  # it holds both games' outboxes, and stalls
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=30)
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
    assert worker.returncode == -signal.SIGKILL
    before = _sent_lines(sent_file)
    assert len(before) == 3
    async with Store.open(db_target) as store, store._write("read the leases") as conn:
        found = await conn.fetch("SELECT expires_at FROM outbox_lanes WHERE holder <> ''")
    # When the dead holder's leases run out (the lane it claimed but never began to send runs
    # out before the one it was sending when it stalled).
    ends = sorted(float(row[0]) for row in found)
    assert ends
    clock = Clock()
    clock.now = datetime.fromtimestamp(ends[0], UTC) - timedelta(seconds=3.5)
    sent: list[tuple[str, str]] = []
    survivor = Recorder("survivor", sent)
    async with Store.open(db_target, clock=clock) as store:
        tries_while_held = 0
        while await store.pending_deliveries(None, limit=1):
            assert clock.now.timestamp() < ends[-1] + 10, "never taken over"
            got = await drain(store, survivor, holder="survivor")
            if clock.now.timestamp() < ends[0]:  # the whole drain ran while the lease held
                assert got == 0, "taken over before the dead holder's lease ran out"
                tries_while_held += 1
            clock.advance(1)
        assert tries_while_held > 0
    everything = [k for k, _ in before] + [k for k, _ in sent]
    assert Counter(everything) == Counter(keys)  # each exactly once
    assert {who for _, who in sent} == {"survivor"} and len(sent) == len(keys) - 3


async def test_a_killed_process_of_this_machine_has_its_outboxes_freed_at_once(
        db_target: str, tmp_path: Path) -> None:
    """A bot killed and started again need not wait for its old leases: a holder of this
    machine (same host, same process namespace) whose process is gone holds nothing."""
    async with Store.open(db_target) as store:
        keys = await seed_games(store, 2, 4)
    sent_file = tmp_path / "sent.txt"
    worker = _worker(db_target, sent_file, "--lease", "600", "--hang-after", "1")
    try:
        dead = _read_line(worker).removeprefix("holder ")
        assert _read_line(worker) == "hanging"
        async with Store.open(db_target) as store:
            assert [h for _, h in await store.outbox_holders()] == [dead, dead]
            assert not holder_is_gone(dead)  # alive: its leases stand
            umpire = Umpire(store, maps=MapMaker(enabled=False))
            assert await umpire.claim_outboxes() == []
            worker.send_signal(signal.SIGKILL)
            worker.wait(timeout=30)
            assert holder_is_gone(dead)
            assert await umpire.claim_outboxes() == ["g00", "g01"]  # long before 600 s
            sent: list[tuple[str, str]] = []
            for gid in ("g00", "g01"):
                await umpire.drain(gid, Recorder("restarted", sent))
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
    assert [k for k, _ in _sent_lines(sent_file)] == [keys[0]]  # before it stalled
    assert [k for k, _ in sent] == [nonce(bytes(32), k) for k in keys[1:]]  # the rest, once


def test_only_a_gone_process_of_this_machine_counts_as_gone() -> None:
    mine = new_holder()
    host, boot, namespace, pid, _ = mine.rsplit(":", 4)
    assert (host, pid) == (socket.gethostname(), str(os.getpid()))
    assert not holder_is_gone(mine)
    here = f"{boot}:{namespace}"
    assert not holder_is_gone(f"{host}:{here}:{os.getppid()}:abc")  # alive
    gone = _a_pid_not_running()
    assert holder_is_gone(f"{host}:{here}:{gone}:abc") == ("-" not in (boot, namespace))
    assert holder_is_gone(f"another-name:{here}:{gone}:abc") == ("-" not in (boot, namespace))
    assert not holder_is_gone(f"{host}:0123456789abcdef:{namespace}:{gone}:abc")  # elsewhere
    assert not holder_is_gone(f"{host}:{boot}:1:{gone}:abc")  # another container
    assert not holder_is_gone(f"{host}:-:-:{gone}:abc")  # a machine that cannot tell
    for odd in ("", "one", "a:b:c:d", f"{host}:{here}:x:abc"):
        assert not holder_is_gone(odd)


def _a_pid_not_running() -> int:
    """The pid of a process that ran and has been reaped."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


async def test_a_renewal_that_waited_for_the_database_runs_from_when_it_was_written(
        db_target: str) -> None:
    """A renewal that waits for the lock (another process is writing) reckons its lease from
    when it is written, not from when it was asked for: reckoned from before the wait, it
    could end in the past, and another holder would take the outbox over while this one is
    still sending (a message sent twice)."""
    clock = Clock()
    async with Store.open(db_target, clock=clock) as first, \
            Store.open(db_target, clock=clock) as other:
        [gid] = {key.split(":")[0] for key in await seed_games(first, 1, 1)}
        assert await first.claim_outboxes("h1", 10, 5) == [gid]
        async with other._write("hold the lease while the renewal waits") as conn:
            await conn.fetch("SELECT holder FROM outbox_lanes WHERE game_id = ?"
                             + (" FOR UPDATE" if conn.backend is Backend.POSTGRESQL else ""),
                             (gid,))
            renewing = asyncio.create_task(first.renew_lane("h1", gid, PUBLIC, 10))
            await asyncio.sleep(0.3)
            assert not renewing.done()  # waiting for the database
            clock.advance(9)
        assert await renewing
        clock.advance(6)  # 15 s after the claim, 6 s after the renewal was written
        assert await other.claim_outboxes("h2", 10, 5) == []
        clock.advance(5)
        assert await other.claim_outboxes("h2", 10, 5) == [gid]
