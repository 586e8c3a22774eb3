"""Random boards and forces for the sighting benchmark and the sighting tests.

A board has smooth-ish elevation (rolling ground with ridges), woods in clumps, a few small
towns, and is built directly as a ``GameMap`` (no scenario file). Forces are ``Presence`` records
for two or more sides, each side spread over its own part of the board with an overlap in the
middle where they meet. Everything is derived from a seed, so a run can be repeated.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

from rules.forces.location import OnMap
from rules.forces.units import Unit
from rules.forces.words import FORMATIONS_BY_KIND, Echelon, MovementClass, UnitKind
from rules.ground.board import Board
from rules.ground.gamemap import GameMap
from rules.ground.grid import HexGrid, SquareGrid, make_grid
from rules.scenario.ruleset import Ruleset, TerrainType
from rules.sighting.sighting_pass import Presence

_COST = {"foot": 1.0, "horse": 1.0, "wheeled": 1.0, "leader": 1.0}
#: Every kind of grid a board may have (``rules.ground.grid.make_grid``'s settings): hexes flat
#: and pointy, odd and even, and squares with four or eight neighbours.
GRID_KINDS: list[dict[str, str | int]] = [
    {"kind": "hex", "orientation": "flat", "parity": "odd"},
    {"kind": "hex", "orientation": "flat", "parity": "even"},
    {"kind": "hex", "orientation": "pointy", "parity": "odd"},
    {"kind": "hex", "orientation": "pointy", "parity": "even"},
    {"kind": "square", "neighbours": 4},
    {"kind": "square", "neighbours": 8},
]


def bench_ruleset() -> Ruleset:
    """A ruleset with clear ground, woods and towns (both of the latter one level high)."""
    return Ruleset(
        id="bench",
        name="Sighting benchmark (stand-in numbers)",
        stand_in=True,
        terrain={
            "clear": TerrainType(name="Clear", cost=_COST),
            "woods": TerrainType(name="Woods", cost=_COST, los_height=1, woods=True),
            "town": TerrainType(name="Town", cost=_COST, los_height=1),
        },
        movement_allowance={"foot": 6, "horse": 12, "wheeled": 6, "leader": 12},
    )


def _smooth_field(rng: random.Random, width: int, height: int, step: int) -> list[float]:
    """Random values on a coarse lattice every ``step`` cells, interpolated bilinearly."""
    cols, rows = width // step + 2, height // step + 2
    lattice = [[rng.random() for _ in range(cols)] for _ in range(rows)]
    out = []
    for row in range(height):
        gy, fy = divmod(row, step)
        ty = fy / step
        for col in range(width):
            gx, fx = divmod(col, step)
            tx = fx / step
            top = lattice[gy][gx] * (1 - tx) + lattice[gy][gx + 1] * tx
            bottom = lattice[gy + 1][gx] * (1 - tx) + lattice[gy + 1][gx + 1] * tx
            out.append(top * (1 - ty) + bottom * ty)
    return out


def _scaled(values: list[float], top: int) -> list[int]:
    lo, hi = min(values), max(values)
    if hi - lo < 1e-12:
        return [0] * len(values)
    return [round(top * (v - lo) / (hi - lo)) for v in values]


def random_map(
    seed: int,
    width: int,
    height: int,
    *,
    kind: Literal["hex", "square"] = "hex",
    orientation: Literal["flat", "pointy"] = "flat",
    parity: Literal["odd", "even"] = "odd",
    neighbours: Literal[4, 8] = 4,
    sheets: tuple[int, int] = (1, 1),
    max_elevation: int = 5,
    woods: float = 0.3,
    towns: int | None = None,
) -> GameMap:
    """A board of ``sheets`` (columns x rows of sheets), each ``width`` x ``height`` cells."""
    rng = random.Random(seed)
    grid = make_grid(kind, width * sheets[0], height * sheets[1], orientation, parity, neighbours)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    layout = [
        (letters[r * sheets[0] + c], c, r) for r in range(sheets[1]) for c in range(sheets[0])
    ]
    board = Board.build(grid, layout, width, height)
    w, h = grid.width, grid.height
    big = _smooth_field(rng, w, h, max(2, min(w, h) // 3))
    small = _smooth_field(rng, w, h, max(2, min(w, h) // 8))
    elevation = _scaled([b + 0.4 * s for b, s in zip(big, small, strict=True)], max_elevation)
    cover = _smooth_field(rng, w, h, 3)
    cut = sorted(cover)[int(len(cover) * (1 - woods))] if woods > 0 else 2.0
    terrain = ["woods" if c >= cut else "clear" for c in cover]
    for _ in range(towns if towns is not None else max(1, grid.size // 500)):
        at = rng.randrange(grid.size)
        terrain[at] = "town"
        for n in grid.neighbour_indices(at)[: rng.randrange(4)]:
            terrain[n] = "town"
    return GameMap(board, bench_ruleset(), terrain, elevation)


def random_forces(
    game_map: GameMap,
    seed: int,
    per_side: int,
    *,
    sides: Sequence[str] = ("blue", "red"),
    leaders: float = 0.08,
    wagons: float = 0.02,
    stack: int = 3,
) -> list[Presence]:
    """``per_side`` units for each side: mostly combat units, some leaders and a few wagons.

    Each side deploys in a band of columns of its own (about 60% of the board's width, the bands
    of neighbouring sides overlapping), at most ``stack`` units to a cell.
    """
    rng = random.Random(seed)
    grid = game_map.grid
    out: list[Presence] = []
    count: dict[int, int] = {}
    span = max(1, int(grid.width * 0.6))
    for s, side in enumerate(sides):
        first = 0 if len(sides) == 1 else round(s * (grid.width - span) / (len(sides) - 1))
        for u in range(per_side):
            for _ in range(1000):
                col = first + rng.randrange(span)
                row = rng.randrange(grid.height)
                cell = row * grid.width + min(col, grid.width - 1)
                if count.get(cell, 0) < stack:
                    break
            count[cell] = count.get(cell, 0) + 1
            roll = rng.random()
            if roll < leaders:
                combat, observer = False, True
            elif roll < leaders + wagons:
                combat, observer = False, False
            else:
                combat, observer = True, True
            out.append(Presence(f"{side}-{u}", side, cell, combat, observer))
    return out


def bench_map(seed: int = 1) -> GameMap:
    """The benchmark board: 2 x 2 sheets of 34 x 22 hexes (68 x 44), elevation 0-5, about 30%
    woods and some towns."""
    return random_map(seed, 34, 22, sheets=(2, 2), max_elevation=5, woods=0.3, towns=8)


def as_units(grid: HexGrid | SquareGrid, presences: Sequence[Presence]) -> dict[str, Unit]:
    """The presences as the game's unit records, by id: a combat unit is infantry, an observer
    that does not fight a leader, a unit that neither fights nor observes a wagon."""
    out: dict[str, Unit] = {}
    for p in presences:
        kind = (UnitKind.INFANTRY if p.combat else UnitKind.LEADER if p.observer
                else UnitKind.WAGON)
        out[p.unit_id] = Unit(
            id=p.unit_id, side=p.side, name=p.unit_id, short=p.unit_id, kind=kind,
            echelon=Echelon.BRIGADE, command="", strength=4 if p.combat else 0,
            movement_class=MovementClass.LEADER if kind == UnitKind.LEADER else MovementClass.FOOT,
            movement=6, formation=FORMATIONS_BY_KIND[kind][0], location=OnMap(grid.cell(p.cell)))
    return out
