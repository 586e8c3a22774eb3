"""The Concealed Forces module's events. The markers themselves are the core's public marker
events (placed, moved, split, removed), which say nothing of what is under them; these events
carry the contents, and go to the owning side only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from rules.concealed.notes import ConcealedNote
from rules.concealed.records import MODULE, ForceKind
from rules.events import CellRef, DieRolled, GameEvent
from rules.forces.words import formation_said
from rules.ground.grid import Cell

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


def breeding_purpose(one: str, other: str) -> str:
    """The purpose the breeding die is rolled for, naming the two markers a force's marker
    split into, lower id first (the die reads 1-3 for it, 4-6 for the other)."""
    first, second = sorted((one, other))
    return f"which of markers {first} and {second} holds the force"


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

    def settles(self, roll: DieRolled) -> str:
        """The breeding die's outcome (ruling INFO-17): the roll that chose between this
        event's two markers, which its purpose names."""
        if roll.purpose != breeding_purpose(self.kept, self.decoy):
            return ""
        return f"marker {self.kept} keeps the force, marker {self.decoy} is the decoy"


class BreedingUndone(GameEvent):
    """A force and the decoy it bred this phase still shared a hex at the end of the Movement
    Phase (Cf 1.4, ruling CF-24): their markers are one again, ``into``, over the force; the
    decoy goes back to the pool."""

    type: Literal["cf_breeding_undone"] = "cf_breeding_undone"
    kept: str
    decoy: str
    into: str

    def report(self, view: SideView) -> str:
        return (f"Markers {self.kept} and {self.decoy} still shared a hex at the end of the "
                f"phase, and markers never stack: the breeding is undone. The force is under "
                f"marker {self.into}; the decoy is back in the pool.")


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


class DetachmentOrdered(GameEvent):
    """The owner ordered, in his Command Phase, a unit detached from its division, or back in
    it; the order takes effect at the start of his next movement phase (ruling CF-25).
    ``withdrawn``: the order reverses one still waiting, which is taken back and nothing
    changes; ``lapsed``: why a waiting order was dropped unused (ruling CF-26)."""

    type: Literal["cf_detach_ordered"] = "cf_detach_ordered"
    unit: str
    detached: bool
    withdrawn: bool = False
    lapsed: str = ""

    def report(self, view: SideView) -> str:
        unit = view.unit(self.unit)
        name = unit.name if unit is not None else self.unit
        if self.lapsed:
            order = f"detaching {name}" if self.detached else f"sending {name} back"
            return f"The order {order} lapses: {self.lapsed}."
        if self.withdrawn:  # ``detached`` is what the unit stays
            order = f"sending {name} back" if self.detached else f"detaching {name}"
            stays = "detached" if self.detached else "with its division"
            return f"The order {order} is taken back: it stays {stays}."
        what = ("is detached from its division" if self.detached
                else "goes back to its division")
        return (f"Ordered: {name} {what} from the start of your next movement phase; until "
                "then it counts as it did.")


class DetachmentMarked(GameEvent):
    """A unit is detached from its division, or back in it: its owner's order has taken effect
    (at the start of his movement phase: ruling CF-25)."""

    type: Literal["cf_detached"] = "cf_detached"
    unit: str
    detached: bool

    def report(self, view: SideView) -> str:
        unit = view.unit(self.unit)
        name = unit.name if unit is not None else self.unit
        return (f"{name} is now detached from its division: it stays on the map when the "
                "division conceals." if self.detached else
                f"{name} is back with its division.")


class ScoutsReleased(GameEvent):
    """A concealed division released scouts (Cf 3.1): ``units`` leave the marker for its hex
    (``cell``); ``cavalry`` is the released cavalry unit, if any (shown to the enemy as an
    anonymous cavalry counter until an enemy unit on the map sees it: ruling CF-13)."""

    type: Literal["cf_scouts_released"] = "cf_scouts_released"
    marker: str
    units: tuple[str, ...]
    cell: CellRef
    cavalry: str = ""
    names: tuple[str, ...] = ()

    def report(self, view: SideView) -> str:
        return (f"Marker {self.marker} released {', '.join(self.names or self.units)} as "
                f"scouts at {view.board.describe(Cell(*self.cell))}. This phase skirmishers may "
                "end at most 2 hexes from there, cavalry at most 4 leader MPs; the force stays "
                "concealed.")


