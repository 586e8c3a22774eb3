"""The map as the game asks about it: terrain, elevation, roads, hexside features and the cost of
stepping from one cell into the next."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.forces.words import ROAD_FORMATIONS, Formation, MovementClass
from rules.ground.board import Board
from rules.ground.grid import Cell, HexGrid, SquareGrid
from rules.scenario.ruleset import Ruleset


def edge(a: int, b: int) -> tuple[int, int]:
    """The edge between two cell indices, the same whichever way it is crossed."""
    return (a, b) if a < b else (b, a)


@dataclass
class Road:
    kind: str
    name: str
    cells: tuple[Cell, ...]


@dataclass
class GameMap:
    """Terrain, elevation and features of every cell and cell edge."""

    board: Board
    ruleset: Ruleset
    terrain: list[str]
    elevation: list[int]
    roads: list[Road] = field(default_factory=list)
    road_edges: dict[tuple[int, int], str] = field(default_factory=dict)
    hexsides: dict[tuple[int, int], str] = field(default_factory=dict)
    #: ``cheapest_step`` as worked out so far (the map never changes once loaded).
    _cheapest: dict[tuple[Cell, MovementClass, Formation], float | None] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    def __reduce__(self) -> tuple[type[GameMap], tuple[object, ...]]:
        # What defines the map, without the answers worked out from it: a map sent to another
        # process (to be drawn there) arrives as small as it was loaded.
        return GameMap, (self.board, self.ruleset, self.terrain, self.elevation, self.roads,
                         self.road_edges, self.hexsides)

    @property
    def grid(self) -> HexGrid | SquareGrid:
        return self.board.grid

    def idx(self, cell: Cell) -> int:
        return self.board.grid.index(cell)

    def terrain_at(self, cell: Cell) -> str:
        return self.terrain[self.idx(cell)]

    def elevation_at(self, cell: Cell) -> int:
        return self.elevation[self.idx(cell)]

    def los_height(self, index: int) -> int:
        """Ground elevation plus what the cell's terrain adds to block sight (woods, towns)."""
        return self.elevation[index] + self.ruleset.terrain[self.terrain[index]].los_height

    def is_woods(self, cell: Cell) -> bool:
        return self.ruleset.terrain[self.terrain_at(cell)].woods

    def is_hill(self, cell: Cell) -> bool:
        return self.ruleset.terrain[self.terrain_at(cell)].hill

    def is_fort(self, cell: Cell) -> bool:
        return self.ruleset.terrain[self.terrain_at(cell)].fort

    def enterable(self, cell: Cell) -> bool:
        return self.board.on_a_sheet(cell) and self.ruleset.terrain[self.terrain_at(cell)].enterable

    def road_between(self, a: Cell, b: Cell) -> str | None:
        """The kind of road joining two adjacent cells, if one does."""
        return self.road_edges.get(edge(self.idx(a), self.idx(b)))

    def hexside_between(self, a: Cell, b: Cell) -> str | None:
        return self.hexsides.get(edge(self.idx(a), self.idx(b)))

    def has_road(self, cell: Cell) -> bool:
        i = self.idx(cell)
        return any(i in e for e in self.road_edges)

    def road_neighbours(self, cell: Cell) -> list[tuple[Cell, str]]:
        return [
            (n, kind) for n in self.board.grid.neighbours(cell)
            if (kind := self.road_between(cell, n)) is not None
        ]

    def step_cost(
        self, a: Cell, b: Cell, movement_class: MovementClass, formation: Formation
    ) -> float | None:
        """MPs to step from ``a`` into adjacent ``b``, or ``None`` when the step is not allowed
        (``step_price`` with its reason left out)."""
        price = self.step_price(a, b, movement_class, formation)
        return None if price is None else price.cost

    def cheapest_step(self, a: Cell, movement_class: MovementClass, formation: Formation
                      ) -> float | None:
        """The fewest MPs a step out of ``a`` into a neighbouring cell of the map costs, or
        ``None`` when no step out of it is allowed. Asked for every unit of a side whenever its
        orders are called for: worked out once for each cell, class and formation."""
        key = (a, movement_class, formation)
        if key not in self._cheapest:
            board = self.board
            costs = [cost for b in self.grid.neighbours(a) if board.on_a_sheet(b)
                     and (cost := self.step_cost(a, b, movement_class, formation)) is not None]
            self._cheapest[key] = min(costs, default=None)
        return self._cheapest[key]

    def step_price(
        self, a: Cell, b: Cell, movement_class: MovementClass, formation: Formation
    ) -> StepPrice | None:
        """The MPs to step from ``a`` into adjacent ``b`` and why, or ``None`` when the step is
        not allowed.

        A unit in a road formation (column, limbered, mounted) moving along a road pays the road's
        rate and ignores the terrain and the hexside the road crosses. Otherwise it pays the
        terrain of the cell entered (its line cost when in line) plus any hexside feature.
        """
        if not self.enterable(b):
            return None
        road = self.road_between(a, b)
        if road is not None and (formation in ROAD_FORMATIONS
                                 or movement_class == MovementClass.LEADER):
            return StepPrice(self.ruleset.roads[road].cost,
                             f"by {road}, {Formation(formation).said}")
        side = self.hexside_between(a, b)
        extra = 0.0
        if side is not None:
            feature = self.ruleset.hexsides[side]
            if feature.impassable:
                return None
            extra = feature.extra_cost
        terrain = self.ruleset.terrain[self.terrain_at(b)]
        why = self.terrain_at(b)
        if formation == Formation.LINE and movement_class in terrain.line_cost:
            why += ", in line"
        if road is not None:
            why += f", the {road} not used {Formation(formation).said}"
        if extra:
            why += f", +{extra:g} for the {side}"
        return StepPrice(terrain.cost_for(movement_class, formation) + extra, why)


@dataclass(frozen=True, slots=True)
class StepPrice:
    """What one step costs, and why in the game's words ("woods, in line", "by road, in column")."""

    cost: float
    why: str
