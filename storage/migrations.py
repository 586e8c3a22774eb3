"""Numbered schema migrations, applied when a database is opened.

Both backends have the same migrations, by number and name: SQLite's SQL is here, PostgreSQL's
is in ``storage.pg_schema`` (``POSTGRESQL_SQL``). Each migration runs in its own write
transaction together with the row that records it in ``schema_migrations``, so a migration is
applied entirely or not at all; two processes opening the same new database do not both apply it
(SQLite's ``BEGIN IMMEDIATE`` takes the file's write lock; on PostgreSQL the transaction takes
an advisory lock first). A database whose recorded version is newer than the newest migration
here was written by a newer Vedette and is refused untouched.

To change the schema, append a ``Migration`` with the next number and its PostgreSQL SQL in
``storage.pg_schema``; never edit a released one. Keep SQLite's SQL portable to SQLite 3.31 (no
STRICT tables, no RETURNING, no JSON functions, no ``DROP COLUMN``). What SQL cannot compute (a
SHA-256) a migration's ``then`` step does, in portable SQL (``storage.sql``), in the same
transaction as its SQL.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from storage import pg_schema
from storage.clock import Clock, to_text
from storage.errors import DatabaseTooNew, StorageError
from storage.json_codec import decode_object
from storage.sql import Backend, Conn, Database
from storage.sqlite import SqliteConn, SqliteDatabase

MigrationStep = Callable[[Conn], Awaitable[None]]

#: The advisory lock a PostgreSQL migration's transaction takes first (any fixed number).
_PG_MIGRATION_LOCK = 7_318_004_611


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    #: SQLite's SQL.
    sql: str
    #: Run after the SQL, inside the same transaction (data SQL alone cannot move).
    then: MigrationStep | None = None
    #: PostgreSQL's SQL; ``None``: ``storage.pg_schema.POSTGRESQL_SQL[version]``.
    postgresql: str | None = None

    def sql_for(self, backend: Backend) -> str:
        if backend is Backend.SQLITE:
            return self.sql
        if self.postgresql is not None:
            return self.postgresql
        try:
            return pg_schema.POSTGRESQL_SQL[self.version]
        except KeyError:
            raise StorageError(f"migration {self.version} ({self.name}) has no PostgreSQL SQL"
                               ) from None


_INITIAL = """
CREATE TABLE games (
    id            TEXT PRIMARY KEY NOT NULL,
    scenario_id   TEXT NOT NULL,
    scenario_path TEXT NOT NULL,
    options       TEXT NOT NULL DEFAULT '{}',
    guild_id      INTEGER,
    channel_id    INTEGER,
    host_user_id  INTEGER NOT NULL,
    status        TEXT NOT NULL DEFAULT 'setup',
    seed          BLOB NOT NULL,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    CONSTRAINT game_id_not_empty CHECK (length(id) > 0),
    CONSTRAINT game_status CHECK (status IN ('setup', 'active', 'paused', 'ended')),
    CONSTRAINT game_seed_32_bytes CHECK (typeof(seed) = 'blob' AND length(seed) = 32),
    CONSTRAINT game_guild_id CHECK (typeof(guild_id) IN ('integer', 'null')),
    CONSTRAINT game_channel_id CHECK (typeof(channel_id) IN ('integer', 'null')),
    CONSTRAINT game_host_user_id CHECK (typeof(host_user_id) = 'integer')
);
CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_channel ON games (channel_id);
CREATE INDEX games_by_host ON games (host_user_id);

CREATE TABLE players (
    game_id   TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id   INTEGER NOT NULL,
    side      TEXT NOT NULL,
    dm_ok     INTEGER NOT NULL DEFAULT 0,
    joined_at TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id),
    CONSTRAINT player_user_id CHECK (typeof(user_id) = 'integer'),
    CONSTRAINT player_side_not_empty CHECK (length(side) > 0),
    CONSTRAINT player_dm_ok CHECK (dm_ok IN (0, 1))
);
CREATE INDEX players_by_user ON players (user_id);

CREATE TABLE events (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    type       TEXT NOT NULL,
    payload    TEXT NOT NULL,
    audience   TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq),
    CONSTRAINT event_seq CHECK (typeof(seq) = 'integer' AND seq >= 1),
    CONSTRAINT event_type_not_empty CHECK (length(type) > 0),
    CONSTRAINT event_audience CHECK (
        audience IN ('public', 'umpire')
        OR (substr(audience, 1, 5) = 'side:' AND length(audience) > 5)
    )
);
-- The log is append-only and gapless: an event's seq is the game's last seq + 1, and an event
-- is never rewritten (a rewritten event could re-roll a die).
CREATE TRIGGER events_contiguous BEFORE INSERT ON events
WHEN NEW.seq <> (SELECT coalesce(max(seq), 0) + 1 FROM events WHERE game_id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'event seq is not the next seq of its game');
END;
CREATE TRIGGER events_append_only BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;

