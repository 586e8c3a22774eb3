"""Persistence on SQLite (aiosqlite) or PostgreSQL (asyncpg): games, the append-only event log,
snapshots and the outbox of deliveries, with numbered schema migrations for both.

Layer rule: ``storage`` may import ``rules`` (to (de)serialise its types) and nothing from
``render``, ``umpire`` or ``bot``.

Entry point: ``Store`` (``storage.store``). ``await Store.open(target)`` or
``async with Store.open(target) as store:``, where the target is a SQLite file path or a
``postgresql://`` URL (``database_kind(target)`` tells which ``Backend``). The one write that
matters is ``store.commit(game_id, expected_seq, events, deliveries, snapshot=None,
game_updates=None)``, which appends a command's events and their deliveries in one durable
transaction or raises ``ConcurrencyError`` when the game moved on since it was loaded (from
this process or another one sharing the database). ``store.backup(dest)`` copies a live SQLite
database with SQLite's online backup API (a PostgreSQL database is backed up with ``pg_dump``).
Modules: ``records`` (the dataclasses), ``store``, ``sql`` (the driver API the store is written
on), ``sqlite`` and ``postgres`` (the two drivers), ``database`` (opening a target, upgrading
it), ``db`` (SQLite connections and pragmas), ``migrations`` (numbered schema; PostgreSQL's SQL
in ``pg_schema``), ``backup``, ``json_codec`` (strict, round-tripping JSON), ``rows``,
``clock``, ``errors``.
"""

from storage.errors import AlreadyExistsError, ConcurrencyError, NotFoundError, StorageError
from storage.json_codec import JsonObject
from storage.migrations import SCHEMA_VERSION
from storage.records import (
    PUBLIC,
    UMPIRE,
    DeliveryKind,
    DeliveryRecord,
    DeliveryStatus,
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
    Snapshot,
    side_audience,
)
from storage.sql import Backend, database_kind
from storage.store import Store, StoreOpener

__all__ = [
    "PUBLIC",
    "SCHEMA_VERSION",
    "UMPIRE",
    "AlreadyExistsError",
    "Backend",
    "ConcurrencyError",
    "DeliveryKind",
    "DeliveryRecord",
    "DeliveryStatus",
    "EventRecord",
    "GameNow",
    "GameRecord",
    "GameSources",
    "GameStatus",
    "GameUpdate",
    "JsonObject",
    "NewDelivery",
    "NewEvent",
    "NotFoundError",
    "PlayerRecord",
    "Recipient",
    "Snapshot",
    "StorageError",
    "Store",
    "StoreOpener",
    "database_kind",
    "side_audience",
]
