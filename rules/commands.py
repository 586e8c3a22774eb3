"""Commands: what a player or the host asks the umpire to do, as validated records.

Text fields are bounded so that no command can carry an unbounded string into the log.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

Name = Annotated[str, Field(min_length=1, max_length=100)]
Reason = Annotated[str, Field(max_length=300)]


#: Every kind of command by its ``kind``; rule modules add theirs by subclassing.
COMMAND_TYPES: dict[str, type[GameCommand]] = {}


class GameCommand(BaseModel):
    """The base of every command; a subclass names itself with a ``kind`` literal."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: str
    #: Only the host may give it.
    host_only: ClassVar[bool] = False

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        COMMAND_TYPES[cls.model_fields["kind"].default] = cls




class Move(GameCommand):
    """Move a unit along a route (see ``rules.orders.route``)."""

    kind: Literal["move"] = "move"
    unit: Name
    route: Annotated[str, Field(min_length=1, max_length=500)]


class SetFormation(GameCommand):
    """Change a unit's formation (line or column, limbered or unlimbered, ...)."""

    kind: Literal["formation"] = "formation"
    unit: Name
    formation: Name


class Done(GameCommand):
    """My side has finished its part of the current phase."""

    kind: Literal["done"] = "done"


class Answer(GameCommand):
    """My side's answer to a question put to it at once (``rules.turn.reaction``)."""

    kind: Literal["answer"] = "answer"
    question: Annotated[str, Field(min_length=1, max_length=60)]
    choice: Annotated[str, Field(min_length=1, max_length=40)]


class AnswerTimeout(GameCommand):
    """The umpire's clock: a question's deadline has passed, its default applies."""

    host_only = True

    kind: Literal["answer_timeout"] = "answer_timeout"
    question: Annotated[str, Field(min_length=1, max_length=60)]


class Pause(GameCommand):
    """Host: pause or resume the game."""

    host_only = True

    kind: Literal["pause"] = "pause"
    paused: bool = True
    reason: Reason = ""


class ForceEndPhase(GameCommand):
    """Host: end the current phase for every side that has not said it is done."""

    host_only = True

    kind: Literal["force_end_phase"] = "force_end_phase"


class DeadlinePassed(GameCommand):
    """The umpire's clock: the deadline of the step ``turn``/``step`` has passed; every side
    still at it is marked done. Naming the step makes it apply to that step only: once the
    step is over (a late ``/done`` came first), it is refused."""

    host_only = True

    kind: Literal["deadline_passed"] = "deadline_passed"
    turn: Annotated[int, Field(ge=0)]
    step: Annotated[int, Field(ge=0)]


class Correct(GameCommand):
    """Host: set a unit's cell, strength, stragglers, formation or morale by hand, with a reason."""

    host_only = True

    kind: Literal["correct"] = "correct"
    unit: Name
    changes: dict[str, Any]
    reason: Annotated[str, Field(min_length=3, max_length=300)]


#: Any command (core or from a rule module).
Command = GameCommand
