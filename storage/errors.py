"""The errors ``storage`` raises. Everything it raises on purpose is a :class:`StorageError`."""

from __future__ import annotations


class StorageError(Exception):
    """The database could not do what was asked: unreadable file, constraint violated, I/O error,
    a schema from a newer Vedette, a value that is not JSON."""


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