CREATE TABLE snapshots (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    payload    TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq),
    CONSTRAINT snapshot_seq CHECK (typeof(seq) = 'integer' AND seq >= 0)
);

CREATE TABLE deliveries (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    kind       TEXT NOT NULL,
    target     TEXT NOT NULL DEFAULT '',
    text       TEXT NOT NULL,
    image      BLOB,
    image_name TEXT,
    buttons    TEXT NOT NULL DEFAULT '[]',
    status     TEXT NOT NULL DEFAULT 'pending',
    attempts   INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    created_at TEXT NOT NULL,
    sent_at    TEXT,
    CONSTRAINT delivery_seq CHECK (typeof(seq) = 'integer' AND seq >= 0),
    CONSTRAINT delivery_kind CHECK (kind IN ('public', 'side', 'player', 'host')),
    CONSTRAINT delivery_target CHECK (
        (kind = 'public' AND target = '')
        OR (kind IN ('side', 'player') AND length(target) > 0)
        OR kind = 'host'
    ),
    CONSTRAINT delivery_image_named CHECK (
        image IS NULL OR (typeof(image) = 'blob' AND length(image_name) > 0)
    ),
    CONSTRAINT delivery_status CHECK (status IN ('pending', 'sent', 'failed')),
    CONSTRAINT delivery_attempts CHECK (attempts >= 0)
);
CREATE INDEX deliveries_pending ON deliveries (id) WHERE status = 'pending';
CREATE INDEX deliveries_by_recipient ON deliveries (game_id, kind, target, id);

CREATE TABLE bot_state (
    key   TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);
"""

# Seats after the start: who asked the host for a seat, and which side each player who left
# (or was unseated) held, so that they can only ever come back to that side.
_SEATS = """
CREATE TABLE seat_requests (
    game_id  TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    side     TEXT NOT NULL,
    asked_at TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id),
    CONSTRAINT seat_request_user_id CHECK (typeof(user_id) = 'integer'),
    CONSTRAINT seat_request_side_not_empty CHECK (length(side) > 0)
);

CREATE TABLE former_players (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    side    TEXT NOT NULL,
    left_at TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id),
    CONSTRAINT former_player_user_id CHECK (typeof(user_id) = 'integer'),
    CONSTRAINT former_player_side_not_empty CHECK (length(side) > 0)
);
"""

# A game is pinned to the scenario and ruleset it was created from: their texts, as read then,
# with their SHA-256. Editing, moving or deleting the files later never changes a game.
_GAME_SOURCES = """
CREATE TABLE game_sources (
    game_id         TEXT PRIMARY KEY NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    scenario_name   TEXT NOT NULL,
    scenario_text   TEXT NOT NULL,
    scenario_sha256 TEXT NOT NULL,
    ruleset_name    TEXT NOT NULL,
    ruleset_text    TEXT NOT NULL,
    ruleset_sha256  TEXT NOT NULL,
    CONSTRAINT sources_scenario_sha256 CHECK (length(scenario_sha256) = 64),
    CONSTRAINT sources_ruleset_sha256 CHECK (length(ruleset_sha256) = 64)
);
-- A game's sources never change once stored.
CREATE TRIGGER game_sources_fixed BEFORE UPDATE ON game_sources
BEGIN
    SELECT RAISE(ABORT, 'game sources never change');
END;
"""

# Which seated players have said they are ready in a step of play (``/done`` on a side shared by
# several players): kept per turn and step, so that a new step starts with nobody ready.
_READY = """
CREATE TABLE ready_players (
    game_id  TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn     INTEGER NOT NULL,
    step     INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    ready_at TEXT NOT NULL,
    PRIMARY KEY (game_id, turn, step, user_id),
    CONSTRAINT ready_user_id CHECK (typeof(user_id) = 'integer'),
    CONSTRAINT ready_turn CHECK (typeof(turn) = 'integer' AND turn >= 0),
    CONSTRAINT ready_step CHECK (typeof(step) = 'integer' AND step >= 0)
);
"""

# A play group's phase deadlines: the length the host set for every phase (none: no deadline),
# and for each step what the clock has already done (extended, reminded, passed), so that a
# restart neither forgets a deadline nor sends a reminder twice. When the step began is the
# stored time of its ``phase_began`` event.
_PHASE_DEADLINES = """
CREATE TABLE phase_deadline_settings (
    game_id        TEXT PRIMARY KEY NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    length_seconds INTEGER,
    set_at         TEXT NOT NULL,
    CONSTRAINT deadline_length CHECK (length_seconds IS NULL
        OR (typeof(length_seconds) = 'integer' AND length_seconds > 0))
);

