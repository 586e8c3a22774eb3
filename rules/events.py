"""Events: everything that happens in a game, as small serialisable records.

The game state is a fold of its events (``rules.state.apply``). Each event carries its audience:
``public`` (every player), ``umpire`` (the log only), or ``side:<id>`` (that side's players). The
audience says who may be *told* of the event; what a side may *see* is still decided only by
``rules.view.project``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.ground.grid import Cell

if TYPE_CHECKING:
    from rules.view import SideView

CellRef = tuple[int, int]

#: Every kind of event by its ``type``; rule modules add theirs by subclassing ``GameEvent``.
EVENT_TYPES: dict[str, type[GameEvent]] = {}


class GameEvent(BaseModel):
    """The base of every event. A subclass names itself with a ``type`` literal and is
    registered under it, so that the log can be read back whatever module wrote it."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    audience: str = "public"
    type: str

    def report(self, view: SideView) -> str:
        """What this event tells its audience, in words (empty: nothing to say), written from
        ``view`` alone: the audience side's view just after the event, or the public view for a
        public event. What the words need that the view does not hold travels in the event's
        own fields, addressed to that audience. Rule modules' events override it; the core's
        events are worded by the umpire."""
        return ""

    def asks_again(self) -> str:
        """Why this event gives the side it is told to something new to decide, in that side's
        words ("" for none): a player done for the turn is then asked again
        (``rules.orders.standing``, ruling FLOW-71). Read from the event as told, never from
        the truth behind it."""
        return ""

    def settles(self, roll: DieRolled) -> str:
        """What came of ``roll``, a secret roll read on no table, in its audience's words
        ("marker 7431 keeps the force, marker 2210 is the decoy"), when this event is what that
        roll decided; empty otherwise. A table's result says what came of a roll read on it;
        a roll read on no table is settled by the event its rule logs after it, told to the
        same audience (``roll_outcome``)."""
        return ""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        name = cls.model_fields["type"].default
        if not isinstance(name, str):  # a base some events share, not an event itself
            return
        if name in EVENT_TYPES and EVENT_TYPES[name] is not cls:
            raise TypeError(f"two event classes are named {name!r}")
        EVENT_TYPES[name] = cls


class CommandAccepted(GameEvent):
    """A command was accepted. It opens the events the command led to, and holds the command in
    full with who gave it, so that anyone with the seed can decide it again and compare
    (``vedette verify``). A request id, when given, makes a repeated request harmless.

    ``kind`` ``start`` and ``end`` are the host's starting and ending of the game. A log written
    before commands were kept in full has ``command`` ``None``: it cannot be re-adjudicated."""

    type: Literal["command_accepted"] = "command_accepted"
    request: str = ""
    kind: str
    command: dict[str, Any] | None = None
    side: str = ""
    host: bool = False
    #: The Discord user (or script player) who gave it, to say who made a host's correction.
    user: int | None = None


class GameStarted(GameEvent):
    """Play begins at the first phase of the first turn; the dice commitment is made public,
    and with it the commitment to the scenario and ruleset texts the game is played from (empty
    in logs written before games were pinned to their texts)."""

    type: Literal["game_started"] = "game_started"
    seed_sha256: str
    sources_commitment: str = ""


class PhaseBegan(GameEvent):
    """A new step of the turn sequence: a phase, for one side or for all."""

    type: Literal["phase_began"] = "phase_began"
    turn: int
    step: int
    phase: str
    side: str | None


class SideDone(GameEvent):
    """A side has finished what it wants to do in the current phase. ``by_itself``: it had
    nothing it could do, and the step passed for it when it began (``rules.turn.idle``; false in
    logs written before steps could pass by themselves)."""

    type: Literal["side_done"] = "side_done"
    side: str
    by_itself: bool = False


class UnitsArrived(GameEvent):
    """Reinforcements enter the map at their arrival cells."""

    type: Literal["units_arrived"] = "units_arrived"
    units: tuple[str, ...]


class UnitMoved(GameEvent):
    """A unit stepped along ``path`` (cells entered, in order), spending ``mp``."""

    type: Literal["unit_moved"] = "unit_moved"
    unit: str
    path: tuple[CellRef, ...]
    mp: float
    stopped: str = ""


class UnitHalted(GameEvent):
    """A unit ordered to move could not leave its cell (it ran into the enemy at the first step)
    and halts there for the rest of the phase."""

    type: Literal["unit_halted"] = "unit_halted"
    unit: str
    reason: str


class FormationChanged(GameEvent):
    type: Literal["formation_changed"] = "formation_changed"
    unit: str
    formation: str
    mp: float


class DieRolled(GameEvent):
    """A die roll for a purpose, derived from the game's secret seed and this event's place in
    the log; the table, column, modifiers and result it produced are recorded with it."""

    type: Literal["die_rolled"] = "die_rolled"
    purpose: str
    dice: str
    value: int
    modifiers: dict[str, int] = Field(default_factory=dict)
    table: str = ""
    column: str = ""
    result: str = ""


def roll_outcome(roll: DieRolled, after: Iterable[GameEvent]) -> str:
    """What came of a secret roll read on no table, from the events logged after it up to the
    next roll: the first of them, told to the roll's own audience, that says it settles the
    roll (``GameEvent.settles``). Empty for a roll read on a table (its result says it) or one
    nothing settles."""
    if roll.table:
        return ""
    for later in after:
        if isinstance(later, DieRolled):
            return ""
        if later.audience == roll.audience and (words := later.settles(roll)):
            return words
    return ""


