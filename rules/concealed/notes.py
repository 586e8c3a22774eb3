"""What the Concealed Forces module tells a side about its own markers: the name of the force
under each (a division, a lone cavalry brigade, or a decoy). Only the owner's markers are in
its note; an enemy marker's contents are never named to anyone but its owner."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.concealed.records import ForceKind, forces, kind_of
from rules.knowledge.notes import ModuleNote

if TYPE_CHECKING:
    from rules.state import GameState


@dataclass(frozen=True)
class OwnForce:
    """One of the side's own concealed forces: its marker, what kind of force, its name."""

    marker: str
    kind: ForceKind
    name: str


@dataclass(frozen=True)
class ConcealedNote(ModuleNote):
    """The side's own concealed forces, by marker id."""

    forces: tuple[OwnForce, ...] = ()

    def force(self, marker: str) -> OwnForce | None:
        return next((f for f in self.forces if f.marker == marker), None)


def note_for(state: GameState, side: str) -> ConcealedNote | None:
    """The side's own concealed forces, sorted by marker id; ``None`` when it has none."""
    own = tuple(OwnForce(mid, kind_of(f), str(f.get("name") or ""))
                for mid, f in sorted(forces(state).items()) if f["side"] == side)
    return ConcealedNote(own) if own else None
