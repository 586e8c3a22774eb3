"""Outbox leases: one holder at a time sends each lane of a game's outbox.

A game's deliveries go out in **lanes**, one per audience: the game's channel, each player's
DMs, a side's inbox, the host. Within a lane the deliveries must reach Discord in the order they
were queued; between lanes there is no order at all, so that nothing one audience is sent ever
waits behind what another is sent (DESIGN.md, "Timing tells nothing"). A lane's name is its
deliveries' ``kind:target`` (``public:``, ``player:1234``, ``side:union``, ``host:42``).

Each lane that has had deliveries has one lease row: who holds it (``holder``, empty for
nobody) and until when (``expires_at``, seconds since the epoch on the store's clock). A holder
claims a lane when nobody holds it, when it holds it already, or when the lease has run out (its
holder died or stalled); it renews the lease before each send and releases it when done. A
lease that ran out and was taken over cannot be renewed: its old holder learns it lost the lane
and stops. Two holders may therefore send two lanes of one game at once, each in its own order:
a process that has just queued a player's message sends it at once, even while another process
is still sending the enemy's.

On PostgreSQL the claim picks the lease rows ``FOR UPDATE SKIP LOCKED``: a row another claimer
is taking at that moment is skipped, never waited for. On SQLite every write transaction holds
the file's write lock, so claims are serialized anyway.

Lease times come from the store's clock, as every stamp in the database does: processes sharing
one database must keep their clocks in step (NTP) to well within a lease.

The table is migration 10 (``storage.migrations`` for SQLite, ``storage.pg_schema`` for
PostgreSQL). Every function here runs inside a write transaction (``Conn`` from
``Database.write``), but ``held``, which reads.
"""

from __future__ import annotations

from collections.abc import Collection

from storage.sql import Backend, Conn

#: The holder of a lane nobody holds.
NOBODY = ""

#: A delivery's lane, in SQL over ``deliveries AS d`` (the same on both backends).
LANE_OF_DELIVERY = "(d.kind || ':' || d.target)"


def lane_of(kind: str, target: str) -> str:
    """The lane a delivery of ``kind`` to ``target`` goes out in (``LANE_OF_DELIVERY``)."""
    return f"{kind}:{target}"


async def claim(conn: Conn, holder: str, now: float, lease_seconds: float, limit: int, *,
                game_id: str | None = None, after: str = "") -> list[str]:
    """Take, for ``lease_seconds``, every lane with deliveries waiting that nobody else holds
    (or whose lease ran out by ``now``) in up to ``limit`` games; the games' ids, in id order.
    ``game_id`` claims that game's lanes only; ``after`` only games whose id sorts after it (to
    go through every game a few at a time)."""
    if limit <= 0:
        return []
    await _add_missing(conn, game_id)
    filters, params = _filters(game_id, after)
    found = await conn.fetch(
        "SELECT DISTINCT l.game_id FROM outbox_lanes AS l"
        " WHERE (l.holder = ? OR l.expires_at <= ?)" + filters + _WAITING +
        " ORDER BY l.game_id LIMIT ?", [holder, float(now), *params, limit])
    # A game whose every free row another claimer is taking right now is not claimed.
    return [game for game in (str(row[0]) for row in found)
            if await claim_lanes(conn, holder, now, lease_seconds, game)]


async def claim_lanes(conn: Conn, holder: str, now: float, lease_seconds: float,
                      game_id: str, lane: str | None = None) -> list[str]:
    """Take, for ``lease_seconds``, the game's lanes (or its ``lane`` only) with deliveries
    waiting that nobody else holds (or whose lease ran out by ``now``); their names, in name
    order."""
    await _add_missing(conn, game_id)
    # Skip, never wait for, a row another claimer is taking (PostgreSQL; SQLite has one writer).
    skip = " FOR UPDATE OF l SKIP LOCKED" if conn.backend is Backend.POSTGRESQL else ""
    params: list[object] = [game_id, holder, float(now)]
    only = ""
    if lane is not None:
        only = " AND l.lane = ?"
        params.append(lane)
    found = await conn.fetch(
        "SELECT l.lane FROM outbox_lanes AS l WHERE l.game_id = ?"
        " AND (l.holder = ? OR l.expires_at <= ?)" + only + _WAITING + " ORDER BY l.lane"
        + skip, params)
    lanes = [str(row[0]) for row in found]
    until = float(now) + float(lease_seconds)
    await conn.executemany(
        "UPDATE outbox_lanes SET holder = ?, expires_at = ? WHERE game_id = ? AND lane = ?",
        [(holder, until, game_id, lane) for lane in lanes])
    return lanes


