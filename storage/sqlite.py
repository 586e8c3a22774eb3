"""The SQLite driver: one database file, a writer connection and a reader connection.

- the *writer* runs every write, one transaction at a time under an ``asyncio.Lock`` (SQLite
  allows one writer per file anyway; the lock also keeps one coroutine's statements out of
  another's transaction), each ``BEGIN IMMEDIATE`` … ``COMMIT`` (``storage.db.transaction``);
- the *reader* runs every read outside a transaction. In WAL mode it sees only committed
  transactions (never half of a commit still in progress on the writer) and it is not held up by
  a commit waiting for its fsync. It is read-only (``PRAGMA query_only``).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from storage.db import connect, transaction
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
            try:
                async with transaction(self.writer.raw):
                    yield self.writer
            except (sqlite3.Error, UnicodeError) as error:
                raise StorageError(f"{what} failed: {error}") from error

    async def close(self) -> None:
        async with self._lock:
            await self._reader.raw.close()
            await self.writer.raw.close()
