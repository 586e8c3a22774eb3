"""Persistence in SQLite through aiosqlite: games, the append-only event log, snapshots and the
outbox of deliveries, with numbered schema migrations.

Layer rule: ``storage`` may import ``rules`` (to (de)serialise its types) and nothing from
``render``, ``umpire`` or ``bot``.

Entry point: ``Store`` (``storage.store``). ``await Store.open(path)`` or
``async with Store.open(path) as store:``; the one write that matters is
``store.commit(game_id, expected_seq, events, deliveries, snapshot=None, game_updates=None)``,
which appends a command's events and their deliveries in one durable transaction or raises
``ConcurrencyError`` when the game moved on since it was loaded. ``store.backup(dest)`` copies a
live database with SQLite's online backup API. Modules: ``records`` (the dataclasses), ``store``,
``db`` (connections and pragmas), ``migrations`` (numbered schema), ``backup``, ``json_codec``
(strict, round-tripping JSON), ``rows``, ``clock``, ``errors``.
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
from storage.store import Store, StoreOpener

__all__ = [
    "PUBLIC",
    "SCHEMA_VERSION",
    "UMPIRE",
    "AlreadyExistsError",
    "ConcurrencyError",
    "DeliveryKind",
    "DeliveryRecord",
    "DeliveryStatus",
    "EventRecord",
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
    "side_audience",
]
