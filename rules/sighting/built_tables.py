"""Sighting tables already built, kept by what they were built from: the rule, the map's content
and the visibility.

Building a rule's tables is the costly part of starting on a board (seconds on a large one), and
the same board comes back often: every game of a scenario loads its own copy of the map, and so
do a reload, a restart and a second process. Tables depend on nothing but the map's content, so
copies of one board share them. Only the last few boards are kept, so a bot that has served
many scenarios holds the tables of the boards in play, not of every board it has loaded. A store
(``use_store``) keeps them on disk as well, so that a restart finds them built.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol

from rules.ground.gamemap import GameMap

#: How many sets of tables are kept (a set is one rule on one board at one visibility).
KEPT = 8

_Key = tuple[type, str, int]
_TABLES: OrderedDict[_Key, list[int]] = OrderedDict()
_LOCK = threading.Lock()  # maps are drawn and commands decided in worker threads


class TableStore(Protocol):
    """Where built tables are kept between runs (``storage.cache.tables``): a restarted bot
    reads a board's tables back instead of building them again."""

    def load(self, key: str, cells: int) -> list[int] | None:
        """The tables kept under ``key``, one per cell of ``cells``; ``None`` when there are
        none, or none whole (a damaged or stale copy is never read)."""

    def save(self, key: str, tables: list[int], cells: int) -> None:
        """Keep ``tables`` under ``key``. A store that cannot write loses nothing but time."""


_STORE: TableStore | None = None


def use_store(store: TableStore | None) -> None:
    """Keep built tables in ``store`` too, and look there before building (``None``: in memory
    only)."""
    global _STORE
    _STORE = store


def store_key(rule: type, content: str, rng: int) -> str:
    """The name tables are kept under: the rule's, the visibility's and the board's content."""
    return f"{getattr(rule, 'name', '') or rule.__name__.lower()}-{rng}-{content}"


def content_key(game_map: GameMap) -> str:
    """A digest of everything the map holds: grid, sheets, terrain, elevation, roads, hexsides
    and ruleset. Two maps with the same key see alike under every rule. Taken when tables are
    built, so a map changed after an earlier build gets tables of its own."""
    return hashlib.sha256(repr(game_map).encode()).hexdigest()


def tables_for(rule: type, game_map: GameMap, rng: int,
               build: Callable[[GameMap, int], list[int]]) -> list[int]:
    """``rule``'s tables for ``game_map`` under visibility ``rng``: kept ones if this board was
    built before, else ``build(game_map, rng)``, kept for next time. The list is shared: it is
    read, never changed."""
    key = (rule, content_key(game_map), rng)
    with _LOCK:
        kept = _TABLES.get(key)
        if kept is not None:
            _TABLES.move_to_end(key)
            return kept
    # Built outside the lock: two threads may build the same tables once each, which is harmless,
    # where holding the lock would make every other board wait.
    store = _STORE
    cells = game_map.grid.size
    name = store_key(rule, key[1], rng)
    found = store.load(name, cells) if store is not None else None
    if found is None:
        tables = build(game_map, rng)
        if store is not None:
            store.save(name, tables, cells)
    else:
        tables = found
    with _LOCK:
        _TABLES[key] = tables
        _TABLES.move_to_end(key)
        while len(_TABLES) > KEPT:
            _TABLES.popitem(last=False)
    return tables


def forget() -> None:
    """Drop every kept table (they are built again when next asked for)."""
    with _LOCK:
        _TABLES.clear()


def kept_count() -> int:
    """How many sets of tables are kept now."""
    with _LOCK:
        return len(_TABLES)
