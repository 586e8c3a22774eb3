"""The Surprise Move module's events. Each word its own report for its audience.

Events about a march go to its owner's side only (``side:<owner>``) until the march is carried
out, triggered or discovered; the one event meant for the enemy is ``TriggerAnnounced``, sent to
the side whose unit triggered the march.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from rules.events import GameEvent
from rules.knowledge.reporting import unit_name
from rules.surprise import records as rec
from rules.surprise.march.stopping import MarchStop

if TYPE_CHECKING:
    from rules.view import SideView

Ref = list[int]


def _unit(view: SideView, unit_id: str) -> str:
    return unit_name(view, unit_id)


def _where(view: SideView, cell: Ref) -> str:
    return view.board.describe(rec.cell_of(cell))


def _mp(value: float) -> str:
    return f"{value:g} MP"


class MarchEvent(GameEvent):
    """The base of the events about one march: its id, and its name as its side gave it. Not an
    event itself (it has no ``type`` of its own)."""

    march: str
    #: The march's name, as its side gave it.
    name: str = ""

    @property
    def called(self) -> str:
        """The march's name as the event carries it (its own side named it), else its id."""
        return self.name or self.march


class MarchOrdered(MarchEvent):
    """A surprise-move order is sent (or given by initiative): the new march record."""

    type: Literal["surprise_ordered"] = "surprise_ordered"
    record: dict[str, Any]

    def report(self, view: SideView) -> str:
        r = self.record
        units = ", ".join(_unit(view, u) for u in r["units"])
        if r.get("by_initiative"):
            how = "taken on by initiative"
        elif r.get("hq"):
            how = (f"sent from {_unit(view, r['hq'])}, {r['distance_mp']:g} MP away: it "
                   f"reaches the force in turn {r['arrives_turn']}")
        else:
            how = "given in person: it is rolled for at the end of this Command Phase"
        forced = f" Forced march: +{r['forced']} MP a turn." if r.get("forced") else ""
        return (f"**Surprise move {r['name']}** ordered ({how}). Force: {units}. Route: "
                f"{r['route']}.{forced}")


class MarchAccepted(MarchEvent):
    type: Literal["surprise_accepted"] = "surprise_accepted"
    turn: int

    def report(self, view: SideView) -> str:
        return (f"Surprise move {self.called}: the order is accepted. The force stays "
                "in place and saves its MPs from your next movement phase on.")


class OrderLost(MarchEvent):
    """An order that will never take effect: refused, withdrawn, or not taken by initiative."""

    type: Literal["surprise_order_lost"] = "surprise_order_lost"
    why: str

    def report(self, view: SideView) -> str:
        return f"Surprise move {self.called}: {self.why}."


class InitiativeTried(GameEvent):
    """A leader has used his initiative roll for this Command Phase."""

    type: Literal["surprise_initiative_tried"] = "surprise_initiative_tried"
    leader: str
    turn: int


class InitiativeFailed(GameEvent):
    type: Literal["surprise_initiative_failed"] = "surprise_initiative_failed"
    leader: str
    what: str

    def report(self, view: SideView) -> str:
        return (f"{_unit(view, self.leader)} does not take the initiative to {self.what} "
                "this turn.")


class MPsAccumulated(MarchEvent):
    type: Literal["surprise_accumulated"] = "surprise_accumulated"
    attempt: int
    added: float
    total: float

    def report(self, view: SideView) -> str:
        return (f"Surprise move {self.called} passes its accumulation roll (turn "
                f"{self.attempt} of the march): +{_mp(self.added)}, {_mp(self.total)} saved.")


class MPsReversed(MarchEvent):
    type: Literal["surprise_reversed"] = "surprise_reversed"
    attempt: int
    removed: float
    total: float

    def report(self, view: SideView) -> str:
        return (f"Surprise move {self.called} unwinds {_mp(self.removed)} unseen; "
                f"{_mp(self.total)} still saved.")


class StragglersNoted(MarchEvent):
    """Secret forced-march stragglers, kept on the umpire's roster until the march is revealed."""

    type: Literal["surprise_stragglers"] = "surprise_stragglers"
    unit: str
    count: int = Field(ge=0)

    def report(self, view: SideView) -> str:
        if not self.count:
            return ""
        return (f"{_unit(view, self.unit)} loses {self.count} strength point(s) to straggling "
                "on the forced march (taken off when the march is revealed).")


class ExecutionQueued(MarchEvent):
    type: Literal["surprise_execution_queued"] = "surprise_execution_queued"

    def report(self, view: SideView) -> str:
        return (f"Surprise move {self.called} will be set off at the start of your "
                "next movement phase, instead of rolling.")


