"""The decoy pool (Cf 1.1, 1.5): how many decoys a side may have in play.

A side has one decoy for each of its divisions on the table and one for each independent
cavalry brigade on the table (ruling CF-1). A division is on the table while its commander or
any of its units is on the map or inside a concealment marker; an independent cavalry brigade
is a cavalry unit the scenario tags ``independent``, on the table the same way. So the pool
grows as divisions arrive and shrinks as they are destroyed or leave. A decoy found and removed
is back in the pool only from the next turn. When the pool shrinks below the decoys already in
play, none is taken away: the side breeds no more until it is below the pool again (ruling
CF-2).
"""

from __future__ import annotations

from rules.concealed.records import INDEPENDENT_TAG, decoys_of, found_this_turn
from rules.forces.location import InMarker, OnMap
from rules.forces.units import Unit
from rules.forces.words import Echelon, UnitKind
from rules.state import GameState


def on_the_table(unit: Unit) -> bool:
    """On the map or inside a concealment marker."""
    return isinstance(unit.location, OnMap | InMarker)


def is_independent_cavalry(unit: Unit) -> bool:
    return unit.kind is UnitKind.CAVALRY and INDEPENDENT_TAG in unit.tags


def decoy_pool(state: GameState, side: str) -> int:
    """How many decoys the side may have: its divisions and independent cavalry brigades on
    the table."""
    divisions = {c.id for c in state.commands.values()
                 if c.side == side and c.echelon is Echelon.DIVISION}
    present = {u.command for u in state.units_of(side)
               if u.command in divisions and on_the_table(u)}
    cavalry = sum(1 for u in state.units_of(side)
                  if is_independent_cavalry(u) and on_the_table(u))
    return len(present) + cavalry


def decoys_available(state: GameState, side: str) -> int:
    """How many more decoys the side may breed now (never below 0)."""
    in_play = len(decoys_of(state, side))
    return max(0, decoy_pool(state, side) - in_play - found_this_turn(state, side))
