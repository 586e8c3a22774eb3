"""Commands: what a player or the host asks the umpire to do, as validated records.

Text fields are bounded so that no command can carry an unbounded string into the log.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

Name = Annotated[str, Field(min_length=1, max_length=100)]
Reason = Annotated[str, Field(max_length=300)]


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Move(_Command):
    """Move a unit along a route (see ``rules.route``)."""

    kind: Literal["move"] = "move"
    unit: Name
    route: Annotated[str, Field(min_length=1, max_length=500)]


class SetFormation(_Command):
    """Change a unit's formation (line or column, limbered or unlimbered, ...)."""

    kind: Literal["formation"] = "formation"
    unit: Name
    formation: Name


class Done(_Command):
    """My side has finished its part of the current phase."""

    kind: Literal["done"] = "done"


class Pause(_Command):
    """Host: pause or resume the game."""

    kind: Literal["pause"] = "pause"
    paused: bool = True
    reason: Reason = ""


class ForceEndPhase(_Command):
    """Host: end the current phase for every side that has not said it is done."""

    kind: Literal["force_end_phase"] = "force_end_phase"


class Correct(_Command):
    """Host: set a unit's cell, strength, stragglers, formation or morale by hand, with a reason."""

    kind: Literal["correct"] = "correct"
    unit: Name
    changes: dict[str, Any]
    reason: Annotated[str, Field(min_length=3, max_length=300)]


Command = Annotated[
    Move | SetFormation | Done | Pause | ForceEndPhase | Correct, Field(discriminator="kind")
]
COMMAND_ADAPTER: TypeAdapter[Command] = TypeAdapter(Command)

HOST_COMMANDS = (Pause, ForceEndPhase, Correct)
