"""Two bot processes on one database: every command for the same 20 games reaches both at once
(the same request, as a button pressed twice may), each process deciding and committing it, and
each draining the outbox with its own holder.

Afterwards, whatever interleaving the two processes fell into: every game's log holds each
command once, in the script's order, event for event as one process alone would have written it
(no gap, no duplicate, no die rolled twice), it replays to the state each process reports, no
player was told "the game changed meanwhile", and every delivery was sent exactly once. Killed
with SIGKILL halfway, the survivor goes on: no command the dead one had accepted is lost, and
the deliveries the dead one had claimed are sent once its lease has ended.

The outbox leases are long (no lease runs out while its process is alive, however slow the
machine); to take over a dead process's leases, the survivor's clock is moved past them
(``tests.processes.pg_worker`` reads an offset the test writes) rather than waited for.

The processes are real OS processes (``tests.processes.pg_worker``); the database is a SQLite file
(two processes share it in WAL mode) or a PostgreSQL database.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import storage.db
from rules.commands import Command
from rules.state import to_snapshot
from storage.records import DeliveryRecord
from storage.store import Store
from tests.processes import crash_driver
from tests.processes.pg_worker import write_script
from umpire.outbox.drain import lane_of
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError

#: Real processes playing 20 games each: slow (``pytest -m "not slow"`` leaves them out).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
GAMES = 20
STEPS = 30
HOST, UNION, CONFEDERATE = crash_driver.HOST, crash_driver.UNION, crash_driver.CONFEDERATE
LEASE_SECONDS = 600.0
TIMEOUT = 300.0
#: What a player was told when another process committed first, before such commands were
#: decided again ("the game changed meanwhile; please try again").
TRY_AGAIN = "changed meanwhile"

Logged = tuple[int, str, Any, str]


def game_ids() -> list[str]:
    return [f"two-{n:02d}" for n in range(GAMES)]


def script() -> list[tuple[int, str, Command]]:
    """The first ``STEPS`` commands of the scripted flank-march game, with their request ids
    (every one accepted, or refused in any state, when one process plays them alone)."""
    return [(user, f"step-{i}", command)
            for i, (user, command) in enumerate(crash_driver.STEPS[:STEPS])]


async def set_up(target: str) -> None:
    """The 20 games, created, seated and started, before the processes start."""
    async with Store.open(target) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        for gid in game_ids():
            await umpire.create_game(crash_driver.SCENARIO, HOST, game_id=gid,
                                     without=crash_driver.WITHOUT, seed=crash_driver.SEED)
            for side, user in crash_driver.PLAYERS.items():
                await umpire.join(gid, user, side)
            await umpire.start(gid, HOST)


@dataclass
class Reference:
    """The games as one process alone plays them: each log, and the requests accepted and
    refused."""

    logs: dict[str, list[Logged]] = field(default_factory=dict)
    accepted: set[tuple[str, str]] = field(default_factory=set)
    refused: set[tuple[str, str]] = field(default_factory=set)


async def play_alone(db: Path) -> Reference:
    await set_up(str(db))
    ref = Reference()
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        for gid in game_ids():
            for user, request, command in script():
                try:
                    await umpire.handle(gid, user, command, request_id=request)
                except UmpireError:
                    ref.refused.add((gid, request))
                else:
                    ref.accepted.add((gid, request))
            ref.logs[gid] = await logged(store, gid)
    return ref


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Reference:
    return asyncio.run(play_alone(tmp_path_factory.mktemp("alone") / "alone.db"))


async def logged(store: Store, gid: str) -> list[Logged]:
    """The game's log as comparable rows (not when each event was stored)."""
    return [(e.seq, e.type, e.payload, e.audience) for e in await store.events(gid)]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database target two processes share: a SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "shared.db")
    url: str = request.getfixturevalue("pg_target")
    return url


