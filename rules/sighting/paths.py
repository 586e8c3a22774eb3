"""The ``clear_path`` sighting rule of the Chancellorsville variant (rule text 002): a unit is
sighted according to the cover of the cell it stands in, by paths of cells clear of woods and
hills (the reasons are in ``docs/rulings.md``, rulings CV-1 to CV-9).

* A unit in a **woods** cell is sighted only by an enemy observer next to it.
* A unit on a **road in the woods** (a cell that carries a road, is not woods itself, and is
  bordered by at least four woods cells: on hexes its six neighbours, on a square grid the eight
  squares round it, whatever steps the grid moves by) is sighted by an observer next to it, or
  two cells away when some cell between them, next to both, is neither woods nor hill.
* A unit in any **other** cell is sighted when some shortest path (a chain of adjacent cells as
  long as the grid distance) from the observer to it passes only cells that are neither woods nor
  hill. One clear path among several of the same length is enough.
* The two end cells never block: the observer's own cell does not, and the target's cell only
  decides which of the three cases applies. Only cells on a sheet of the board carry a path, and
  only they are sighted (nothing stands anywhere else). Elevation plays no part.
* Range is the turn's visibility, counted in cells: a visibility of 0 sees nothing (ruling
  LOS-7), 1 sees only the cells next door, and no case reaches beyond it.

The rule is not symmetric: a unit in the woods sees out along clear paths but is seen only from
next door. It answers from tables precomputed for every cell (``build_paths``), one int bitset a
cell (bit ``i`` is cell index ``i``), as ``rules.sighting.los`` does.
"""

from __future__ import annotations

from enum import Enum

from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell, HexGrid, SquareGrid
from rules.sighting.disks import BoardMasks, col_row_delta, disk, distance, parities
from rules.sighting.geometry import Rel
from rules.sighting.tabled import TabledRule
from rules.sighting.tables import _transpose

#: Woods cells a road cell needs among the cells bordering it to be a road in the woods.
WOODS_ROAD_NEIGHBOURS = 4
#: The squares round a square: its four sides and its four corners.
_SQUARES_ROUND = tuple((dc, dr) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dc or dr)


class Cover(Enum):
    """What the cell a target stands in makes of it for this rule."""

    WOODS = "woods"
    WOODS_ROAD = "road in the woods"
    OPEN = "open"


def bordering(grid: HexGrid | SquareGrid, cell: Cell) -> tuple[Cell, ...]:
    """The cells on the board that border a cell (ruling CV-3): a hex's six neighbours; the eight
    squares round a square, its corners included, even on a grid that moves by four steps."""
    if isinstance(grid, HexGrid):
        return grid.neighbours(cell)
    # A road cut through the woods on a 4-neighbour grid has road squares on two of its sides;
    # counting the sides alone, it could never be hemmed in by woods.
    around = (Cell(cell.col + dc, cell.row + dr) for dc, dr in _SQUARES_ROUND)
    return tuple(n for n in around if grid.contains(n))


def cover_of(game_map: GameMap, index: int) -> Cover:
    """The cover of a cell (by index): woods; a road cell, not woods, bordered by four or more
    woods cells (``bordering``); or open (everything else, hills included)."""
    grid = game_map.grid
    cell = grid.cell(index)
    if game_map.is_woods(cell):
        return Cover.WOODS
    if game_map.has_road(cell):
        woods = sum(
            1 for n in bordering(grid, cell)
            if game_map.board.on_a_sheet(n) and game_map.is_woods(n)
        )
        if woods >= WOODS_ROAD_NEIGHBOURS:
            return Cover.WOODS_ROAD
    return Cover.OPEN


def passable(game_map: GameMap, index: int) -> bool:
    """Whether a path may run through a cell: on a sheet, and neither woods nor hill."""
    cell = game_map.grid.cell(index)
    return (game_map.board.on_a_sheet(cell)
            and not game_map.is_woods(cell) and not game_map.is_hill(cell))


