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
* The rule has no range of its own: a clear path is followed as far as it runs (ruling CV-6).
  A turn may limit it for a night or weather (``clear_path_limit``, counted in cells): 0 sees
  nothing (ruling LOS-7), 1 sees only the cells next door, and no case reaches beyond it.

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

    steps = _steps(grid)
    # Offsets (row * width + column) of the cells seen, by offset: only the positions some path
    # reaches are ever worked out, so open ground, not the range, sets the cost (ruling CV-6).
    seen: dict[int, int] = {0: on_sheet}  # every cell on a sheet sees itself
    origin = disk(grid, 0)[0]
    for p in classes:
        # Observers (of this parity class) whose path may go on from the cell at each position
        # of the last ring; the observer's own cell always lets it through.
        through: dict[Rel, int] = {origin: par_mask[p]}
        for d in range(1, rng + 1):
            targets = allowed.get(d, open_)
            ahead: dict[Rel, int] = {}
            for rel, bits in through.items():
                for st in steps:
                    nxt_rel = tuple(a + b for a, b in zip(rel, st, strict=True))
                    if distance(grid, nxt_rel) == d:
                        ahead[nxt_rel] = ahead.get(nxt_rel, 0) | bits
            nxt: dict[Rel, int] = {}
            for rel, bits in ahead.items():
                dc, dr = col_row_delta(grid, p, rel)
                reach = bits & rect(dc, dr)
                if not reach:
                    continue
                off = dr * width + dc
                seen[off] = seen.get(off, 0) | (reach & _down(targets, off))
                go_on = reach & _down(clear, off)
                if go_on:
                    nxt[rel] = go_on
            if not nxt:
                break
            through = nxt
    low, high = min(seen), max(seen)
    window = [seen.get(off, 0) for off in range(low, high + 1)]
    return _transpose(window, -low, n)


def _down(bits: int, off: int) -> int:
    """Bit ``o`` set when bit ``o + off`` of ``bits`` is: the cells ``off`` ahead, brought back
    to the observers they lie ahead of."""
    return bits >> off if off >= 0 else bits << -off


class ClearPath(TabledRule):
    """The Chancellorsville sighting rule (stated at the top of this module) on a hex or square
    grid.

    Tables are built on first use, or at once by ``prepare``, as far as the paths run (no two
    cells of the board lie farther apart) unless ``max_range`` asks for less; a turn's limit
    reuses them, masked to the cells within range. The build follows each path only while it
    stays clear, so open ground, not the board's size, sets its cost.
    """

    name = "clear_path"

    def __init__(self, game_map: GameMap, max_range: int | None = None) -> None:
        # No range of its own (ruling CV-6): the ruleset's visibility does not bound it.
        span = game_map.grid.width + game_map.grid.height
        super().__init__(game_map, span if max_range is None else max_range)

    def build(self, game_map: GameMap, rng: int) -> list[int]:
        return build_paths(game_map, rng)