class MarchTriggered(MarchEvent):
    """The enemy set the march off (SM, "Enemy Interference"), or discovery while reversing."""

    type: Literal["surprise_triggered"] = "surprise_triggered"
    cause: str

    def report(self, view: SideView) -> str:
        return (f"**Surprise move {self.called} is triggered**: {self.cause}. At the "
                "start of your next movement phase it must spend half its saved MPs along its "
                "route, without this turn's allowance; the rest are lost.")


class TriggerAnnounced(GameEvent):
    """What the triggering side is told: that a surprise move has been triggered."""

    type: Literal["surprise_trigger_announced"] = "surprise_trigger_announced"
    side: str
    unit: str
    how: str

    def report(self, view: SideView) -> str:
        unit = _unit(view, self.unit)
        return f"Your {unit} {self.how}: **an enemy surprise move is triggered.**"


class MarchBegun(MarchEvent):
    """The column sets off: stragglers come off, sham markers go, units form road column."""

    type: Literal["surprise_march_begun"] = "surprise_march_begun"
    kind: str
    run: dict[str, Any]
    formations: dict[str, str] = Field(default_factory=dict)

    def report(self, view: SideView) -> str:
        why = {"voluntary": "set off as you ordered",
               "discovered": "discovered (failed accumulation roll): it marches at once",
               "triggered": "triggered: it spends half its saved MPs",
               "collision": "set off by a collision with an enemy surprise move",
               "reverse_discovered": "discovered while reversing: it spends half its saved MPs",
               }.get(self.kind, self.kind)
        return (f"**Surprise move {self.called}**: {why}. Budget "
                f"{_mp(float(self.run['budget']))}.")


class DetourOffered(MarchEvent):
    type: Literal["surprise_detour_offered"] = "surprise_detour_offered"
    cell: Ref
    detour: list[Ref]

    def report(self, view: SideView) -> str:
        way = ", ".join(view.board.label(rec.cell_of(c)) for c in self.detour)
        return (f"Surprise move {self.called}: the head of the column is about to "
                f"enter a blocked hex, {_where(view, self.cell)}. The ranking leader may try his "
                f"initiative to go round by {way}. Choose with /march status (buttons): try, or "
                "march on. (Finishing the phase marches on.)")


class DetourResolved(MarchEvent):
    type: Literal["surprise_detour_resolved"] = "surprise_detour_resolved"
    cell: Ref
    taken: bool
    detour: list[Ref] = Field(default_factory=list)
    #: False when the phase ended unanswered: later blocked hexes are entered without asking.
    interactive: bool = True
    #: Whether the leader's initiative roll was tried (``None`` in games recorded before).
    tried: bool | None = None

    def report(self, view: SideView) -> str:
        if self.taken:
            way = ", ".join(view.board.label(rec.cell_of(c)) for c in self.detour)
            return (f"Surprise move {self.called} goes round "
                    f"{_where(view, self.cell)} by {way}.")
        return (f"Surprise move {self.called} marches into the blocked hex "
                f"{_where(view, self.cell)}.")


class ColumnMarched(MarchEvent):
    """The column moved: each unit's cells entered, in order. Units end with no MPs left."""

    type: Literal["surprise_column_marched"] = "surprise_column_marched"
    moves: dict[str, list[Ref]]
    run: dict[str, Any]
    #: Once the run is over, why it stopped (``None`` while it goes on, and in games recorded
    #: before the reasons were kept).
    why: MarchStop | None = None

    def report(self, view: SideView) -> str:
        lead = self.run["order"][0] if self.run.get("order") else ""
        unit = view.unit(lead)
        where = view.board.describe(unit.cell) if unit else "?"
        moved = sum(1 for p in self.moves.values() if p)
        text = (f"Surprise move {self.called}: {moved} unit(s) marched; the head "
                f"({_unit(view, lead)}) is at {where} after {_mp(float(self.run['spent']))}.")
        if self.run.get("stopped"):
            stopped = (self.why.contact_words(view) if self.why else "") or self.run["stopped"]
            text += f" It stopped: {stopped}."
        if self.why is not None and self.why.blocked is not None:
            text += " " + self.why.blocked_words(view)
        return text