class Worker:
    """One ``tests.processes.pg_worker`` process and what it wrote."""

    def __init__(self, name: str, target: str, out: Path, send_delay: float = 0.0, *,
                 last_game_first: bool = False, meet: tuple[str, ...] = ()) -> None:
        """``last_game_first``: start the games in the other order. The process that commits
        a game's first command stays ahead on that game (the other loads it again after each
        race it loses), so two processes starting the same games in the same order may see
        one of them win every race, by the few milliseconds it saw the go first. ``meet``:
        the other workers that must each have a command accepted before this one has a second
        (``tests.pg_worker``): on a loaded machine one process may otherwise get no turn at all
        before the other has played everything."""
        self.name = name
        self.out = out
        path = out / f"{name}.script.json"
        order = game_ids()[::-1] if last_game_first else game_ids()
        write_script(path, {gid: script() for gid in order},
                     lease_seconds=LEASE_SECONDS, send_delay=send_delay, meet=meet)
        self.stderr = (out / f"{name}.stderr").open("wb")
        env = {**os.environ, "PYTHONPATH": str(ROOT), "VEDETTE_OUTBOX_LEASE": str(LEASE_SECONDS)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.processes.pg_worker", target, str(path), str(out), name],
            cwd=ROOT, stderr=self.stderr, env=env)

    def lines(self, what: str) -> list[list[str]]:
        path = self.out / f"{self.name}.{what}"
        if not path.exists():
            return []
        return [line.split(" ", 3) for line in path.read_text(encoding="utf-8").splitlines()]

    def accepted(self) -> set[tuple[str, str]]:
        return {(gid, request) for gid, request in self.lines("accepted")}

    def sent(self) -> list[tuple[str, int]]:
        return [(gid, int(delivery)) for gid, delivery, _ in self.lines("sent")]

    def holder(self) -> str:
        path = self.out / f"{self.name}.holder"
        return path.read_text(encoding="utf-8") if path.exists() else ""

    def states(self) -> dict[str, Any]:
        found: dict[str, Any] = json.loads(
            (self.out / f"{self.name}.states.json").read_text(encoding="utf-8"))
        return found

    def errors(self) -> str:
        return (self.out / f"{self.name}.stderr").read_text(encoding="utf-8", errors="replace")

    def wait(self, timeout: float = TIMEOUT) -> None:
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise AssertionError(f"{self.name} did not finish:\n{self.errors()[-3000:]}") from None
        assert code == 0, f"{self.name} failed ({code}):\n{self.errors()[-3000:]}"

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
        self.stderr.close()


