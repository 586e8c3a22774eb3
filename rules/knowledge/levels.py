"""The pieces a side's view is made of: how much of a counter a side is shown (``ViewLevel``)
and a counter as the side knows it (``UnitView``).

They live apart from ``rules.view`` (which re-exports them) so that the rule modules' hooks can
speak of them without importing the projection itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.forces.words import Echelon
from rules.ground.grid import Cell


class ViewLevel(StrEnum):
    """How much of a counter a side is shown."""

    #: One of the side's own units: everything.
    OWN = "own"
    #: An enemy unit in full: identity, kind, strength, formation.
    IDENTIFIED = "identified"
    #: An enemy unit whose kind shows but not its identity (a released scout, say).
    ANONYMOUS = "anonymous"
    #: A counter face down: that something of that side stands there, nothing more.
    MARKER = "marker"
    #: Where an enemy unit was last seen, as it looked then.
    GHOST = "ghost"


OWN, IDENTIFIED, ANONYMOUS, MARKER, GHOST = (
    ViewLevel.OWN, ViewLevel.IDENTIFIED, ViewLevel.ANONYMOUS, ViewLevel.MARKER, ViewLevel.GHOST)


@dataclass(frozen=True, slots=True)
class UnitView:
    """A counter as a side knows it. Fields the side does not know are empty."""

    ref: str
    side: str
    level: ViewLevel
    cell: Cell
    name: str = ""
    short: str = ""
    kind: str = ""
    echelon: str = ""
    strength: int | None = None
    formation: str = ""
    morale: str = ""
    last_seen_turn: int | None = None
    mp_left: float | None = None
    #: Strength points straggling: told for the side's own units only.
    stragglers: int = 0
    #: Seen without its identity (an anonymous counter, or the memory of one).
    anonymous: bool = False
    #: The command (``CommandView.id``) it belongs to: told for the side's own units only.
    command: str = ""
    #: One of the side's own units that an enemy sighting has turned face up (ruling CV-38).
    face_up: bool = False


@dataclass(frozen=True, slots=True)
class CommandView:
    """One of the side's own commands (army, corps or division), as the order of battle gives
    it: its parent command and its leader's unit id."""

    id: str
    name: str
    echelon: Echelon
    parent: str = ""
    leader: str = ""


@dataclass(frozen=True, slots=True)
class MarkerView:
    """A marker on the map as a side knows it: its public face (id, side, cell, the turn it was
    placed, whether it moved this phase) and, for the side's own markers only, what is under it
    (``contents``: the units, empty for a decoy; ``None`` for an enemy marker, whose contents the
    side does not know)."""

    id: str
    side: str
    cell: Cell
    created_turn: int
    moved_this_phase: bool
    contents: tuple[UnitView, ...] | None = None

    @property
    def own(self) -> bool:
        """Whether the viewing side knows what is under it (its own marker)."""
        return self.contents is not None
