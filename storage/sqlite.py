"""The SQLite driver: one database file, a writer connection and a reader connection.

- the *writer* runs every write, one transaction at a time under an ``asyncio.Lock`` (SQLite
  allows one writer per file anyway; the lock also keeps one coroutine's statements out of
  another's transaction), each ``BEGIN IMMEDIATE`` … ``COMMIT`` (``Transaction``), its
  statements sent to the connection's thread a few at a time;
- the *reader* runs every read outside a transaction. In WAL mode it sees only committed
  transactions (never half of a commit still in progress on the writer) and it is not held up by
  a commit waiting for its fsync. It is read-only (``PRAGMA query_only``).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from storage.db import connect, despite_cancellation
from storage.errors import StorageError
from storage.sql import Backend, Row


class SqliteConn:
    """A :class:`storage.sql.Conn` over one aiosqlite connection; SQLite's errors pass through
    (the transaction around it turns them into ``StorageError``)."""

    backend = Backend.SQLITE

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.raw = conn

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self.raw.execute_fetchall(sql, params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = await self.raw.execute(sql, params)
        return cursor.rowcount

    async def hold(self) -> None:
        """Outside a transaction there is nothing to hold."""

    async def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.raw.execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.raw.executemany(sql, rows)

    async def insert_id(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = await self.raw.execute(sql, params)
        if cursor.lastrowid is None:
            raise StorageError("the database did not report the id of a new row")
        return cursor.lastrowid

    async def insert_ids(self, sql: str, rows: Sequence[Sequence[Any]]) -> list[int]:
        # SQLite runs in this process: one statement per row costs no round trip.
        return [await self.insert_id(sql, row) for row in rows]


#: Whether this SQLite has ``UPDATE … RETURNING`` (from 3.35; Python's own build may be older).
RETURNING = sqlite3.sqlite_version_info >= (3, 35)

T = TypeVar("T")
Statement = Callable[[sqlite3.Connection], T]


class Transaction(SqliteConn):
    """The writer inside one ``BEGIN IMMEDIATE`` … ``COMMIT``, sending its statements to the
    connection's thread a few at a time.

    Each call to that thread is a hop: the event loop hands the call over, the thread wakes, and
    the loop wakes again for the answer, which costs more of the interpreter's time than most
    statements do. So a statement whose outcome nobody waits for (``run``, ``executemany``,
    the ``BEGIN``) is held, and sent in one call with the next statement that has an answer, or
    with the ``COMMIT``: a command's transaction takes two or three calls, not one per
    statement. A held statement that fails makes that call fail, and the transaction with it
    (nothing of it is committed, as when it failed at once).

    aiosqlite runs its calls in order on the connection's thread, so a call already handed
    over when the caller is cancelled still runs; the rollback goes after it and is a no-op if
    the ``COMMIT`` went through (``sqlite3.Connection.rollback`` does nothing outside a
    transaction). A cancelled caller therefore leaves either the whole transaction or
    nothing."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        super().__init__(conn)
        self._held: list[Statement[object]] = [_begin]

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        rows: list[Row] = await self._send(lambda db: db.execute(sql, params).fetchall())
        return rows

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await self._send(lambda db: db.execute(sql, params).rowcount)

    async def hold(self) -> None:
        """Send what is held, the ``BEGIN IMMEDIATE`` first: once it returns, the file's write
        lock is this transaction's."""
        if self._held:
            await self._send(lambda db: None)

    async def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        self._held.append(lambda db: db.execute(sql, params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = list(rows)  # read now: the caller may change its rows before they are sent
        self._held.append(lambda db: db.executemany(sql, batch))

    async def insert_id(self, sql: str, params: Sequence[Any] = ()) -> int:
        return (await self.insert_ids(sql, [params]))[0]

    async def insert_ids(self, sql: str, rows: Sequence[Sequence[Any]]) -> list[int]:
        def insert(db: sqlite3.Connection) -> list[int | None]:
            return [db.execute(sql, row).lastrowid for row in rows]

        ids = await self._send(insert)
        if any(new is None for new in ids):
            raise StorageError("the database did not report the id of a new row")
        return [new for new in ids if new is not None]

    async def commit(self) -> None:
        await self._send(lambda db: db.execute("COMMIT"))

    def _send(self, last: Statement[T]) -> Awaitable[T]:
        """The held statements and ``last``, in one call to the connection's thread; what
        ``last`` answers."""
        held, self._held = self._held, []
        raw = self.raw

        def statements() -> T:
            db = raw._conn  # aiosqlite's own connection, on its own thread
            for statement in held:
                statement(db)
            return last(db)

        # aiosqlite's way of running a function on the connection's thread (its statements
        # use the same); it has no public name for it.
        return raw._execute(statements)  # type: ignore[no-untyped-call]


def _begin(db: sqlite3.Connection) -> None:
    # IMMEDIATE takes the write lock at once, so the reads inside the transaction (the game's
    # last seq) cannot be invalidated by another writer before the writes.
    db.execute("BEGIN IMMEDIATE")


class _Reader(SqliteConn):
    """The reader: a failure becomes a ``StorageError`` naming the file."""

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        super().__init__(conn)
        self._path = path

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return await super().fetch(sql, params)
        except sqlite3.Error as error:
            raise StorageError(f"reading {self._path} failed: {error}") from error


class SqliteDatabase:
    """A :class:`storage.sql.Database` on one SQLite file."""

    backend = Backend.SQLITE

    def __init__(self, path: Path, writer: aiosqlite.Connection,
                 reader: aiosqlite.Connection) -> None:
        self.path = path
        self.writer = SqliteConn(writer)
        self._reader = _Reader(reader, path)
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path) -> SqliteDatabase:
        """Connect the writer and the reader (the file must have been checked already)."""
        writer = await connect(path)
        try:
            reader = await connect(path, read_only=True)
        except BaseException:
            await writer.close()
            raise
        return cls(path, writer, reader)

    @property
    def target(self) -> str:
        return str(self.path)

    @property
    def reader(self) -> SqliteConn:
        return self._reader

    @asynccontextmanager
    async def write(self, what: str, *, whole: bool = False) -> AsyncIterator[SqliteConn]:
        # ``BEGIN IMMEDIATE`` holds the file's write lock: every transaction already sees one
        # moment of the whole database, ``whole`` or not.
        async with self._lock:
            raw = self.writer.raw
            try:
                try:
                    transaction = Transaction(raw)
                    yield transaction
                    await transaction.commit()
                except BaseException:
                    await despite_cancellation(raw.rollback())
                    raise
            except (sqlite3.Error, UnicodeError) as error:
                raise StorageError(f"{what} failed: {error}") from error

    async def close(self) -> None:
        async with self._lock:
            await self._reader.raw.close()
            await self.writer.raw.close()