class MarchEnded(MarchEvent):
    type: Literal["surprise_march_ended"] = "surprise_march_ended"
    outcome: str
    lost_mp: float = 0.0
    rest: bool = False
    #: The MPs the column could still spend after its first blocked hex (``None``: it entered
    #: none), and those of ``lost_mp`` that lay beyond them (ruling SM-27).
    allowed_after_blocked: float | None = None
    beyond_blocked: float = 0.0

    def report(self, view: SideView) -> str:
        lost = (f" The {_mp(self.lost_mp)} its head did not spend are lost{self._why_lost()}."
                if self.lost_mp > 0 else "")
        after = (" Its units count as having moved in your next movement phase."
                 if self.rest else "")
        tail = (" From now on the force follows its orders in the normal way."
                if self.outcome == rec.EXECUTED else "")
        return (f"Surprise move {self.called}: "
                f"{rec.STATUS_WORDS.get(self.outcome, self.outcome)}.{lost}{after}{tail}")

    def _why_lost(self) -> str:
        """Which of the lost MPs a blocked hex took, and which the column did not use."""
        allowed = self.allowed_after_blocked
        if allowed is None:
            return ""
        if allowed <= 0:
            return ": a triggered march's movement ends at its first blocked hex"
        unused = round(self.lost_mp - self.beyond_blocked, 2)
        if unused <= 0:
            return f": no more than {_mp(allowed)} may be spent after a blocked hex"
        of = f"{unused:g} of the {_mp(allowed)} it could still spend after the blocked hex"
        if self.beyond_blocked <= 0:
            return f": {of}"
        return f": {of}, and the {_mp(self.beyond_blocked)} beyond them"


class CancelSent(MarchEvent):
    type: Literal["surprise_cancel_sent"] = "surprise_cancel_sent"
    mode: str
    arrives_turn: int
    distance_mp: float
    by_initiative: bool = False

    def report(self, view: SideView) -> str:
        what = "execute the march as it stands" if self.mode == "execute" else "reverse it"
        if self.by_initiative:
            return f"New orders for {self.called} taken by initiative: {what}."
        return (f"New orders for surprise move {self.called} ({what}) sent: "
                f"{self.distance_mp:g} MP to travel, counting its saved MPs; they reach it in "
                f"turn {self.arrives_turn}. Until they are accepted the march goes on.")


#: Why accepted new orders no longer change the march (ruling SM-14): it has been ``set off``
#: (by choice, or triggered) and goes as it must, or it is ``over``.
Superseded = Literal["", "set off", "over"]


class CancelAccepted(MarchEvent):
    type: Literal["surprise_cancel_accepted"] = "surprise_cancel_accepted"
    mode: str
    #: Empty when the new orders take effect on the march; else they only follow it.
    superseded: Superseded = ""

    def report(self, view: SideView) -> str:
        if self.superseded == "over":
            return (f"New orders accepted for surprise move {self.called}: the march is over, "
                    "so there is nothing left to carry out or unwind; the force now follows its "
                    "new orders.")
        if self.superseded == "set off":
            return (f"New orders accepted for surprise move {self.called}: the march has been "
                    "set off and is carried out as it stands at the start of your next movement "
                    "phase; then the force follows its new orders.")
        if self.mode == "execute":
            return (f"New orders accepted: surprise move {self.called} will be "
                    "carried out as it stands at the start of your next movement phase.")
        return (f"New orders accepted: surprise move {self.called} reverses, "
                "unwinding its saved MPs with an accumulation roll each movement phase.")


class CancelLost(MarchEvent):
    type: Literal["surprise_cancel_lost"] = "surprise_cancel_lost"
    why: str

    def report(self, view: SideView) -> str:
        return f"New orders for surprise move {self.called}: {self.why}."


class ShamRecorded(MarchEvent):
    """A sham result on a unit of the force, which secretly ignores it (SM, "Enemy
    Interference"): it stands at ``cell`` (where its retreat, made for real, took it) under the
    sham ``marker``; ``home`` is its proper cell, where it returns when the march begins."""

    type: Literal["surprise_sham"] = "surprise_sham"
    unit: str
    cell: Ref
    home: Ref | None = None
    marker: str = ""

    def report(self, view: SideView) -> str:
        shown = f" marked {self.marker}" if self.marker else ""
        moved = (f" Its proper place is {_where(view, self.home)}: it returns there when the "
                 "march begins, or rally it back with /march rally in your movement phase."
                 if self.home and self.home != self.cell else "")
        return (f"Sham result on {_unit(view, self.unit)}: every side sees it{shown} at "
                f"{_where(view, self.cell)}. Nothing is really lost; the sham marker goes when "
                f"the march begins.{moved}")


