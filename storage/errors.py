"""The errors ``storage`` raises. Everything it raises on purpose is a :class:`StorageError`."""

from __future__ import annotations


class StorageError(Exception):
    """The database could not do what was asked: unreadable file, constraint violated, I/O error,
    a schema from a newer Vedette, a value that is not JSON."""


class DatabaseUnusable(StorageError):
    """The database file cannot be used at all; the message says why in one line, for the host."""


class DatabaseMissing(DatabaseUnusable):
    """No database file where one was named, and none can be created there."""


class DatabaseReadOnly(DatabaseUnusable):
    """The database file, or the folder it must write its ``-wal`` and ``-shm`` files in, is
    read-only."""


class DatabaseDamaged(DatabaseUnusable):
    """The file is not a SQLite database, is truncated, or fails SQLite's integrity check."""


class DatabaseTooNew(DatabaseUnusable):
    """The file was written by a newer Vedette, whose schema this one does not know."""


class NotFoundError(StorageError):
    """The game, player or delivery named does not exist."""


class AlreadyExistsError(StorageError):
    """A game with this id, or this player in this game, already exists."""


class ConcurrencyError(StorageError):
    """A commit was based on a stale view of the game's log: nothing was written.

    The caller reloads the game (its events after ``actual_seq``) and retries the command.
    """

    def __init__(self, game_id: str, expected_seq: int, actual_seq: int) -> None:
        super().__init__(
            f"game {game_id!r} is at seq {actual_seq}, not {expected_seq}: "
            "it changed since it was loaded; nothing was written"
        )
        self.game_id = game_id
        self.expected_seq = expected_seq
        self.actual_seq = actual_seq
