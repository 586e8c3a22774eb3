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
import os
import sqlite3
from collections.abc import Awaitable
from pathlib import Path

import aiosqlite

from storage.errors import (
    DatabaseDamaged,
    DatabaseMissing,
    DatabaseReadOnly,
    DatabaseUnusable,
)

BUSY_TIMEOUT_MS = 5000
SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_SIZE = 100
RESTORE = "restore it from a backup (see docs/hosting.md)"


def check_file(path: Path) -> None:
    """Refuse, with one line saying why, a database file that cannot serve: missing with no
    folder to create it in, not a SQLite file, truncated, or read-only (Vedette writes to its
    database, and to the ``-wal`` and ``-shm`` files next to it). A missing file in a writable
    folder, or an empty one, is fine: the store creates the database.

    Only the file's first bytes are read; :func:`check_integrity` reads the rest."""
    folder = path.absolute().parent
    if not path.exists():
        if not folder.is_dir():
            raise DatabaseMissing(f"no database at {path}, and no folder {folder} to create "
                                  "it in")
        if not os.access(folder, os.W_OK):
            raise DatabaseReadOnly(f"no database at {path}, and its folder {folder} is "
                                   "read-only, so none can be created")
        return
    if not path.is_file():
        raise DatabaseMissing(f"{path} is not a file, so it cannot be the database")
    try:
        with path.open("rb") as f:
            header = f.read(HEADER_SIZE)
            size = os.fstat(f.fileno()).st_size
    except OSError as error:
        raise DatabaseUnusable(f"cannot read database {path}: {error.strerror}") from error
    if size:
        _check_header(path, header, size)
    if not os.access(path, os.W_OK):
        raise DatabaseReadOnly(f"database {path} is read-only; Vedette must write to it (make "
                               "it writable, or work on a copy)")
    sidecars = [Path(f"{path}{s}") for s in ("-wal", "-shm")]
    if not os.access(folder, os.W_OK) and not all(os.access(s, os.W_OK) for s in sidecars):
        raise DatabaseReadOnly(f"database {path} is in a read-only folder; Vedette must create "
                               f"{path.name}-wal and {path.name}-shm next to it")


def _check_header(path: Path, header: bytes, size: int) -> None:
    """The header SQLite writes at the start of every database, and the size it records."""
    if len(header) < HEADER_SIZE or not header.startswith(SQLITE_MAGIC):
        raise DatabaseDamaged(f"{path} is not a SQLite database (damaged, or another kind of "
                              f"file); {RESTORE}")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    # The recorded page count is trustworthy when its "valid for" number matches the change
    # counter (SQLite 3.7.0 and later). Later pages may sit in the -wal file; never fewer.
    recorded = header[24:28] == header[92:96] and pages > 0
    if recorded and _wal_in_use(path):
        # A checkpoint in progress (another process) writes the header before the pages that
        # lengthen the file: leave the size to quick_check, which reads through the -wal file.
        recorded = False
    if page_size < 512 or size % page_size or (recorded and size < pages * page_size):
        expected = f" of {pages * page_size}" if recorded else ""
        raise DatabaseDamaged(f"database {path} is truncated ({size} bytes{expected}); {RESTORE}")


def _wal_in_use(path: Path) -> bool:
    try:
        return Path(f"{path}-wal").stat().st_size > 0
    except OSError:
        return False


async def check_integrity(conn: aiosqlite.Connection, path: Path) -> None:
    """SQLite's ``quick_check`` over the whole file: a damaged page is refused at the start,
    not found in the middle of a game."""
    try:
        rows = [str(r[0]) for r in await conn.execute_fetchall("PRAGMA quick_check")]
    except sqlite3.DatabaseError as error:
        raise DatabaseDamaged(f"database {path} is damaged ({error}); {RESTORE}") from error
    if rows != ["ok"]:
        # SQLite's first finding, on one line, without its "*** in database main ***" heading.
        words = [w for line in "\n".join(rows).splitlines() if not line.startswith("***")
                 for w in line.split()]
        raise DatabaseDamaged(f"database {path} is damaged ({' '.join(words[:30]) or 'no answer'}"
                              f"); {RESTORE}")


async def connect(path: Path, *, read_only: bool = False) -> aiosqlite.Connection:
    """A configured connection to the database file at ``path`` (created if missing, unless
    ``read_only``). A read-only connection refuses writes (``PRAGMA query_only``)."""
    try:
        conn = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as error:
        raise unusable(path, error) from error
    try:
        conn.row_factory = sqlite3.Row
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await conn.execute("PRAGMA foreign_keys = ON")
        if not read_only:
            rows = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
            mode = str(rows[0][0]).lower() if rows else ""
            if mode != "wal":
                raise DatabaseUnusable(
                    f"database {path} cannot use write-ahead logging (journal mode {mode!r})"
                )
        await conn.execute("PRAGMA synchronous = FULL")
        if read_only:
            await conn.execute("PRAGMA query_only = ON")
    except sqlite3.DatabaseError as error:
        await conn.close()
        raise unusable(path, error) from error
    except BaseException:
        await conn.close()
        raise
    return conn


def unusable(path: Path, error: sqlite3.Error) -> DatabaseUnusable:
    """What SQLite's refusal to use a file means, in the host's words."""
    name = getattr(error, "sqlite_errorname", "")
    if name.startswith("SQLITE_READONLY"):
        return DatabaseReadOnly(f"database {path} is read-only ({error}); Vedette must write to "
                                "it")
    if name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
        return DatabaseDamaged(f"database {path} is damaged ({error}); {RESTORE}")
    return DatabaseUnusable(f"cannot use {path} as a Vedette database: {error}")


async def despite_cancellation(awaitable: Awaitable[None]) -> None:
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