class CollisionNoted(MarchEvent):
    """Two surprise moves of different sides use the same cells (SM, "Surprise Move
    Collision")."""

    type: Literal["surprise_collision"] = "surprise_collision"
    mode: str

    def report(self, view: SideView) -> str:
        if self.mode == "first":
            return (f"Surprise move {self.called} crosses the route of an enemy "
                    "surprise move that started first: yours is cancelled and its saved MPs "
                    "are lost.")
        return (f"Surprise move {self.called} crosses the route of an enemy "
                "surprise move: the two columns march in turns, 6 MPs at a time.")


class ForceRested(MarchEvent):
    """A force that marched in the enemy's phase (collision) counts as having moved."""

    type: Literal["surprise_rested"] = "surprise_rested"

    def report(self, view: SideView) -> str:
        return (f"Surprise move {self.called}: its units marched in the enemy's "
                "phase and may not move again in this one.")


# sham rallies
class ShamsLifted(MarchEvent):
    """The march begins: its sham markers go, and its shammed units stand in their proper cells
    again (``returns``), save those whose proper cell is now held (``stay``: ruling SM-19)."""

    type: Literal["surprise_shams_lifted"] = "surprise_shams_lifted"
    returns: dict[str, Ref] = Field(default_factory=dict)
    stay: list[str] = Field(default_factory=list)

    def report(self, view: SideView) -> str:
        back = ", ".join(f"{_unit(view, u)} at {_where(view, c)}"
                         for u, c in sorted(self.returns.items()))
        held = ", ".join(_unit(view, u) for u in self.stay)
        text = f"Surprise move {self.called}: the sham markers are taken off."
        if back:
            text += f" Back in their proper places: {back}."
        if held:
            text += f" Their proper places are held, so these stay where they stand: {held}."
        return text


class ShamRallied(MarchEvent):
    """The owner rallies a shammed unit (ruling SM-23): its sham marker goes and it walks back
    along ``path`` (cells entered) for ``mp``; ``stopped`` says why it did not get home."""

    type: Literal["surprise_sham_rallied"] = "surprise_sham_rallied"
    unit: str
    home: Ref
    path: list[Ref] = Field(default_factory=list)
    mp: float = 0.0
    stopped: str = ""

    def report(self, view: SideView) -> str:
        unit = _unit(view, self.unit)
        if not self.stopped:
            walk = f" ({_mp(self.mp)})" if self.path else ""
            return (f"{unit} drops its sham marker and is back at its proper place, "
                    f"{_where(view, self.home)}{walk}.")
        where = _where(view, self.path[-1]) if self.path else "where it stood"
        return (f"{unit} drops its sham marker and heads back to {_where(view, self.home)}, "
                f"but {self.stopped}: it stops at {where}.")


class ShamMarkerRallied(MarchEvent):
    """The owner's rally roll for a shammed unit's marker (ruling SM-23), as a real rally of a
    unit in that state: the marker goes from ``before`` to ``after`` (empty: gone), and the
    unit's movement for the phase is spent."""

    type: Literal["surprise_sham_marker_rallied"] = "surprise_sham_marker_rallied"
    unit: str
    before: str
    after: str

    def report(self, view: SideView) -> str:
        unit = _unit(view, self.unit)
        if self.after == self.before:
            return (f"**Rally**: {unit} fails to rally and still shows {self.before}; it has "
                    "spent its movement for this phase.")
        shows = f"now shows {self.after}" if self.after else "drops its sham marker"
        return (f"**Rally**: {unit} rallies from its sham {self.before} and {shows}; it has "
                "spent its movement for this phase.")


# forced marches
class ForcedMarchSet(MarchEvent):
    """The owner chose the forced-march MPs the force adds each turn from now on (ruling
    SM-24)."""

    type: Literal["surprise_forced_set"] = "surprise_forced_set"
    mp: int = Field(ge=0)

    def report(self, view: SideView) -> str:
        if not self.mp:
            return (f"Surprise move {self.called}: no forced marching from now on, until you "
                    "choose again.")
        return (f"Surprise move {self.called}: forced march +{self.mp} MP a turn from its next "
                "accumulation or reversal roll, or the turn it is set off, until you choose "
                "again. Each such turn every combat unit checks for stragglers, in secret.")


EVENTS: tuple[type[GameEvent], ...] = (
    MarchOrdered, MarchAccepted, OrderLost, InitiativeTried, InitiativeFailed,
    MPsAccumulated, MPsReversed,
    StragglersNoted, ExecutionQueued, MarchTriggered, TriggerAnnounced, MarchBegun,
    DetourOffered, DetourResolved, ColumnMarched, MarchEnded, CancelSent, CancelAccepted,
    CancelLost, ShamRecorded, CollisionNoted, ForceRested,
    ShamsLifted, ShamRallied, ShamMarkerRallied,
    ForcedMarchSet,
)
