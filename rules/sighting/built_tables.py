"""Sighting tables already built, kept by what they were built from: the rule, the map's content
and the visibility.

Building a rule's tables is the costly part of starting on a board (seconds on a large one), and
the same board comes back often: every game of a scenario loads its own copy of the map, and so
do a reload, a restart and a second process. Tables depend on nothing but the map's content, so
copies of one board share them. Only the last few boards are kept, so a bot that has served
many scenarios holds the tables of the boards in play, not of every board it has loaded.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable

from rules.ground.gamemap import GameMap

#: How many sets of tables are kept (a set is one rule on one board at one visibility).
KEPT = 8

_Key = tuple[type, str, int]
_TABLES: OrderedDict[_Key, list[int]] = OrderedDict()
_LOCK = threading.Lock()  # maps are drawn and commands decided in worker threads


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
    tables = build(game_map, rng)
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