CREATE TABLE phase_deadline_steps (
    game_id       TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn          INTEGER NOT NULL,
    step          INTEGER NOT NULL,
    extra_seconds INTEGER NOT NULL DEFAULT 0,
    reminded_at   TEXT,
    passed_at     TEXT,
    PRIMARY KEY (game_id, turn, step),
    CONSTRAINT deadline_extra CHECK (typeof(extra_seconds) = 'integer' AND extra_seconds >= 0)
);
"""

# A delivery may edit the message an earlier one posted (the turn's status post): the key that
# ties them together, the users its post may notify, and whether it was shown already when it
# was queued (the answer to a command showed it to the player who gave it).
_EDITS_AND_MENTIONS = """
ALTER TABLE deliveries ADD COLUMN edit_key TEXT NOT NULL DEFAULT '';
ALTER TABLE deliveries ADD COLUMN mentions TEXT NOT NULL DEFAULT '[]';
"""

# A picture (or any attachment) is stored once, keyed by its SHA-256, however many deliveries
# carry it. ``picture_view`` names the view a map was drawn from (a side id or 'umpire'): such a
# picture can be drawn again from the log, so it is dropped once every delivery carrying it has
# been handed over (see docs/hosting.md); a picture without one is kept. The old ``image``
# column stays (SQLite 3.31 cannot drop a column) and is emptied by the carry-over below.
_PICTURES = """
CREATE TABLE pictures (
    sha256    TEXT PRIMARY KEY NOT NULL,
    data      BLOB NOT NULL,
    stored_at TEXT NOT NULL,
    CONSTRAINT picture_sha256 CHECK (length(sha256) = 64),
    CONSTRAINT picture_data CHECK (typeof(data) = 'blob')
);
ALTER TABLE deliveries ADD COLUMN picture TEXT REFERENCES pictures (sha256)
    CONSTRAINT delivery_picture_named CHECK (picture IS NULL OR length(image_name) > 0);
