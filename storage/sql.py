"""The small driver API the store is written on, so that one store runs on SQLite or PostgreSQL.

Statements use ``?`` placeholders and a SQL subset both databases speak; the PostgreSQL driver
rewrites ``?`` to ``$1, $2, …``. Portable means: ``INSERT … ON CONFLICT (…) DO NOTHING`` or
``DO UPDATE SET c = excluded.c`` (never ``INSERT OR IGNORE/REPLACE``), no ``rowid``, no
``LIMIT -1``, no ``typeof`` outside SQLite's own schema, ``CAST(? AS BIGINT)`` where a parameter's
type cannot be inferred from a column. Where the two must differ (the games row lock), the code
asks ``conn.backend``.

A :class:`Database` is a backend's connections: :meth:`Database.write` yields a :class:`Conn`
inside one transaction (committed when the block ends, rolled back if it raises or is
cancelled); :attr:`Database.reader` is a :class:`Conn` for reads outside any transaction, which
see only committed data. Every failure of the database comes out as a ``StorageError``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from enum import StrEnum
from typing import Any, Protocol


class Backend(StrEnum):
    """Which database a target names."""

    SQLITE = "sqlite"
    POSTGRESQL = "postgresql"


URL_SCHEMES = ("postgresql://", "postgres://")


def database_kind(target: str | os.PathLike[str]) -> Backend:
    """A ``postgresql://`` (or ``postgres://``) URL means PostgreSQL; anything else is a SQLite
    file path."""
    text = os.fspath(target)
    return Backend.POSTGRESQL if text.lower().startswith(URL_SCHEMES) else Backend.SQLITE


class Row(Protocol):
    """A result row: ``row["column"]`` or ``row[0]`` (``sqlite3.Row`` and ``asyncpg.Record``)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Any]: ...


class Conn(Protocol):
    """A connection inside one transaction (from :meth:`Database.write`), or the reader."""

    @property
    def backend(self) -> Backend: ...

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows ``sql`` returns."""
        ...

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def hold(self) -> None:
        """Inside a transaction, wait until it holds the database for its writes, as far as
        the database locks at the start (SQLite's whole file; nothing on PostgreSQL, whose
        rows are locked as they are written): a time read after this is not earlier than
        the writes it stamps can be made."""
        ...

    async def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one statement whose outcome nobody waits for. Inside a transaction a driver may
        hold it and send it with the next statement that has an answer (or the ``COMMIT``):
        if it fails, the transaction fails then, and nothing of it is committed either way."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row (held as ``run`` may be)."""
        ...

    async def insert_id(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one ``INSERT`` into a table whose key is an ``id`` the database assigns; the new
        row's id. (Written without ``RETURNING``: the driver adds what its database needs.)"""
        ...

    async def insert_ids(self, sql: str, rows: Sequence[Sequence[Any]]) -> list[int]:
        """Run a one-row ``INSERT … VALUES (?, …)`` once per row of ``rows``, in order; the
        new rows' ids, in the same order (a driver may send them as one statement)."""
        ...


class Database(Protocol):
    """One backend's connections to one database."""

    @property
    def backend(self) -> Backend: ...

    @property
    def target(self) -> str:
        """The database as the host named it (a path, or a URL without its password)."""
        ...

    @property
    def reader(self) -> Conn:
        """Reads outside a transaction: committed data only."""
        ...

    def write(self, what: str, *, whole: bool = False) -> AbstractAsyncContextManager[Conn]:
        """One write transaction; a failure becomes a ``StorageError`` naming ``what``.
        ``whole``: every read in it sees the whole database as it was at one moment (for a
        copy of it), whatever other processes commit meanwhile. The database may be taken
        for the transaction only at its first statement: a time read inside it that must not
        be earlier than its writes is read after ``Conn.hold``."""
        ...

    async def close(self) -> None:
        """Close every connection (waiting for a transaction in progress)."""
        ...
