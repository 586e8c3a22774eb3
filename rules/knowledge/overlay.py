"""What a side's map carries over the ground beside the counters: its own routes and the cells it
can tell are blocked, and the public ground that overlay is worked out on.

Rule modules give their part through ``RuleModule.overlay(note, enemies, ground)``: the side's
own note, the enemy counters in its view and the public ``Ground``, never the game state, so an
overlay cannot depend on anything the side does not know.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell
from rules.sighting.rule import SightingRule


@dataclass(frozen=True)
class Route:
    """One of the side's own routes: the cells it goes through, from where it starts, and the
    note drawn at its end. ``key`` says whose route it is (a module's own name for it)."""

    cells: tuple[Cell, ...]
    note: str = ""
    key: str = ""


@dataclass(frozen=True)
class Trail:
    """The stretch of an enemy unit's way that the side's troops saw it move along (ruling
    INFO-18): the cells in order, and the unit's side (for its colour)."""

    side: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Overlay:
    """A module's part of a side's map overlay (or the sum of every module's)."""

    routes: tuple[Route, ...] = ()
    blocked: frozenset[Cell] = field(default_factory=frozenset)

    def __or__(self, other: Overlay) -> Overlay:
        return Overlay(self.routes + other.routes, self.blocked | other.blocked)


@dataclass(frozen=True)
class Ground:
    """What every side knows of the field at this moment: the map, the turn's visibility, the
    scenario's sighting rule and the ruleset's blocked radius, for the side ``side``."""

    side: str
    game_map: GameMap
    visibility: int
    rule: SightingRule
    blocked_radius: int
