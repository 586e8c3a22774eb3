"""``Store``: the one door to the database for the rest of Vedette.

One database holds every game: a SQLite file, or a PostgreSQL database (the target is a
``postgresql://`` URL). The store is written once, on the driver API of ``storage.sql``:

- on SQLite (``storage.sqlite``) it keeps two connections to the file: a *writer* running every
  write, one transaction at a time, and a read-only *reader* that sees only committed
  transactions (WAL mode);
- on PostgreSQL (``storage.postgres``) it keeps a pool: each read takes a connection for one
  statement, each write a connection for one transaction. A write to a game first locks the
  game's row (``SELECT … FOR UPDATE``; a commit's own ``UPDATE games`` does it in the same
  statement), so that the writes to one game are serialized across every process sharing the
  database, as SQLite's file lock serializes them.

A write method returning means its transaction is committed and on disk (SQLite's
``synchronous=FULL``, see ``storage.db``; PostgreSQL's ``synchronous_commit`` as the server is
configured, on by default): the caller may tell a player "accepted".
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
from collections.abc import (
    AsyncIterator,
    Callable,
    Collection,
    Coroutine,
    Generator,
    Mapping,
    Sequence,
)
from contextlib import asynccontextmanager
from datetime import datetime
from os import PathLike
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple, Unpack

from storage import (
    held_news,
    outbox_leases,
    pending_orders,
    phase_deadlines,
    rows,
    seat_notices,
)
from storage.backup import backup_file
from storage.clock import Clock, to_text, utc_now
from storage.database import open_database
from storage.errors import AlreadyExistsError, ConcurrencyError, NotFoundError, StorageError
from storage.json_codec import JsonObject, decode_object, encode
from storage.migrations import migrate
from storage.pending_orders import PendingRow
from storage.phase_deadlines import DeadlineSetting, StepDeadline, StepMark
from storage.records import (
    DeliveryRecord,
    EventRecord,
    GameNow,
    GameRecord,
    GameSources,
    GameStatus,
    GameUpdate,
    NewDelivery,
    NewEvent,
    PlayerRecord,
    Recipient,
    SeatAsked,
    SeatRequest,
    Snapshot,
)
from storage.seat_notices import SeatNotice
from storage.sql import Backend, Conn, Database, Row
from storage.sqlite import RETURNING, SqliteDatabase

_UPDATABLE = frozenset(GameUpdate.__annotations__)


#: A step's clock events (``Store.step_clock_events``): sought through ``events_by_type``
#: (migration 11), never by reading the game's whole log.
_LAST_PHASE_BEGAN = "(SELECT max(seq) FROM events WHERE game_id = ? AND type = 'phase_began')"
STEP_CLOCK_EVENTS = (
    f"SELECT {rows.EVENT_COLUMNS} FROM events WHERE game_id = ? AND type = 'phase_began'"
    f" AND seq = {_LAST_PHASE_BEGAN} UNION ALL"
    f" SELECT {rows.EVENT_COLUMNS} FROM events WHERE game_id = ? AND type = 'game_paused'"
    f" AND seq > {_LAST_PHASE_BEGAN} ORDER BY seq")

class Store:
    """Games, players, the event log, snapshots, the outbox and the bot's own state.

    Open with ``store = await Store.open(target)`` or ``async with Store.open(target) as
    store:``.
    """

    def __init__(self, db: Database, clock: Clock, schema_version: int) -> None:
        """Use :meth:`open`."""
        self._db = db
        self._clock = clock
        self._schema_version = schema_version
        self._closed = False

    # -- lifecycle ---------------------------------------------------------------------------

    @classmethod
    def open(cls, target: str | PathLike[str], *, clock: Clock = utc_now) -> StoreOpener:
        """Open the database ``target`` (a SQLite file path, or a ``postgresql://`` URL; see
        ``storage.sql.database_kind``), check it, and bring its schema up to date.

        A SQLite file is created if missing. Refuses (``DatabaseUnusable``, one line saying why)
        a file that is missing with no folder to create it in, read-only, not a SQLite database,
        truncated or damaged, and ``':memory:'`` (the store needs a file its two connections
        share); a PostgreSQL server that cannot be reached or refuses the login; and, on either,
        a database written by a newer Vedette (``DatabaseTooNew``)."""
        return StoreOpener(lambda: cls._open(target, clock))

    @classmethod
    async def _open(cls, target: str | PathLike[str], clock: Clock) -> Store:
        db = await open_database(target)
        try:
            version = await migrate(db, db.target, clock)
        except BaseException:
            await db.close()
            raise
        return cls(db, clock, version)

    async def close(self) -> None:
        """Close the store's connections (waiting for a transaction in progress). Idempotent."""
        if self._closed:
            return
        self._closed = True
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def backend(self) -> Backend:
        return self._db.backend

    @property
    def target(self) -> str:
        """The database, as named in messages: a file path, or a URL without its password."""
        return self._db.target

    @property
    def path(self) -> Path:
        """The SQLite file. A PostgreSQL store has none: ``StorageError``."""
        if not isinstance(self._db, SqliteDatabase):
            raise StorageError(f"the store on {self.target} is not a SQLite file")
        return self._db.path

    @property
    def schema_version(self) -> int:
        return self._schema_version

    async def backup(self, dest_path: str | PathLike[str], *, overwrite: bool = False) -> Path:
        """Back up the live database to ``dest_path`` and return its resolved path.

        Uses SQLite's online backup API from a connection of its own, in a worker thread: games go
        on being played meanwhile, and the copy is a consistent snapshot holding every commit that
        returned before the call. The result is one self-contained file (not in WAL mode) that
        ``Store.open`` reads like the original; restoring is stopping the bot and putting the file
        in place of the database (removing the old ``-wal`` and ``-shm`` files next to it).
        Refuses to replace an existing file unless ``overwrite``.

        SQLite only: a PostgreSQL database is backed up with the server's own tools
        (``pg_dump``), and this refuses with a ``StorageError`` saying so.
        """
        self._check_open()
        if not isinstance(self._db, SqliteDatabase):
            raise StorageError(
                f"the database is on PostgreSQL ({self.target}): back it up with pg_dump "
                "(see docs/hosting.md); Vedette's backup copies SQLite files only")
        return await asyncio.to_thread(
            backup_file, self._db.path, Path(dest_path), overwrite=overwrite
        )

    # -- games -------------------------------------------------------------------------------

    async def create_game(
        self, game: GameRecord, sources: GameSources | None = None
    ) -> GameRecord:
        """Insert ``game`` (its timestamps are set now), with the scenario and ruleset texts it
        is pinned to (``sources``) in the same transaction, and return it as stored.
        Raises ``AlreadyExistsError`` if a game with its id exists."""
        now = to_text(self._now())
        values = (
            game.id,
            game.scenario_id,
            game.scenario_path,
            encode(game.options, f"options of game {game.id!r}"),
            game.guild_id,
            game.channel_id,
            game.host_user_id,
            game.status,
            game.seed,
            now,
            now,
        )
        async with self._write(f"create game {game.id!r}") as conn:
            if await _lock_game(conn, game.id) is not None:
                raise AlreadyExistsError(f"game {game.id!r} already exists")
            await conn.run(
                f"INSERT INTO games ({rows.GAME_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)", values
            )
            if sources is not None:
                await conn.run(
                    f"INSERT INTO game_sources (game_id, {rows.SOURCES_COLUMNS})"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game.id, *rows.sources_values(sources)),
                )
            return await _load_game(conn, game.id)

    async def game_sources(self, game_id: str) -> GameSources | None:
        """The scenario and ruleset texts the game was created from; ``None`` for a game
        created before they were stored (or an unknown game)."""
        found = await self._read(
            f"SELECT {rows.SOURCES_COLUMNS} FROM game_sources WHERE game_id = ?", (game_id,)
        )
        return rows.sources(found[0]) if found else None

    async def get_game(self, game_id: str) -> GameRecord | None:
        found = await self._read(f"SELECT {rows.GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return rows.game(found[0]) if found else None

    async def game_and_last_seq(self, game_id: str) -> tuple[GameRecord, int] | None:
        """The game and the seq of its last event (0 if none), read together in one query;
        ``None`` if there is no such game. For a caller that checks its cached state is current
        before every command."""
        found = await self._read(
            f"SELECT {rows.GAME_COLUMNS}, (SELECT coalesce(max(seq), 0) FROM events"
            " WHERE events.game_id = games.id) AS last_seq FROM games WHERE id = ?",
            (game_id,),
        )
        return (rows.game(found[0]), int(found[0]["last_seq"])) if found else None

    async def game_now(self, game_id: str) -> GameNow | None:
        """The game, the seq of its last event and its seated players, read in one query (one
        moment of the database, on either backend); ``None`` if there is no such game. What a
        command needs to know before it is decided: one round trip instead of three."""
        found = await self._read(
            f"SELECT {rows.GAME_AND_PLAYER_COLUMNS}, (SELECT coalesce(max(seq), 0) FROM events"
            " WHERE events.game_id = g.id) AS last_seq"
            " FROM games AS g LEFT JOIN players AS p ON p.game_id = g.id WHERE g.id = ?"
            " ORDER BY p.joined_at, p.user_id",
            (game_id,),
        )
        if not found:
            return None
        # A game with nobody seated is one row whose player columns are all NULL.
        players = tuple(rows.player(row) for row in found if row["user_id"] is not None)
        return GameNow(rows.game(found[0]), int(found[0]["last_seq"]), players)

    async def list_games(
        self,
        status: GameStatus | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
    ) -> list[GameRecord]:
        """Games matching every filter given, oldest first."""
        clauses: list[str] = []
        params: list[Any] = []
        for column, value in (
            ("status", status),
            ("channel_id", channel_id),
            ("guild_id", guild_id),
        ):
            if value is not None:
                clauses.append(f"{column} = ?")
                params.append(value)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        found = await self._read(
            f"SELECT {rows.GAME_COLUMNS} FROM games {where} ORDER BY created_at, id", params
        )
        return [rows.game(row) for row in found]

    async def games_named_like(self, prefix: str) -> list[tuple[str, int | None]]:
        """Every game whose id starts with ``prefix``, as its id and its server (``None`` for a
        game made outside Discord): for numbering a new game after its scenario."""
        found = await self._read(
            "SELECT id, guild_id FROM games WHERE substr(id, 1, ?) = ? ORDER BY id",
            (len(prefix), prefix),
        )
        return [(str(row["id"]), None if row["guild_id"] is None else int(row["guild_id"]))
                for row in found]

    async def games_of_user(
        self, user_id: int, status: GameStatus | None = None
    ) -> list[GameRecord]:
        """Games ``user_id`` plays in or hosts (optionally only those in ``status``), oldest
        first."""
        sql = (
            f"SELECT {rows.GAME_COLUMNS} FROM games"
            " WHERE (id IN (SELECT game_id FROM players WHERE user_id = ?) OR host_user_id = ?)"
        )
        params: list[Any] = [user_id, user_id]
        if status is not None:
            sql += " AND status = ?"
            params.append(status)
        found = await self._read(sql + " ORDER BY created_at, id", params)
        return [rows.game(row) for row in found]

    async def update_game(self, game_id: str, **fields: Unpack[GameUpdate]) -> GameRecord:
        """Change some of a game's fields (see ``GameUpdate``); return the game as stored.
        Raises ``NotFoundError`` for an unknown game, ``TypeError`` for a field that cannot
        change."""
        assignments, params = self._assignments(game_id, fields)
        async with self._write(f"update game {game_id!r}") as conn:
            changed = await conn.execute(
                f"UPDATE games SET {assignments} WHERE id = ?", (*params, game_id)
            )
            if changed == 0:
                raise NotFoundError(f"no game {game_id!r}")
            return await _load_game(conn, game_id)

    async def change_options(self, game_id: str, change: Callable[[JsonObject], JsonObject]
                             ) -> GameRecord:
        """Change a game's options from what they are when the change is written: ``change``
        gets a copy of the stored options and returns the options to store, all in one
        transaction holding the game's lock. Two processes changing different keys of one
        game's options then both keep their change (a read elsewhere, then ``update_game``,
        would write back whatever the other process changed meanwhile as it was before).
        ``change`` must not await: it runs inside the transaction. Return the game as stored;
        raises ``NotFoundError`` for an unknown game."""
        async with self._write(f"change the options of game {game_id!r}") as conn:
            if await _lock_game(conn, game_id) is None:
                raise NotFoundError(f"no game {game_id!r}")
            # Read after the lock is granted: on PostgreSQL a later statement sees every
            # transaction committed before it began.
            stored = await _load_game(conn, game_id)
            options = change(copy.deepcopy(stored.options))
            assignments, params = self._assignments(game_id, {"options": options})
            await conn.run(f"UPDATE games SET {assignments} WHERE id = ?", (*params, game_id))
            return await _load_game(conn, game_id)

    # -- players -----------------------------------------------------------------------------

    async def add_player(
        self, game_id: str, user_id: int, side: str, *, dm_ok: bool = False,
        at_seq: int | None = None,
    ) -> PlayerRecord:
        """Seat ``user_id`` on ``side``. Raises ``NotFoundError`` for an unknown game and
        ``AlreadyExistsError`` if the user is already in it. ``at_seq``: the seq of the game
        the seat was decided at (a seat before the start); ``ConcurrencyError`` if the game
        has moved on since, so that a seat decided before the start is never written after
        it."""
        now = to_text(self._now())
        async with self._write(f"add player {user_id} to game {game_id!r}") as conn:
            _check_seq(game_id, await _lock_game(conn, game_id), at_seq)
            if await _load_player(conn, game_id, user_id) is not None:
                raise AlreadyExistsError(f"user {user_id} is already in game {game_id!r}")
            await conn.run(
                f"INSERT INTO players ({rows.PLAYER_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
                (game_id, user_id, side, int(dm_ok), now),
            )
            return await _require_player(conn, game_id, user_id)

    async def remove_player(self, game_id: str, user_id: int, *,
                            at_seq: int | None = None) -> bool:
        """Unseat ``user_id``; return whether they were in the game. ``at_seq`` as for
        :meth:`add_player`."""
        async with self._write(f"remove player {user_id} from game {game_id!r}") as conn:
            last = await _lock_game(conn, game_id)
            if at_seq is not None:
                _check_seq(game_id, last, at_seq)
            removed = await conn.execute(
                "DELETE FROM players WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            return removed > 0

    async def players(self, game_id: str) -> list[PlayerRecord]:
        """The game's players in the order they joined."""
        found = await self._read(
            f"SELECT {rows.PLAYER_COLUMNS} FROM players WHERE game_id = ?"
            " ORDER BY joined_at, user_id",
            (game_id,),
        )
        return [rows.player(row) for row in found]

    async def get_player(self, game_id: str, user_id: int) -> PlayerRecord | None:
        found = await self._read(
            f"SELECT {rows.PLAYER_COLUMNS} FROM players WHERE game_id = ? AND user_id = ?",
            (game_id, user_id),
        )
        return rows.player(found[0]) if found else None

    async def set_dm_ok(self, game_id: str, user_id: int, ok: bool) -> PlayerRecord:
        """Record whether the bot may DM this player. Raises ``NotFoundError`` if not a
        player."""
        return await self._update_player(game_id, user_id, "dm_ok", int(ok))

    async def set_side(self, game_id: str, user_id: int, side: str, *,
                       at_seq: int | None = None) -> PlayerRecord:
        """Move a player to another side. Raises ``NotFoundError`` if not a player;
        ``at_seq`` as for :meth:`add_player`."""
        return await self._update_player(game_id, user_id, "side", side, at_seq)

    # -- seats after the start ---------------------------------------------------------------
    # A seat change and the announcements it implies are one transaction, so that no seat ever
    # changes unannounced. They append no event: seats are not part of the game's state.

    async def request_seat(
        self, game_id: str, user_id: int, side: str, notice: SeatNotice | None = None,
        *, most: int | None = None, at_seq: int | None = None,
    ) -> SeatAsked:
        """Record ``user_id``'s request to be seated on ``side`` and tell the host (``notice``,
        see ``storage.seat_notices``: the notice still waiting unsent is rewritten, or a new
        one queued), in one transaction.

        A user has at most one open request per game, and a game at most ``most`` (``None``:
        no limit): a user who has one already, or a request past the limit, writes nothing and
        is told so in the result. Raises ``AlreadyExistsError`` if the user is seated;
        ``at_seq`` as for :meth:`add_player`."""
        async with self._write(f"request a seat in game {game_id!r}") as conn:
            _check_seq(game_id, await _lock_game(conn, game_id), at_seq)
            if await _load_player(conn, game_id, user_id) is not None:
                raise AlreadyExistsError(f"user {user_id} is already in game {game_id!r}")
            # Counted under the game's lock: requests in other processes wait for this one.
            asking = await _seat_requests(conn, game_id)
            mine = next((r for r in asking if r.user_id == user_id), None)
            if mine is not None:
                return SeatAsked(False, open=mine)
            if most is not None and len(asking) >= most:
                return SeatAsked(False)
            await conn.run(
                f"INSERT INTO seat_requests ({rows.SEAT_REQUEST_COLUMNS}) VALUES (?, ?, ?, ?)",
                (game_id, user_id, side, to_text(self._now())),
            )
            if notice is None:
                return SeatAsked(True)
            users = [r.user_id for r in asking] + [user_id]
            found = await seat_notices.waiting(conn, game_id)
            if found is not None:
                await seat_notices.rewrite(conn, found, notice.compose(found.text, users))
                return SeatAsked(True, delivery_ids=(found.delivery_id,))
            ids = await self._queue(conn, game_id, [NewDelivery(
                "host", notice.target, notice.compose(None, users),
                edit_key=seat_notices.NOTICE_KEY)])
            return SeatAsked(True, delivery_ids=tuple(ids))

    async def seat_request(self, game_id: str, user_id: int) -> SeatRequest | None:
        found = await self._read(
            f"SELECT {rows.SEAT_REQUEST_COLUMNS} FROM seat_requests"
            " WHERE game_id = ? AND user_id = ?",
            (game_id, user_id),
        )
        return rows.seat_request(found[0]) if found else None

    async def seat_requests(self, game_id: str) -> list[SeatRequest]:
        """The game's open seat requests, oldest first."""
        self._check_open()
        return await _seat_requests(self._db.reader, game_id)

    async def former_side(self, game_id: str, user_id: int) -> str | None:
        """The side ``user_id`` held when they left the game after its start (or were
        unseated), if they did."""
        found = await self._read(
            "SELECT side FROM former_players WHERE game_id = ? AND user_id = ?",
            (game_id, user_id),
        )
        return str(found[0][0]) if found else None

    async def seat_player(
        self,
        game_id: str,
        user_id: int,
        side: str,
        *,
        dm_ok: bool = True,
        deliveries: Sequence[NewDelivery] = (),
        at_seq: int | None = None,
    ) -> list[int]:
        """Seat ``user_id`` on ``side``, drop their request and queue ``deliveries``, in one
        transaction; return the deliveries' ids. Raises ``AlreadyExistsError`` if seated;
        ``at_seq`` as for :meth:`add_player` (a seat decided in play is never written once
        the game has moved on, to its end say)."""
        now = to_text(self._now())
        async with self._write(f"seat player {user_id} in game {game_id!r}") as conn:
            _check_seq(game_id, await _lock_game(conn, game_id), at_seq)
            if await _load_player(conn, game_id, user_id) is not None:
                raise AlreadyExistsError(f"user {user_id} is already in game {game_id!r}")
            await conn.run(
                "DELETE FROM seat_requests WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            await conn.run(
                f"INSERT INTO players ({rows.PLAYER_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
                (game_id, user_id, side, int(dm_ok), now),
            )
            return await self._queue(conn, game_id, deliveries)

    async def unseat_player(
        self,
        game_id: str,
        user_id: int,
        *,
        remember: bool,
        deliveries: Sequence[NewDelivery] = (),
        at_seq: int | None = None,
    ) -> list[int]:
        """Take ``user_id``'s seat (and any request of theirs) away and queue ``deliveries``, in
        one transaction; return the deliveries' ids. ``remember`` records the side they held, so
        that they may only come back to it. Raises ``NotFoundError`` if the user had neither a
        seat nor a request; ``at_seq`` as for :meth:`add_player`."""
        now = to_text(self._now())
        async with self._write(f"unseat player {user_id} in game {game_id!r}") as conn:
            last = await _lock_game(conn, game_id)
            if at_seq is not None:
                _check_seq(game_id, last, at_seq)
            player = await _load_player(conn, game_id, user_id)
            dropped = await conn.execute(
                "DELETE FROM seat_requests WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            if player is None and dropped == 0:
                raise NotFoundError(f"user {user_id} is not in game {game_id!r}")
            if player is not None:
                await conn.run(
                    "DELETE FROM players WHERE game_id = ? AND user_id = ?", (game_id, user_id)
                )
                if remember:
                    await conn.run(
                        "INSERT INTO former_players (game_id, user_id, side, left_at)"
                        " VALUES (?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO UPDATE"
                        " SET side = excluded.side, left_at = excluded.left_at",
                        (game_id, user_id, player.side, now),
                    )
            return await self._queue(conn, game_id, deliveries)

    async def queue_deliveries(
        self, game_id: str, deliveries: Sequence[NewDelivery]
    ) -> list[int]:
        """Queue deliveries that no command caused (a transport's report to the host)."""
        async with self._write(f"queue deliveries of game {game_id!r}") as conn:
            if await _lock_game(conn, game_id) is None:
                raise NotFoundError(f"no game {game_id!r}")
            return await self._queue(conn, game_id, deliveries)

    async def _queue(
        self, conn: Conn, game_id: str, deliveries: Sequence[NewDelivery]
    ) -> list[int]:
        """Queue deliveries that no event caused, at the game's current seq (inside a write)."""
        if not deliveries:
            return []
        last = await _last_seq(conn, game_id)
        now = to_text(self._now())
        return await _insert_deliveries(conn, _delivery_rows(game_id, last, 0, deliveries, now))

    # -- the event log -----------------------------------------------------------------------

    async def last_seq(self, game_id: str) -> int:
        """The seq of the game's last event; 0 if it has none (or does not exist)."""
        found = await self._read(
            "SELECT coalesce(max(seq), 0) FROM events WHERE game_id = ?", (game_id,)
        )
        return int(found[0][0])

    async def count_events(self, game_id: str, type_: str) -> dict[str, int]:
        """How many events of one type the game's log holds, by audience."""
        found = await self._read(
            "SELECT audience, count(*) FROM events WHERE game_id = ? AND type = ?"
            " GROUP BY audience",
            (game_id, type_),
        )
        return {str(row[0]): int(row[1]) for row in found}

    async def events(
        self, game_id: str, after_seq: int = 0, limit: int | None = None
    ) -> list[EventRecord]:
        """The game's events with seq > ``after_seq``, in order (at most ``limit``)."""
        sql = f"SELECT {rows.EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq > ? ORDER BY seq"
        params: list[Any] = [game_id, after_seq]
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        found = await self._read(sql, params)
        return [rows.event(row) for row in found]

    async def events_from_last(self, game_id: str, type_: str) -> list[EventRecord]:
        """The game's events from its last event of type ``type_`` on, in order (none if it
        has no such event)."""
        found = await self._read(
            f"SELECT {rows.EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq >= ("
            "SELECT max(seq) FROM events WHERE game_id = ? AND type = ?) ORDER BY seq",
            (game_id, game_id, type_),
        )
        return [rows.event(row) for row in found]

    async def events_of_type(self, game_id: str, type_: str) -> list[EventRecord]:
        """The game's events of one type, in order, found through the index of events by
        type."""
        found = await self._read(
            f"SELECT {rows.EVENT_COLUMNS} FROM events WHERE game_id = ? AND type = ?"
            " ORDER BY seq",
            (game_id, type_),
        )
        return [rows.event(row) for row in found]

    async def step_clock_events(self, game_id: str) -> list[EventRecord]:
        """The game's last ``phase_began`` event and the ``game_paused`` events after it: all a
        step's deadline is counted from (``umpire.clock.phase_clock``). Only public events of
        these two kinds are read, found through the index of events by type, so how long it
        takes does not grow with the hidden events of the game (ruling INFO-13)."""
        found = await self._read(STEP_CLOCK_EVENTS, (game_id,) * 4)
        return [rows.event(row) for row in found]

    async def commit(
        self,
        game_id: str,
        expected_seq: int,
        events: Sequence[NewEvent],
        deliveries: Sequence[NewDelivery] = (),
        snapshot: JsonObject | None = None,
        game_updates: GameUpdate | None = None,
        *,
        seats: Collection[tuple[int, str]] | None = None,
        at: datetime | None = None,
        hold: Mapping[str, Sequence[held_news.Held]] | None = None,
        release: Collection[str] = (),
    ) -> list[int]:
        """Append ``events`` to the game's log as seqs ``expected_seq + 1 …``, queue their
        ``deliveries``, save ``snapshot`` (the state after these events, at seq
        ``expected_seq + len(events)``) and apply ``game_updates``: all in one transaction.

        ``seats``: the players (user id, side) the command was decided with, when its outcome
        depends on them (the start announces its roster). Seats change without an event, so a
        commit whose seats are no longer the game's is stale too (``ConcurrencyError``).

        ``release``: sides whose held news (``storage.held_news``) went into these deliveries,
        forgotten; then ``hold``: news (by side) held for each side's next message.

        Returns the new deliveries' ids, in order. When it returns, all of it is on disk; when it
        raises, none of it was written. Raises ``ConcurrencyError`` if the game's last seq is not
        ``expected_seq`` (someone else committed since the caller loaded the game),
        ``NotFoundError`` for an unknown game, ``StorageError`` for anything invalid (a payload
        that is not JSON, an audience or delivery kind the schema refuses…).

        ``at``: the instant to stamp the events with, when the caller worded the deliveries
        for it (a phase's deadline counts from the stamp of the event that began it); else the
        store's clock.
        """
        if expected_seq < 0:
            raise StorageError(f"expected_seq must be >= 0, not {expected_seq}")
        now_dt = self._now() if at is None else at
        now = to_text(now_dt)
        event_rows = [
            (
                game_id,
                expected_seq + 1 + index,
                event.type,
                encode(event.payload, f"payload of event {index} ({event.type})"),
                event.audience,
                now,
            )
            for index, event in enumerate(events)
        ]
        delivery_rows = _delivery_rows(game_id, expected_seq, len(events), deliveries, now)
        snapshot_json = None if snapshot is None else encode(snapshot, "snapshot")
        assignments, params = self._assignments(game_id, game_updates or {}, now_dt)
        async with self._write(f"commit to game {game_id!r}") as conn:
            actual = await _update_and_lock_game(conn, game_id, assignments, params)
            if actual is None:
                raise NotFoundError(f"no game {game_id!r}")
            if actual != expected_seq:
                raise ConcurrencyError(game_id, expected_seq, actual)
            if seats is not None and await _seats(conn, game_id) != set(seats):
                raise ConcurrencyError(game_id, expected_seq, actual)
            await conn.executemany(
                f"INSERT INTO events ({rows.EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)", event_rows
            )
            ids = await _insert_deliveries(conn, delivery_rows)
            await held_news.release(conn, game_id, release)
            await held_news.hold(conn, game_id, hold or {})
            if snapshot_json is not None:
                await conn.run(
                    "INSERT INTO snapshots (game_id, seq, payload, created_at) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (game_id, seq) DO UPDATE SET payload = excluded.payload,"
                    " created_at = excluded.created_at",
                    (game_id, expected_seq + len(events), snapshot_json, now),
                )
        return ids

    # -- snapshots ---------------------------------------------------------------------------

    async def latest_snapshot(self, game_id: str) -> Snapshot | None:
        """The snapshot with the highest seq, as ``(seq, payload)``; ``None`` if there is none."""
        found = await self._read(
            "SELECT seq, payload FROM snapshots WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
            (game_id,),
        )
        if not found:
            return None
        seq = int(found[0]["seq"])
        return Snapshot(seq, decode_object(found[0]["payload"], f"snapshot {game_id!r}#{seq}"))

    async def snapshot_at_or_before(self, game_id: str, seq: int) -> Snapshot | None:
        """The snapshot with the highest seq not after ``seq``; ``None`` if there is none."""
        found = await self._read(
            "SELECT seq, payload FROM snapshots WHERE game_id = ? AND seq <= ?"
            " ORDER BY seq DESC LIMIT 1",
            (game_id, seq),
        )
        if not found:
            return None
        at = int(found[0]["seq"])
        return Snapshot(at, decode_object(found[0]["payload"], f"snapshot {game_id!r}#{at}"))

    async def save_snapshot(self, game_id: str, seq: int, payload: JsonObject) -> None:
        """Save (or replace) the state after event ``seq``, outside a commit. Raises
        ``StorageError`` if the game has no event ``seq`` yet (0 is the state before any)."""
        payload_json = encode(payload, "snapshot")
        now = to_text(self._now())
        async with self._write(f"save snapshot of game {game_id!r}") as conn:
            last = await _lock_game(conn, game_id)
            if last is None:
                raise NotFoundError(f"no game {game_id!r}")
            if not 0 <= seq <= last:
                raise StorageError(f"game {game_id!r} has no event {seq} (last is {last})")
            await conn.run(
                "INSERT INTO snapshots (game_id, seq, payload, created_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, seq) DO UPDATE SET payload = excluded.payload,"
                " created_at = excluded.created_at",
                (game_id, seq, payload_json, now),
            )

    # -- the outbox --------------------------------------------------------------------------

    async def pending_deliveries(
        self, game_id: str | None = None, limit: int = 100, *, lane: str | None = None
    ) -> list[DeliveryRecord]:
        """Deliveries still to send (of one game, or of all; of one ``lane`` of the game,
        ``storage.outbox_leases``), oldest first."""
        sql = f"SELECT {rows.DELIVERY_COLUMNS} FROM {rows.DELIVERY_FROM} WHERE status = 'pending'"
        params: list[Any] = []
        if game_id is not None:
            sql += " AND game_id = ?"
            params.append(game_id)
        if lane is not None:
            sql += f" AND {outbox_leases.LANE_OF_DELIVERY} = ?"
            params.append(lane)
        found = await self._read(sql + " ORDER BY id LIMIT ?", [*params, limit])
        return [rows.delivery(row) for row in found]

    async def get_delivery(self, delivery_id: int) -> DeliveryRecord | None:
        found = await self._read(
            f"SELECT {rows.DELIVERY_COLUMNS} FROM {rows.DELIVERY_FROM} WHERE id = ?", (delivery_id,)
        )
        return rows.delivery(found[0]) if found else None

    async def mark_sent(self, delivery_id: int) -> None:
        """Discord accepted the delivery: it becomes 'sent' (whatever it was), its attempts grow
        by one and ``sent_at`` is set. Raises ``NotFoundError`` for an unknown id."""
        now = to_text(self._now())
        async with self._write(f"mark delivery {delivery_id} sent") as conn:
            changed = await conn.execute(
                "UPDATE deliveries SET status = 'sent', attempts = attempts + 1, sent_at = ?"
                " WHERE id = ?",
                (now, delivery_id),
            )
            if changed == 0:
                raise NotFoundError(f"no delivery {delivery_id}")
            await _drop_picture_if_done(conn, delivery_id)

    async def mark_failed(self, delivery_id: int, error: str, permanent: bool) -> None:
        """Sending failed: attempts grow by one and ``error`` is kept. A ``permanent`` failure
        (DMs closed, channel deleted) makes it 'failed'; otherwise it stays 'pending' to be
        retried. Does nothing to a delivery that is no longer pending (a late failure report
        must not undo a 'sent'). Raises ``NotFoundError`` for an unknown id."""
        status = "failed" if permanent else "pending"
        async with self._write(f"mark delivery {delivery_id} failed") as conn:
            changed = await conn.execute(
                "UPDATE deliveries SET status = ?, attempts = attempts + 1, last_error = ?"
                " WHERE id = ? AND status = 'pending'",
                (status, error, delivery_id),
            )
            if changed == 0:
                found = await conn.fetch("SELECT 1 FROM deliveries WHERE id = ?", (delivery_id,))
                if not found:
                    raise NotFoundError(f"no delivery {delivery_id}")
            elif permanent:
                await _drop_picture_if_done(conn, delivery_id)

    async def deliveries_for(
        self, game_id: str, *recipients: Recipient, offset: int = 0, limit: int = 50
    ) -> list[DeliveryRecord]:
        """An inbox: the game's deliveries addressed to any of ``recipients`` (e.g. a player and
        their side), whatever their status, oldest first; skip ``offset``, return at most
        ``limit``. The newest page starts at ``max(0, count - limit)``, see
        :meth:`count_deliveries_for`."""
        where, params = _recipients_clause(game_id, recipients)
        found = await self._read(
            f"SELECT {rows.DELIVERY_COLUMNS} FROM {rows.DELIVERY_FROM} WHERE {where}"
            " ORDER BY id LIMIT ? OFFSET ?",
            [*params, limit, offset],
        )
        return [rows.delivery(row) for row in found]

    async def last_delivery_with_key(self, game_id: str, recipient: Recipient,
                                     edit_key: str) -> DeliveryRecord | None:
        """The newest delivery of ``edit_key`` to ``recipient`` (the message a later one of the
        key edits), whatever its status; ``None`` if there is none."""
        found = await self._read(
            f"SELECT {rows.DELIVERY_COLUMNS} FROM {rows.DELIVERY_FROM} WHERE d.game_id = ?"
            " AND d.kind = ? AND d.target = ? AND d.edit_key = ? ORDER BY d.id DESC LIMIT 1",
            (game_id, recipient.kind, recipient.target, edit_key),
        )
        return rows.delivery(found[0]) if found else None

    async def count_deliveries_for(self, game_id: str, *recipients: Recipient) -> int:
        where, params = _recipients_clause(game_id, recipients)
        found = await self._read(f"SELECT count(*) FROM deliveries AS d WHERE {where}", params)
        return int(found[0][0])

    # -- outbox leases (storage.outbox_leases) -----------------------------------------------
    # One holder (one process) at a time sends each lane of a game's outbox (one audience's
    # deliveries). The lease rows are written without locking the game's row: claiming a lane
    # never waits for a command's commit.

    async def claim_outboxes(self, holder: str, lease_seconds: float, limit: int, *,
                             game_id: str | None = None, after: str = "") -> list[str]:
        """Take, for ``holder`` and ``lease_seconds`` from now, every lane with deliveries
        waiting that no other holder holds (or whose lease ran out) in up to ``limit`` games;
        the games' ids, in id order. ``game_id``: that game's lanes only; ``after``: only games
        whose id sorts after it. On PostgreSQL the lease rows are taken ``FOR UPDATE SKIP
        LOCKED``: two claimers never wait for each other."""
        _check_lease(holder, lease_seconds)
        async with self._write(f"claim outboxes for {holder!r}") as conn:
            # The time is read once the write holds the database: a lease reckoned from
            # before a wait for the lock would run out that much sooner than it says.
            await conn.hold()
            now = self._now().timestamp()
            return await outbox_leases.claim(conn, holder, now, lease_seconds, limit,
                                             game_id=game_id, after=after)

    async def claim_lanes(self, holder: str, lease_seconds: float, game_id: str,
                          lane: str | None = None) -> list[str]:
        """Take, for ``holder`` and ``lease_seconds`` from now, the game's lanes (or its
        ``lane`` only) with deliveries waiting that no other holder holds (or whose lease ran
        out); their names (``storage.outbox_leases``), in name order."""
        _check_lease(holder, lease_seconds)
        async with self._write(f"claim the outbox lanes of game {game_id!r}") as conn:
            await conn.hold()
            now = self._now().timestamp()  # once the write holds the database (claim_outboxes)
            return await outbox_leases.claim_lanes(conn, holder, now, lease_seconds, game_id,
                                                   lane)

    async def renew_lane(self, holder: str, game_id: str, lane: str, lease_seconds: float
                         ) -> bool:
        """Extend ``holder``'s lease on the game's ``lane`` to ``lease_seconds`` from now;
        whether ``holder`` still held it. ``False``: another holder took it over after the
        lease ran out (or it was released): ``holder`` must send no more of it."""
        _check_lease(holder, lease_seconds)
        async with self._write(f"renew the outbox lease of game {game_id!r}") as conn:
            # The time is read once the lease row is held (see claim_outboxes): a renewal
            # reckoned from before a long wait could end in the past, and another holder would
            # take the lane over at once while this one sends.
            await outbox_leases.hold_row(conn, game_id, lane)
            now = self._now().timestamp()
            return await outbox_leases.renew(conn, holder, game_id, lane, now, lease_seconds)

    async def outbox_holders(self) -> list[tuple[str, str]]:
        """The games with an outbox lane held now (leases not run out), as (game id,
        holder), by game id."""
        self._check_open()
        return await outbox_leases.held(self._db.reader, self._now().timestamp())

    async def release_outbox(self, holder: str, game_id: str, lane: str | None = None, *,
                             keep: Collection[str] = ()) -> None:
        """Give up ``holder``'s lease on the game's ``lane`` (``None``: on each of its lanes
        but those in ``keep``); nothing on a lane another holds."""
        async with self._write(f"release the outbox lease of game {game_id!r}") as conn:
            await outbox_leases.release(conn, holder, game_id, lane, keep=keep)

    # -- phase deadlines (storage.phase_deadlines) -------------------------------------------

    async def deadline_setting(self, game_id: str) -> DeadlineSetting | None:
        """The game's phase deadline as the host last set it (``None``: never set)."""
        self._check_open()
        return await phase_deadlines.read_setting(self._db.reader, game_id)

    async def set_deadline_length(self, game_id: str, length_seconds: int | None,
                                  deliveries: Sequence[NewDelivery] = ()) -> DeadlineSetting:
        """Set the game's phase deadline (``None``: none) as of now, and queue ``deliveries``
        (its announcement) in the same transaction."""
        now = self._now()
        async with self._write(f"set the deadline of game {game_id!r}") as conn:
            if await _lock_game(conn, game_id) is None:
                raise NotFoundError(f"no game {game_id!r}")
            await phase_deadlines.write_setting(conn, game_id, length_seconds, now)
            await self._queue(conn, game_id, deliveries)
        return DeadlineSetting(length_seconds, now)

    async def step_deadline(self, game_id: str, turn: int, step: int) -> StepDeadline:
        """What has happened to one step's deadline so far."""
        self._check_open()
        return await phase_deadlines.read_step(self._db.reader, game_id, turn, step)

    async def extend_step_deadline(self, game_id: str, turn: int, step: int, seconds: int, *,
                                   rearm_reminder: bool,
                                   deliveries: Sequence[NewDelivery] = (),
                                   at_seq: int | None = None) -> None:
        """Extend one step's deadline by ``seconds`` and queue ``deliveries``, together.
        ``at_seq``: the seq of the game the extension was decided at; ``ConcurrencyError``
        if the game has moved on since (the step may be over), and nothing is written."""
        async with self._write(f"extend the deadline of game {game_id!r}") as conn:
            _check_seq(game_id, await _lock_game(conn, game_id), at_seq)
            await phase_deadlines.extend_step(conn, game_id, turn, step, seconds,
                                              rearm_reminder)
            await self._queue(conn, game_id, deliveries)

    async def mark_step_deadline(self, game_id: str, turn: int, step: int, mark: StepMark,
                                 deliveries: Sequence[NewDelivery] = (), *,
                                 at_seq: int | None = None) -> bool:
        """Record ``mark`` for the step and queue ``deliveries``, both only if the mark was not
        recorded yet; whether it was recorded now. Exactly one of two racing calls wins.
        ``at_seq``: the seq of the game the mark was decided at; ``ConcurrencyError`` if the
        game has moved on since (the step may be over), and nothing is written."""
        now = self._now()
        async with self._write(f"mark the deadline of game {game_id!r}") as conn:
            _check_seq(game_id, await _lock_game(conn, game_id), at_seq)
            if not await phase_deadlines.mark_step(conn, game_id, turn, step, mark, now):
                return False
            await self._queue(conn, game_id, deliveries)
        return True

    # -- players ready in a step ---------------------------------------------------------------

    async def held_news(self, game_id: str) -> dict[str, list[held_news.Held]]:
        """The news each side of the game holds for its next message, oldest first."""
        self._check_open()
        return await held_news.read(self._db.reader, game_id)

    async def ready_players(self, game_id: str, turn: int, step: int) -> list[int]:
        """The users who said they are ready in ``turn``'s ``step``, first ready first."""
        found = await self._read(
            "SELECT user_id FROM ready_players WHERE game_id = ? AND turn = ? AND step = ?"
            " ORDER BY ready_at, user_id",
            (game_id, turn, step),
        )
        return [int(row[0]) for row in found]

    async def mark_ready(
        self, game_id: str, user_id: int, turn: int, step: int,
        deliveries: Sequence[NewDelivery] = (), *, at_seq: int | None = None,
    ) -> list[int]:
        """Record the user ready in ``turn``'s ``step`` and queue ``deliveries`` in the same
        transaction; the deliveries' ids. Already ready: nothing is written, ``[]``.
        ``at_seq``: the seq of the game the readiness was decided at; ``ConcurrencyError`` if
        the game has moved on since (the step may be over), and nothing is written."""
        async with self._write(f"mark user {user_id} ready in game {game_id!r}") as conn:
            _check_seq(game_id, await _lock_game(conn, game_id), at_seq)
            added = await conn.execute(
                "INSERT INTO ready_players (game_id, turn, step, user_id, ready_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, turn, step, user_id) DO NOTHING",
                (game_id, turn, step, user_id, to_text(self._now())),
            )
            if added == 0:
                return []
            return await self._queue(conn, game_id, deliveries)

    # -- orders that stand: a turn's Done and standing orders ------------------------------------
    async def turn_done(self, game_id: str, turn: int) -> dict[int, int]:
        """The users who said they are done for ``turn``, each with the seq of the log they
        said it at."""
        found = await self._read(
            "SELECT user_id, at_seq FROM turn_done WHERE game_id = ? AND turn = ?"
            " ORDER BY done_at, user_id", (game_id, turn))
        return {int(row[0]): int(row[1]) for row in found}

    async def mark_turn_done(self, game_id: str, user_id: int, turn: int, at_seq: int) -> None:
        """Record the user done for the rest of ``turn`` as of seq ``at_seq`` (said again: from
        the new seq, so that what came before it no longer asks them again)."""
        async with self._write(f"mark user {user_id} done for turn {turn} in {game_id!r}") \
                as conn:
            await _lock_game(conn, game_id)
            await conn.run(
                "INSERT INTO turn_done (game_id, turn, user_id, at_seq, done_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, turn, user_id)"
                " DO UPDATE SET at_seq = excluded.at_seq, done_at = excluded.done_at",
                (game_id, turn, user_id, at_seq, to_text(self._now())))

    async def standing_orders(self, game_id: str, side: str) -> list[tuple[str, str, str, int]]:
        """A side's standing orders: (unit or leader, order, route, who set it), in the order
        they were set."""
        found = await self._read(
            "SELECT unit, standing, route, user_id FROM standing_orders"
            " WHERE game_id = ? AND side = ? ORDER BY set_at, unit", (game_id, side))
        return [(str(r[0]), str(r[1]), str(r[2]), int(r[3])) for r in found]

    async def set_standing_order(self, game_id: str, side: str, unit: str, standing: str,
                                 route: str, user_id: int) -> None:
        """Give ``unit`` (a unit, or a leader for his command) a standing order, in place of
        the one it had."""
        async with self._write(f"set a standing order in {game_id!r}") as conn:
            await _lock_game(conn, game_id)
            await conn.run(
                "INSERT INTO standing_orders (game_id, side, unit, standing, route, user_id,"
                " set_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, side, unit)"
                " DO UPDATE SET standing = excluded.standing, route = excluded.route,"
                " user_id = excluded.user_id, set_at = excluded.set_at",
                (game_id, side, unit, standing, route, user_id, to_text(self._now())))

    async def clear_standing_order(self, game_id: str, side: str, unit: str) -> bool:
        """Take ``unit``'s standing order away; whether it had one."""
        async with self._write(f"clear a standing order in {game_id!r}") as conn:
            await _lock_game(conn, game_id)
            return await conn.execute(
                "DELETE FROM standing_orders WHERE game_id = ? AND side = ? AND unit = ?",
                (game_id, side, unit)) > 0

    # -- orders waiting for a confirmation (storage.pending_orders) -------------------------

    async def add_pending_order(self, row: PendingRow) -> None:
        async with self._write(f"save pending order {row.id!r}") as conn:
            if await _lock_game(conn, row.game_id) is None:
                raise NotFoundError(f"no game {row.game_id!r}")
            await pending_orders.insert(conn, row)

    async def pending_order(self, pending_id: str) -> PendingRow | None:
        self._check_open()
        return await pending_orders.read(self._db.reader, pending_id)

    async def open_pending_orders(self, game_id: str) -> list[PendingRow]:
        """The game's orders still waiting for a confirmation, oldest first."""
        self._check_open()
        return await pending_orders.open_of_game(self._db.reader, game_id)

    async def set_pending_status(self, pending_id: str, status: str,
                                 only_from: str | None = None) -> bool:
        """Set a pending order's status (only if it is ``only_from`` now, when given); whether
        it was set."""
        async with self._write(f"settle pending order {pending_id!r}") as conn:
            return await pending_orders.set_status(conn, pending_id, status, only_from)

    async def set_pending_shown(self, pending_id: str, shown: dict[str, Any]) -> None:
        """Where the pending order's preview was shown (for editing it when it expires)."""
        async with self._write(f"note where pending order {pending_id!r} is shown") as conn:
            await pending_orders.set_shown(conn, pending_id, shown)

    # -- the bot's own state -----------------------------------------------------------------

    async def get_state(self, key: str) -> str | None:
        found = await self._read("SELECT value FROM bot_state WHERE key = ?", (key,))
        return str(found[0][0]) if found else None

    async def set_state(self, key: str, value: str) -> None:
        async with self._write(f"set state {key!r}") as conn:
            await conn.run(
                "INSERT INTO bot_state (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # -- plumbing ----------------------------------------------------------------------------

    def now(self) -> datetime:
        """The store's clock (what it stamps events with): the instant deadlines count to."""
        return self._clock()

    def _now(self) -> datetime:
        return self._clock()

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError(f"the store on {self.target} is closed")

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self._check_open()
        return await self._db.reader.fetch(sql, params)

    @asynccontextmanager
    async def _write(self, what: str, *, whole: bool = False) -> AsyncIterator[Conn]:
        """One write transaction; the database's errors become ``StorageError`` naming
        ``what``. A write to a game locks its row first (:func:`_lock_game`). ``whole``: all of
        its reads see the database at one moment, whatever is committed meanwhile (a copy)."""
        self._check_open()
        async with self._db.write(what, whole=whole) as conn:
            self._check_open()
            yield conn

    def _assignments(
        self, game_id: str, fields: GameUpdate, now: datetime | None = None
    ) -> tuple[str, list[Any]]:
        """``SET`` clause and parameters for ``fields``, always bumping ``updated_at``."""
        unknown = set(fields) - _UPDATABLE
        if unknown:
            raise TypeError(f"cannot update game field(s) {sorted(unknown)}")
        columns: list[str] = []
        params: list[Any] = []
        for name, value in fields.items():
            columns.append(f"{name} = ?")
            if name == "options":
                params.append(encode(value, f"options of game {game_id!r}"))
            else:
                params.append(value)
        columns.append("updated_at = ?")
        params.append(to_text(self._now() if now is None else now))
        return ", ".join(columns), params

    async def _update_player(
        self, game_id: str, user_id: int, column: str, value: object,
        at_seq: int | None = None,
    ) -> PlayerRecord:
        async with self._write(f"update player {user_id} of game {game_id!r}") as conn:
            last = await _lock_game(conn, game_id)
            if at_seq is not None:
                _check_seq(game_id, last, at_seq)
            changed = await conn.execute(
                f"UPDATE players SET {column} = ? WHERE game_id = ? AND user_id = ?",
                (value, game_id, user_id),
            )
            if changed == 0:
                raise NotFoundError(f"user {user_id} is not in game {game_id!r}")
            return await _require_player(conn, game_id, user_id)


def _check_lease(holder: str, lease_seconds: float) -> None:
    if not holder:
        raise ValueError("an outbox lease needs a holder id")
    if not lease_seconds > 0:
        raise ValueError(f"an outbox lease lasts more than 0 seconds, not {lease_seconds}")


class StoreOpener:
    """What :meth:`Store.open` returns: await it for a ``Store``, or use it with ``async with``
    to have the store closed at the end of the block."""

    def __init__(self, opener: Callable[[], Coroutine[Any, Any, Store]]) -> None:
        self._opener = opener
        self._store: Store | None = None

    def __await__(self) -> Generator[Any, None, Store]:
        return self._opener().__await__()

    async def __aenter__(self) -> Store:
        self._store = await self._opener()
        return self._store

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._store is not None:
            await self._store.close()


class _DeliveryRow(NamedTuple):
    """A delivery's row, and its picture (bytes and SHA-256) to store once beside it."""

    values: tuple[Any, ...]
    picture: bytes | None
    sha256: str | None
    now: str


def _delivery_rows(
    game_id: str, expected_seq: int, event_count: int, deliveries: Sequence[NewDelivery], now: str
) -> list[_DeliveryRow]:
    rows_out = []
    for index, delivery in enumerate(deliveries):
        image = delivery.image
        sha = None if image is None else hashlib.sha256(image).hexdigest()
        rows_out.append(_DeliveryRow((
            game_id,
            _delivery_seq(expected_seq, event_count, delivery.event_index, index)
            if delivery.seq is None else _earlier_seq(expected_seq + event_count, delivery.seq,
                                                      index),
            delivery.kind,
            delivery.target,
            delivery.text,
            delivery.image_name,
            encode(delivery.buttons, f"buttons of delivery {index}"),
            now,
            sha,
            # The view a map is drawn from: a picture still to draw (a name, no bytes) or one
            # stored until it is sent.
            delivery.image_view if image is not None or delivery.image_name else None,
            delivery.edit_key,
            encode(list(delivery.mentions), f"mentions of delivery {index}"),
            # Already shown to its recipient (in the answer to their command): kept, not sent.
            "sent" if delivery.sent else "pending",
            now if delivery.sent else None,
        ), image, sha, now))
    return rows_out


async def _insert_deliveries(
    conn: Conn, delivery_rows: Sequence[_DeliveryRow]
) -> list[int]:
    pictures = [(row.sha256, row.picture, row.now) for row in delivery_rows
                if row.picture is not None]
    if pictures:  # each stored once, however many deliveries carry it
        # On PostgreSQL the picture's row is locked until the commit, so that a delivery sent
        # meanwhile in another transaction cannot drop it (see _drop_picture_if_done). SQLite
        # writes one transaction at a time, and rewriting the row would copy the picture.
        keep = ("DO UPDATE SET stored_at = pictures.stored_at"
                if conn.backend is Backend.POSTGRESQL else "DO NOTHING")
        await conn.executemany(
            "INSERT INTO pictures (sha256, data, stored_at) VALUES (?, ?, ?)"
            f" ON CONFLICT (sha256) {keep}", pictures)
    if not delivery_rows:
        return []
    return await conn.insert_ids(
            "INSERT INTO deliveries (game_id, seq, kind, target, text, image_name, buttons,"
            " created_at, picture, picture_view, edit_key, mentions, status, sent_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [row.values for row in delivery_rows],
    )


async def _drop_picture_if_done(conn: Conn, delivery_id: int) -> None:
    """Drop the picture ``delivery_id`` carries once no delivery still needs the stored copy:
    every delivery carrying it is handed over (sent, or given up) and each can be drawn again
    from the log (it names its view). The deliveries keep their view and file name, so a
    reader knows to draw the map again. Inside a write."""
    found = await conn.fetch(
        "SELECT picture FROM deliveries WHERE id = ? AND picture IS NOT NULL", (delivery_id,))
    if not found:
        return
    sha = found[0][0]
    if conn.backend is Backend.POSTGRESQL:
        # Lock the picture before asking who needs it: a commit still carrying it holds its
        # row (or a send racing this one does), and once granted, the next statement sees
        # their deliveries.
        await conn.fetch("SELECT 1 FROM pictures WHERE sha256 = ? FOR UPDATE", (sha,))
    needed = await conn.fetch(
        "SELECT 1 FROM deliveries WHERE picture = ?"
        " AND (status = 'pending' OR picture_view IS NULL) LIMIT 1", (sha,))
    if needed:
        return
    await conn.run("UPDATE deliveries SET picture = NULL WHERE picture = ?", (sha,))
    await conn.run("DELETE FROM pictures WHERE sha256 = ?", (sha,))


def _delivery_seq(expected_seq: int, event_count: int, event_index: int | None, index: int) -> int:
    if event_index is None:
        return expected_seq + event_count
    if not -event_count <= event_index < event_count:
        raise StorageError(
            f"delivery {index} names event {event_index}, but the commit has {event_count} events"
        )
    return expected_seq + 1 + (event_index % event_count)


def _earlier_seq(last: int, seq: int, index: int) -> int:
    """A delivery's own seq, which must be one of the game's events so far."""
    if not 0 <= seq <= last:
        raise StorageError(f"delivery {index} follows seq {seq}, but the game's last is {last}")
    return seq


def _recipients_clause(game_id: str, recipients: Sequence[Recipient]) -> tuple[str, list[Any]]:
    if not recipients:
        raise ValueError("name at least one recipient")
    params: list[Any] = [game_id]
    alternatives: list[str] = []
    for kind, target in recipients:
        alternatives.append("(kind = ? AND target = ?)")
        params += [kind, target]
    return f"game_id = ? AND ({' OR '.join(alternatives)})", params


async def _seat_requests(conn: Conn, game_id: str) -> list[SeatRequest]:
    """The game's open seat requests, oldest first."""
    found = await conn.fetch(
        f"SELECT {rows.SEAT_REQUEST_COLUMNS} FROM seat_requests WHERE game_id = ?"
        " ORDER BY asked_at, user_id",
        (game_id,),
    )
    return [rows.seat_request(row) for row in found]


async def _lock_game(conn: Conn, game_id: str) -> int | None:
    """The seq of the game's last event (0 if none), or ``None`` if there is no such game;
    inside a write. On PostgreSQL this locks the game's row until the transaction ends
    (``FOR UPDATE``): the writes to one game, from any process, then happen one after the
    other, and the seq read here stays the last until this transaction commits. SQLite's
    ``BEGIN IMMEDIATE`` already holds the whole file."""
    if conn.backend is Backend.POSTGRESQL:
        # Two statements: in read committed, the seq must be read after the lock is granted
        # (a statement that waited for the lock still sees the events as they were when it
        # began).
        if not await conn.fetch("SELECT 1 FROM games WHERE id = ? FOR UPDATE", (game_id,)):
            return None
        return await _last_seq(conn, game_id)
    found = await conn.fetch(
        "SELECT (SELECT coalesce(max(seq), 0) FROM events WHERE game_id = games.id)"
        " FROM games WHERE id = ?", (game_id,))
    return int(found[0][0]) if found else None


async def _update_and_lock_game(conn: Conn, game_id: str, assignments: str,
                                params: Sequence[Any]) -> int | None:
    """Apply a commit's game update first and return the game's last seq (``None``: no such
    game), inside a write; a stale commit is rolled back, update and all. On PostgreSQL the
    UPDATE takes the game's row lock, as :func:`_lock_game` does, and the seq comes back from
    the same statement, read after the lock was granted (``last_seq`` in
    ``storage.pg_schema``)."""
    if conn.backend is Backend.POSTGRESQL:
        found = await conn.fetch(f"UPDATE games SET {assignments} WHERE id = ?"
                                 " RETURNING last_seq(id)", (*params, game_id))
        return int(found[0][0]) if found else None
    if not RETURNING:
        if not await conn.execute(f"UPDATE games SET {assignments} WHERE id = ?",
                                  (*params, game_id)):
            return None
        return await _last_seq(conn, game_id)
    # One statement, so that the update and the seq go to the writer's thread together.
    found = await conn.fetch(f"UPDATE games SET {assignments} WHERE id = ? RETURNING ("
                             "SELECT coalesce(max(seq), 0) FROM events WHERE game_id = ?)",
                             (*params, game_id, game_id))
    return int(found[0][0]) if found else None


async def _last_seq(conn: Conn, game_id: str) -> int:
    found = await conn.fetch(
        "SELECT coalesce(max(seq), 0) FROM events WHERE game_id = ?", (game_id,)
    )
    return int(found[0][0])


async def _load_game(conn: Conn, game_id: str) -> GameRecord:
    found = await conn.fetch(f"SELECT {rows.GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
    if not found:
        raise NotFoundError(f"no game {game_id!r}")
    return rows.game(found[0])


def _check_seq(game_id: str, last: int | None, at_seq: int | None) -> None:
    """A write decided at ``at_seq`` (when given) finds the game there still."""
    if last is None:
        raise NotFoundError(f"no game {game_id!r}")
    if at_seq is not None and last != at_seq:
        raise ConcurrencyError(game_id, at_seq, last)


async def _seats(conn: Conn, game_id: str) -> set[tuple[int, str]]:
    found = await conn.fetch("SELECT user_id, side FROM players WHERE game_id = ?", (game_id,))
    return {(int(row[0]), str(row[1])) for row in found}


async def _load_player(
    conn: Conn, game_id: str, user_id: int
) -> PlayerRecord | None:
    found = await conn.fetch(
        f"SELECT {rows.PLAYER_COLUMNS} FROM players WHERE game_id = ? AND user_id = ?",
        (game_id, user_id),
    )
    return rows.player(found[0]) if found else None


async def _require_player(conn: Conn, game_id: str, user_id: int) -> PlayerRecord:
    player = await _load_player(conn, game_id, user_id)
    if player is None:
        raise NotFoundError(f"user {user_id} is not in game {game_id!r}")
    return player
