"""Outbox leases: one holder at a time sends a game's deliveries.

A game's deliveries must reach Discord in the order they were queued (to each recipient), so its
outbox is sent by one holder (one bot process) at a time. Each game has one lease row: who holds
its outbox (``holder``, empty for nobody) and until when (``expires_at``, seconds since the
epoch on the store's clock). A holder claims a game's outbox when nobody holds it, when it holds
it already, or when the lease has run out (its holder died or stalled); it renews the lease
before each send and releases it when done. A lease that ran out and was taken over cannot be
renewed: its old holder learns it lost the outbox and stops.

On PostgreSQL the claim picks the lease rows ``FOR UPDATE SKIP LOCKED``: a row another claimer
is taking at that moment is skipped, never waited for. On SQLite every write transaction holds
the file's write lock, so claims are serialized anyway.

Lease times come from the store's clock, as every stamp in the database does: processes sharing
one database must keep their clocks in step (NTP) to well within a lease.

The table is migration 9 (``storage.migrations`` for SQLite, ``storage.pg_schema`` for
PostgreSQL). Every function here runs inside a write transaction (``Conn`` from
``Database.write``), but ``held``, which reads.
"""

from __future__ import annotations

from storage.sql import Backend, Conn

#: The holder of an outbox nobody holds.
NOBODY = ""

async def add_game(conn: Conn, game_id: str) -> None:
    """The new game's lease row: nobody holds its outbox."""
    await conn.execute(
        "INSERT INTO outbox_leases (game_id, holder, expires_at) VALUES (?, '', 0)"
        " ON CONFLICT (game_id) DO NOTHING", (game_id,))


async def claim(conn: Conn, holder: str, now: float, lease_seconds: float, limit: int, *,
                game_id: str | None = None, after: str = "") -> list[str]:
    """Take the outboxes of up to ``limit`` games with deliveries waiting that nobody else
    holds (or whose lease ran out by ``now``), for ``lease_seconds``; their ids, in game id
    order. ``game_id`` claims that game's only; ``after`` only games whose id sorts after it
    (to go through every game a few at a time)."""
    if limit <= 0:
        return []
    await _add_missing(conn)
    filters = ""
    params: list[object] = [holder, float(now)]
    if game_id is not None:
        filters += " AND l.game_id = ?"
        params.append(game_id)
    if after:
        filters += " AND l.game_id > ?"
        params.append(after)
    # Skip, never wait for, a row another claimer is taking (PostgreSQL; SQLite has one writer).
    skip = " FOR UPDATE OF l SKIP LOCKED" if conn.backend is Backend.POSTGRESQL else ""
    found = await conn.fetch(
        "SELECT l.game_id FROM outbox_leases AS l"
        " WHERE (l.holder = ? OR l.expires_at <= ?)" + filters +
        " AND EXISTS (SELECT 1 FROM deliveries AS d"
        " WHERE d.game_id = l.game_id AND d.status = 'pending')"
        " ORDER BY l.game_id LIMIT ?" + skip,
        [*params, limit])
    claimed = [str(row[0]) for row in found]
    if not claimed:
        return claimed
    until = float(now) + float(lease_seconds)
    await conn.executemany(
        "UPDATE outbox_leases SET holder = ?, expires_at = ? WHERE game_id = ?",
        [(holder, until, claimed_id) for claimed_id in claimed])
    return claimed


async def hold_row(conn: Conn, game_id: str) -> None:
    """Wait until the game's lease row is this transaction's alone (inside a write): on
    PostgreSQL by locking it; SQLite's write already holds the whole file. A time read after
    this is the time the lease is written."""
    if conn.backend is Backend.POSTGRESQL:
        await conn.fetch("SELECT 1 FROM outbox_leases WHERE game_id = ? FOR UPDATE", (game_id,))


async def renew(conn: Conn, holder: str, game_id: str, now: float, lease_seconds: float
                ) -> bool:
    """Extend ``holder``'s lease on the game's outbox to ``lease_seconds`` from ``now``;
    whether ``holder`` still held it (``False``: another holder took it over after the lease
    ran out, or it was released)."""
    changed = await conn.execute(
        "UPDATE outbox_leases SET expires_at = ? WHERE game_id = ? AND holder = ?",
        (float(now) + float(lease_seconds), game_id, holder))
    return changed > 0


async def release(conn: Conn, holder: str, game_id: str) -> bool:
    """Give the game's outbox up, if ``holder`` holds it; whether it did."""
    changed = await conn.execute(
        "UPDATE outbox_leases SET holder = '', expires_at = 0 WHERE game_id = ? AND holder = ?",
        (game_id, holder))
    return changed > 0


async def held(conn: Conn, now: float) -> list[tuple[str, str]]:
    """The outboxes held now, as (game id, holder)."""
    found = await conn.fetch(
        "SELECT game_id, holder FROM outbox_leases WHERE holder <> '' AND expires_at > ?"
        " ORDER BY game_id", (float(now),))
    return [(str(row[0]), str(row[1])) for row in found]


async def _add_missing(conn: Conn) -> None:
    """A lease row for any game with deliveries waiting that has none (one copied into the
    database without its lease rows): otherwise nobody could ever claim its outbox."""
    await conn.execute(
        "INSERT INTO outbox_leases (game_id, holder, expires_at)"
        " SELECT DISTINCT d.game_id, '', 0 FROM deliveries AS d WHERE d.status = 'pending'"
        " AND NOT EXISTS (SELECT 1 FROM outbox_leases AS l WHERE l.game_id = d.game_id)"
        " ON CONFLICT (game_id) DO NOTHING")
