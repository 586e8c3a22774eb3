"""The PostgreSQL driver (asyncpg): a pool of connections to one database.

- Reads outside a transaction (:attr:`PostgresDatabase.reader`) each take a pooled connection for
  one statement; in PostgreSQL's default isolation (read committed) a statement sees only
  committed data, as SQLite's reader does.
- A write (:meth:`PostgresDatabase.write`) takes a pooled connection for one transaction. The
  store locks the game's row first when it writes to a game (``storage.store._lock_game``), so
  that the commits of one game are serialized across every process sharing the database.

Statements are written with ``?`` placeholders (``storage.sql``); they are rewritten here to
PostgreSQL's ``$1, $2, …``, once per distinct statement. asyncpg prepares and caches each
statement per connection, so a command's statements cost one round trip each.

asyncpg is strict about types: a parameter must be of the column's type (an ``int`` for a
``BIGINT``, a ``str`` for a ``TEXT``, ``bytes`` for a ``BYTEA``). Where PostgreSQL cannot infer a
parameter's type from a column, the SQL casts it (``CAST(? AS BIGINT)``).

The target is a ``postgresql://`` (or ``postgres://``) URL, as libpq and asyncpg read it;
query parameters asyncpg does not know are server settings for every connection (for instance
``?search_path=club`` keeps the tables in the schema ``club``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Literal

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from storage.errors import AlreadyExistsError, DatabaseUnusable, StorageError
from storage.sql import Backend, Row

#: Connections a store keeps open at least, and at most (reads and writes share them).
POOL_MIN = 1
POOL_MAX = 8

#: What asyncpg raises when the database fails a statement, or the connection fails, or a text
#: cannot be sent (a lone surrogate is not UTF-8).
_FAILURES = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, UnicodeError)


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``sql`` with each ``?`` placeholder outside quotes turned into ``$1``, ``$2``, …"""
    out: list[str] = []
    number = 0
    quote: str | None = None
    for char in sql:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


#: Rows sent in one multi-row ``INSERT`` at most (and at most ``_PARAMETERS`` parameters, the
#: most one statement may carry through asyncpg).
_ROWS_PER_INSERT = 500
_PARAMETERS = 32767

#: One row of ``?`` placeholders: ``(?, ?, …)``.
_ONE_ROW = re.compile(r"\(\s*\?(?:\s*,\s*\?)*\s*\)")


