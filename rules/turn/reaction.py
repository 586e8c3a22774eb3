"""The reaction window: a side is asked a question at once, in the middle of a phase.

A rule module may stop the course of play to ask one side a question with a few choices: a
revealed force deploys or fires, a column's head chooses to go round a blocked hex. While the
question is open and it ``holds``, the sides acting in the phase (other than the one asked) may
not move, change formation or finish the phase: their movement waits for the answer. Every
question has a default, which applies

- when the side answers nothing before the current step ends (the step's end settles every
  open question, before the modules' ``on_step_end``), or
- when its deadline (``seconds``, counted by the umpire's clock from when it was asked) passes
  first: the umpire then gives the host's ``AnswerTimeout`` command, which is logged like any
  other, so that ``vedette verify`` decides it again.

The asking module hears the answer through its ``on_answer`` hook. Questions are numbered
among the asked side's own questions (``<side>:q<n>``), so that no number a side sees counts
questions put to the enemy. The open questions live in ``module_data["reactions"]`` as
JSON-ready data, changed only by this file's two events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.events import GameEvent, side_audience
from rules.modules.data import data_of, with_module_data
from rules.modules.registry import in_force
from rules.refusal import Refusal

if TYPE_CHECKING:
    from rules.outcome import Outcome
    from rules.state import GameState
    from rules.view import SideView

#: Where the open questions are kept in ``GameState.module_data``.
DATA = "reactions"

Choice = str


class Question(BaseModel):
    """A question put to one side, with its choices and the default."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    #: ``<side>:q<n>``: the side's n-th question.
    id: str
    #: The rule module that asked it, and hears the answer (``on_answer``).
    module: str
    #: The side that answers.
    side: str
    #: What the question is about, in the module's own terms (a march's id, a unit's id).
    topic: str
    choices: tuple[Choice, ...] = Field(min_length=2, max_length=5)
    default: Choice
    #: What the asked side is told (empty: the asking module tells it in its own events).
    prompt: str = Field(default="", max_length=1000)
    #: Seconds the side has to answer, by the umpire's clock; ``None``: until the step ends.
    seconds: int | None = Field(default=None, gt=0, le=24 * 3600)
    #: Whether the acting sides' movement waits for the answer.
    holds: bool = True
    #: Asked at the start, before the first turn: the first step opens only once every such
    #: question is answered (``rules.turn.opening``), and no side gives orders meanwhile.
    before_play: bool = False

    @model_validator(mode="after")
    def _default_is_a_choice(self) -> Question:
        if self.default not in self.choices:
            raise ValueError(f"the default {self.default!r} is not one of the choices")
        if len(set(self.choices)) != len(self.choices):
            raise ValueError("the choices repeat")
        return self

    def words(self) -> str:
        """The question as the asked side reads it."""
        if not self.prompt:
            return ""
        if self.before_play:
            return (f"{self.prompt} Answer {' or '.join(self.choices)} (question {self.id}): "
                    f"the first turn opens once it is answered; if the host opens it first: "
                    f"{self.default}.")
        by = (f"within {self.seconds} seconds" if self.seconds is not None
              else "before the phase ends")
        return (f"{self.prompt} Answer {' or '.join(self.choices)} {by} (question "
                f"{self.id}); without an answer: {self.default}.")


class QuestionAsked(GameEvent):
    """A side is asked a question at once (the reaction window opens)."""

    type: Literal["question_asked"] = "question_asked"
    question: Question

    def report(self, view: SideView) -> str:
        return self.question.words()

    def asks_again(self) -> str:
        return "a question was put to your side"


class QuestionAnswered(GameEvent):
    """The asked side answered (or, ``by_default``, the deadline or the step's end did)."""

    type: Literal["question_answered"] = "question_answered"
    question: str
    choice: Choice
    by_default: bool = False


EVENTS: tuple[type[GameEvent], ...] = (QuestionAsked, QuestionAnswered)


# -- reading ---------------------------------------------------------------------------------------
def open_questions(state: GameState, *, side: str | None = None, module: str | None = None,
                   topic: str | None = None) -> list[Question]:
    """The open questions, in the order they were asked, those matching what is given."""
    found = [Question.model_validate(q) for q in data_of(state, DATA).get("open", [])]
    return [q for q in found if (side is None or q.side == side)
            and (module is None or q.module == module) and (topic is None or q.topic == topic)]


