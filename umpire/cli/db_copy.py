"""``vedette db copy``: move every game from one database to another (a club's SQLite file to
PostgreSQL, say), and check that each game replays to the same state in both.

The rule: the destination must hold no game and no row of any copied table (a copy never
merges two clubs' games, and never overwrites one). Every table is copied row for row, with the
same keys: a delivery keeps its id (a message's nonce and a player's inbox are built on it),
events keep their seqs and are inserted in log order (the log's triggers check each one), and
the snapshots are copied as stored. The whole destination is written in one transaction: a copy
that fails leaves it empty. The source is read inside one transaction too, that sees one moment
of the whole database: a SQLite file's writers wait for the copy, PostgreSQL's go on (what they
commit meanwhile is not in the copy, so stop the bot first all the same).

Then every game is replayed from its first event in the source and in the destination (snapshots
ignored), and loaded in the destination as a process would (its latest snapshot plus the events
after it): the three states must be equal. The outbox's leases are not copied: they belong to
processes that ran on the source; in the destination every game's outbox is held by nobody, so
that the first process to drain it sends what waits there.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from rules.state import to_snapshot
from storage.database import upgrade
from storage.errors import StorageError
from storage.json_codec import decode
from storage.sql import Backend, Conn, database_kind
from storage.store import Store
from umpire.answers import UmpireError
from umpire.games.repository import Repository
from umpire.reads.maps import MapMaker


@dataclass(frozen=True, slots=True)
class Table:
    """A table to copy: its columns (in the order they are inserted), the order its rows are
    read in (a row's parent is inserted before it), and its columns that hold JSON (each value
    is read before it is copied: see :func:`_check_json`)."""

    name: str
    columns: tuple[str, ...]
    order: str
    json: tuple[str, ...] = ()


#: Every table a game's or the bot's data lives in, parents first. ``schema_migrations`` is not
#: copied (the destination records its own migrations); nor are the outbox's leases.
TABLES: tuple[Table, ...] = (
    Table("games", ("id", "scenario_id", "scenario_path", "options", "guild_id", "channel_id",
                    "host_user_id", "status", "seed", "created_at", "updated_at"), "id",
          ("options",)),
    Table("game_sources", ("game_id", "scenario_name", "scenario_text", "scenario_sha256",
                           "ruleset_name", "ruleset_text", "ruleset_sha256"), "game_id"),
    Table("players", ("game_id", "user_id", "side", "dm_ok", "joined_at"),
          "game_id, joined_at, user_id"),
    Table("seat_requests", ("game_id", "user_id", "side", "asked_at"), "game_id, user_id"),
    Table("former_players", ("game_id", "user_id", "side", "left_at"), "game_id, user_id"),
    Table("events", ("game_id", "seq", "type", "payload", "audience", "created_at"),
          "game_id, seq", ("payload",)),
    Table("snapshots", ("game_id", "seq", "payload", "created_at"), "game_id, seq",
          ("payload",)),
    Table("pictures", ("sha256", "data", "stored_at"), "sha256"),
    # ``image`` is left behind: migration 7 moved every picture to ``pictures``.
    Table("deliveries", ("id", "game_id", "seq", "kind", "target", "text", "image_name",
                         "buttons", "status", "attempts", "last_error", "created_at", "sent_at",
                         "edit_key", "mentions", "picture", "picture_view"), "id",
          ("buttons", "mentions")),
    Table("ready_players", ("game_id", "turn", "step", "user_id", "ready_at"),
          "game_id, turn, step, ready_at, user_id"),
    Table("phase_deadline_settings", ("game_id", "length_seconds", "set_at"), "game_id"),
    Table("phase_deadline_steps", ("game_id", "turn", "step", "extra_seconds", "reminded_at",
                                   "passed_at"), "game_id, turn, step"),
    Table("pending_orders", ("id", "game_id", "user_id", "kind", "body", "turn", "step",
                             "status", "shown", "created_at"), "game_id, created_at, id",
          ("body", "shown")),
    Table("held_news", ("game_id", "side", "n", "section", "text"), "game_id, side, n"),
    Table("turn_done", ("game_id", "turn", "user_id", "at_seq", "done_at"),
          "game_id, turn, user_id"),
    Table("standing_orders", ("game_id", "side", "unit", "standing", "route", "user_id",
                              "set_at"), "game_id, side, unit"),
    Table("bot_state", ("key", "value"), "key"),
)

#: Tables the copy leaves behind on purpose (see the module's docstring).
NOT_COPIED = frozenset({"schema_migrations", "outbox_lanes"})


class CopyRefused(Exception):
    """The copy cannot be made (a destination that holds data, a missing source, a source whose
    stored JSON cannot be read); nothing was written."""


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A game whose states differ between the source and the destination (or cannot be
    replayed), and how."""

    game_id: str
    problem: str


@dataclass(slots=True)
class CopyReport:
    """What was copied (rows per table) and what the replay check found."""

    rows: dict[str, int] = field(default_factory=dict)
    #: The source's schema before and after the copy opened it, when it had to be upgraded.
    source_upgraded: tuple[int, int] | None = None
    games_checked: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def lines(self) -> list[str]:
        out = []
        if self.source_upgraded is not None:
            out.append("the source was first upgraded from schema {} to {}, as the bot would "
                       "have done".format(*self.source_upgraded))
        out += [f"  {table.name}: {self.rows.get(table.name, 0)} row(s)" for table in TABLES]
        if self.ok:
            out.append(f"check: {self.games_checked} game(s) replay to the same state in both")
        else:
            out.append(f"check FAILED for {len(self.mismatches)} of {self.games_checked} "
                       "game(s):")
            out += [f"  {m.game_id}: {m.problem}" for m in self.mismatches]
        return out


