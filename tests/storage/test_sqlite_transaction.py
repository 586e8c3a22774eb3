"""SQLite's write transaction (``storage.sqlite.Transaction``): the statements whose outcome
nobody awaits go to the writer's thread with the next one that has an answer, and the
transaction stays all or nothing, whichever statement fails."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from storage import GameRecord, NewDelivery, NewEvent, Recipient, StorageError, Store
from storage.sqlite import SqliteDatabase


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    async with Store.open(tmp_path / "vedette.db") as opened:
        await opened.create_game(GameRecord(id="g1", scenario_id="s", scenario_path="s.toml",
                                            host_user_id=1, seed=bytes(32)))
        yield opened


@contextmanager
def calls_to_the_writer(store: Store) -> Iterator[list[str]]:
    """The calls handed to the writer connection's thread while inside (each named by the
    function it runs)."""
    db = store._db
    assert isinstance(db, SqliteDatabase)
    writer = db.writer.raw
    calls: list[str] = []
    original = writer._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(getattr(fn, "__name__", repr(fn)))
        return await original(fn, *args, **kwargs)

    writer._execute = counted  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        del writer._execute


async def test_a_commit_goes_to_the_writer_in_a_few_calls(store: Store) -> None:
    """Two events and a snapshot: the update of the game with its last seq, then the events,
    the snapshot and the COMMIT together. Deliveries add one call for their new ids."""
    with calls_to_the_writer(store) as calls:
        await store.commit("g1", 0, [NewEvent("A", {"n": 1}), NewEvent("B", {"n": 2})],
                           snapshot={"n": 2})
    assert len(calls) == 2
    with calls_to_the_writer(store) as calls:
        ids = await store.commit("g1", 2, [NewEvent("C", {"n": 3})],
                                 [NewDelivery("public", "", "one"),
                                  NewDelivery("player", "5", "two")])
    assert len(calls) == 3
    assert len(set(ids)) == 2
    assert [e.type for e in await store.events("g1")] == ["A", "B", "C"]
    assert (await store.latest_snapshot("g1")) is not None


async def test_a_held_statement_that_fails_fails_the_whole_transaction(store: Store) -> None:
    """A statement held for the next call fails only when it is sent: the statements before
    it in the same transaction are rolled back with it, and the error names the write."""
    await store.commit("g1", 0, [NewEvent("A", {"n": 1})])
    with pytest.raises(StorageError, match="the failing write failed"):
        async with store._write("the failing write") as conn:
            await conn.run("UPDATE games SET scenario_id = 'changed' WHERE id = 'g1'")
            await conn.executemany(
                "INSERT INTO events (game_id, seq, type, payload, audience, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [("g1", 2, "B", "{}", "public", "2026-01-01T00:00:00+00:00"),
                 ("g1", 1, "again", "{}", "public", "2026-01-01T00:00:00+00:00")])
    record = await store.get_game("g1")
    assert record is not None and record.scenario_id == "s"
    assert [e.type for e in await store.events("g1")] == ["A"]
    # and the writer is out of the failed transaction: the next commit goes through
    await store.commit("g1", 1, [NewEvent("B", {"n": 2})],
                       [NewDelivery("player", "5", "after")])
    sent = await store.deliveries_for("g1", Recipient("player", "5"))
    assert [d.text for d in sent] == ["after"]


async def test_hold_takes_the_write_lock_before_returning(store: Store, tmp_path: Path
                                                         ) -> None:
    """``hold`` sends the held ``BEGIN IMMEDIATE``: once it returns, another connection cannot
    write the file until the transaction ends."""
    other = sqlite3.connect(tmp_path / "vedette.db", isolation_level=None, timeout=0)
    try:
        async with store._write("holding") as conn:
            other.execute("BEGIN IMMEDIATE")  # nothing sent yet: the file is free
            other.execute("ROLLBACK")
            await conn.hold()
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
        other.execute("BEGIN IMMEDIATE")  # free again once the transaction ended
        other.execute("ROLLBACK")
    finally:
        other.close()


def test_the_held_calls_run_on_aiosqlites_own_thread() -> None:
    """The transaction hands its calls over with aiosqlite's ``_execute`` and reads its
    ``_conn``: the pinned aiosqlite still has both."""
    assert callable(getattr(aiosqlite.Connection, "_execute", None))
    assert isinstance(getattr(aiosqlite.Connection, "_conn", None), property)