ALTER TABLE deliveries ADD COLUMN picture_view TEXT;
CREATE INDEX deliveries_by_picture ON deliveries (picture) WHERE picture IS NOT NULL;
"""


async def _carry_pictures_over(conn: Conn) -> None:
    """Move each delivery's own copy of its attachment into ``pictures`` (one row per distinct
    picture) and point the delivery at it. The view it was drawn from is not known for these,
    so they are all kept."""
    found = await conn.fetch(
        "SELECT id, image, created_at FROM deliveries WHERE image IS NOT NULL ORDER BY id")
    for delivery_id, image, created_at in found:
        sha = hashlib.sha256(bytes(image)).hexdigest()
        await conn.execute(
            "INSERT INTO pictures (sha256, data, stored_at) VALUES (?, ?, ?)"
            " ON CONFLICT (sha256) DO NOTHING",
            (sha, bytes(image), created_at))
        await conn.execute("UPDATE deliveries SET picture = ?, image = NULL WHERE id = ?",
                           (sha, delivery_id))


# Orders waiting for their player's confirmation (storage.pending_orders): the turn and step
# they were previewed in, so that a Confirm after that phase is refused, and where the preview
# was shown, so that it can be edited to say it expired. The moves that waited under the old
# key-value rows are carried over as expired: they never recorded their phase.
_PENDING_ORDERS = """
CREATE TABLE pending_orders (
    id         TEXT PRIMARY KEY NOT NULL,
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    kind       TEXT NOT NULL,
    body       TEXT NOT NULL,
    turn       INTEGER NOT NULL,
    step       INTEGER NOT NULL,
    status     TEXT NOT NULL,
    shown      TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL,
    CONSTRAINT pending_user_id CHECK (typeof(user_id) = 'integer'),
    CONSTRAINT pending_turn CHECK (typeof(turn) = 'integer'),
    CONSTRAINT pending_step CHECK (typeof(step) = 'integer')
);
CREATE INDEX pending_orders_open ON pending_orders (game_id) WHERE status = 'open';
"""


async def _carry_pending_moves_over(conn: Conn) -> None:
    """Old pending moves (``bot_state`` rows ``pending-move:<id>``) become expired rows; a
    Confirm on one then says so. Their key-value rows are removed."""
    found = await conn.fetch(
        "SELECT key, value FROM bot_state WHERE key LIKE 'pending-move:%'")
    for key, value in found:
        try:
            data = decode_object(value, f"bot state {key!r}")
            row = (str(data["id"]), str(data["game_id"]), int(data["user_id"]),
                   json.dumps({"unit": str(data["unit"]), "route": str(data["route"])}),
                   "expired" if data.get("status") == "open" else str(data["status"]))
        except (StorageError, ValueError, KeyError, TypeError):
            continue
        await conn.execute(
            "INSERT INTO pending_orders (id, game_id, user_id, kind, body, turn, step,"
            " status, created_at) SELECT CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT),"
            " 'move', CAST(? AS TEXT), -1, -1, CAST(? AS TEXT), created_at FROM games"
            " WHERE id = ? ON CONFLICT (id) DO NOTHING", (*row[:5], row[1]))
        await conn.execute("DELETE FROM bot_state WHERE key = ?", (key,))


# Outbox leases (storage.outbox_leases): one row per game (made for every game there is), saying
# which holder (process) sends its outbox and until when (seconds since the epoch; 0 and no
# holder: nobody); and an index that finds one game's pending deliveries without the others'.
_OUTBOX_LEASES = """
CREATE TABLE outbox_leases (
    game_id    TEXT PRIMARY KEY NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    holder     TEXT NOT NULL DEFAULT '',
    expires_at REAL NOT NULL DEFAULT 0,
    CONSTRAINT outbox_lease_nobody_expired CHECK (holder <> '' OR expires_at = 0)
);
INSERT INTO outbox_leases (game_id) SELECT id FROM games;
CREATE INDEX deliveries_pending_by_game ON deliveries (game_id, id) WHERE status = 'pending';
"""

# Outbox lanes (storage.outbox_leases): the lease moves from the game to each of its lanes (one
# audience's deliveries: ``kind:target``), so that two lanes of one game go out side by side.
# Rows are made when a lane first has deliveries waiting; the old per-game rows go.
_OUTBOX_LANES = """
CREATE TABLE outbox_lanes (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    lane       TEXT NOT NULL,
    holder     TEXT NOT NULL DEFAULT '',
    expires_at REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, lane),
    CONSTRAINT outbox_lane_nobody_expired CHECK (holder <> '' OR expires_at = 0)
);
DROP TABLE outbox_leases;
"""

# News held for a side's next turn dossier (storage.held_news): texts by side, in order. And
# events found by their type without reading the rest of the log: a step's clock reads its
# last phase_began on every commit, in a time that must not grow with the hidden events.
_HELD_NEWS = """
CREATE TABLE held_news (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    side    TEXT NOT NULL,
    n       INTEGER NOT NULL,
    text    TEXT NOT NULL,
    PRIMARY KEY (game_id, side, n)
);
CREATE INDEX events_by_type ON events (game_id, type, seq);
"""

# The section of a side's dossier each piece of held news goes in (``umpire.words.dossier``);
# news held before it reads as what happened to the side's units.
_HELD_SECTIONS = """
ALTER TABLE held_news ADD COLUMN section TEXT NOT NULL DEFAULT 'happened';
"""

# Orders that stand (``storage.standing``): a player's Done for the rest of a turn, with the seq
# of the log it was given at (what the side is told after it may ask the player again), and the
# standing orders of a side's units and commands, with the player who set each.
_STANDING = """
CREATE TABLE turn_done (
    game_id  TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn     INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    at_seq   INTEGER NOT NULL,
    done_at  TEXT NOT NULL,
    PRIMARY KEY (game_id, turn, user_id),
    CONSTRAINT turn_done_user_id CHECK (typeof(user_id) = 'integer'),
    CONSTRAINT turn_done_turn CHECK (typeof(turn) = 'integer' AND turn >= 0)
);
CREATE TABLE standing_orders (
    game_id  TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    side     TEXT NOT NULL,
    unit     TEXT NOT NULL,
    standing TEXT NOT NULL,
    route    TEXT NOT NULL DEFAULT '',
    user_id  INTEGER NOT NULL,
    set_at   TEXT NOT NULL,
    PRIMARY KEY (game_id, side, unit),
    CONSTRAINT standing_user_id CHECK (typeof(user_id) = 'integer')
);
"""


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial schema", _INITIAL),
    Migration(2, "seat requests and former players", _SEATS),
    Migration(3, "scenario and ruleset stored with each game", _GAME_SOURCES),
    Migration(4, "players ready in a step of play", _READY),
    Migration(5, "phase deadlines", _PHASE_DEADLINES),
    Migration(6, "deliveries that edit an earlier post, and whom they mention",
              _EDITS_AND_MENTIONS),
    Migration(7, "pictures stored once", _PICTURES, then=_carry_pictures_over),
    Migration(8, "orders waiting for a confirmation, with their phase", _PENDING_ORDERS,
              then=_carry_pending_moves_over),
    Migration(9, "outbox leases: one holder at a time sends a game's deliveries",
              _OUTBOX_LEASES),
    Migration(10, "outbox lanes: each audience's deliveries go out on their own",
              _OUTBOX_LANES),
    Migration(11, "news held for a side's next turn dossier; events by type", _HELD_NEWS),
    Migration(12, "held news by dossier section", _HELD_SECTIONS),
    Migration(13, "a turn's Done and standing orders", _STANDING),
)
SCHEMA_VERSION = MIGRATIONS[-1].version
"""The newest schema this code knows."""

_CREATE_LEDGER = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY NOT NULL,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
)
"""


