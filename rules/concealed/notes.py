"""What the Concealed Forces module tells a side about its own markers and units: the name of the
force under each marker (a division, a lone cavalry brigade, or a decoy), which of its units are
detached from their division, and the detachment orders waiting for its next movement phase
(ruling CF-27). Only the owner's markers and units are in its note; an enemy marker's contents
and an enemy's detachments are never told to anyone but their owner."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.concealed.records import ForceKind, detach_orders, forces, is_detached, kind_of
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
    """The side's own concealed forces, by marker id; its units detached from their division
    (``detached``, unit ids) and its detachment orders still to take effect (``ordered``: unit
    id, and ``True`` to detach it or ``False`` to send it back)."""

    forces: tuple[OwnForce, ...] = ()
    detached: tuple[str, ...] = ()
    ordered: tuple[tuple[str, bool], ...] = ()

    def force(self, marker: str) -> OwnForce | None:
        return next((f for f in self.forces if f.marker == marker), None)

    def detachment(self, unit: str) -> str:
        """How the side's unit stands with its division, in words: ``detached``, ``to be
        detached`` or ``to go back to its division`` (from its next movement phase), or empty
        when it is simply with its division."""
        order = dict(self.ordered).get(unit)
        if order is not None:
            return ("to be detached" if order else "to go back to its division") \
                + " from your next movement phase"
        return "detached" if unit in self.detached else ""


def note_for(state: GameState, side: str) -> ConcealedNote | None:
    """The side's own concealed forces, sorted by marker id, and its detachments; ``None`` when
    it has none."""
    own = tuple(OwnForce(mid, kind_of(f), str(f.get("name") or ""))
                for mid, f in sorted(forces(state).items()) if f["side"] == side)
    detached = tuple(u.id for u in state.units_of(side)
                     if u.cell is not None and is_detached(state, u.id))
    ordered = tuple(detach_orders(state, side).items())
    if not (own or detached or ordered):
        return None
    return ConcealedNote(own, detached, ordered)
