"""A phase's deadline passing: the sides still at their orders are marked done.

The rules have no clock: the umpire decides when a deadline has passed and gives the host's
``DeadlinePassed`` command, which is logged like any other, so that ``vedette verify`` decides
it again. What everyone is told follows ruling INFO-9: in a phase one side plays alone (or when
``announce_finished`` is chosen) the channel names the sides marked done; in a phase every side
plays at once it says only that the deadline ended the phase, since who was still at it is the
others' information. Each side marked done is told so in private (ruling FLOW-21).
"""

from __future__ import annotations

from rules import events as ev
from rules.knowledge.public import finish_is_public
from rules.outcome import Outcome
from rules.scenario.markup import plain
from rules.state import GameState


def phase_name(state: GameState) -> str:
    """The current phase as players read it: "Blue Army Movement Phase", "Command Phase"."""
    side = state.current.side
    whose = f"{state.side_name(side)} " if side else ""
    return plain(f"{whose}{state.current.title}")


def deadline_passed(out: Outcome) -> None:
    """Tell who must hear it that the deadline passed, and mark every side still acting done
    (the caller then closes the step)."""
    state = out.state
    late = state.acting_sides()
    name = phase_name(state)
    if finish_is_public(state):
        sides = " and ".join(plain(state.side_name(s)) for s in late)
        text = (f"The deadline of the {name} (turn {state.turn}) has passed: the umpire marked "
                f"{sides} done.")
    else:
        text = (f"The deadline of the {name} (turn {state.turn}) has passed: the phase is over "
                "for every side.")
    out.add(ev.Told(audience="public", text=text))
    for side in late:
        out.add(ev.Told(audience=ev.side_audience(side),
                        text=f"The deadline of the {name} passed before your side had said it "
                             "was done: the umpire marked it done. Orders already given stand."))
    for side in late:
        out.add(ev.SideDone(audience="public", side=side))
