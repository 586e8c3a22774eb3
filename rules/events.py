"""Events: everything that happens in a game, as small serialisable records.

The game state is a fold of its events (``rules.state.apply``). Each event carries its audience:
``public`` (every player), ``umpire`` (the log only), or ``side:<id>`` (that side's players). The
audience says who may be *told* of the event; what a side may *see* is still decided only by
``rules.view.project``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

CellRef = tuple[int, int]


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    audience: str = "public"


class CommandAccepted(_Event):
    """A player's command was accepted; its request id makes a repeated request harmless."""

    type: Literal["command_accepted"] = "command_accepted"
    request: str
    kind: str


class GameStarted(_Event):
    """Play begins at the first phase of the first turn; the dice commitment is made public."""

    type: Literal["game_started"] = "game_started"
    seed_sha256: str


class PhaseBegan(_Event):
    """A new step of the turn sequence: a phase, for one side or for all."""

    type: Literal["phase_began"] = "phase_began"
    turn: int
    step: int
    phase: str
    side: str | None


class SideDone(_Event):
    """A side has finished what it wants to do in the current phase."""

    type: Literal["side_done"] = "side_done"
    side: str


class UnitsArrived(_Event):
    """Reinforcements enter the map at their arrival cells."""

    type: Literal["units_arrived"] = "units_arrived"
    units: tuple[str, ...]


class UnitMoved(_Event):
    """A unit stepped along ``path`` (cells entered, in order), spending ``mp``."""

    type: Literal["unit_moved"] = "unit_moved"
    unit: str
    path: tuple[CellRef, ...]
    mp: float
    stopped: str = ""


class FormationChanged(_Event):
    type: Literal["formation_changed"] = "formation_changed"
    unit: str
    formation: str
    mp: float


class DieRolled(_Event):
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


class Sighted(_Event):
    """What a side's troops now see of the enemy: units newly seen (with what was seen) and
    units lost from sight. Folding these gives each side's memory, and ghosts."""

    type: Literal["sighted"] = "sighted"
    side: str
    seen: dict[str, dict[str, Any]] = Field(default_factory=dict)
    lost: tuple[str, ...] = ()


class Told(_Event):
    """A message to a side (or everyone): a report the rules say the side receives."""

    type: Literal["told"] = "told"
    text: str


class UnitCorrected(_Event):
    """The host corrected a unit by hand, with a reason kept in the log."""

    type: Literal["unit_corrected"] = "unit_corrected"
    unit: str
    changes: dict[str, Any]
    reason: str


class GamePaused(_Event):
    type: Literal["game_paused"] = "game_paused"
    paused: bool
    reason: str = ""


class GameEnded(_Event):
    """The game is over; the seed is revealed so that anyone can re-derive every roll."""

    type: Literal["game_ended"] = "game_ended"
    seed_hex: str
    reason: str = ""


Event = Annotated[
    CommandAccepted | GameStarted | PhaseBegan | SideDone | UnitsArrived | UnitMoved
    | FormationChanged | DieRolled | Sighted | Told | UnitCorrected | GamePaused | GameEnded,
    Field(discriminator="type"),
]

EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


def event_to_json(event: Event) -> str:
    return event.model_dump_json(exclude={"audience"})


def event_from_json(text: str, audience: str) -> Event:
    return EVENT_ADAPTER.validate_json(text).model_copy(update={"audience": audience})


def side_audience(side: str) -> str:
    return f"side:{side}"