async def copy_database(source: str | PathLike[str], destination: str | PathLike[str]
                        ) -> CopyReport:
    """Copy every table from ``source`` to the empty ``destination`` (both database targets),
    then check every game's replay. Raises ``CopyRefused`` (nothing written) for a destination
    that holds data or is the source, or a source holding JSON that cannot be read (not JSON,
    or nested too deeply: ``rules.scenario.nesting``); ``StorageError`` for a database that cannot
    be opened or a row the destination refuses (then nothing of the copy stays)."""
    if _same(source, destination):
        raise CopyRefused("the source and the destination are the same database")
    if not is_url(source) and not Path(source).is_file():
        raise CopyRefused(f"no database at {source} to copy from")
    # Opening a database brings it to this Vedette's schema: said in the report, not silently.
    before, after = await upgrade(source)
    async with Store.open(source) as src, Store.open(destination) as dest:
        if src.schema_version != dest.schema_version:
            raise CopyRefused(f"the source is at schema {src.schema_version} and the destination"
                              f" at {dest.schema_version}")
        report = CopyReport(source_upgraded=None if before == after else (before, after))
        async with src._write("read the database to copy", whole=True) as reading, \
                dest._write("copy the database") as writing:
            await _refuse_data(writing)
            for table in TABLES:
                report.rows[table.name] = await _copy_table(reading, writing, table, src.target)
            await _after_ids(writing)
        report.games_checked, report.mismatches = await check_replays(src, dest)
    return report


def is_url(target: str | PathLike[str]) -> bool:
    return database_kind(target) == Backend.POSTGRESQL


def _same(source: str | PathLike[str], destination: str | PathLike[str]) -> bool:
    """Whether both name one database (a file by any path to it, or one URL)."""
    if is_url(source) or is_url(destination):
        return str(source) == str(destination)
    return Path(source).resolve() == Path(destination).resolve()


async def _refuse_data(conn: Conn) -> None:
    held = [table.name for table in TABLES
            if await conn.fetch(f"SELECT 1 FROM {table.name} LIMIT 1")]
    if held:
        raise CopyRefused("the destination is not empty (it holds rows in "
                          f"{', '.join(held)}); copy into a new, empty database")


async def _copy_table(reading: Conn, writing: Conn, table: Table, source: str) -> int:
    columns = ", ".join(table.columns)
    found = await reading.fetch(f"SELECT {columns} FROM {table.name} ORDER BY {table.order}")
    values = [tuple(row[i] for i in range(len(table.columns))) for row in found]
    _check_json(table, values, source)
    if values:
        marks = ", ".join("?" for _ in table.columns)
        await writing.executemany(
            f"INSERT INTO {table.name} ({columns}) VALUES ({marks})", values)
    return len(values)


def _check_json(table: Table, values: list[tuple[Any, ...]], source: str) -> None:
    """Every JSON value of the table's rows reads back as the bot would read it; otherwise the
    copy is refused (inside its transaction: nothing of it stays). A value nested deeper than
    the bot reads would only fail later, in the replay check or in the bot."""
    keys = [c.strip() for c in table.order.split(",")]
    for column in table.json:
        at = table.columns.index(column)
        for row in values:
            key = ", ".join(f"{c} {row[table.columns.index(c)]!r}" for c in keys)
            try:
                decode(str(row[at]), f"{table.name}.{column} of the row with {key}")
            except StorageError as e:
                raise CopyRefused(f"{source} cannot be copied: its {e}") from None


async def _after_ids(conn: Conn) -> None:
    """Deliveries were inserted with their ids: PostgreSQL's sequence must go on after the
    highest (SQLite's AUTOINCREMENT follows inserted ids by itself)."""
    if conn.backend == Backend.POSTGRESQL:
        await conn.fetch("SELECT setval(pg_get_serial_sequence('deliveries', 'id'),"
                         " coalesce((SELECT max(id) FROM deliveries), 0) + 1, false)")


async def check_replays(source: Store, destination: Store) -> tuple[int, list[Mismatch]]:
    """Replay every game of ``source`` from its first event in both stores, and load it in
    ``destination`` from its latest snapshot; the number of games and those that differ."""
    before = Repository(source, maps=MapMaker(enabled=False))
    after = Repository(destination, maps=MapMaker(enabled=False))
    games = await source.list_games()
    mismatches = []
    for game in games:
        problem = await _compare(before, after, game.id)
        if problem:
            mismatches.append(Mismatch(game.id, problem))
    return len(games), mismatches


async def _compare(before: Repository, after: Repository, game_id: str) -> str:
    """How the game's states differ ("" when they do not)."""
    try:
        source_state = to_snapshot(await before.replay_all(game_id))
    except UmpireError as e:
        return f"cannot be replayed in the source: {e}"
    try:
        replayed = to_snapshot(await after.replay_all(game_id))
        loaded = to_snapshot((await after.get(game_id)).state)
    except (UmpireError, AssertionError) as e:
        return f"cannot be replayed in the destination: {e or 'no such game'}"
    if replayed != source_state:
        return "its log replays to a different state: " + _first_difference(source_state,
                                                                            replayed)
    if loaded != source_state:
        return "its latest snapshot and later events give a different state: " + \
            _first_difference(source_state, loaded)
    return ""


def _first_difference(expected: dict[str, Any], found: dict[str, Any]) -> str:
    keys: Sequence[str] = sorted(set(expected) | set(found))
    for key in keys:
        if expected.get(key) != found.get(key):
            return (f"{key} is {json.dumps(found.get(key))[:80]} instead of "
                    f"{json.dumps(expected.get(key))[:80]}")
    return "the states differ"
