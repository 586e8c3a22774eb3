"""The store's contract, on both backends (a SQLite file, a PostgreSQL database): schema and
migrations, atomic commits, concurrency, the outbox, snapshots and inboxes. And SQLite's own:
its pragmas, backups and durability.

The tests taking ``store`` or ``target`` run once per backend (``backend`` is parametrized;
the PostgreSQL runs are marked ``postgres`` and need a server, see tests/support/pg_server.py)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from storage import (
    SCHEMA_VERSION,
    AlreadyExistsError,
    ConcurrencyError,
    GameRecord,
    NewDelivery,
    NewEvent,
    NotFoundError,
    Recipient,
    Snapshot,
    StorageError,
    Store,
    side_audience,
)
from storage.clock import utc_now
from storage.db import connect
from storage.migrations import MIGRATIONS, Migration, migrate
from storage.postgres import PostgresConn, PostgresDatabase
from storage.seat_notices import SeatNotice
from storage.sql import Backend, Conn, Database, database_kind
from storage.sqlite import SqliteConn, SqliteDatabase
from storage.store import STEP_CLOCK_EVENTS

ROOT = Path(__file__).resolve().parents[2]


def ticking_clock() -> Callable[[], datetime]:
    """A clock that advances one millisecond per reading: deterministic order of timestamps."""
    start = datetime(2026, 1, 1, tzinfo=UTC)
    ticks = 0

    def now() -> datetime:
        nonlocal ticks
        ticks += 1
        return start + timedelta(milliseconds=ticks)

    return now


def game(game_id: str = "g1", **overrides: object) -> GameRecord:
    fields: dict[str, object] = {
        "id": game_id,
        "scenario_id": "surprise-move",
        "scenario_path": "scenarios/surprise.toml",
        "host_user_id": 100,
        "seed": bytes(range(32)),
        "guild_id": 7,
        "channel_id": 70,
        "options": {"night_rule": "strict", "sham": True},
    }
    fields.update(overrides)
    return GameRecord(**fields)  # type: ignore[arg-type]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "vedette.db"


@pytest.fixture(params=[
    pytest.param(Backend.SQLITE, id="sqlite"),
    pytest.param(Backend.POSTGRESQL, id="postgresql", marks=pytest.mark.postgres),
])
def backend(request: pytest.FixtureRequest) -> Backend:
    return Backend(request.param)


@pytest.fixture
def target(backend: Backend, db_path: Path, request: pytest.FixtureRequest) -> str:
    """An empty database of the backend: a file path, or a URL (``pg_target``)."""
    if backend is Backend.SQLITE:
        return str(db_path)
    return str(request.getfixturevalue("pg_target"))


@pytest.fixture
async def store(target: str) -> AsyncIterator[Store]:
    async with Store.open(target, clock=ticking_clock()) as opened:
        yield opened


@pytest.fixture
async def sqlite_store(db_path: Path) -> AsyncIterator[Store]:
    async with Store.open(db_path, clock=ticking_clock()) as opened:
        yield opened


def raw(path: Path) -> sqlite3.Connection:
    """A plain connection to look at the file behind the store's back."""
    return sqlite3.connect(path, isolation_level=None)


@asynccontextmanager
async def behind(target: str) -> AsyncIterator[Conn]:
    """A connection of its own to the database behind the store's back, in autocommit, with
    the driver's ``?`` placeholders; the database's own errors pass through."""
    if database_kind(target) is Backend.POSTGRESQL:
        pg = await asyncpg.connect(target)
        try:
            yield PostgresConn(pg)
        finally:
            await pg.close()
    else:
        lite = await connect(Path(target))
        try:
            yield SqliteConn(lite)
        finally:
            await lite.close()


async def open_database(target: str) -> Database:
    """The backend's driver on ``target``, without a store (to migrate by hand)."""
    if database_kind(target) is Backend.POSTGRESQL:
        return await PostgresDatabase.open(target)
    return await SqliteDatabase.open(Path(target))


async def tables(conn: Conn) -> set[str]:
    if conn.backend is Backend.SQLITE:
        found = await conn.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")
    else:
        found = await conn.fetch("SELECT table_name FROM information_schema.tables"
                                 " WHERE table_schema = current_schema()")
    return {str(row[0]) for row in found}


