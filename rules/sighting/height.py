"""The height test: whether what stands in a cell blocks a sight line passing it, and whether a
whole line between two cells is clear.

A line runs between the ground levels (elevations) of its two end cells; its height at a cell
between them is interpolated straight between the two ends. Bare ground blocks when it stands
strictly above the line; an obstacle (terrain with a line-of-sight height, such as woods or a
town) blocks when its top reaches the line or stands above it. A pair of cells that the line
passes between (along their shared side, or through a square's corner) blocks only when both do.
What stands in the two end cells never blocks, and cells next to each other always see each other.
The reasons are in ``docs/rulings.md``, section "Line of sight".
"""

from __future__ import annotations

from fractions import Fraction

from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell
from rules.sighting.geometry import sight_line


def blocks(height: int, obstacle: bool, eye: int, target: int, t: Fraction) -> bool:
    """Whether a cell of line-of-sight ``height`` blocks a line from ground level ``eye`` to
    ground level ``target`` at position ``t`` along it. Bare ground must stand above the line;
    an obstacle's top need only reach it."""
    line = eye + t * (target - eye)
    return height > line or (obstacle and height == line)


def is_obstacle(game_map: GameMap, index: int) -> bool:
    """A cell whose terrain stands up in the way of sight (woods, a town)."""
    return game_map.ruleset.terrain[game_map.terrain[index]].los_height > 0


def clear_line(game_map: GameMap, a: int, b: int) -> bool:
    """Whether nothing on the map blocks the line from cell index ``a`` to ``b``, whatever the
    distance (the visibility limit is applied by the sighting rule). Adjacent cells are clear.
    (The map never changes: each line is worked out once, for the orders and for every unit
    the side's offers ask about at each phase's start.)"""
    memo = _CLEAR.get(id(game_map))
    if memo is None or memo[0] is not game_map:
        if len(_CLEAR) >= _MAPS_KEPT:
            _CLEAR.clear()
        memo = _CLEAR[id(game_map)] = (game_map, {})
    lines = memo[1]
    found = lines.get((a, b))
    if found is None:
        if len(lines) >= _LINES_KEPT:
            lines.clear()
        found = lines[a, b] = _clear_line(game_map, a, b)
    return found


#: ``clear_line`` by map (kept alive beside its lines, so an id is never another's) and line.
_CLEAR: dict[int, tuple[GameMap, dict[tuple[int, int], bool]]] = {}
_MAPS_KEPT = 8
_LINES_KEPT = 20_000


def _clear_line(game_map: GameMap, a: int, b: int) -> bool:
    grid = game_map.grid
    ca, cb = grid.cell(a), grid.cell(b)
    if a == b or grid.adjacent(ca, cb):
        return True
    line = sight_line(grid, ca, cb)
    eye, target = game_map.elevation[a], game_map.elevation[b]

    def blocking(cell: Cell, t: Fraction) -> bool:
        if not grid.contains(cell):
            return False  # beyond the board's edge there is nothing to block
        i = grid.index(cell)
        return blocks(game_map.los_height(i), is_obstacle(game_map, i), eye, target, t)

    if any(blocking(c, t) for c, t in line.crossed):
        return False
    return not any(blocking(c1, t) and blocking(c2, t) for c1, c2, t in line.sides)