def _steps(grid: HexGrid | SquareGrid) -> tuple[Rel, ...]:
    """The relative positions of a cell's neighbours."""
    return tuple(rel for rel in disk(grid, 1) if distance(grid, rel) == 1)


def build_paths(game_map: GameMap, rng: int) -> list[int]:
    """For every cell, the bitset of cells in which the rule sees a unit from it at distances up
    to ``rng`` (at least 1).

    The work runs over all observers at once, one relative position at a time and one parity
    class of offset coordinates at a time: ``reach[rel]`` is the bitset of observers that have a
    shortest path to the cell at ``rel`` whose inner cells are all passable. A cell at distance
    ``d + 1`` is reached through a neighbour at distance ``d`` that is reached and passable
    itself (the observer's own cell always passes), so each ring of relative positions follows
    from the one before with a few shifts of whole-board bitsets. The cover of the target then
    bounds the distance (woods 1, a road in the woods 2), and the bitsets by relative position
    are transposed into bitsets by observer.
    """
    grid = game_map.grid
    width = grid.width
    n = grid.size
    rng = max(1, rng)
    board = game_map.board
    on_sheet = clear = woods_road = open_ = 0
    for i in range(n):
        bit = 1 << i
        if not board.on_a_sheet(grid.cell(i)):
            continue
        on_sheet |= bit
        if passable(game_map, i):
            clear |= bit
        cover = cover_of(game_map, i)
        if cover is Cover.WOODS_ROAD:
            woods_road |= bit
        elif cover is Cover.OPEN:
            open_ |= bit
    # Targets each distance may show: anything next door, a road in the woods up to two cells.
    allowed = {0: on_sheet, 1: on_sheet, 2: open_ | woods_road}

    classes = parities(grid)
    masks = BoardMasks(grid)
    par_mask, rect = masks.parity, masks.inside

    rings: dict[int, list[Rel]] = {}
    for rel in disk(grid, rng):
        rings.setdefault(distance(grid, rel), []).append(rel)
    steps = _steps(grid)
    delta = {(p, r): col_row_delta(grid, p, r) for p in classes for r in disk(grid, rng)}
    shift0 = max(abs(dr * width + dc) for dc, dr in delta.values())
    window = [0] * (2 * shift0 + 1)
    window[shift0] = on_sheet  # every cell on a sheet sees itself
    for p in classes:
        # Observers (of this parity class) whose path may go on from the cell at each position
        # of the last ring; the observer's own cell always lets it through.
        through: dict[Rel, int] = {rings[0][0]: par_mask[p]}
        for d in range(1, rng + 1):
            targets = allowed.get(d, open_)
            nxt: dict[Rel, int] = {}
            for rel in rings.get(d, ()):
                dc, dr = delta[(p, rel)]
                inside = rect(dc, dr)
                reach = 0
                for st in steps:
                    reach |= through.get(tuple(a - b for a, b in zip(rel, st, strict=True)), 0)
                reach &= inside
                if not reach:
                    continue
                off = dr * width + dc
                window[shift0 + off] |= reach & _down(targets, off)
                go_on = reach & _down(clear, off)
                if go_on:
                    nxt[rel] = go_on
            if not nxt:
                break
            through = nxt
    return _transpose(window, shift0, n)


def _down(bits: int, off: int) -> int:
    """Bit ``o`` set when bit ``o + off`` of ``bits`` is: the cells ``off`` ahead, brought back
    to the observers they lie ahead of."""
    return bits >> off if off >= 0 else bits << -off


class ClearPath(TabledRule):
    """The Chancellorsville sighting rule (stated at the top of this module) on a hex or square
    grid.

    Tables are built on first use for the largest visibility asked for so far (at least the
    ruleset's clear-weather visibility), or at once by ``prepare``; shorter visibilities reuse
    them, masked to the cells within range.
    """

    name = "clear_path"

    def build(self, game_map: GameMap, rng: int) -> list[int]:
        return build_paths(game_map, rng)
