"""When a question put at once says it times out (ruling CORE-14): its own seconds counted from
the moment it was stored, as the umpire's clock counts them; the phase's deadline when that
comes first or the question waits for the step's end; else before the phase ends. And its
buttons: one record per choice, the default marked. On the concealed-reveal field, where
such questions are asked."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from rules.state import GameState, apply
from rules.turn.reaction import Question, QuestionAsked
from tests.support.concealed_reveal import concealed
from umpire.clock.questions import times_out_at
from umpire.games.questions import ANSWER_ACTION
from umpire.games.routing import Message, Piece, messages_for
from umpire.words.deadlines import PhaseDeadline, answer_due, timestamp

AT = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def question(seconds: int | None) -> Question:
    return Question(id="confederate:q1", module="concealed_forces", side="confederate",
                    topic="t", choices=("go", "stay"), default="stay", prompt="Go on?",
                    seconds=seconds)


def asked(state: GameState, q: Question, deadline: PhaseDeadline | None,
          at: datetime | None = AT) -> Message:
    e = QuestionAsked(audience="side:confederate", question=q)
    [m] = messages_for(state, [e], apply(state, e), "g1", deadline=deadline, at=at)
    return m


def test_the_words_of_each_case() -> None:
    soon, later = AT + timedelta(minutes=5), AT + timedelta(hours=2)
    phase = PhaseDeadline(1, 2, later)
    assert answer_due(soon, None) == f"Answer by {timestamp(soon)}."
    assert answer_due(soon, phase) == f"Answer by {timestamp(soon)}."
    assert answer_due(later + timedelta(hours=1), phase) == (
        f"Answer by {timestamp(later)}, when the phase ends.")
    assert answer_due(None, phase) == f"Answer by {timestamp(later)}, when the phase ends."
    assert answer_due(None, None) == "Answer before the phase ends."
    paused = PhaseDeadline(1, 2, later, stopped=True, left=timedelta(hours=1))
    assert answer_due(None, paused) == ("Answer before the phase ends (the clock stands still "
                                        "while the game is paused (1 h left)).")
    assert answer_due(soon, paused) == f"Answer by {timestamp(soon)}."


def test_the_moment_shown_is_the_clocks() -> None:
    assert times_out_at(AT, question(300)) == AT + timedelta(seconds=300)
    assert times_out_at(AT, question(None)) is None


def test_a_question_message_has_its_deadline_and_buttons() -> None:
    game, _ = concealed()
    state = game.state
    phase = PhaseDeadline(state.turn, state.step, AT + timedelta(hours=1))
    timed = asked(state, question(300), phase)
    assert timed.piece is Piece.QUESTION and timed.target == "confederate"
    assert timed.text == (f"{question(300).words()}\n"
                          f"Answer by {timestamp(AT + timedelta(seconds=300))}.")
    assert timed.buttons == (
        {"action": ANSWER_ACTION, "game": "g1", "question": "confederate:q1", "choice": "go",
         "default": False},
        {"action": ANSWER_ACTION, "game": "g1", "question": "confederate:q1",
         "choice": "stay", "default": True})
    # Until the step ends: the phase's deadline, if the host set one.
    assert asked(state, question(None), phase).text.endswith(
        f"Answer by {timestamp(phase.at)}, when the phase ends.")
    assert asked(state, question(None), None).text.endswith("Answer before the phase ends.")
    # Another step's deadline is not this one's.
    other = PhaseDeadline(state.turn, state.step + 1, phase.at)
    assert asked(state, question(None), other).text.endswith("Answer before the phase ends.")
    # Without the moment it was stored, a timed question says only the rules' words.
    assert asked(state, question(300), None, at=None).text == question(300).words()

