"""The turn's status post: one message in the game's channel per turn, posted when the turn
begins and edited in place as its phases pass, so that the channel keeps a short record (one
post a turn) instead of one post per phase.

It says the turn (the turn track's clock and light), each phase of the turn in which someone
acts (done, now, to come) and, for the phase now played, who is still to act as far as
everyone may know: in a phase every side plays at once, who has finished is not told unless the
game announces it (ruling INFO-9, ``rules.knowledge.public.waiting_for``). Everything in it is
public: the turn sequence, the phase and the sides' names; nothing depends on what any side did.

Edits notify nobody on Discord, so the players are mentioned once a turn, in the new post that
opens their first phase of the turn (game option ``mention_players``, default on: ruling
FLOW-31).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from rules.knowledge.public import waiting_for
from rules.scenario.markup import plain
from rules.state import GameState
from rules.turn.status import GameStatus
from rules.view import SideView
from umpire.wording import turn_heading

#: The game option: the post that opens a side's phase mentions that side's players.
MENTION_PLAYERS = "mention_players"


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


def status_key(turn: int) -> str:
    """The edit key of a turn's status post (one message per turn and game)."""
    return f"status:turn-{turn}"


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


def status_text(view: SideView, turn: TurnProgress) -> str:
    """The status post, worded from the public ``view`` (names and the turn track) and the
    turn's public progress."""
    lines = [f"**{turn_heading(view)}**"]
    for step in turn.steps:
        whose = f"{plain(view.name_of_side(step.side))} " if step.side else ""
        line = f"{whose}{plain(step.title)}: {step.state}"
        if step.state is StepState.NOW:
            line += f"; {_still_to_act(view, turn)}"
        lines.append(line)
    if turn.over:
        lines.append("The game is over.")
    return "\n".join(lines)


def _still_to_act(view: SideView, turn: TurnProgress) -> str:
    if turn.waiting is None:
        return ("every side gives its orders at once (who has finished is not announced)")
    parts = [f"{plain(view.name_of_side(s))} has finished" for s in turn.finished]
    waiting = ", ".join(plain(view.name_of_side(s)) for s in turn.waiting) or "nobody"
    return "; ".join([*parts, f"waiting for {waiting}"])


def newly_acting(state: GameState) -> tuple[str, ...]:
    """The sides acting in the step now begun that acted in no earlier step of this turn: the
    ones the channel has not yet called this turn."""
    earlier = {s for step in state.steps[:state.step] for s in step.acting(state.sides)}
    return tuple(s for s in state.current.acting(state.sides) if s not in earlier)


def opens_turn(state: GameState) -> bool:
    """Whether the step now begun is the turn's first in which someone acts (the one its
    status post is posted for)."""
    return not any(step.acting(state.sides) for step in state.steps[:state.step])


def call_text(view: SideView, sides: Iterable[str], phase: str) -> str:
    """A separate post calling sides whose first phase of the turn opens after the turn's
    status post (edits notify nobody)."""
    names = ", ".join(plain(view.name_of_side(s)) for s in sides)
    return f"{names}: the {plain(phase)} (turn {view.turn}) is yours."


def mention_line(users: Iterable[int]) -> str:
    """The line of a post that mentions the players called by it."""
    return "To act: " + " ".join(f"<@{u}>" for u in users)