async def hold_row(conn: Conn, game_id: str, lane: str) -> None:
    """Wait until the lane's lease row is this transaction's alone (inside a write): on
    PostgreSQL by locking it; on SQLite by holding the whole file (``Conn.hold``). A time read
    after this is the time the lease is written."""
    if conn.backend is Backend.POSTGRESQL:
        await conn.fetch("SELECT 1 FROM outbox_lanes WHERE game_id = ? AND lane = ? FOR UPDATE",
                         (game_id, lane))
    else:
        await conn.hold()


async def renew(conn: Conn, holder: str, game_id: str, lane: str, now: float,
                lease_seconds: float) -> bool:
    """Extend ``holder``'s lease on the lane to ``lease_seconds`` from ``now``; whether
    ``holder`` still held it (``False``: another holder took it over after the lease ran out,
    or it was released)."""
    changed = await conn.execute(
        "UPDATE outbox_lanes SET expires_at = ? WHERE game_id = ? AND lane = ? AND holder = ?",
        (float(now) + float(lease_seconds), game_id, lane, holder))
    return changed > 0


async def release(conn: Conn, holder: str, game_id: str, lane: str | None = None, *,
                  keep: Collection[str] = ()) -> bool:
    """Give up the lane (``None``: every lane of the game but those in ``keep``) if
    ``holder`` holds it; whether it held any."""
    sql = ("UPDATE outbox_lanes SET holder = '', expires_at = 0"
           " WHERE game_id = ? AND holder = ?")
    params: list[object] = [game_id, holder]
    if lane is not None:
        sql += " AND lane = ?"
        params.append(lane)
    for kept in keep:
        sql += " AND lane <> ?"
        params.append(kept)
    return await conn.execute(sql, params) > 0


async def held(conn: Conn, now: float) -> list[tuple[str, str]]:
    """The games with a lane held now, as (game id, holder), once each."""
    found = await conn.fetch(
        "SELECT DISTINCT game_id, holder FROM outbox_lanes WHERE holder <> ''"
        " AND expires_at > ? ORDER BY game_id, holder", (float(now),))
    return [(str(row[0]), str(row[1])) for row in found]


#: A lease row's lane has deliveries waiting (over ``outbox_lanes AS l``).
_WAITING = (" AND EXISTS (SELECT 1 FROM deliveries AS d WHERE d.game_id = l.game_id"
            f" AND d.status = 'pending' AND {LANE_OF_DELIVERY} = l.lane)")


def _filters(game_id: str | None, after: str) -> tuple[str, list[object]]:
    filters, params = "", list[object]()
    if game_id is not None:
        filters += " AND l.game_id = ?"
        params.append(game_id)
    if after:
        filters += " AND l.game_id > ?"
        params.append(after)
    return filters, params


async def _add_missing(conn: Conn, game_id: str | None) -> None:
    """A lease row for every lane with deliveries waiting that has none yet (a new audience,
    or a game copied into the database without its lease rows): rows are made when first
    needed, so that an audience that never hears anything costs nothing."""
    only = " AND d.game_id = ?" if game_id is not None else ""
    await conn.run(
        f"INSERT INTO outbox_lanes (game_id, lane, holder, expires_at)"
        f" SELECT DISTINCT d.game_id, {LANE_OF_DELIVERY}, '', 0 FROM deliveries AS d"
        f" WHERE d.status = 'pending'{only} AND NOT EXISTS (SELECT 1 FROM outbox_lanes AS l"
        f" WHERE l.game_id = d.game_id AND l.lane = {LANE_OF_DELIVERY})"
        " ON CONFLICT (game_id, lane) DO NOTHING", () if game_id is None else (game_id,))