def statements(sql: str) -> list[str]:
    """Split a script into complete statements (triggers included), dropping comments-only
    remainders."""
    result: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            result.append(buffer.strip())
            buffer = ""
    rest = "\n".join(
        line for line in buffer.splitlines() if line.strip() and not line.strip().startswith("--")
    )
    if rest.strip():
        raise ValueError(f"incomplete SQL statement at the end of a migration: {rest.strip()!r}")
    return result


async def recorded_version(conn: Conn) -> int:
    """The newest migration recorded in the database (0 for a new one)."""
    found = await conn.fetch("SELECT coalesce(max(version), 0) FROM schema_migrations")
    return int(found[0][0])


async def migrate(
    db: Database | aiosqlite.Connection,
    where: str | Path,
    now: Clock,
    migrations: Sequence[Migration] = MIGRATIONS,
) -> int:
    """Bring the database ``db`` (a driver's database, or one SQLite connection) up to the
    newest of ``migrations``; return its version. ``where`` names it in messages.

    Raises :class:`DatabaseTooNew` if the database records a newer version than
    ``migrations`` knows, ``StorageError`` if a migration fails (nothing of it is kept).
    """
    database: Database = _OneConnection(db, str(where)) if isinstance(
        db, aiosqlite.Connection) else db
    known = migrations[-1].version if migrations else 0
    current = await recorded_or_zero(database, where)
    _refuse_newer(where, current, known)
    for migration in migrations:
        if migration.version <= current:
            continue
        sql = migration.sql_for(database.backend)
        async with database.write(f"migrating database {where} to schema {migration.version}"
                                  ) as conn:
            await _lock(conn)
            current = await recorded_version(conn)  # another process may have been first
            _refuse_newer(where, current, known)
            if migration.version <= current:
                continue
            if conn.backend is Backend.SQLITE:
                for statement in statements(sql):
                    await conn.execute(statement)
            else:  # one script, PL/pgSQL bodies and all
                await conn.execute(sql)
            if migration.then is not None:
                await migration.then(conn)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, to_text(now())),
            )
        current = migration.version
    return current


async def recorded_or_zero(db: Database, where: str | Path) -> int:
    """The newest migration recorded in ``db``, creating the (empty) record of migrations in a
    new database: 0 then."""
    async with db.write(f"migrating database {where}") as conn:
        await _lock(conn)
        await conn.execute(_CREATE_LEDGER)
        return await recorded_version(conn)


async def _lock(conn: Conn) -> None:
    """On PostgreSQL, one migrating process at a time (SQLite's write lock does this)."""
    if conn.backend is Backend.POSTGRESQL:
        await conn.fetch(f"SELECT pg_advisory_xact_lock({_PG_MIGRATION_LOCK})")


class _OneConnection(SqliteDatabase):
    """One SQLite connection used as a database (migrating a file outside a ``Store``)."""

    def __init__(self, conn: aiosqlite.Connection, where: str) -> None:
        super().__init__(Path(where), conn, conn)
        self.writer = SqliteConn(conn)


def _refuse_newer(where: str | Path, current: int, known: int) -> None:
    if current > known:
        raise DatabaseTooNew(
            f"database {where} was written by a newer Vedette (schema {current} > {known}); "
            "upgrade Vedette"
        )
