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

from rules.scenario.markup import plain
from rules.turn.progress import StepState, TurnProgress
from rules.view import SideView
from umpire.words.deadlines import PhaseDeadline, deadline_line
from umpire.words.replies import turn_heading

#: The game option: the post that opens a side's phase mentions that side's players.
MENTION_PLAYERS = "mention_players"


def status_key(turn: int) -> str:
    """The edit key of a turn's status post (one message per turn and game)."""
    return f"status:turn-{turn}"


def status_text(view: SideView, turn: TurnProgress,
                deadline: PhaseDeadline | None = None) -> str:
    """The status post, worded from the public ``view`` (names and the turn track), the
    turn's public progress and the deadline of the phase now played, if it has one (public:
    ruling FLOW-27)."""
    lines = [f"**{turn_heading(view)}**"]
    for step in turn.steps:
        whose = f"{plain(view.name_of_side(step.side))} " if step.side else ""
        line = f"{whose}{plain(step.title)}: {step.state}"
        if step.state is StepState.NOW:
            line += f"; {_still_to_act(view, turn)}"
        lines.append(line)
    if deadline is not None and not turn.over and deadline.turn == turn.turn and any(
            step.state is StepState.NOW for step in turn.steps):
        lines.append(deadline_line(deadline))
    if turn.over:
        lines.append("The game is over.")
    return "\n".join(lines)


def _still_to_act(view: SideView, turn: TurnProgress) -> str:
    if turn.waiting is None:
        return ("every side gives its orders at once (who has finished is not announced)")
    parts = [f"{plain(view.name_of_side(s))} has finished" for s in turn.finished]
    waiting = ", ".join(plain(view.name_of_side(s)) for s in turn.waiting) or "nobody"
    return "; ".join([*parts, f"waiting for {waiting}"])


def call_text(view: SideView, sides: Iterable[str], phase: str) -> str:
    """A separate post calling sides whose first phase of the turn opens after the turn's
    status post (edits notify nobody)."""
    names = ", ".join(plain(view.name_of_side(s)) for s in sides)
    return f"{names}: the {plain(phase)} (turn {view.turn}) is yours."


def mention_line(users: Iterable[int]) -> str:
    """The line of a post that mentions the players called by it."""
    return "To act: " + " ".join(f"<@{u}>" for u in users)

