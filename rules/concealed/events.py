"""The Concealed Forces module's events. The markers themselves are the core's public marker
events (placed, moved, split, removed), which say nothing of what is under them; these events
carry the contents, and go to the owning side only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from rules.concealed.notes import ConcealedNote
from rules.concealed.records import MODULE, ForceKind
from rules.events import CellRef, GameEvent
from rules.grid import Cell

if TYPE_CHECKING:
    from rules.view import SideView


def force_words(view: SideView, marker: str) -> str:
    """`` (Colston's Division)`` or `` (decoy)``: what is under one of the side's own markers,
    from its own view's note; empty when the view does not say."""
    note = view.notes.get(MODULE)
    found = note.force(marker) if isinstance(note, ConcealedNote) else None
    if found is None:
        return ""
    return " (decoy)" if found.kind is ForceKind.DECOY else f" ({found.name})"


class ForceConcealed(GameEvent):
    """A force goes under a concealment marker: ``units`` leave the map (Cf 1.3)."""

    type: Literal["cf_concealed"] = "cf_concealed"
    marker: str
    kind: str
    commander: str
    units: tuple[str, ...]
    name: str

    def report(self, view: SideView) -> str:
        return (f"{self.name} is concealed under marker {self.marker} "
                f"({len(self.units)} units). It may move from the next turn.")


class DecoyBred(GameEvent):
    """A force bred a decoy (Cf 1.5): its marker split in two, ``kept`` holds the force and
    ``decoy`` nothing. Which is which was drawn by a secret die."""

    type: Literal["cf_decoy_bred"] = "cf_decoy_bred"
    parent: str
    kept: str
    decoy: str

    def report(self, view: SideView) -> str:
        return (f"Marker {self.parent} bred a decoy: the force is now under marker "
                f"{self.kept}, the decoy is marker {self.decoy}. The enemy cannot tell them "
                "apart.")


class ForceMoved(GameEvent):
    """The MPs each member of a force used on a move of its marker (``""`` for a decoy)."""

    type: Literal["cf_moved"] = "cf_moved"
    marker: str
    mp: dict[str, float]
    path: tuple[CellRef, ...] = ()
    stopped: str = ""

    def report(self, view: SideView) -> str:
        what = f"Marker {self.marker}{force_words(view, self.marker)}"
        if not self.path:
            return f"{what} could not leave its hex: {self.stopped}."
        end = view.board.describe(Cell(*self.path[-1]))
        tail = f" (stopped: {self.stopped})" if self.stopped else ""
        return f"{what} moved to {end}{tail}."




class ForceRevealed(GameEvent):
    """A force is revealed (Cf 2.1) or unconcealed (Cf 2.2): its units deploy as ``placed``
    (unit, cell, formation); a decoy is simply removed."""

    type: Literal["cf_revealed"] = "cf_revealed"
    marker: str
    placed: tuple[tuple[str, CellRef, str], ...] = ()
    voluntary: bool = False
    cause: str = ""

    def report(self, view: SideView) -> str:
        if not self.placed:
            return f"Decoy {self.marker} was found by the enemy and is removed ({self.cause})."
        how = "unconcealed" if self.voluntary else f"revealed ({self.cause})"
        return f"Marker {self.marker} is {how}: its {len(self.placed)} units deploy."


class DetachmentMarked(GameEvent):
    """The owner marked a unit as detached from its division, or back in it."""

    type: Literal["cf_detached"] = "cf_detached"
    unit: str
    detached: bool

    def report(self, view: SideView) -> str:
        unit = view.unit(self.unit)
        name = unit.name if unit is not None else self.unit
        return (f"{name} is now detached from its division: it stays on the map when the "
                "division conceals." if self.detached else
                f"{name} is back with its division.")


EVENTS: tuple[type[GameEvent], ...] = (ForceConcealed, DecoyBred, ForceMoved, ForceRevealed,
                                       DetachmentMarked)