@functools.lru_cache(maxsize=64)
def _values_group(sql: str) -> tuple[str, str, int] | None:
    """A plain ``INSERT INTO t (…) VALUES (?, …)`` as its head, its one ``(?, …)`` group and
    how many rows one statement may carry; ``None`` for any other statement. An ``INSERT …
    ON CONFLICT`` is another statement: two of its rows meeting the same key in one statement
    would be refused, where one after the other they are not."""
    head, _, group = sql.rpartition(" VALUES ")
    group = group.strip()
    if not head.lstrip().upper().startswith("INSERT ") or not _ONE_ROW.fullmatch(group):
        return None
    return head, group, max(1, min(_ROWS_PER_INSERT, _PARAMETERS // group.count("?")))


def _rows_statement(head: str, group: str, rows: int, returning: str = "") -> str:
    """The multi-row ``INSERT`` of ``rows`` rows, numbered."""
    return numbered(f"{head} VALUES {', '.join([group] * rows)}{returning}")


def _count(status: str) -> int:
    """Rows changed, from a command status such as ``UPDATE 3`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


#: Query parameters of a PostgreSQL address that carry a secret.
_SECRET_PARAMETERS = frozenset({"password", "sslpassword"})


def shown(url: str) -> str:
    """The address as messages and logs may show it: the user, host and database, never a
    password, whether it is written before the ``@`` or as a ``password=`` parameter. It never
    fails, whatever the address holds (a password with a bare ``/`` or ``@`` in it, several
    hosts): the user-and-password part is taken to end at the last ``@`` before the query."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return "a PostgreSQL address that cannot be read"
    address, _, query = rest.partition("?")
    user = ""
    if "@" in address:
        credentials, address = address.rsplit("@", 1)
        user = credentials.split(":", 1)[0] + "@"
    kept = [p for p in query.split("&")
            if p and p.split("=", 1)[0].lower() not in _SECRET_PARAMETERS]
    return f"{scheme}://{user}{address}" + (f"?{'&'.join(kept)}" if kept else "")


def _failure(what: str, error: BaseException) -> StorageError:
    """A database's refusal as the store's error: a duplicate key is ``AlreadyExistsError``
    (two processes creating one game at once), anything else ``StorageError``."""
    if isinstance(error, asyncpg.UniqueViolationError):
        return AlreadyExistsError(f"{what} failed: {error}")
    return StorageError(f"{what} failed: {error}")


async def _keep_session(conn: asyncpg.Connection) -> None:
    """A connection goes back to the pool as it is (asyncpg still rolls back a transaction left
    open). asyncpg's default reset is one more round trip per statement read on the pool; the
    store never leaves session state on a connection (no ``SET``, no session advisory locks,
    no ``LISTEN``, no cursors), and must not start to."""


class PostgresConn:
    """A :class:`storage.sql.Conn` over one asyncpg connection (inside a transaction), or over
    the pool (each statement on a connection of its own)."""

    backend = Backend.POSTGRESQL

    def __init__(self, conn: asyncpg.Connection | PoolConnectionProxy | asyncpg.Pool) -> None:
        self._conn = conn

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._conn.fetch(numbered(sql), *params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        if not params:  # the simple protocol: a script of several statements may run
            return _count(await self._conn.execute(sql))
        return _count(await self._conn.execute(numbered(sql), *params))

    async def hold(self) -> None:
        """Rows are locked as they are written (or ``FOR UPDATE``): nothing to wait for."""

    async def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """A plain ``INSERT … VALUES (?, …)`` goes as multi-row ``INSERT``s (one statement for
        a commit's events, say, where each row would be one more statement for the server to
        run); any other statement once per row, in one round trip."""
        batch = list(rows)
        if not batch:
            return
        shape = _values_group(sql)
        if shape is None:
            await self._conn.executemany(numbered(sql), batch)
            return
        head, group, per_statement = shape
        # In the rows' order: a row-level trigger (the log's next-seq check) sees each row
        # after those before it in the same statement.
        for start in range(0, len(batch), per_statement):
            chunk = batch[start:start + per_statement]
            await self._conn.execute(_rows_statement(head, group, len(chunk)),
                                     *(v for row in chunk for v in row))

    async def insert_id(self, sql: str, params: Sequence[Any] = ()) -> int:
        new = await self._conn.fetchval(numbered(f"{sql} RETURNING id"), *params)
        if new is None:
            raise StorageError("the database did not report the id of a new row")
        return int(new)

    async def insert_ids(self, sql: str, rows: Sequence[Sequence[Any]]) -> list[int]:
        """All the rows in multi-row ``INSERT … VALUES (…), (…) RETURNING id`` statements (one
        round trip per ``_ROWS_PER_INSERT`` rows). The rows of a ``VALUES`` list are inserted in
        their order, so the ids the table assigns rise in that order: sorted, they are the
        rows' ids."""
        shape = _values_group(sql)
        if shape is None:
            raise StorageError(f"not a one-row INSERT … VALUES (?, …): {sql!r}")
        head, group, per_statement = shape
        ids: list[int] = []
        for start in range(0, len(rows), per_statement):
            chunk = rows[start:start + per_statement]
            if len(chunk) == 1:
                ids.append(await self.insert_id(sql, chunk[0]))
                continue
            statement = _rows_statement(head, group, len(chunk), " RETURNING id")
            found = await self._conn.fetch(statement, *(v for row in chunk for v in row))
            ids += sorted(int(r[0]) for r in found)
        return ids


class _Reader(PostgresConn):
    """Reads on the pool: a failure becomes a ``StorageError`` naming the database."""

    def __init__(self, pool: asyncpg.Pool, target: str) -> None:
        super().__init__(pool)
        self._target = target

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return await super().fetch(sql, params)
        except _FAILURES as error:
            raise _failure(f"reading {self._target}", error) from error


class PostgresDatabase:
    """A :class:`storage.sql.Database` on one PostgreSQL database, through a pool."""

    backend = Backend.POSTGRESQL

    def __init__(self, pool: asyncpg.Pool, target: str) -> None:
        self._pool = pool
        self._target = target
        self._reader = _Reader(pool, target)

    @classmethod
    async def open(cls, url: str) -> PostgresDatabase:
        """Connect a pool to ``url``; ``DatabaseUnusable`` (one line) if the server cannot be
        reached, refuses the login or has no such database."""
        target = shown(url)
        try:
            pool = await asyncpg.create_pool(url, min_size=POOL_MIN, max_size=POOL_MAX,
                                             reset=_keep_session)
        except ValueError as error:
            # The parser's words may quote a piece of a password written without escapes.
            raise DatabaseUnusable(
                f"cannot read the PostgreSQL address {target}: write it as "
                "postgresql://user:password@host:port/database, with any /, @, : or ? in the "
                "password percent-encoded (%2F, %40, %3A, %3F)") from error
        except _FAILURES as error:
            raise DatabaseUnusable(
                f"cannot use PostgreSQL database {target}: {error or type(error).__name__}"
            ) from error
        return cls(pool, target)

    @property
    def target(self) -> str:
        return self._target

    @property
    def reader(self) -> PostgresConn:
        return self._reader

    @asynccontextmanager
    async def write(self, what: str, *, whole: bool = False) -> AsyncIterator[PostgresConn]:
        # Read committed (the default) lets each statement see what was committed before it
        # began; a copy of the whole database needs one moment for all of its statements.
        isolation: Literal["repeatable_read"] | None = None if not whole else "repeatable_read"
        try:
            async with self._pool.acquire() as conn, conn.transaction(isolation=isolation):
                yield PostgresConn(conn)
        except _FAILURES as error:
            raise _failure(what, error) from error

    async def close(self) -> None:
        await self._pool.close()
