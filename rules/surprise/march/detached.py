"""Units of a surprise-move force that stand apart from it (ruling ORD-21).

A march order names "all elements affected" (SM, the order), and a command "plus attached" takes
every unit of it, wherever it is: a regiment left as a rear guard miles away comes with its
division. Such a unit is worth a warning before the order is sent. A road column is long, so
distance from its head alone would warn of its own tail; what tells a detached unit is that it is
not linked to the force's headquarters by a chain of the force's units, each within the force's
command range (its ranking leader's, else ``LINK_DEFAULT`` hexes) of the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.forces.chain_of_command import command_range, in_command
from rules.forces.units import Unit
from rules.state import GameState
from rules.surprise import force as frc
from rules.surprise.orders import headquarters

#: The link between two units of a force with no leader, in hexes.
LINK_DEFAULT = 3


@dataclass(frozen=True)
class Detached:
    """One unit of the force that stands apart: how far from the force's headquarters, and
    whether it is also out of its own leader's command."""

    unit: Unit
    hexes: int
    out_of_command: bool


def link_range(state: GameState, units: Sequence[Unit]) -> int:
    """How far apart two neighbours of the force's chain may stand."""
    leader = frc.ranking_leader(state, [u.id for u in units])
    if leader is None:
        return LINK_DEFAULT
    return max(1, command_range(state, leader, leader.echelon))


def detached(state: GameState, units: Sequence[Unit]) -> list[Detached]:
    """The force's units not linked to its headquarters (in the force's order)."""
    placed = [u for u in units if u.cell is not None]
    if len(placed) < 2:
        return []
    grid = state.loaded.map.grid
    reach = link_range(state, placed)
    hq = headquarters(state, [u.id for u in placed])
    assert hq.cell is not None
    linked = {hq.id}
    frontier = [hq]
    while frontier:
        here = frontier.pop()
        assert here.cell is not None
        for u in placed:
            if u.id not in linked and u.cell is not None \
                    and grid.distance(here.cell, u.cell) <= reach:
                linked.add(u.id)
                frontier.append(u)
    return [Detached(u, grid.distance(hq.cell, u.cell), not in_command(state, u))
            for u in placed if u.id not in linked and u.cell is not None]