async def fetch(target: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    async with behind(target) as conn:
        return [tuple(row) for row in await conn.fetch(sql, params)]


#: What each database raises when a trigger or constraint refuses a statement.
REFUSED = (sqlite3.IntegrityError, asyncpg.PostgresError)


async def count(store: Store, table: str) -> int:
    found = await store._db.reader.fetch(f"SELECT count(*) FROM {table}")
    return int(found[0][0])


# -- schema and migrations ------------------------------------------------------------------


async def test_migrations_are_applied_and_recorded(target: str) -> None:
    async with Store.open(target) as store:
        assert store.schema_version == SCHEMA_VERSION == MIGRATIONS[-1].version
    async with behind(target) as conn:
        recorded = [tuple(r) for r in await conn.fetch(
            "SELECT version, name FROM schema_migrations ORDER BY version")]
        found = await tables(conn)
        if conn.backend is Backend.SQLITE:
            assert (await conn.fetch("PRAGMA journal_mode"))[0][0] == "wal"
    assert recorded == [(m.version, m.name) for m in MIGRATIONS]
    assert {"games", "players", "events", "snapshots", "deliveries", "bot_state", "pictures",
            "pending_orders", "ready_players", "game_sources"} <= found


async def test_both_backends_know_every_migration() -> None:
    """Every migration has its PostgreSQL SQL, under the same number."""
    from storage.pg_schema import POSTGRESQL_SQL

    assert sorted(POSTGRESQL_SQL) == [m.version for m in MIGRATIONS]
    assert all(m.sql_for(Backend.POSTGRESQL) for m in MIGRATIONS)


async def test_connections_use_the_documented_pragmas(sqlite_store: Store) -> None:
    store = sqlite_store

    async def pragma(name: str) -> object:
        rows = list(await store._db.writer.raw.execute_fetchall(f"PRAGMA {name}"))
        return rows[0][0]

    assert await pragma("journal_mode") == "wal"
    assert await pragma("foreign_keys") == 1
    assert await pragma("synchronous") == 2  # FULL
    assert await pragma("busy_timeout") == 5000
    with pytest.raises(sqlite3.OperationalError):  # the reader cannot write
        await store._db.reader.raw.execute("INSERT INTO bot_state VALUES ('k', 'v')")


async def test_reopening_is_idempotent_and_keeps_data(target: str) -> None:
    async with Store.open(target) as store:
        await store.create_game(game())
        await store.commit("g1", 0, [NewEvent("Started", {"turn": 1})])
    for _ in range(2):
        async with Store.open(target) as store:
            assert [e.payload for e in await store.events("g1")] == [{"turn": 1}]
    assert await fetch(target, "SELECT count(*) FROM schema_migrations") == [(len(MIGRATIONS),)]


async def test_a_database_from_a_newer_vedette_is_refused_untouched(target: str) -> None:
    async with Store.open(target) as store:
        await store.create_game(game())
    newer = SCHEMA_VERSION + 1
    async with behind(target) as conn:
        await conn.execute(
            "INSERT INTO schema_migrations VALUES (?, 'from the future', '2030-01-01')", (newer,)
        )
    with pytest.raises(StorageError) as refused:
        await Store.open(target)
    assert str(refused.value) == (
        f"database {target} was written by a newer Vedette "
        f"(schema {newer} > {SCHEMA_VERSION}); upgrade Vedette"
    )
    assert await fetch(target, "SELECT max(version) FROM schema_migrations") == [(newer,)]
    assert await fetch(target, "SELECT count(*) FROM games") == [(1,)]


async def test_a_later_migration_upgrades_an_existing_database(target: str) -> None:
    async with Store.open(target) as store:
        await store.create_game(game())
    notes = Migration(SCHEMA_VERSION + 1, "add notes", "ALTER TABLE games ADD notes TEXT;",
                      postgresql="ALTER TABLE games ADD notes TEXT;")
    later = (*MIGRATIONS, notes)
    db = await open_database(target)
    try:
        assert await migrate(db, target, utc_now, later) == SCHEMA_VERSION + 1
        assert await migrate(db, target, utc_now, later) == SCHEMA_VERSION + 1  # idempotent
    finally:
        await db.close()
    assert await fetch(target, "SELECT id, notes FROM games") == [("g1", None)]
    versions = [v for (v,) in await fetch(
        target, "SELECT version FROM schema_migrations ORDER BY version")]
    assert versions == [*(m.version for m in MIGRATIONS), SCHEMA_VERSION + 1]


async def test_a_later_migration_upgrades_an_existing_file_by_its_connection(
    db_path: Path,
) -> None:
    """``migrate`` also takes one SQLite connection (a file migrated outside a store)."""
    async with Store.open(db_path) as store:
        await store.create_game(game())
    later = (*MIGRATIONS, Migration(SCHEMA_VERSION + 1, "add notes",
                                    "ALTER TABLE games ADD notes TEXT;"))
    conn = await connect(db_path)
    try:
        assert await migrate(conn, db_path, utc_now, later) == SCHEMA_VERSION + 1
    finally:
        await conn.close()
    with raw(db_path) as plain:
        assert plain.execute("SELECT id, notes FROM games").fetchall() == [("g1", None)]


async def test_a_failing_migration_is_rolled_back_entirely(target: str) -> None:
    async with Store.open(target):
        pass
    half = "CREATE TABLE extra (x INTEGER);\nINSERT INTO no_such_table VALUES (1);"
    broken = (*MIGRATIONS, Migration(SCHEMA_VERSION + 1, "half broken", half, postgresql=half))
    db = await open_database(target)
    try:
        with pytest.raises(StorageError, match="no_such_table"):
            await migrate(db, target, utc_now, broken)
    finally:
        await db.close()
    assert await fetch(target, "SELECT max(version) FROM schema_migrations") == [
        (SCHEMA_VERSION,)]
    async with behind(target) as conn:
        assert "extra" not in await tables(conn)


async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are not the pages you are looking for" * 100)
    with pytest.raises(StorageError, match=r"notes\.db"):
        await Store.open(path)


async def test_memory_databases_are_refused() -> None:
    with pytest.raises(StorageError, match="file path"):
        await Store.open(":memory:")


# -- games, players, bot state --------------------------------------------------------------


async def test_games_round_trip_and_are_found_by_status_channel_and_user(store: Store) -> None:
    created = await store.create_game(game("g1"))
    await store.create_game(game("g2", channel_id=71, host_user_id=200, status="active"))
    await store.create_game(game("g3", guild_id=8, channel_id=None, options={}))
    assert created.seed == bytes(range(32))
    assert created.options == {"night_rule": "strict", "sham": True}
    assert created.created_at is not None and created.created_at == created.updated_at
    assert await store.get_game("g1") == created
    assert await store.get_game("nope") is None
    assert [g.id for g in await store.list_games()] == ["g1", "g2", "g3"]
    assert [g.id for g in await store.list_games(status="active")] == ["g2"]
    assert [g.id for g in await store.list_games(channel_id=70)] == ["g1"]
    assert [g.id for g in await store.list_games(guild_id=8)] == ["g3"]
    await store.add_player("g3", 200, "union")
    assert [g.id for g in await store.games_of_user(200)] == ["g2", "g3"]  # hosts g2, plays g3
    assert [g.id for g in await store.games_of_user(200, status="setup")] == ["g3"]
    assert await store.games_of_user(999) == []


async def test_the_seed_stays_out_of_reprs(store: Store) -> None:
    created = await store.create_game(game(seed=b"\xab" * 32))
    assert "seed" not in repr(created)
    assert "ab" * 4 not in repr(created) and "\\xab" not in repr(created)


async def test_creating_a_game_twice_is_refused(store: Store) -> None:
    await store.create_game(game())
    with pytest.raises(AlreadyExistsError):
        await store.create_game(game(scenario_id="other"))
    assert (await store.get_game("g1")).scenario_id == "surprise-move"  # type: ignore[union-attr]


async def test_a_seed_must_be_32_bytes(store: Store) -> None:
    with pytest.raises(StorageError, match="game_seed_32_bytes"):
        await store.create_game(game(seed=b"short"))
    assert await store.get_game("g1") is None


async def test_update_game_changes_fields_and_bumps_updated_at(store: Store) -> None:
    created = await store.create_game(game())
    updated = await store.update_game("g1", status="paused", options={"x": [1, 2]}, channel_id=99)
    assert (updated.status, updated.options, updated.channel_id) == ("paused", {"x": [1, 2]}, 99)
    assert updated.created_at == created.created_at
    assert updated.updated_at is not None and created.updated_at is not None
    assert updated.updated_at > created.updated_at
    assert await store.get_game("g1") == updated
    with pytest.raises(NotFoundError):
        await store.update_game("nope", status="ended")
    with pytest.raises(TypeError, match="seed"):
        await store.update_game("g1", seed=b"0" * 32)  # type: ignore[call-arg]
    with pytest.raises(StorageError, match="game_status"):
        await store.update_game("g1", status="finished")  # type: ignore[typeddict-item]
    assert (await store.get_game("g1")) == updated


async def test_players_join_change_and_leave(store: Store) -> None:
    await store.create_game(game())
    alice = await store.add_player("g1", 1, "union", dm_ok=True)
    await store.add_player("g1", 2, "confederate")
    assert (alice.user_id, alice.side, alice.dm_ok) == (1, "union", True)
    with pytest.raises(AlreadyExistsError):
        await store.add_player("g1", 1, "confederate")
    with pytest.raises(NotFoundError):
        await store.add_player("nope", 3, "union")
    assert (await store.set_dm_ok("g1", 2, True)).dm_ok is True
    assert (await store.set_side("g1", 2, "union")).side == "union"
    assert [(p.user_id, p.side, p.dm_ok) for p in await store.players("g1")] == [
        (1, "union", True),
        (2, "union", True),
    ]
    assert await store.get_player("g1", 2) == (await store.players("g1"))[1]
    with pytest.raises(NotFoundError):
        await store.set_dm_ok("g1", 3, True)
    assert await store.remove_player("g1", 1) is True
    assert await store.remove_player("g1", 1) is False
    assert [p.user_id for p in await store.players("g1")] == [2]
    assert await store.get_player("g1", 1) is None


async def test_bot_state_is_a_small_key_value_store(store: Store) -> None:
    assert await store.get_state("command_hash") is None
    await store.set_state("command_hash", "abc")
    await store.set_state("command_hash", "def")
    await store.set_state("other", "x")
    assert await store.get_state("command_hash") == "def"
    assert await store.get_state("other") == "x"


async def test_a_closed_store_refuses_work(target: str) -> None:
    store = await Store.open(target)
    await store.close()
    await store.close()  # idempotent
    with pytest.raises(StorageError, match="closed"):
        await store.get_game("g1")
    with pytest.raises(StorageError, match="closed"):
        await store.set_state("k", "v")


async def test_seats_after_the_start_change_with_their_announcements(store: Store) -> None:
    await store.create_game(game())
    await store.add_player("g1", 1, "union")
    told = SeatNotice("", lambda waiting, asking: f"{sorted(asking)} ask")
    asked = await store.request_seat("g1", 2, "union", told)
    assert asked.asked and len(asked.delivery_ids) == 1
    # Asking again, for either side, writes nothing: the open request stands.
    again = await store.request_seat("g1", 2, "confederate", told)
    assert not again.asked and again.open is not None and again.open.side == "union"
    await store.unseat_player("g1", 2, remember=False)  # withdrawn: asked anew
    assert (await store.request_seat("g1", 2, "confederate")).asked
    request = await store.seat_request("g1", 2)
    assert request is not None and request.side == "confederate"
    assert [r.user_id for r in await store.seat_requests("g1")] == [2]
    with pytest.raises(AlreadyExistsError):
        await store.request_seat("g1", 1, "union")
    await store.seat_player("g1", 2, "confederate", deliveries=[NewDelivery("public", "", "in")])
    assert await store.seat_requests("g1") == []
    assert [p.side for p in await store.players("g1")] == ["union", "confederate"]
    await store.unseat_player("g1", 2, remember=True, deliveries=[NewDelivery("public", "", "out")])
    assert await store.former_side("g1", 2) == "confederate"
    await store.seat_player("g1", 2, "confederate")
    await store.unseat_player("g1", 2, remember=True)  # leaving twice keeps the record
    assert await store.former_side("g1", 2) == "confederate"
    with pytest.raises(NotFoundError):
        await store.unseat_player("g1", 9, remember=False)
    texts = [d.text for d in await store.pending_deliveries()]
    assert texts == ["[2] ask", "in", "out"]


async def test_ready_marks_deadlines_and_pending_orders_are_kept_per_step(store: Store) -> None:
    from datetime import datetime as dt

    from storage.pending_orders import PendingRow

    await store.create_game(game())
    assert await store.mark_ready("g1", 2, 1, 0, [NewDelivery("public", "", "2 ready")])
    assert await store.mark_ready("g1", 1, 1, 0) == []  # no deliveries, still marked
    assert await store.mark_ready("g1", 2, 1, 0, [NewDelivery("public", "", "again")]) == []
    assert await store.ready_players("g1", 1, 0) == [2, 1]
    assert await store.ready_players("g1", 1, 1) == []

    assert await store.deadline_setting("g1") is None
    setting = await store.set_deadline_length("g1", 3600, [NewDelivery("public", "", "1 h")])
    assert await store.deadline_setting("g1") == setting
    await store.set_deadline_length("g1", None)
    assert (await store.deadline_setting("g1")).length_seconds is None  # type: ignore[union-attr]
    assert await store.mark_step_deadline("g1", 1, 0, "reminded") is True
    assert await store.mark_step_deadline("g1", 1, 0, "reminded") is False
    await store.extend_step_deadline("g1", 1, 0, 600, rearm_reminder=True)
    await store.extend_step_deadline("g1", 1, 0, 300, rearm_reminder=False)
    step = await store.step_deadline("g1", 1, 0)
    assert (step.extra_seconds, step.reminded_at, step.passed_at) == (900, None, None)
    racing = await asyncio.gather(*(store.mark_step_deadline("g1", 1, 0, "passed")
                                    for _ in range(4)))
    assert sorted(racing) == [False, False, False, True]

    when = dt(2026, 1, 1, tzinfo=UTC)
    order = PendingRow("p" * 12, "g1", 2, "move", {"unit": "u1"}, 1, 0, "open", {}, when)
    await store.add_pending_order(order)
    assert await store.pending_order(order.id) == order
    assert await store.open_pending_orders("g1") == [order]
    await store.set_pending_shown(order.id, {"channel": 5})
    assert await store.set_pending_status(order.id, "confirmed", only_from="open") is True
    assert await store.set_pending_status(order.id, "expired", only_from="open") is False
    settled = await store.pending_order(order.id)
    assert settled is not None and (settled.status, settled.shown) == ("confirmed", {"channel": 5})
    assert await store.open_pending_orders("g1") == []
    assert [d.text for d in await store.pending_deliveries()] == ["2 ready", "1 h"]


async def test_a_steps_clock_reads_its_start_and_its_pauses_only(store: Store) -> None:
    await store.create_game(game("g1"))
    await store.create_game(game("g2"))
    # A step's clock reads its phase_began and the pauses after it, none of the step's others,
    # stamped with the instant the commit was given.
    at = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    await store.commit("g1", 0, [NewEvent("phase_began"), NewEvent("Move"),
                                 NewEvent("game_paused"), NewEvent("phase_began"),
                                 NewEvent("Move", audience=side_audience("union")),
                                 NewEvent("game_paused")], at=at)
    clock_events = await store.step_clock_events("g1")
    assert [(e.seq, e.type) for e in clock_events] == [(4, "phase_began"), (6, "game_paused")]
    assert {e.created_at for e in clock_events} == {at}
    assert await store.step_clock_events("g2") == []


async def test_a_steps_clock_seeks_its_events_and_never_reads_the_whole_log(
        tmp_path: Path) -> None:
    """Every commit reads the step's clock: a scan of the log would take longer the more hidden
    events the game holds (ruling INFO-13)."""
    db = tmp_path / "plan.db"
    async with Store.open(db):
        pass
    with sqlite3.connect(db) as conn:
        plan = [row[-1] for row in conn.execute(f"EXPLAIN QUERY PLAN {STEP_CLOCK_EVENTS}",
                                                ("g1",) * 4)]
    conn.close()
    searches = [step for step in plan if step.startswith("SEARCH events")]
    assert searches and all("events_by_type" in step or step.endswith("seq=?)")
                            for step in searches), plan
    assert not any(step.startswith("SCAN") for step in plan), plan


async def test_the_log_is_counted_and_read_from_its_last_event_of_a_type(store: Store) -> None:
    await store.create_game(game("flank-1"))
    await store.create_game(game("flank-2", guild_id=None))
    await store.create_game(game("other-1"))
    await store.commit("flank-1", 0, [NewEvent("Turn"), NewEvent("Move"), NewEvent("Turn"),
                                      NewEvent("Move", audience=side_audience("union"))])
    assert await store.count_events("flank-1", "Move") == {"public": 1, "side:union": 1}
    assert [e.seq for e in await store.events_from_last("flank-1", "Turn")] == [3, 4]
    assert await store.events_from_last("flank-1", "Nothing") == []
    assert await store.games_named_like("flank-") == [("flank-1", 7), ("flank-2", None)]
    [queued] = await store.queue_deliveries("flank-1", [NewDelivery("host", "", "note")])
    assert (await store.get_delivery(queued)).seq == 4  # type: ignore[union-attr]
    with pytest.raises(NotFoundError):
        await store.queue_deliveries("ghost", [NewDelivery("host", "", "note")])
    # An edit showing an earlier message's map follows that message's moment.
    [again] = await store.queue_deliveries("flank-1", [NewDelivery("host", "", "edit", seq=2)])
    assert (await store.get_delivery(again)).seq == 2  # type: ignore[union-attr]
    for outside in (-1, 5):
        with pytest.raises(StorageError, match="follows seq"):
            await store.queue_deliveries("flank-1", [NewDelivery("host", "", "x", seq=outside)])


# -- commits --------------------------------------------------------------------------------


async def test_commit_writes_events_deliveries_snapshot_and_game_fields(store: Store) -> None:
    await store.create_game(game())
    events = [
        NewEvent("GameStarted", {"turn": 1}),
        NewEvent("DieRolled", {"purpose": "straggler", "value": 4}, side_audience("union")),
        NewEvent("Note", {"text": "umpire only"}, "umpire"),
    ]
    deliveries = [
        NewDelivery("public", "", "The game begins."),
        NewDelivery("side", "union", "You rolled 4.", image=b"\x89PNG", image_name="map.png",
                    buttons=[{"label": "Done", "id": "done"}], event_index=1),
        NewDelivery("player", "1", "first event", event_index=0),
        NewDelivery("host", "", "last event", event_index=-1),
    ]
    ids = await store.commit("g1", 0, events, deliveries, snapshot={"turn": 1},
                             game_updates={"status": "active"})
    assert len(ids) == 4 and ids == sorted(ids)
    log = await store.events("g1")
    assert [(e.seq, e.type, e.payload, e.audience) for e in log] == [
        (1, "GameStarted", {"turn": 1}, "public"),
        (2, "DieRolled", {"purpose": "straggler", "value": 4}, "side:union"),
        (3, "Note", {"text": "umpire only"}, "umpire"),
    ]
    assert await store.last_seq("g1") == 3
    stored = [await store.get_delivery(i) for i in ids]
    assert [(d.seq, d.kind, d.target, d.status, d.attempts) for d in stored if d] == [
        (3, "public", "", "pending", 0),
        (2, "side", "union", "pending", 0),
        (1, "player", "1", "pending", 0),
        (3, "host", "", "pending", 0),
    ]
    union = stored[1]
    assert union is not None
    assert (union.image, union.image_name, union.buttons) == (
        b"\x89PNG",
        "map.png",
        [{"label": "Done", "id": "done"}],
    )
    assert await store.latest_snapshot("g1") == Snapshot(3, {"turn": 1})
    assert (await store.get_game("g1")).status == "active"  # type: ignore[union-attr]
    assert [e.seq for e in await store.events("g1", after_seq=1)] == [2, 3]
    assert [e.seq for e in await store.events("g1", after_seq=0, limit=2)] == [1, 2]


async def test_a_commit_with_many_deliveries_keeps_their_order_and_ids(store: Store) -> None:
    """More deliveries than one statement carries: every id is returned, in the deliveries'
    order, and the outbox sends them in that order."""
    await store.create_game(game())
    many = [NewDelivery("player", str(n % 7 + 1), f"message {n}") for n in range(1234)]
    ids = await store.commit("g1", 0, [NewEvent("A")], many)
    assert len(ids) == len(set(ids)) == 1234 and ids == sorted(ids)
    pending = await store.pending_deliveries(limit=2000)
    assert [d.id for d in pending] == ids
    assert [d.text for d in pending] == [f"message {n}" for n in range(1234)]
    [one] = await store.commit("g1", 1, [NewEvent("B")], [NewDelivery("public", "", "after")])
    assert one > ids[-1]


async def test_a_picture_carried_twice_is_stored_once(store: Store) -> None:
    await store.create_game(game())
    png = b"\x89PNG picture"
    ids = await store.commit("g1", 0, [NewEvent("A")], [
        NewDelivery("side", "union", "map", image=png, image_name="a.png"),
        NewDelivery("player", "1", "same map", image=png, image_name="a.png"),
    ])
    await store.commit("g1", 1, [NewEvent("B")], [
        NewDelivery("side", "union", "again", image=png, image_name="a.png")])
    assert await count(store, "pictures") == 1
    assert [(await store.get_delivery(i)).image for i in ids] == [png, png]  # type: ignore[union-attr]


async def test_a_commit_without_events_attaches_deliveries_to_the_last_event(store: Store) -> None:
    await store.create_game(game())
    await store.commit("g1", 0, [NewEvent("A"), NewEvent("B")])
    [delivery_id] = await store.commit("g1", 2, [], [NewDelivery("player", "5", "reminder")])
    assert (await store.get_delivery(delivery_id)).seq == 2  # type: ignore[union-attr]
    assert await store.last_seq("g1") == 2


async def test_game_and_last_seq_agree_with_get_game_and_last_seq(store: Store) -> None:
    assert await store.game_and_last_seq("g1") is None
    await store.create_game(game())
    await store.create_game(game("g2"))
    assert await store.game_and_last_seq("g1") == (await store.get_game("g1"), 0)
    await store.commit("g1", 0, [NewEvent("A"), NewEvent("B")], game_updates={"status": "active"})
    await store.commit("g2", 0, [NewEvent("C")])
    found = await store.game_and_last_seq("g1")
    assert found is not None
    assert found == (await store.get_game("g1"), await store.last_seq("g1"))
    assert (found[0].status, found[1]) == ("active", 2)


async def test_game_now_reads_the_game_its_last_seq_and_its_seats_together(store: Store
                                                                            ) -> None:
    assert await store.game_now("g1") is None
    await store.create_game(game())
    await store.create_game(game("g2"))
    empty = await store.game_now("g1")
    assert empty is not None and (empty.record, empty.last_seq, empty.players) == (
        await store.get_game("g1"), 0, ())
    await store.add_player("g1", 202, "red")
    await store.add_player("g1", 101, "blue")
    await store.add_player("g2", 303, "red")
    await store.commit("g1", 0, [NewEvent("A"), NewEvent("B")], game_updates={"status": "active"})
    now = await store.game_now("g1")
    assert now is not None
    assert now.record == await store.get_game("g1") and now.record.status == "active"
    assert now.last_seq == 2
    assert list(now.players) == await store.players("g1")  # first joined first
    assert [p.user_id for p in now.players] == [202, 101]


@pytest.mark.parametrize(
    ("events", "deliveries", "updates", "constraint"),
    [
        pytest.param(
            [NewEvent("A"), NewEvent("B", audience="everyone")], [], None, "event_audience",
            id="second event has a bad audience",
        ),
        pytest.param(
            [NewEvent("A"), NewEvent("B")],
            [NewDelivery("public", "", "ok"), NewDelivery("carrier-pigeon", "x", "no")],  # type: ignore[arg-type]
            None,
            "delivery_kind",
            id="second delivery has a bad kind",
        ),
        pytest.param(
            [NewEvent("A")], [NewDelivery("side", "", "to nobody")], None, "delivery_target",
            id="side delivery without a side",
        ),
        pytest.param(
            [NewEvent("A"), NewEvent("B")],
            [NewDelivery("public", "", "ok")],
            {"status": "finished"},
            "game_status",
            id="game update refused",
        ),
    ],
)
async def test_a_commit_that_fails_midway_writes_nothing(
    store: Store,
    events: list[NewEvent],
    deliveries: list[NewDelivery],
    updates: dict[str, str] | None,
    constraint: str,
) -> None:
    await store.create_game(game())
    await store.commit("g1", 0, [NewEvent("Setup")], snapshot={"s": 0})
    before = await store.get_game("g1")
    with pytest.raises(StorageError, match=constraint):
        await store.commit("g1", 1, events, deliveries, snapshot={"s": 1},
                           game_updates=updates)  # type: ignore[arg-type]
    assert [e.type for e in await store.events("g1")] == ["Setup"]
    assert await count(store, "deliveries") == 0
    assert await store.latest_snapshot("g1") == Snapshot(1, {"s": 0})
    assert await store.get_game("g1") == before
    # the store is still usable, at the same seq
    ids = await store.commit("g1", 1, [NewEvent("A")], [NewDelivery("public", "", "fine")])
    assert await store.last_seq("g1") == 2 and len(ids) == 1


async def test_a_stale_commit_raises_concurrency_error_and_writes_nothing(store: Store) -> None:
    await store.create_game(game())
    await store.commit("g1", 0, [NewEvent("A")])
    for stale in (0, 2, 7):
        with pytest.raises(ConcurrencyError) as conflict:
            await store.commit("g1", stale, [NewEvent("B")], [NewDelivery("public", "", "x")],
                               snapshot={"no": 1}, game_updates={"status": "ended"})
        assert (conflict.value.expected_seq, conflict.value.actual_seq) == (stale, 1)
    assert [e.type for e in await store.events("g1")] == ["A"]
    assert await count(store, "deliveries") == 0
    assert await store.latest_snapshot("g1") is None
    assert (await store.get_game("g1")).status == "setup"  # type: ignore[union-attr]


async def test_a_text_that_is_not_unicode_is_refused_and_nothing_written(store: Store) -> None:
    await store.create_game(game())
    with pytest.raises(StorageError, match="commit to game 'g1' failed"):
        await store.commit("g1", 0, [NewEvent("A")], [NewDelivery("public", "", "half \ud800")])
    assert await store.last_seq("g1") == 0 and await count(store, "deliveries") == 0
    await store.commit("g1", 0, [NewEvent("A")], [NewDelivery("public", "", "whole ☺")])
    assert [d.text for d in await store.pending_deliveries()] == ["whole ☺"]


async def test_commit_to_an_unknown_game_is_refused(store: Store) -> None:
    with pytest.raises(NotFoundError):
        await store.commit("ghost", 0, [NewEvent("A")])
    assert await count(store, "events") == 0


async def test_values_that_would_not_round_trip_are_refused_before_writing(store: Store) -> None:
    await store.create_game(game())
    with pytest.raises(StorageError, match=r"tuple at \$\.path\[0\] is not JSON \(use a list\)"):
        await store.commit("g1", 0, [NewEvent("Moved", {"path": [(1, 2)]})])
    with pytest.raises(StorageError, match=r"key 3 at \$\.by_id"):
        await store.commit("g1", 0, [NewEvent("A", {"by_id": {3: "x"}})])
    with pytest.raises(StorageError, match="nan"):
        await store.commit("g1", 0, [NewEvent("A")], snapshot={"x": float("nan")})
    with pytest.raises(StorageError, match="delivery 0 names event 1"):
        await store.commit(
            "g1", 0, [NewEvent("A")], [NewDelivery("public", "", "x", event_index=1)]
        )
    assert await store.last_seq("g1") == 0


async def test_the_log_is_append_only_and_gapless_even_behind_the_stores_back(
    store: Store, target: str
) -> None:
    await store.create_game(game())
    await store.commit("g1", 0, [NewEvent("Rolled", {"value": 3})])
    async with behind(target) as conn:
        with pytest.raises(REFUSED, match="append-only"):
            await conn.execute("UPDATE events SET payload = '{\"value\":6}' WHERE seq = 1")
        with pytest.raises(REFUSED, match="next seq"):
            await conn.execute(
                "INSERT INTO events VALUES ('g1', 3, 'Gap', '{}', 'public', '2026-01-01')"
            )
        with pytest.raises(REFUSED, match="next seq"):  # nor a second event 1
            await conn.execute(
                "INSERT INTO events VALUES ('g1', 1, 'Again', '{}', 'public', '2026-01-01')"
            )
    assert [e.payload for e in await store.events("g1")] == [{"value": 3}]


async def test_a_games_sources_never_change_even_behind_the_stores_back(
    store: Store, target: str
) -> None:
    from storage import GameSources

    sources = GameSources("s.toml", "scenario", "a" * 64, "r.toml", "ruleset", "b" * 64)
    await store.create_game(game(), sources)
    async with behind(target) as conn:
        with pytest.raises(REFUSED, match="never change"):
            await conn.execute("UPDATE game_sources SET scenario_text = 'edited'")
    assert await store.game_sources("g1") == sources


async def test_two_commits_racing_on_one_game_let_exactly_one_win(store: Store) -> None:
    await store.create_game(game())
    results = await asyncio.gather(
        *(store.commit("g1", 0, [NewEvent("Order", {"by": who})]) for who in range(5)),
        return_exceptions=True,
    )
    winners = [r for r in results if not isinstance(r, BaseException)]
    losers = [r for r in results if isinstance(r, BaseException)]
    assert len(winners) == 1
    assert len(losers) == 4 and all(isinstance(r, ConcurrencyError) for r in losers)
    assert len(await store.events("g1")) == 1


async def drive_game(store: Store, game_id: str, commits: int, rng: random.Random) -> None:
    """Play ``commits`` commands on one game, yielding to the others at random points."""
    seq = 0
    for turn in range(commits):
        for _ in range(rng.randrange(3)):
            await asyncio.sleep(0)
        events = [
            NewEvent("Order", {"game": game_id, "turn": turn, "part": part},
                     side_audience("union") if part else "public")
            for part in range(1 + rng.randrange(3))
        ]
        deliveries = [
            NewDelivery("side", "union", f"{game_id}/{turn}/{i}", event_index=i)
            for i in range(len(events))
        ]
        snapshot = {"game": game_id, "turn": turn} if turn % 10 == 9 else None
        ids = await store.commit(game_id, seq, events, deliveries, snapshot=snapshot)
        assert len(ids) == len(deliveries)
        seq += len(events)


async def check_game(store: Store, game_id: str, commits: int) -> None:
    log = await store.events(game_id)
    assert [e.seq for e in log] == list(range(1, len(log) + 1))  # contiguous
    assert {e.game_id for e in log} == {game_id}
    assert {e.payload["game"] for e in log} == {game_id}  # only its own events
    turns = [(e.payload["turn"], e.payload["part"]) for e in log]
    assert turns == sorted(turns) and {t for t, _ in turns} == set(range(commits))
    inbox = await store.deliveries_for(game_id, Recipient("side", "union"), limit=1000)
    assert len(inbox) == len(log)
    by_seq = {e.seq: e for e in log}
    for delivery in inbox:
        event = by_seq[delivery.seq]
        assert delivery.text == f"{game_id}/{event.payload['turn']}/{event.payload['part']}"
    snapshot = await store.latest_snapshot(game_id)
    assert snapshot is not None and snapshot.payload == {"game": game_id, "turn": commits - 1}
    assert by_seq[snapshot.seq].payload["turn"] == commits - 1
    assert snapshot.seq == len(log)


async def test_twenty_games_committing_concurrently_lose_and_mix_nothing(store: Store) -> None:
    games = [f"game-{n:02d}" for n in range(20)]
    for game_id in games:
        await store.create_game(game(game_id))
    await asyncio.gather(
        *(drive_game(store, g, 30, random.Random(n)) for n, g in enumerate(games))
    )
    for game_id in games:
        await check_game(store, game_id, 30)
    assert await count(store, "events") == sum([await store.last_seq(g) for g in games])


async def test_two_stores_on_one_database_share_it_safely(target: str) -> None:
    """Two stores (as two processes would) on one database: SQLite's own locking and the busy
    timeout, or PostgreSQL's row locks, keep their interleaved commits apart."""
    games = [f"game-{n:02d}" for n in range(10)]
    async with Store.open(target) as first, Store.open(target) as second:
        for game_id in games:
            await first.create_game(game(game_id))
        stores = [first, second]
        await asyncio.gather(
            *(drive_game(stores[n % 2], g, 20, random.Random(n)) for n, g in enumerate(games))
        )
        for n, game_id in enumerate(games):
            await check_game(stores[(n + 1) % 2], game_id, 20)


async def test_two_stores_racing_on_one_game_let_exactly_one_win(target: str) -> None:
    """Two stores (two processes' connections, or two pools) commit on one game at once, from
    the same seq, over and over: each time exactly one wins, the other is told the log moved
    on, and the log has no gap and no duplicate."""
    async with Store.open(target) as first, Store.open(target) as second:
        await first.create_game(game())
        for round_ in range(15):
            seq = round_  # each round appends one event
            results = await asyncio.gather(
                *(s.commit("g1", seq, [NewEvent("Order", {"by": n, "round": round_})],
                           [NewDelivery("player", str(n), f"accepted {round_}")])
                  for n, s in enumerate((first, second, first, second))),
                return_exceptions=True)
            winners = [r for r in results if not isinstance(r, BaseException)]
            assert len(winners) == 1, results
            assert all(isinstance(r, ConcurrencyError) and r.actual_seq == seq + 1
                       for r in results if isinstance(r, BaseException))
        log = await second.events("g1")
        assert [e.seq for e in log] == list(range(1, 16))
        assert [e.payload["round"] for e in log] == list(range(15))
        assert await count(first, "deliveries") == 15


async def test_a_cancelled_commit_leaves_all_or_nothing(sqlite_store: Store) -> None:
    """Cancel the committing task while the writer runs each statement of the transaction in
    turn (the trace callback fires on the writer's thread as each statement starts)."""
    store = sqlite_store
    await store.create_game(game())
    loop = asyncio.get_running_loop()
    statements = 0
    cancel_at = 0
    task: asyncio.Task[list[int]] | None = None

    def trace(_sql: str) -> None:
        nonlocal statements
        statements += 1
        if statements == cancel_at and task is not None:
            loop.call_soon_threadsafe(task.cancel)

    await store._db.writer.raw.set_trace_callback(trace)
    seq = 0
    outcomes: list[tuple[str, int]] = []
    for point in range(1, 16):
        statements, cancel_at = 0, point
        task = asyncio.create_task(
            store.commit("g1", seq, [NewEvent("A", {"d": point}), NewEvent("B", {"d": point})],
                         [NewDelivery("public", "", f"{point}")] * 3, snapshot={"d": point})
        )
        try:
            await task
            outcome = "returned"
        except asyncio.CancelledError:
            outcome = "cancelled"
        last = await store.last_seq("g1")
        outcomes.append((outcome, last - seq))
        assert last in (seq, seq + 2)
        if outcome == "returned":
            assert last == seq + 2
        written = [e for e in await store.events("g1") if e.payload["d"] == point]
        sent = await store.deliveries_for("g1", Recipient("public", ""), limit=1000)
        assert len(written) == last - seq
        assert len([d for d in sent if d.text == f"{point}"]) == 3 * (last - seq) // 2
        snapshot = await store.latest_snapshot("g1")
        assert (snapshot is not None and snapshot.payload == {"d": point}) == (last > seq)
        seq = last
    await store._db.writer.raw.set_trace_callback(None)
    assert ("cancelled", 0) in outcomes  # cancelled inside the transaction: nothing written
    assert ("returned", 2) in outcomes  # cancelled after it: everything written
    # and the store still works
    await store.commit("g1", seq, [NewEvent("After", {"d": -1})])
    assert await store.last_seq("g1") == seq + 1


async def test_a_returned_commit_survives_the_process_dying(db_path: Path) -> None:
    script = textwrap.dedent(
        f"""
        import asyncio, os
        from storage import GameRecord, NewDelivery, NewEvent, Store

        async def main():
            store = await Store.open({str(db_path)!r})
            await store.create_game(GameRecord(
                id="g1", scenario_id="s", scenario_path="s.toml", host_user_id=1,
                seed=bytes(32)))
            await store.commit("g1", 0, [NewEvent("Accepted", {{"order": "march"}})],
                               [NewDelivery("player", "1", "Order accepted")])
            print("accepted", flush=True)
            os._exit(0)  # no close, no checkpoint: as if the process were killed

        asyncio.run(main())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == "accepted", done.stderr
    async with Store.open(db_path) as store:
        assert [e.payload for e in await store.events("g1")] == [{"order": "march"}]
        assert [d.text for d in await store.pending_deliveries()] == ["Order accepted"]


# -- snapshots ------------------------------------------------------------------------------


async def test_the_latest_snapshot_is_the_one_with_the_highest_seq(store: Store) -> None:
    await store.create_game(game())
    assert await store.latest_snapshot("g1") is None
    await store.commit("g1", 0, [NewEvent("A"), NewEvent("B")], snapshot={"at": 2})
    await store.commit("g1", 2, [NewEvent("C")])
    await store.commit("g1", 3, [NewEvent("D"), NewEvent("E")], snapshot={"at": 5})
    assert await store.latest_snapshot("g1") == Snapshot(5, {"at": 5})
    await store.save_snapshot("g1", 3, {"at": 3})  # an older one does not hide the newest
    assert await store.latest_snapshot("g1") == Snapshot(5, {"at": 5})
    await store.commit("g1", 5, [NewEvent("F")])
    await store.save_snapshot("g1", 6, {"at": 6})
    seq, payload = await store.latest_snapshot("g1")  # type: ignore[misc]
    assert (seq, payload) == (6, {"at": 6})
    with pytest.raises(StorageError, match="no event 7"):
        await store.save_snapshot("g1", 7, {"at": 7})
    assert await store.latest_snapshot("other") is None


# -- the outbox -----------------------------------------------------------------------------


async def test_outbox_lifecycle(store: Store) -> None:
    await store.create_game(game("g1"))
    await store.create_game(game("g2"))
    [a, b, c] = await store.commit(
        "g1", 0, [NewEvent("A")],
        [NewDelivery("public", "", "a"), NewDelivery("player", "1", "b"),
         NewDelivery("player", "2", "c")],
    )
    [d] = await store.commit("g2", 0, [NewEvent("A")], [NewDelivery("public", "", "d")])
    assert [x.id for x in await store.pending_deliveries()] == [a, b, c, d]  # oldest first
    assert [x.id for x in await store.pending_deliveries("g2")] == [d]
    assert [x.id for x in await store.pending_deliveries(limit=2)] == [a, b]

    await store.mark_sent(a)
    sent = await store.get_delivery(a)
    assert sent is not None and (sent.status, sent.attempts) == ("sent", 1)
    assert sent.sent_at is not None

    await store.mark_failed(b, "503 Service Unavailable", permanent=False)
    await store.mark_failed(b, "429 Too Many Requests", permanent=False)
    retrying = await store.get_delivery(b)
    assert retrying is not None
    assert (retrying.status, retrying.attempts, retrying.last_error) == (
        "pending", 2, "429 Too Many Requests"
    )
    assert retrying.sent_at is None

    await store.mark_failed(c, "403 Cannot send messages to this user", permanent=True)
    failed = await store.get_delivery(c)
    assert failed is not None and (failed.status, failed.attempts) == ("failed", 1)

    assert [x.id for x in await store.pending_deliveries()] == [b, d]

    await store.mark_failed(a, "late report", permanent=True)  # a sent delivery stays sent
    assert (await store.get_delivery(a)).status == "sent"  # type: ignore[union-attr]
    await store.mark_sent(b)
    assert [x.id for x in await store.pending_deliveries()] == [d]
    with pytest.raises(NotFoundError):
        await store.mark_sent(9999)
    with pytest.raises(NotFoundError):
        await store.mark_failed(9999, "x", permanent=False)


async def test_pending_deliveries_survive_a_restart(target: str) -> None:
    async with Store.open(target) as store:
        await store.create_game(game())
        ids = await store.commit("g1", 0, [NewEvent("A")],
                                 [NewDelivery("public", "", "x"), NewDelivery("public", "", "y")])
        await store.mark_sent(ids[0])
    async with Store.open(target) as store:
        assert [d.text for d in await store.pending_deliveries()] == ["y"]


async def test_an_inbox_pages_through_a_players_and_their_sides_deliveries(store: Store) -> None:
    await store.create_game(game())
    await store.create_game(game("g2"))
    mine: list[str] = []
    for n in range(25):
        batch = [
            NewDelivery("player", "1", f"to me {n}"),
            NewDelivery("side", "union", f"to my side {n}"),
            NewDelivery("side", "confederate", f"to them {n}"),
            NewDelivery("player", "2", f"to someone else {n}"),
        ]
        await store.commit("g1", n, [NewEvent("E")], batch)
        mine += [f"to me {n}", f"to my side {n}"]
    await store.commit("g2", 0, [NewEvent("E")], [NewDelivery("player", "1", "other game")])
    await store.mark_sent((await store.pending_deliveries(limit=1))[0].id)  # status is no filter

    me = (Recipient("player", "1"), Recipient("side", "union"))
    assert await store.count_deliveries_for("g1", *me) == 50
    pages = [await store.deliveries_for("g1", *me, offset=o, limit=20) for o in (0, 20, 40)]
    assert [len(p) for p in pages] == [20, 20, 10]
    texts = [d.text for page in pages for d in page]
    assert texts == mine  # everything addressed to me, oldest first, newest last
    ids = [d.id for page in pages for d in page]
    assert ids == sorted(ids)
    assert await store.deliveries_for("g1", *me, offset=50) == []
    only_side = await store.deliveries_for("g1", Recipient("side", "union"), limit=100)
    assert [d.text for d in only_side] == [f"to my side {n}" for n in range(25)]
    assert [d.text for d in await store.deliveries_for("g2", *me)] == ["other game"]
    with pytest.raises(ValueError):
        await store.deliveries_for("g1")


# -- backups --------------------------------------------------------------------------------


async def test_a_backup_of_a_live_database_opens_with_the_same_events(
    sqlite_store: Store, tmp_path: Path
) -> None:
    store = sqlite_store
    await store.create_game(game())
    await store.add_player("g1", 1, "union")
    ids = await store.commit("g1", 0, [NewEvent("A", {"n": 1}), NewEvent("B", {"n": 2})],
                             [NewDelivery("public", "", "hello")], snapshot={"n": 2})
    await store.mark_failed(ids[0], "later", permanent=False)
    await store.set_state("command_hash", "abc")
    dest = tmp_path / "backups" / "vedette-1.db"
    dest.parent.mkdir()
    at_backup = await store.get_game("g1")
    returned = await store.backup(dest)
    assert returned == dest.resolve()
    await store.commit("g1", 2, [NewEvent("C", {"n": 3})])  # after the backup: not in it
    assert not Path(f"{dest}-wal").exists()  # one self-contained file
    assert sorted(p.name for p in dest.parent.iterdir()) == ["vedette-1.db"]

    async with Store.open(dest) as restored:
        assert [(e.seq, e.type, e.payload) for e in await restored.events("g1")] == [
            (e.seq, e.type, e.payload) for e in (await store.events("g1"))[:2]
        ]
        restored_game = await restored.get_game("g1")
        assert restored_game == at_backup
        assert restored_game is not None and restored_game.seed == bytes(range(32))
        assert [p.user_id for p in await restored.players("g1")] == [1]
        assert await restored.latest_snapshot("g1") == Snapshot(2, {"n": 2})
        [pending] = await restored.pending_deliveries()
        assert (pending.text, pending.attempts, pending.last_error) == ("hello", 1, "later")
        assert await restored.get_state("command_hash") == "abc"

    with pytest.raises(StorageError, match="exists"):
        await store.backup(dest)
    await store.backup(dest, overwrite=True)
    async with Store.open(dest) as restored:
        assert await restored.last_seq("g1") == 3
    with pytest.raises(StorageError, match="onto itself"):
        await store.backup(store.path)


async def test_a_backup_taken_during_commits_is_consistent(
    sqlite_store: Store, tmp_path: Path
) -> None:
    store = sqlite_store
    games = [f"game-{n}" for n in range(4)]
    for game_id in games:
        await store.create_game(game(game_id))
    driving = asyncio.gather(
        *(drive_game(store, g, 30, random.Random(n)) for n, g in enumerate(games))
    )
    dests = []
    for n in range(3):
        await asyncio.sleep(0.005)
        dests.append(await store.backup(tmp_path / f"b{n}.db"))
    await driving
    for dest in dests:
        async with Store.open(dest) as copy:
            for game_id in games:
                log = await copy.events(game_id)
                assert [e.seq for e in log] == list(range(1, len(log) + 1))
                inbox = await copy.deliveries_for(game_id, Recipient("side", "union"), limit=999)
                assert len(inbox) == len(log)  # no commit split by the backup
                original = await store.events(game_id)
                assert [e.payload for e in log] == [e.payload for e in original[: len(log)]]
