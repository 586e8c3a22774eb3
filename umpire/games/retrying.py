"""Deciding a command again when another process committed the same game first.

Several bot processes may serve one database, and Discord may hand the commands of one game to
two of them at once. Each process decides a command from its own copy of the game and commits
it with the seq that copy had; the store refuses a commit whose seq has moved on
(``storage.errors.ConcurrencyError``). That refusal is no answer for a player: the umpire drops
its copy, loads the game again and decides the command again, as if it had arrived second in one
process. A command that has become invalid meanwhile (its phase is over) then gets the rules'
own refusal; a valid one is committed. Nothing is written before the commit, so deciding again
neither doubles nor loses anything.

This module holds the rule (when to try again, and how long to wait first); the repository
applies it around each command (``Repository.decided``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from storage.errors import AlreadyExistsError, ConcurrencyError, NotFoundError


class Stale(Exception):
    """The game moved on between reading it and writing to it: another process wrote first.
    Raised inside a decision only; the repository decides again."""


@contextmanager
def stale_write() -> Iterator[None]:
    """A write that is not an event (a player's ready mark, a seat in play) carries the seq of
    the game it was decided at, and the store refuses it once the game has moved on
    (``ConcurrencyError``): another process committed first, perhaps ending the phase or the
    game, so the command is decided again from the game as it is now, as for a stale commit."""
    try:
        yield
    except ConcurrencyError:
        raise Stale from None


@contextmanager
def seats_raced() -> Iterator[None]:
    """A seat write that finds the seats not as they were read (the user was seated, or their
    seat or request was taken away meanwhile), or the game moved on since the seat was decided
    (it started): another process wrote first, so the command is decided again from the game as
    it is now."""
    try:
        yield
    except (AlreadyExistsError, ConcurrencyError, NotFoundError):
        raise Stale from None


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often a command is decided again, and the pauses between: random ("full jitter"),
    up to a bound that doubles each time, so that two processes racing for one game fall out of
    step rather than colliding again and again. Every stale commit means that another command
    for the game was committed, so the game always moves on; the bound on tries only keeps a
    pathological storm from holding a player's answer for ever."""

    tries: int = 16
    first_pause: float = 0.005
    longest_pause: float = 0.4

    def pause(self, failures: int) -> float:
        """The pause (seconds) after the ``failures``-th stale attempt (counting from 1)."""
        bound = min(self.longest_pause, self.first_pause * 2 ** (failures - 1))
        return random.uniform(0, bound)


#: The policy the umpire uses.
RETRY = RetryPolicy()
