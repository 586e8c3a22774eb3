"""The enemy as a moving side knows it: the counters and markers of its own view, nothing more.

A preview foresees a move's stops from this (``rules.orders.foresight``), and a route hint keeps
clear of it (``rules.orders.route.road_advice``). It is read from ``rules.view.project`` alone:
enemy counters seen in full, anonymous or face down, the ghosts the side remembers where it last
saw them, and the enemy markers on its map, so that nothing a side is told from it can vary with
enemy state the side does not see (ruling ORD-44).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.ground.grid import Cell
from rules.knowledge.levels import GHOST, OWN, MarkerView, UnitView
from rules.knowledge.overlay import Ground
from rules.knowledge.sighted import rule_for, turn_visibility
from rules.state import GameState
from rules.view import project

#: Kinds of counter named after the troops in a cell.
COMMANDERS = frozenset({"leader", "hq"})


@dataclass(frozen=True)
class KnownEnemy:
    """The enemy counters of a side's view (ghosts included: where it last saw them), the enemy
    markers on its map, and the public ground they stand on."""

    counters: tuple[UnitView, ...]
    markers: tuple[MarkerView, ...]
    ground: Ground

    def at(self, cell: Cell) -> tuple[UnitView, ...]:
        """The enemy counters the side knows of in ``cell``: those it sees first, then its
        ghosts (the enemy it last saw there); troops before leaders and headquarters."""
        here = [u for u in self.counters if u.cell == cell]
        return tuple(sorted(here, key=lambda u: (u.level == GHOST, u.kind in COMMANDERS, u.name,
                                                 u.ref)))

    @property
    def cells(self) -> frozenset[Cell]:
        """Every cell where the side knows of an enemy counter or marker."""
        return frozenset(u.cell for u in self.counters) | frozenset(m.cell for m in self.markers)


def known_enemy(state: GameState, side: str) -> KnownEnemy:
    """What ``side`` knows of the enemy now, from its own view only."""
    view = project(state, side)
    ground = Ground(side, state.loaded.map, turn_visibility(state), rule_for(state),
                    state.loaded.ruleset.blocked_radius)
    counters = tuple(u for u in view.units if u.level != OWN)
    markers = tuple(m for m in view.markers if m.side != side)
    return KnownEnemy(counters, markers, ground)
