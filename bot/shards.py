"""Which of Discord's shards this process serves (``vedette run --shards 0-3 --shard-count 8``).

Discord splits a bot's gateway into ``count`` shards: a server's events and interactions go to
shard ``(server id >> 22) % count``, direct messages to shard 0. Several processes may share one
bot, each connecting some of the shards; every shard must be connected by exactly one of them,
all with the same count. The rule here: a plan names a count of at least one and a non-empty set
of shards, each below the count. Without any plan the bot asks Discord how many shards it needs
and connects them all, as a single process always has.

The process holding shard 0 is the bot's first process: it alone pushes the slash commands and
does the bot's once-only start-up work. Every process sends what the outbox holds and watches the
deadlines (the database makes those safe to share).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypedDict

#: The most shards a plan may name: far beyond any bot's need, small enough to refuse a typo.
MAX_SHARD_COUNT = 4096

_PART = re.compile(r"^(\d+)(?:-(\d+))?$")


class ShardError(ValueError):
    """A shard range or count that cannot be served: the message says what to write instead."""


class ShardOptions(TypedDict, total=False):
    """What discord.py's ``AutoShardedClient`` takes for a plan."""

    shard_ids: list[int]
    shard_count: int


@dataclass(frozen=True)
class ShardPlan:
    """Shards ``ids`` (sorted, distinct, each below ``count``) of a bot with ``count`` shards."""

    ids: tuple[int, ...]
    count: int

    def __post_init__(self) -> None:
        # discord.py reads an empty list of shards as "all of them": a plan never holds one.
        if not 1 <= self.count <= MAX_SHARD_COUNT:
            raise ShardError(f"the shard count must be between 1 and {MAX_SHARD_COUNT}, "
                             f"not {self.count}")
        if not self.ids:
            raise ShardError("a shard plan names at least one shard")
        in_order = list(self.ids) == sorted(set(self.ids))
        if not in_order or self.ids[0] < 0 or self.ids[-1] >= self.count:
            raise ShardError(f"shards {self.ids} are not distinct, in order and below "
                             f"{self.count}")

    @property
    def first(self) -> bool:
        """Whether this process holds shard 0 (DMs, slash command pushes, once-only work)."""
        return 0 in self.ids

    def options(self) -> ShardOptions:
        return {"shard_ids": list(self.ids), "shard_count": self.count}

    def describe(self) -> str:
        return f"shard(s) {format_ids(self.ids)} of {self.count}"


def format_ids(ids: tuple[int, ...]) -> str:
    """``(0, 1, 2, 5)`` as ``0-2,5``."""
    parts: list[str] = []
    start = prev = ids[0]
    for i in (*ids[1:], None):
        if i is not None and i == prev + 1:
            prev = i
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if i is not None:
            start = prev = i
    return ",".join(parts)


def parse_count(text: str) -> int:
    """A shard count: a whole number from 1 to ``MAX_SHARD_COUNT``."""
    value = text.strip()
    if not value.isdecimal():
        raise ShardError(f"the shard count must be a whole number such as 8, not {text!r}")
    count = int(value)
    if not 1 <= count <= MAX_SHARD_COUNT:
        raise ShardError(f"the shard count must be between 1 and {MAX_SHARD_COUNT}, not {count}")
    return count


def parse_ids(text: str, count: int) -> tuple[int, ...]:
    """Shard numbers written as ``3``, ``0-3`` or ``0-1,4,6-7``: each below ``count``, none
    twice."""
    if not text.strip():
        raise ShardError("no shards given; write them as 0-3 or 0,2,5")
    ids: list[int] = []
    for part in text.split(","):
        match = _PART.match(part.strip())
        if match is None:
            raise ShardError(f"{part.strip()!r} is not a shard or a range of shards; write "
                             "them as 0-3 or 0,2,5")
        low = int(match[1])
        high = int(match[2]) if match[2] is not None else low
        if high < low:
            raise ShardError(f"the range {part.strip()} runs backwards; write {high}-{low}")
        if high >= count:
            raise ShardError(f"shard {high} does not exist with a shard count of {count}: "
                             f"shards are numbered 0 to {count - 1}")
        ids.extend(range(low, high + 1))
    if len(set(ids)) != len(ids):
        twice = sorted({i for i in ids if ids.count(i) > 1})
        raise ShardError(f"shard(s) {format_ids(tuple(twice))} named more than once")
    return tuple(sorted(ids))


def plan(shards: str | None, count: str | None) -> ShardPlan | None:
    """The plan for ``--shards``/``VEDETTE_SHARDS`` and ``--shard-count``/
    ``VEDETTE_SHARD_COUNT`` (empty or None: not given). Neither: None, every shard Discord asks
    for in this process. A count alone: all its shards here. Shards need a count: a process
    cannot tell which servers are its own without it."""
    shards = (shards or "").strip() or None
    count = (count or "").strip() or None
    if count is None:
        if shards is not None:
            raise ShardError("--shards (VEDETTE_SHARDS) needs --shard-count "
                             "(VEDETTE_SHARD_COUNT): the bot's number of shards, the same for "
                             "every process")
        return None
    total = parse_count(count)
    ids = parse_ids(shards, total) if shards is not None else tuple(range(total))
    return ShardPlan(ids, total)