def before_play(state: GameState) -> Question | None:
    """The first open question the first turn waits for (``Question.before_play``), or
    ``None``: while there is one, the game has started but its first step has not begun."""
    return next((q for q in open_questions(state) if q.before_play), None)


def holding(state: GameState, side: str) -> Question | None:
    """The first open question that holds ``side``'s movement: one that holds, put to another
    side."""
    return next((q for q in open_questions(state) if q.holds and q.side != side), None)


def require_not_held(state: GameState, side: str) -> None:
    """Refuse a side's movement while a question put to another side holds it."""
    waiting = holding(state, side)
    if waiting is not None:
        until = (f"at most {waiting.seconds} seconds" if waiting.seconds is not None
                 else "at most until the phase ends")
        raise Refusal(f"wait: the {state.side_name(waiting.side)} player is answering a question "
                      f"at once ({until}); your movement goes on after the answer")


# -- asking and answering --------------------------------------------------------------------------
def ask(out: Outcome, module: str, side: str, topic: str, choices: tuple[Choice, ...],
        default: Choice, prompt: str = "", *, seconds: int | None = None,
        holds: bool = True, before_play: bool = False) -> Question:
    """Open the reaction window: ask ``side`` a question now (``before_play``: at the start,
    the first turn waiting for the answer). Returns the question."""
    asked = int(data_of(out.state, DATA).get("asked", {}).get(side, 0))
    question = Question(id=f"{side}:q{asked + 1}", module=module, side=side, topic=topic,
                        choices=choices, default=default, prompt=prompt, seconds=seconds,
                        holds=holds, before_play=before_play)
    out.add(QuestionAsked(audience=side_audience(side), question=question))
    return question


def answer(out: Outcome, question_id: str, choice: Choice, *, by_default: bool = False) -> None:
    """Close a question with a choice, then let the asking module act on it."""
    question = next((q for q in open_questions(out.state) if q.id == question_id), None)
    if question is None:
        raise Refusal(f"no question {question_id[:40]!r} is waiting for an answer")
    if choice not in question.choices:
        raise Refusal(f"answer {' or '.join(question.choices)}")
    out.add(QuestionAnswered(audience=side_audience(question.side), question=question.id,
                             choice=choice, by_default=by_default))
    for module in in_force(out.state.modules):
        if module.name == question.module:
            module.on_answer(out, question, choice, by_default)


def answer_own(out: Outcome, side: str, question_id: str, choice: Choice) -> None:
    """A side answers one of its own questions (another side's gets the same answer as a
    question that does not exist)."""
    mine = {q.id for q in open_questions(out.state, side=side)}
    if question_id not in mine:
        raise Refusal(f"no question {question_id[:40]!r} is waiting for your answer")
    answer(out, question_id, choice)


def time_out(out: Outcome, question_id: str) -> None:
    """The umpire's clock says the question's deadline has passed: its default applies."""
    question = next((q for q in open_questions(out.state) if q.id == question_id), None)
    if question is None:
        raise Refusal(f"no question {question_id[:40]!r} is waiting for an answer")
    if question.seconds is None:
        raise Refusal(f"question {question.id} waits until the phase ends, not for a clock")
    answer(out, question.id, question.default, by_default=True)


def settle_all(out: Outcome) -> None:
    """The step is closing: every question still open gets its default, oldest first (an
    answer may open another: it is settled too)."""
    for _ in range(1000):  # a module asking again on every default would never end
        pending = open_questions(out.state)
        if not pending:
            return
        answer(out, pending[0].id, pending[0].default, by_default=True)
    raise RuntimeError("questions keep being asked as the step closes")


# -- the fold --------------------------------------------------------------------------------------
def fold(state: GameState, event: QuestionAsked | QuestionAnswered) -> GameState:
    data: Mapping[str, Any] = data_of(state, DATA)
    asked = dict(data.get("asked", {}))
    still = list(data.get("open", []))
    match event:
        case QuestionAsked(question=q):
            asked[q.side] = int(asked.get(q.side, 0)) + 1
            still.append(q.model_dump(mode="json"))
        case QuestionAnswered(question=qid):
            still = [q for q in still if q["id"] != qid]
    return with_module_data(state, DATA, {"asked": asked, "open": still})
