"""The PostgreSQL driver (asyncpg): not in this version yet."""

from __future__ import annotations

from storage.errors import DatabaseUnusable
from storage.sql import Database


class PostgresDatabase:
    @classmethod
    async def open(cls, url: str) -> Database:
        raise DatabaseUnusable("this Vedette cannot use PostgreSQL yet")