@pytest.fixture(autouse=True)
def patient_sqlite(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test's own store waits for the workers' write lock as long as they do
    (``tests.pg_worker``), not the store's 5 s."""
    monkeypatch.setattr(storage.db, "BUSY_TIMEOUT_MS", 600_000)


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[list[Worker]]:
    started: list[Worker] = []
    yield started
    for worker in started:
        worker.close()


async def leases_of(store: Store, holder: str) -> dict[tuple[str, str], float]:
    """The outbox lanes ``holder`` holds, by game and lane, with when each lease runs out
    (Unix time)."""
    async with store._write("read the leases") as conn:
        found = await conn.fetch("SELECT game_id, lane, expires_at FROM outbox_lanes"
                                 " WHERE holder = ? AND expires_at > ?", (holder, time.time()))
    return {(str(row[0]), str(row[1])): float(row[2]) for row in found}


def start_together(workers: list[Worker], out: Path) -> None:
    """Wait until every worker has its store open, then let them all go at once."""
    deadline = time.monotonic() + 120
    while not all((out / f"{w.name}.ready").exists() for w in workers):
        for w in workers:
            assert w.proc.poll() is None, f"{w.name} ended early:\n{w.errors()[-3000:]}"
        assert time.monotonic() < deadline, "the workers did not get ready"
        time.sleep(0.05)
    (out / "go").write_text("go\n", encoding="utf-8")


async def every_delivery(store: Store, gid: str) -> list[DeliveryRecord]:
    recipients = [("public", ""), ("host", str(HOST)), ("side", "union"),
                  ("side", "confederate"), ("player", str(UNION)),
                  ("player", str(CONFEDERATE))]
    return await store.deliveries_for(gid, *recipients, limit=100_000)


async def check_games(target: str, reference: Reference,
                      reporting: list[Worker]) -> dict[str, list[DeliveryRecord]]:
    """The checks that hold however the processes interleaved (and whether one died): each log
    is gapless, holds each accepted request once and equals the log one process alone writes;
    it replays to the state every finishing worker reports; nothing waits to be sent."""
    deliveries: dict[str, list[DeliveryRecord]] = {}
    async with Store.open(target) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        for gid in game_ids():
            log = await logged(store, gid)
            assert [seq for seq, *_ in log] == list(range(1, len(log) + 1)), gid
            requests = Counter(payload.get("request") for _, kind, payload, _ in log
                               if kind == "command_accepted")
            assert max(requests.values()) == 1, (gid, requests.most_common(3))
            assert log == reference.logs[gid], f"{gid}'s log differs from one process alone"
            replayed = to_snapshot(await umpire.repository.replay_all(gid))
            for worker in reporting:
                assert worker.states()[gid] == replayed, (worker.name, gid)
            deliveries[gid] = await every_delivery(store, gid)
        assert await store.pending_deliveries(limit=1) == []
    return deliveries


def handed_over(deliveries: dict[str, list[DeliveryRecord]]) -> set[tuple[str, int]]:
    """The deliveries a transport was given: sent, and not stored as already shown (those
    were in the answer to a command, and nobody sends them)."""
    return {(d.game_id, d.id) for found in deliveries.values() for d in found
            if d.status == "sent" and d.attempts > 0}


def changed_meanwhile(worker: Worker) -> set[tuple[str, str]]:
    """The commands the worker's players were told to give again."""
    return {(gid, request) for gid, request, answer, *words in worker.lines("answers")
            if answer == "refused" and TRY_AGAIN in " ".join(words)}


def no_changed_meanwhile(worker: Worker) -> None:
    told = sorted(changed_meanwhile(worker))
    assert told == [], f"{worker.name} told {len(told)} players to try again: {told[:3]}"


async def test_two_processes_play_the_same_games_at_once(
        target: str, reference: Reference, workers: list[Worker], tmp_path: Path) -> None:
    await set_up(target)
    workers += [Worker("a", target, tmp_path, meet=("b",)),
                Worker("b", target, tmp_path, last_game_first=True, meet=("a",))]
    start_together(workers, tmp_path)
    for worker in workers:
        worker.wait()
    a, b = workers
    for worker in workers:
        refused = {(gid, request) for gid, request, answer, *_ in worker.lines("answers")
                   if answer == "refused"}
        assert refused <= reference.refused | changed_meanwhile(worker), \
            sorted(refused - reference.refused)[:3]
    # Each command was accepted once, by one process or the other; both took their share.
    assert a.accepted() | b.accepted() == reference.accepted
    assert a.accepted() & b.accepted() == set()
    assert a.accepted() and b.accepted()
    deliveries = await check_games(target, reference, workers)
    sends = Counter(a.sent() + b.sent())
    assert sends, "no delivery was sent"
    assert [item for item, n in sends.items() if n > 1] == []
    assert set(sends) == handed_over(deliveries)
    for worker in workers:
        no_changed_meanwhile(worker)


async def test_the_survivor_of_a_kill_loses_nothing_and_sends_once(
        target: str, reference: Reference, workers: list[Worker], tmp_path: Path) -> None:
    await set_up(target)
    # The victim's transport is slow, so that it holds games' outboxes when it dies.
    workers += [Worker("victim", target, tmp_path, send_delay=0.05),
                Worker("survivor", target, tmp_path)]
    victim, survivor = workers
    start_together(workers, tmp_path)
    total = GAMES * STEPS
    deadline = time.monotonic() + TIMEOUT
    async with Store.open(target) as store:
        # Killed a third of the way through its commands, while it holds games' outboxes.
        while True:
            assert victim.proc.poll() is None, f"the victim ended early:\n{victim.errors()}"
            assert time.monotonic() < deadline, "the victim made no progress"
            holder = victim.holder()
            held = {gid for gid, who in await store.outbox_holders() if who == holder}
            if len(victim.lines("answers")) >= total // 3 and held:
                break
            await asyncio.sleep(0.01)
        victim.kill()
        killed_at = time.time()
        # What it held at the moment it died (read after the kill: between the look above and
        # the kill it may have let one game go and taken another).
        leases = await leases_of(store, holder)
    assert leases, "the victim held no outbox when it died"
    # The survivor's clock, moved to just after the last of those leases ends.
    offset, moved = max(leases.values()) + 1 - time.time(), tmp_path / "survivor.clock.new"
    moved.write_text(f"{offset:.3f}", encoding="utf-8")
    moved.replace(tmp_path / "survivor.clock")
    survivor.wait()
    # Every command the victim had accepted is in the log, none twice (check_games compares
    # each log with the one process alone writes: the same commands, rolls and results).
    assert victim.accepted() <= reference.accepted
    assert victim.accepted() & survivor.accepted() == set()
    # A command the victim had committed but not yet reported when it died is one the survivor
    # found accepted already: at most the one each game had under way.
    unreported = reference.accepted - victim.accepted() - survivor.accepted()
    already = {(gid, request) for gid, request, answer, *_ in survivor.lines("answers")
               if answer == "already"}
    assert unreported <= already
    assert max(Counter(gid for gid, _ in unreported).values(), default=0) <= 1, unreported
    deliveries = await check_games(target, reference, [survivor])
    sends = Counter(victim.sent() + survivor.sent())
    assert set(sends) == handed_over(deliveries)
    assert [item for item, n in Counter(survivor.sent()).items() if n > 1] == []
    # Only a delivery the victim had handed to its transport and not yet marked sent when it
    # died can be sent again. A game's lanes send side by side, one message at a time each, so
    # that is at most one delivery on each lane the victim held: the last it wrote there.
    lanes = {d.id: lane_of(d.kind, d.target) for found in deliveries.values() for d in found}
    last_on_lane = {(gid, lanes[delivery]): (gid, delivery) for gid, delivery in victim.sent()}
    twice = {item for item, n in sends.items() if n > 1}
    assert twice <= {item for lane, item in last_on_lane.items() if lane in leases}, twice
    # The outbox lanes the victim held when it died were taken over once their leases had run
    # out, not before, and then sent by the survivor (the games' other lanes went on meanwhile).
    # (A lane may have been held with nothing left in it: sent, not yet released.)
    taken_over = 0
    for (gid, lane), expires_at in leases.items():
        after = [float(at) for game, delivery, at in survivor.lines("sent")
                 if game == gid and lanes[int(delivery)] == lane and float(at) > killed_at]
        if after:
            taken_over += 1
            assert min(after) >= expires_at, (gid, lane, expires_at - min(after))
    assert taken_over, "nothing the victim held was sent after the kill"
    no_changed_meanwhile(victim)
    no_changed_meanwhile(survivor)