class ScoutsRejoined(GameEvent):
    """Released scouts still in their marker's hex when the phase ends go back under it
    (ruling CF-12: a concealed force never stacks with other units)."""

    type: Literal["cf_scouts_rejoined"] = "cf_scouts_rejoined"
    marker: str
    units: tuple[str, ...]
    names: tuple[str, ...] = ()

    def report(self, view: SideView) -> str:
        return (f"{', '.join(self.names or self.units)} did not leave the hex of marker "
                f"{self.marker} and went back under it.")


class ScoutIdentified(GameEvent):
    """An anonymous cavalry scout came into the sight of an enemy unit on the map: from now on
    it shows to the enemy as itself (ruling CF-13)."""

    type: Literal["cf_scout_identified"] = "cf_scout_identified"
    unit: str
    name: str = ""

    def report(self, view: SideView) -> str:
        return (f"{self.name or 'Your cavalry scout'} has been seen by the enemy: it is no "
                "longer anonymous.")


class ForcedMarchSet(GameEvent):
    """The owner let a concealed force force-march this phase: ``mp`` MPs are added to each of
    its units' allowance (ruling CF-15)."""

    type: Literal["cf_forced_march"] = "cf_forced_march"
    marker: str
    mp: int

    def report(self, view: SideView) -> str:
        if not self.mp:
            return f"Marker {self.marker} will not force-march this phase."
        return (f"Marker {self.marker} may force-march this phase: up to {self.mp} extra MP(s) "
                "for each of its units. Each unit that uses them makes a straggler check.")


class MarchChecksNoted(GameEvent):
    """The straggler checks a concealed force owes for this turn's forced march, kept until the
    force is revealed (option ``cf_march_stragglers = "on_reveal"``): ``checks`` gives each
    unit's forced-march MPs (the straggler table's column)."""

    type: Literal["cf_march_noted"] = "cf_march_noted"
    marker: str
    checks: dict[str, int]

    def report(self, view: SideView) -> str:
        return (f"Marker {self.marker} force-marched: {len(self.checks)} straggler check(s) "
                "are noted, to be rolled when the force is revealed.")


class NotedChecksRolled(GameEvent):
    """The noted forced-march checks of a concealed force have been rolled (each one a
    ``StragglersChecked`` of the combat module, just before this)."""

    type: Literal["cf_march_rolled"] = "cf_march_rolled"
    marker: str
    count: int

    def report(self, view: SideView) -> str:
        return (f"The {self.count} noted forced-march straggler check(s) of marker "
                f"{self.marker} have been rolled.")


def _name_under(view: SideView, marker: str, unit_id: str) -> str:
    """A unit's name as its owner's view shows it under its marker (its id if not there)."""
    for m in view.markers:
        for u in m.contents or ():
            if m.id == marker and u.ref == unit_id:
                return u.name
    return unit_id


class DeploymentPlanned(GameEvent):
    """The owner filed where ``unit`` sets up when its force deploys (Cf 2.3): ``place`` is
    ``here`` or a direction from the marker's hex, ``formation`` empty for the rule's."""

    type: Literal["cf_plan_filed"] = "cf_plan_filed"
    marker: str
    unit: str
    place: str
    formation: str = ""

    def report(self, view: SideView) -> str:
        name = _name_under(view, self.marker, self.unit)
        where = "in the marker's hex" if self.place == "here" else f"{self.place} of the marker"
        how = f" {formation_said(self.formation)}" if self.formation else ""
        return (f"Deployment plan for marker {self.marker}: {name} sets up {where}{how} when "
                "the force deploys, if the rules allow it there.")


class DeploymentPlanCleared(GameEvent):
    """The owner withdrew the plan of ``unit`` (empty: of the whole force)."""

    type: Literal["cf_plan_cleared"] = "cf_plan_cleared"
    marker: str
    unit: str = ""

    def report(self, view: SideView) -> str:
        if not self.unit:
            return f"Marker {self.marker} has no deployment plan now: its units deploy by rule."
        name = _name_under(view, self.marker, self.unit)
        return f"{name} (marker {self.marker}) has no deployment plan now: it deploys by rule."


EVENTS: tuple[type[GameEvent], ...] = (ForceConcealed, DecoyBred, ForceMoved, ForceRevealed,
                                       DetachmentMarked, ScoutsReleased, ScoutsRejoined,
                                       ScoutIdentified, ForcedMarchSet, MarchChecksNoted,
                                       NotedChecksRolled, DeploymentPlanned,
                                       DeploymentPlanCleared, BreedingUndone,
                                       DetachmentOrdered)
