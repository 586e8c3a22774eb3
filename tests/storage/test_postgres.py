"""What only the PostgreSQL backend has to show: the games row lock across connections, types
asyncpg is strict about, the same text order as SQLite, migrating from two processes at once,
backups refused with the right advice, and a server that cannot be used refused in one line.

The backend-neutral contract is tests/storage/test_storage.py (run on both backends)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest

from storage import (
    SCHEMA_VERSION,
    ConcurrencyError,
    GameRecord,
    NewDelivery,
    NewEvent,
    Recipient,
    StorageError,
    Store,
)
from storage.errors import DatabaseUnusable
from storage.postgres import _values_group
from storage.sql import Backend, database_kind


def game(game_id: str, **overrides: object) -> GameRecord:
    fields: dict[str, object] = {"id": game_id, "scenario_id": "s", "scenario_path": "s.toml",
                                 "host_user_id": 100, "seed": bytes(range(32))}
    fields.update(overrides)
    return GameRecord(**fields)  # type: ignore[arg-type]


def fixed_clock() -> Callable[[], datetime]:
    return lambda: datetime(2026, 1, 1, tzinfo=UTC)


def test_a_url_names_postgresql_and_anything_else_a_sqlite_file() -> None:
    assert database_kind("postgresql://u@h/db") is Backend.POSTGRESQL
    assert database_kind("postgres://u@h/db") is Backend.POSTGRESQL
    assert database_kind("PostgreSQL://u@h/db") is Backend.POSTGRESQL
    assert database_kind("vedette.db") is Backend.SQLITE
    assert database_kind(Path("/srv/postgresql/vedette.db")) is Backend.SQLITE


async def test_a_server_that_cannot_be_reached_is_refused_in_one_line_without_the_password(
) -> None:
    with pytest.raises(DatabaseUnusable) as refused:
        await Store.open("postgresql://vedette:s3cret@127.0.0.1:1/vedette")
    message = str(refused.value)
    assert message.startswith("cannot use PostgreSQL database postgresql://vedette@127.0.0.1:1/")
    assert "s3cret" not in message and "\n" not in message


@pytest.mark.parametrize("url", [
    "postgresql://vedette:s3cret@127.0.0.1:1/vedette?password=s3cret&sslmode=disable",
    "postgresql://vedette@127.0.0.1:1/vedette?PASSWORD=s3cret",
    "postgresql://vedette:s3c/r@t@127.0.0.1:1/vedette",
    "postgresql://vedette:s3cret@h1:1,h2:1/vedette",
    "postgresql://vedette:s3cret@127.0.0.1:port/vedette",
])
async def test_no_way_of_writing_the_password_puts_it_in_the_refusal(url: str) -> None:
    """A password as a parameter, one with a bare / or @ in it, several hosts, an address
    that cannot be read: the refusal is one line and names no part of the password."""
    with pytest.raises(DatabaseUnusable) as refused:
        await Store.open(url)
    message = str(refused.value)
    assert "s3c" not in message and "\n" not in message
    assert "vedette@" in message or "cannot be read" in message


async def test_a_commit_waits_for_the_games_row_lock_and_then_sees_the_new_seq(
    pg_target: str,
) -> None:
    """Another connection (another process) holds the game's row lock and appends an event;
    the store's commit from the same seq waits for it, then is refused as stale: it reads the
    last seq after the lock is granted, never before."""
    async with Store.open(pg_target) as store:
        await store.create_game(game("g1"))
        other = await asyncpg.connect(pg_target)
        try:
            tx = other.transaction()
            await tx.start()
            await other.execute("SELECT 1 FROM games WHERE id = 'g1' FOR UPDATE")
            await other.execute("INSERT INTO events VALUES ('g1', 1, 'Theirs', '{}', 'public',"
                                " '2026-01-01T00:00:00.000000+00:00')")
            await other.execute("UPDATE games SET updated_at = updated_at WHERE id = 'g1'")
            commit = asyncio.create_task(store.commit("g1", 0, [NewEvent("Mine")]))
            await asyncio.sleep(0.3)
            assert not commit.done()  # waiting for the lock
            await tx.commit()
            with pytest.raises(ConcurrencyError) as stale:
                await commit
            assert (stale.value.expected_seq, stale.value.actual_seq) == (0, 1)
        finally:
            await other.close()
        assert [e.type for e in await store.events("g1")] == ["Theirs"]


async def test_a_seat_change_waits_for_the_games_row_lock(pg_target: str) -> None:
    async with Store.open(pg_target) as store:
        await store.create_game(game("g1"))
        other = await asyncpg.connect(pg_target)
        try:
            tx = other.transaction()
            await tx.start()
            await other.execute("SELECT 1 FROM games WHERE id = 'g1' FOR UPDATE")
            seating = asyncio.create_task(store.add_player("g1", 5, "union"))
            await asyncio.sleep(0.2)
            assert not seating.done()
            await tx.rollback()
            assert (await seating).side == "union"
        finally:
            await other.close()


async def test_discord_ids_and_bytes_keep_their_types(pg_target: str) -> None:
    """Snowflakes need 64 bits; seeds and pictures are bytes."""
    snowflake = 1_234_567_890_123_456_789
    async with Store.open(pg_target) as store:
        await store.create_game(game("g1", guild_id=snowflake, channel_id=snowflake + 1,
                                     host_user_id=snowflake + 2, seed=b"\x00\xff" * 16))
        await store.add_player("g1", snowflake + 3, "union", dm_ok=True)
        [delivery_id] = await store.commit(
            "g1", 0, [NewEvent("A")],
            [NewDelivery("player", str(snowflake + 3), "map", image=b"\x89PNG\x00",
                         image_name="m.png", mentions=(snowflake + 3,))])
        stored = await store.get_game("g1")
        assert stored is not None
        assert (stored.guild_id, stored.channel_id, stored.host_user_id) == (
            snowflake, snowflake + 1, snowflake + 2)
        assert stored.seed == b"\x00\xff" * 16
        assert [g.id for g in await store.games_of_user(snowflake + 3)] == ["g1"]
        assert [g.id for g in await store.list_games(guild_id=snowflake)] == ["g1"]
        sent = await store.get_delivery(delivery_id)
        assert sent is not None and sent.image == b"\x89PNG\x00"
        assert sent.mentions == (snowflake + 3,)
        assert (await store.get_player("g1", snowflake + 3)).dm_ok is True  # type: ignore[union-attr]


async def test_text_sorts_byte_by_byte_as_on_sqlite(pg_target: str, tmp_path: Path) -> None:
    """Games created at one instant list by id; both backends give the same order, whatever
    the PostgreSQL database's own collation."""
    ids = ["b-10", "B-2", "_x", "a", "b-2", "Z", "é"]
    orders = []
    for target in (pg_target, str(tmp_path / "v.db")):
        async with Store.open(target, clock=fixed_clock()) as store:
            for game_id in ids:
                await store.create_game(game(game_id))
            orders.append([g.id for g in await store.list_games()])
            named = await store.games_named_like("b-")
            orders.append([n for n, _ in named])
    assert orders[0] == orders[2] == sorted(ids)
    assert orders[1] == orders[3] == ["b-10", "b-2"]


