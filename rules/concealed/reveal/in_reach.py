"""A mover halts where it comes within reach of a revealed force (Cf 2.1, ruling CF-31).

The revealed force may fire at, or charge, any enemy unit that moves within its reach for the
rest of the phase (ruling CF-28). A unit that only passed through that reach and went on would
leave it before its owner could be asked, so a move halts in the first cell where some unit of a
force revealed in this phase could fire at the mover, or charge it, and could not do so where
the move began. The question is asked there (``rules.concealed.reveal.opportunity``), and the
mover keeps the MPs it has not spent, to go on once the answer is in. A way of reacting the
mover was already open to where its move began stops nothing, so a unit halted once moves on
past the same guns, which are asked again only where its next move ends.

Whether a move halts depends only on what the moving side sees under the Concealed Forces model
(ruling CF-4): the revealed units, where they stand, their kinds, formations and morale, whether
they have fired or charged in the phase, and the ground. So a preview foresees the halt by this
very check (``RuleModule.seen_stop``).
"""

from __future__ import annotations

from rules.concealed.reveal.opportunity import CHARGE, called, reactions, reactors
from rules.forces.units import Unit
from rules.ground.grid import Cell
from rules.orders.stops import Stop, StopKind
from rules.state import GameState


def reach_stop(state: GameState, unit: Unit, cell: Cell, *, foreseen: bool = False
               ) -> Stop | None:
    """The halt of ``unit`` after entering ``cell``, or ``None``: some revealed enemy unit
    could fire at it there, or charge it, and could not do so where it stands now.
    ``foreseen``: worded for a preview, of a move not yet made."""
    for enemy in reactors(state, unit):
        new = reactions(state, enemy, unit, cell) - reactions(state, enemy, unit, unit.cell)
        if not new:
            continue
        assert enemy.cell is not None  # a unit off the map reacts in no way
        who = called(state, unit.side, enemy)
        where = state.loaded.board.describe(enemy.cell)
        reach = "charging distance" if new == {CHARGE} else "reach"
        verb = "comes" if foreseen else "came"
        return Stop(StopKind.RULE, f"it {verb} within {reach} of {who} at {where}, revealed in "
                    "this phase, and halts while the enemy chooses whether to react")
    return None
