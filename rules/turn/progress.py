"""A turn's progress as everyone may know it: the phases of the turn in which someone acts (done,
now, to come) and, for the phase now played, who is still to act as far as everyone may know (in
a phase every side plays at once, who has finished is not told unless the game announces it:
ruling INFO-9, ``rules.knowledge.public.waiting_for``). Everything here is public: the turn
sequence and the sides; nothing depends on what any side did in secret.

The status post (``umpire.words.status_post``) words it; the routing of a batch
(``umpire.games.routing``) asks which sides a new step calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.knowledge.public import waiting_for
from rules.state import GameState
from rules.turn.status import GameStatus


class StepState(StrEnum):
    """Where a phase of the turn stands."""

    DONE = "done"
    NOW = "now"
    TO_COME = "to come"


@dataclass(frozen=True, slots=True)
class StepLine:
    """One phase of the turn in which someone acts: its name, the side playing it alone
    (``None``: every side at once) and where it stands."""

    title: str
    side: str | None
    state: StepState


@dataclass(frozen=True, slots=True)
class TurnProgress:
    """The public facts of a turn's progress: its phases and, for the phase now played, the
    sides everyone may know are still to act (``None``: not told) and those known finished."""

    turn: int
    steps: tuple[StepLine, ...]
    waiting: tuple[str, ...] | None
    finished: tuple[str, ...]
    over: bool


def progress(state: GameState, *, turn_over: bool = False) -> TurnProgress:
    """The turn's progress from what everyone may know: the turn sequence, the step now played
    and who is still to act in it as ``waiting_for`` tells it. ``turn_over``: every phase of
    the turn is done (the next turn has begun, or the game is over)."""
    over = turn_over or state.status == GameStatus.ENDED
    lines = []
    for n, step in enumerate(state.steps):
        if not step.acting(state.sides):
            continue  # a phase nobody acts in passes without a word
        where = (StepState.DONE if over or n < state.step
                 else StepState.NOW if n == state.step else StepState.TO_COME)
        lines.append(StepLine(step.title, step.side, where))
    waiting = None if over else waiting_for(state)
    acting = state.current.acting(state.sides)
    finished = () if waiting is None else tuple(s for s in acting if s not in waiting)
    return TurnProgress(state.turn, tuple(lines), waiting, finished,
                        state.status == GameStatus.ENDED)


def newly_acting(state: GameState) -> tuple[str, ...]:
    """The sides acting in the step now begun that acted in no earlier step of this turn: the
    ones the channel has not yet called this turn."""
    earlier = {s for step in state.steps[:state.step] for s in step.acting(state.sides)}
    return tuple(s for s in state.current.acting(state.sides) if s not in earlier)


def opens_turn(state: GameState) -> bool:
    """Whether the step now begun is the turn's first in which someone acts (the one its
    status post is posted for)."""
    return not any(step.acting(state.sides) for step in state.steps[:state.step])