async def test_two_processes_opening_a_new_database_migrate_it_once(pg_target: str) -> None:
    stores = await asyncio.gather(*(Store.open(pg_target) for _ in range(4)))
    try:
        assert {s.schema_version for s in stores} == {SCHEMA_VERSION}
        versions = await stores[0]._db.reader.fetch(
            "SELECT version FROM schema_migrations ORDER BY version")
        assert [int(r[0]) for r in versions] == list(range(1, SCHEMA_VERSION + 1))
    finally:
        for store in stores:
            await store.close()


async def test_a_backup_is_refused_with_the_advice_to_use_pg_dump(
    pg_target: str, tmp_path: Path
) -> None:
    async with Store.open(pg_target) as store:
        with pytest.raises(StorageError, match="pg_dump"):
            await store.backup(tmp_path / "copy.db")
        with pytest.raises(StorageError, match="not a SQLite file"):
            _ = store.path
    assert list(tmp_path.iterdir()) == []


async def test_the_stores_own_errors_carry_over(pg_target: str) -> None:
    """A constraint refused inside a commit is a ``StorageError`` naming it, and the pool's
    connection is usable afterwards."""
    async with Store.open(pg_target) as store:
        await store.create_game(game("g1"))
        with pytest.raises(StorageError, match="event_audience"):
            await store.commit("g1", 0, [NewEvent("A", audience="everyone")])
        await store.commit("g1", 0, [NewEvent("A")], [NewDelivery("side", "union", "x")])
        assert [d.text for d in await store.deliveries_for(
            "g1", Recipient("side", "union"))] == ["x"]


