"""Why a moving unit stops short: a ``Stop``, never a refusal.

An order is refused (``rules.orders.movement.MoveError``) only for what the moving side itself knows
is wrong: the cells do not touch, the MPs do not pay for even its first step, its own units fill the
cell it ends in. A route longer than the MPs is no refusal: the unit stops where they run out
(``out_of_mp``, ruling ORD-1). Everything the rules stop a unit for on its way (it runs into the
enemy, reaches a blocked hex, is revealed, is stopped by a module's rule) is a ``Stop``: the move
is accepted and ends in the last cell the unit may stand in (ruling CORE-3), so that the answer to
an order never tells the side more than the move itself shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class StopKind(StrEnum):
    """What stopped the unit."""

    #: The next cell is held by an enemy unit (or closed by a module).
    CONTACT = "contact"
    #: The unit entered a blocked hex (Surprise Move).
    BLOCKED = "blocked"
    #: The unit was revealed (its concealment lifted) where it stands.
    REVEALED = "revealed"
    #: The unit's MPs paid for no further step of its route (ruling ORD-1).
    OUT_OF_MP = "out_of_mp"
    #: Any other rule module's reason.
    RULE = "rule"


@dataclass(frozen=True, slots=True)
class Stop:
    """A reason to end a move early, with the words the moving side is told."""

    kind: StopKind
    words: str

    def __post_init__(self) -> None:
        if not isinstance(self.kind, StopKind):
            raise TypeError(f"a stop's kind is a StopKind, not {self.kind!r}")
        if not self.words:
            raise ValueError("a stop says why the unit stopped")

    def fell_back(self, words: str) -> Stop:
        """The same stop, told with what falling back past full friendly cells added."""
        return Stop(self.kind, words)


#: The stop for running into the enemy.
CONTACT = Stop(StopKind.CONTACT, "ran into the enemy")


def out_of_mp(where: str) -> Stop:
    """The stop of a route longer than the unit's MPs, at the last cell they paid for
    (``where``, as the board describes it)."""
    return Stop(StopKind.OUT_OF_MP, f"its MPs ran out at {where}")
