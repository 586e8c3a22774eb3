"""Opening a database target with the right driver, and upgrading its schema on its own.

A target is a SQLite file path or a ``postgresql://`` URL (``storage.sql.database_kind``).
"""

from __future__ import annotations

import asyncio
from os import PathLike, fspath
from pathlib import Path

from storage.clock import Clock, utc_now
from storage.db import check_file, check_integrity
from storage.errors import DatabaseMissing, StorageError
from storage.migrations import MIGRATIONS, migrate, recorded_or_zero
from storage.sql import Backend, Database, database_kind
from storage.sqlite import SqliteDatabase


async def open_database(target: str | PathLike[str]) -> Database:
    """The driver's connections to ``target``, checked (a SQLite file as ``Store.open``
    describes; a PostgreSQL server reached and logged in), schema not touched."""
    if database_kind(target) is Backend.POSTGRESQL:
        from storage.postgres import PostgresDatabase  # asyncpg only when asked for

        return await PostgresDatabase.open(fspath(target))
    path = Path(target)
    if str(path) == ":memory:" or str(path).startswith("file:"):
        raise StorageError(f"the store needs a database file path, not {str(path)!r}")
    await asyncio.to_thread(check_file, path)
    db = await SqliteDatabase.open(path)
    try:
        await check_integrity(db.writer.raw, path)
    except BaseException:
        await db.close()
        raise
    return db


async def upgrade(target: str | PathLike[str], clock: Clock = utc_now) -> tuple[int, int]:
    """Bring an existing database's schema up to date; its version before and after. A SQLite
    file that does not exist is refused (``DatabaseMissing``) rather than created: upgrading is
    for a database that holds games."""
    if database_kind(target) is Backend.SQLITE and not Path(target).is_file():
        raise DatabaseMissing(f"no database at {fspath(target)}")
    db = await open_database(target)
    try:
        before = await recorded_or_zero(db, db.target)
        after = await migrate(db, db.target, clock, MIGRATIONS)
    finally:
        await db.close()
    return before, after
