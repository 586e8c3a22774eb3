"""The opening of play: a choice the rules leave to a player before the first turn.

A rule module may put a question to a side at the start (``rules.turn.reaction.ask`` with
``before_play``), such as the Federal commander's election of the Chancellorsville raid. While
such a question is open, the game has started but its first step has not begun: no phase is
announced, no sighting is worked out, no side's view shows any enemy counter (``rules.view``:
the board is not yet set out), and no side gives orders. The first step opens in the
same command that answers the last of them (a side's answer, its clock's default, or the
host's end of the phase, which gives each its default).
"""

from __future__ import annotations

from rules.outcome import Outcome
from rules.refusal import Refusal
from rules.state import GameState
from rules.turn import reaction
from rules.turn.advance import advance, begin_step


def waiting(state: GameState) -> reaction.Question | None:
    """The first open question the first turn waits for, or ``None``."""
    return reaction.before_play(state)


def require_begun(state: GameState) -> None:
    """Refuse an order while the first turn waits for a choice made before it."""
    question = waiting(state)
    if question is not None:
        raise Refusal(f"the first turn has not begun: it waits for the "
                      f"{state.side_name(question.side)} player's choice before play")


def open_play(out: Outcome) -> None:
    """Open the first step of the game (and pass on while no side has anything to do in it)."""
    begin_step(out, out.state.turn, 0)
    if not out.state.acting_sides():
        advance(out)


def open_when_chosen(before: GameState, out: Outcome) -> None:
    """After a command: when the state ``before`` it waited for a choice and nothing waits any
    longer, the first step opens now."""
    if waiting(before) is not None and waiting(out.state) is None:
        open_play(out)


def settle(out: Outcome) -> None:
    """The host opens the first turn without waiting: every choice still open gets its default
    (an answer may ask another: it gets its default too). The command's end then opens the
    first step (``open_when_chosen``)."""
    for _ in range(100):
        question = waiting(out.state)
        if question is None:
            return
        reaction.answer(out, question.id, question.default, by_default=True)
    raise RuntimeError("questions keep being asked before the first turn")