async def test_a_picture_shared_by_racing_commits_and_sends_is_never_lost_nor_kept(
    pg_target: str,
) -> None:
    """Two stores (two processes): one keeps committing deliveries that carry the same map
    while the other marks them sent, which drops the stored picture once nothing still needs
    it. No write fails, a delivery still to send always has its picture, and once all are
    sent nothing is kept."""
    png = b"\x89PNG the same map every turn"
    async with Store.open(pg_target) as first, Store.open(pg_target) as second:
        for n in range(4):
            await first.create_game(game(f"g{n}"))
        seqs = dict.fromkeys(range(4), 0)
        sent: list[int] = []

        async def commits(n: int) -> None:
            for turn in range(15):
                await first.commit(f"g{n}", seqs[n], [NewEvent("Turn", {"t": turn})], [
                    NewDelivery("side", "union", f"turn {turn}", image=png,
                                image_name="map.png", image_view="union")])
                seqs[n] += 1
                await asyncio.sleep(0)

        async def sends() -> None:
            for _ in range(400):
                for delivery in await second.pending_deliveries(limit=10):
                    assert delivery.image == png  # still to send: its picture is there
                    await second.mark_sent(delivery.id)
                    sent.append(delivery.id)
                await asyncio.sleep(0.002)
                if len(sent) == 60:
                    return

        await asyncio.gather(*(commits(n) for n in range(4)), sends())
        assert len(sent) == 60 and await first.pending_deliveries() == []
        found = await first._db.reader.fetch("SELECT count(*) FROM pictures")
        assert int(found[0][0]) == 0


PNG = b"\x89PNG a map"
SHA = __import__("hashlib").sha256(PNG).hexdigest()
WHEN = "2026-01-01T00:00:00.000000+00:00"


async def _one_sent_map(store: Store) -> int:
    await store.create_game(game("g1"))
    [first] = await store.commit("g1", 0, [NewEvent("A")], [NewDelivery(
        "side", "union", "map 1", image=PNG, image_name="m.png", image_view="union")])
    return first


async def test_sending_the_last_delivery_of_a_picture_waits_for_a_commit_carrying_it(
    pg_target: str,
) -> None:
    """Another process's commit carries the same picture and is not committed yet: marking the
    last known delivery sent waits for it, then keeps the picture (the new delivery needs it)
    instead of failing or dropping it."""
    async with Store.open(pg_target) as store:
        first = await _one_sent_map(store)
        other = await asyncpg.connect(pg_target)
        try:
            tx = other.transaction()
            await tx.start()
            await other.execute(  # what a commit does, in another process
                "INSERT INTO pictures (sha256, data, stored_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (sha256) DO UPDATE SET stored_at = pictures.stored_at",
                SHA, PNG, WHEN)
            second = await other.fetchval(
                "INSERT INTO deliveries (game_id, seq, kind, target, text, image_name,"
                " created_at, picture, picture_view) VALUES ('g1', 1, 'side', 'union', 'map 2',"
                " 'm.png', $1, $2, 'union') RETURNING id", WHEN, SHA)
            sending = asyncio.create_task(store.mark_sent(first))
            await asyncio.sleep(0.3)
            assert not sending.done()
            await tx.commit()
            await sending
        finally:
            await other.close()
        later = await store.get_delivery(int(second))
        assert later is not None and later.image == PNG


async def test_a_commit_carrying_a_picture_waits_for_a_send_dropping_it(pg_target: str) -> None:
    """Another process is dropping the picture (its last delivery was sent) and has not
    committed: a commit carrying the same picture waits, then stores it again."""
    async with Store.open(pg_target) as store:
        first = await _one_sent_map(store)
        other = await asyncpg.connect(pg_target)
        try:
            tx = other.transaction()
            await tx.start()
            await other.execute(  # what marking the last delivery sent does, elsewhere
                "UPDATE deliveries SET status = 'sent' WHERE id = $1", first)
            await other.execute("SELECT 1 FROM pictures WHERE sha256 = $1 FOR UPDATE", SHA)
            await other.execute("UPDATE deliveries SET picture = NULL WHERE picture = $1", SHA)
            await other.execute("DELETE FROM pictures WHERE sha256 = $1", SHA)
            committing = asyncio.create_task(store.commit("g1", 1, [NewEvent("B")], [
                NewDelivery("side", "union", "map 2", image=PNG, image_name="m.png",
                            image_view="union")]))
            await asyncio.sleep(0.3)
            assert not committing.done()
            await tx.commit()
            [second] = await committing
        finally:
            await other.close()
        later = await store.get_delivery(second)
        assert later is not None and later.image == PNG


