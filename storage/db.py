"""Opening SQLite connections with Vedette's pragmas.

Every connection is in autocommit mode (``isolation_level=None``): ``storage`` writes
``BEGIN IMMEDIATE`` / ``COMMIT`` itself, so a transaction is exactly what the code says.

Pragmas:

- ``journal_mode=WAL``: readers never block the writer and the writer never blocks readers, so one
  process can read game state while another game's command commits. Persistent in the file.
- ``synchronous=FULL``: in WAL mode, FULL syncs the WAL to disk at every commit; NORMAL would only
  sync at checkpoints, so a commit could be lost on power failure or an OS crash (not on a crash
  of the process). Vedette tells a player "accepted" only once the commit returned, so a returned
  commit must survive a power cut: FULL. The cost is one fsync per command, small next to a
  Discord round trip.
- ``foreign_keys=ON``: players, events, snapshots and deliveries must belong to a game.
- ``busy_timeout``: another process holding the write lock (a second bot by mistake, a
  ``vedette`` command run against a live file) makes a writer wait up to this long, then fail.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from storage.errors import StorageError

BUSY_TIMEOUT_MS = 5000


async def connect(path: Path, *, read_only: bool = False) -> aiosqlite.Connection:
    """A configured connection to the database file at ``path`` (created if missing, unless
    ``read_only``). A read-only connection refuses writes (``PRAGMA query_only``)."""
    try:
        conn = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as error:
        raise StorageError(f"cannot open database {path}: {error}") from error
    try:
        conn.row_factory = sqlite3.Row
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await conn.execute("PRAGMA foreign_keys = ON")
        if not read_only:
            rows = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
            mode = str(rows[0][0]).lower() if rows else ""
            if mode != "wal":
                raise StorageError(
                    f"database {path} cannot use write-ahead logging (journal mode {mode!r})"
                )
        await conn.execute("PRAGMA synchronous = FULL")
        if read_only:
            await conn.execute("PRAGMA query_only = ON")
    except sqlite3.DatabaseError as error:
        await conn.close()
        raise StorageError(f"cannot use {path} as a Vedette database: {error}") from error
    except BaseException:
        await conn.close()
        raise
    return conn


@asynccontextmanager
async def transaction(conn: aiosqlite.Connection) -> AsyncIterator[aiosqlite.Connection]:
    """``BEGIN IMMEDIATE`` … ``COMMIT``; on any exception, including cancellation, roll back.

    IMMEDIATE takes the write lock at once, so the reads inside the transaction (the game's last
    seq) cannot be invalidated by another writer before the writes. The caller must make sure no
    other coroutine uses ``conn`` meanwhile (``Store`` holds a lock).

    aiosqlite runs statements in order on the connection's thread, so a statement already queued
    when the caller is cancelled still runs; the rollback is queued after it and is a no-op if
    the ``COMMIT`` went through (``sqlite3.Connection.rollback`` does nothing outside a
    transaction). A cancelled caller therefore leaves either the whole transaction or nothing.
    """
    try:
        await conn.execute("BEGIN IMMEDIATE")
        yield conn
        await conn.execute("COMMIT")
    except BaseException:
        await _despite_cancellation(conn.rollback())
        raise


async def _despite_cancellation(awaitable: Awaitable[None]) -> None:
    """Await ``awaitable`` to the end even if this task is cancelled meanwhile (cancellation is
    then re-raised), so that the connection is never left inside a transaction."""
    task = asyncio.ensure_future(awaitable)
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.cancelled():
                raise
            cancelled = True
    task.result()
    if cancelled:
        raise asyncio.CancelledError