class Sighted(GameEvent):
    """What a side's troops now see of the enemy: units newly seen (with what was seen) and
    units lost from sight. Folding these gives each side's memory, and ghosts."""

    type: Literal["sighted"] = "sighted"
    side: str
    seen: dict[str, dict[str, Any]] = Field(default_factory=dict)
    lost: tuple[str, ...] = ()
    #: Anonymous counters that vanished while one of the same look was newly seen: no ghost.
    forgotten: tuple[str, ...] = ()


class FaceTurned(GameEvent):
    """Which of the side's own units an enemy sighting turned face up (``up``) or let fall face
    down again (``down``): on the table their owner sees his counters turned (ruling CV-38)."""

    type: Literal["face_turned"] = "face_turned"
    side: str
    up: tuple[str, ...] = ()
    down: tuple[str, ...] = ()

    def report(self, view: SideView) -> str:
        names = {u.ref: u.name for u in view.own_units()}

        def listed(refs: tuple[str, ...]) -> str:
            found = [names.get(r, "") for r in refs]
            return ", ".join(n for n in found if n)

        lines = []
        if self.up and (up := listed(self.up)):
            lines.append(f"**Turned face up** (the enemy sees them): {up}.")
        if self.down and (down := listed(self.down)):
            lines.append(f"**Face down again** (out of the enemy's sight): {down}.")
        return "\n".join(lines)


class SeenPassing(GameEvent):
    """What a side's troops saw of enemy units while a move was made (ruling INFO-18).

    ``passed``: units seen on the way and out of sight by its end, as last seen (where, and
    what showed), which the side remembers as lost from sight there; ``trails``: the stretch
    of each moving unit's way that was in sight, its cells in order (for a unit still in sight
    at the end too); ``forgotten``: anonymous counters seen to move on from where the side
    last saw them stand, which leave no ghost there."""

    type: Literal["seen_passing"] = "seen_passing"
    side: str
    passed: dict[str, dict[str, Any]] = Field(default_factory=dict)
    trails: dict[str, tuple[CellRef, ...]] = Field(default_factory=dict)
    forgotten: tuple[str, ...] = ()


class SeenOnTheWay(GameEvent):
    """The stretch of each of the side's moving units' way on which an enemy playing
    face-down counters identified it: on the table, the counter turned face up as it passed,
    which its owner sees (ruling INFO-19)."""

    type: Literal["seen_on_the_way"] = "seen_on_the_way"
    side: str
    stretches: dict[str, tuple[CellRef, ...]] = Field(default_factory=dict)

    def report(self, view: SideView) -> str:
        names = {u.ref: u.name for u in view.own_units()}
        label = view.board.label
        parts = []
        for ref, cells in sorted(self.stretches.items(), key=lambda kv: names.get(kv[0], "")):
            if ref not in names or not cells:
                continue
            first, last = label(Cell(*cells[0])), label(Cell(*cells[-1]))
            where = f"at {first}" if first == last else f"from {first} to {last}"
            parts.append(f"{names[ref]} {where}")
        if not parts:
            return ""
        return ("**Seen by the enemy on the way** (turned face up as it passed): "
                + "; ".join(parts) + ".")


class Told(GameEvent):
    """A message to a side (or everyone): a report the rules say the side receives."""

    type: Literal["told"] = "told"
    text: str


class UnitCorrected(GameEvent):
    """The host corrected a unit by hand, with a reason kept in the log."""

    type: Literal["unit_corrected"] = "unit_corrected"
    unit: str
    changes: dict[str, Any]
    reason: str
    #: The unit's name and side when corrected, for the words (empty in older logs).
    name: str = ""
    side: str = ""


class GamePaused(GameEvent):
    type: Literal["game_paused"] = "game_paused"
    paused: bool
    reason: str = ""


class GameEnded(GameEvent):
    """The game is over; the seed is revealed so that anyone can re-derive every roll."""

    type: Literal["game_ended"] = "game_ended"
    seed_hex: str
    reason: str = ""


class MarkerPlaced(GameEvent):
    """A marker is put on the map (by the rule module that keeps its contents). It says
    nothing of what is under it."""

    type: Literal["marker_placed"] = "marker_placed"
    marker: str
    side: str
    cell: CellRef


class MarkerMoved(GameEvent):
    """A marker stepped along ``path`` (cells entered, in order)."""

    type: Literal["marker_moved"] = "marker_moved"
    marker: str
    path: tuple[CellRef, ...]


class MarkerRemoved(GameEvent):
    """A marker is taken off the map (revealed, dissolved, or found to be a decoy)."""

    type: Literal["marker_removed"] = "marker_removed"
    marker: str
    reason: str = ""


class MarkerSplit(GameEvent):
    """One marker becomes two, each with a fresh id (so that neither is known for the old one),
    standing in ``cells`` (in the order of ``into``). Where the contents went is the module's
    data, folded from its own event."""

    type: Literal["marker_split"] = "marker_split"
    marker: str
    into: tuple[str, str]
    cells: tuple[CellRef, CellRef]


class MarkersJoined(GameEvent):
    """Two markers standing in one hex become one, with a fresh id (so that it is known for
    neither of the old ones), in that hex. Where the contents went is the module's data."""

    type: Literal["markers_joined"] = "markers_joined"
    markers: tuple[str, str]
    into: str
    cell: CellRef


#: Any event (core or from a rule module).
Event = GameEvent


def event_to_json(event: GameEvent) -> str:
    return event.model_dump_json(exclude={"audience"})


def side_audience(side: str) -> str:
    return f"side:{side}"