async def test_a_nul_character_postgresql_cannot_hold_is_refused_and_nothing_written(
    pg_target: str,
) -> None:
    """PostgreSQL's text holds no NUL character (SQLite's does): such a text is refused with
    the store's error, and the transaction leaves nothing behind."""
    async with Store.open(pg_target) as store:
        await store.create_game(game("g1"))
        with pytest.raises(StorageError, match="commit to game 'g1' failed"):
            await store.commit("g1", 0, [NewEvent("A")], [NewDelivery("public", "", "a\x00b")])
        assert await store.last_seq("g1") == 0 and await store.pending_deliveries() == []


async def test_a_whole_read_sees_one_moment_while_others_commit(pg_target: str) -> None:
    """A copy reads the whole database in one transaction that sees it as it was when the
    transaction began: a game created meanwhile by another process is not half in it."""
    async with Store.open(pg_target) as store, Store.open(pg_target) as other:
        await store.create_game(game("before"))
        async with store._write("read the database to copy", whole=True) as reading:
            first = await reading.fetch("SELECT id FROM games ORDER BY id")
            await other.create_game(game("meanwhile"))
            again = await reading.fetch("SELECT id FROM games ORDER BY id")
            players = await reading.fetch("SELECT 1 FROM games WHERE id = 'meanwhile'")
        assert [r[0] for r in first] == [r[0] for r in again] == ["before"]
        assert players == []
        assert {g.id for g in await store.list_games()} == {"before", "meanwhile"}


def test_only_a_plain_one_row_insert_is_sent_as_multi_row_inserts() -> None:
    """A commit's rows of one table go as multi-row INSERTs; an INSERT … ON CONFLICT does not
    (two of its rows on one key, in one statement, would be refused), nor does anything else."""
    head, group, rows = _values_group("INSERT INTO events (a, b, c) VALUES (?, ?, ?)")
    assert (head, group, rows) == ("INSERT INTO events (a, b, c)", "(?, ?, ?)", 500)
    wide = _values_group(f"INSERT INTO t VALUES ({', '.join(['?'] * 100)})")
    assert wide is not None and wide[2] == 327  # 32767 parameters at most
    for other in ("INSERT INTO p (k, v) VALUES (?, ?) ON CONFLICT (k) DO NOTHING",
                  "INSERT INTO p (k, v) VALUES (?, ?) ON CONFLICT (k, v) DO UPDATE SET v = 1",
                  "INSERT INTO p (k, v) VALUES (?, 'fixed')",
                  "UPDATE p SET v = ? WHERE k = ? AND v IN (SELECT 1 VALUES (?))"):
        assert _values_group(other) is None, other


async def test_a_long_commit_keeps_its_events_in_order_across_statements(pg_target: str
                                                                         ) -> None:
    """1203 events in one commit: three multi-row statements, each row checked by the log's
    next-seq trigger after the rows before it."""
    async with Store.open(pg_target) as store:
        await store.create_game(game("g1"))
        await store.commit("g1", 0, [NewEvent("E", {"n": n}) for n in range(1203)])
        events = await store.events("g1")
        assert [e.seq for e in events] == list(range(1, 1204))
        assert [e.payload["n"] for e in events] == list(range(1203))


async def test_rows_that_meet_on_one_key_still_go_one_after_the_other(pg_target: str) -> None:
    """The same picture carried twice in one commit is stored once (its INSERT … ON CONFLICT
    is not merged into one statement)."""
    async with Store.open(pg_target) as store:
        await store.create_game(game("g1"))
        await store.commit("g1", 0, [NewEvent("A")], [
            NewDelivery("player", "7", "a", b"\x89PNG same", "a.png"),
            NewDelivery("player", "8", "b", b"\x89PNG same", "b.png")])
        found = await store._db.reader.fetch("SELECT count(*) FROM pictures")
        assert found[0][0] == 1
        assert [d.image for d in await store.pending_deliveries()] == [b"\x89PNG same"] * 2
