"""Where a game stands: set up, in play, paused or over."""

from __future__ import annotations

from enum import StrEnum


class GameStatus(StrEnum):
    """A game's status, as stored with it and shown to the host."""

    #: Created; players take seats; no turn has been played.
    SETUP = "setup"
    #: In play.
    ACTIVE = "active"
    #: In play, but the host has paused it: no orders are taken.
    PAUSED = "paused"
    #: Over; the dice seed is published.
    ENDED = "ended"

    @property
    def in_play(self) -> bool:
        """Started and not over (a paused game is still in play)."""
        return self in (GameStatus.ACTIVE, GameStatus.PAUSED)
