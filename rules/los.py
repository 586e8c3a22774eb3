"""Line of sight on hex and square grids, and the sighting rules a scenario can choose from.

The line-of-sight rule (the reasons are in ``docs/rulings.md``, section "Line of sight"):

* Sight runs in a straight line from the centre of the observer's cell to the centre of the
  target's cell. Both ends stand at ground level: the elevation of their cells. What grows in the
  observer's or the target's own cell never blocks.
* Every other cell the line passes through is judged at one point: where the line's path across
  the cell comes closest to the cell's centre. The line's height there is interpolated straight
  between the two ends. Bare ground blocks when it stands strictly above the line; an obstacle
  (terrain with a line-of-sight height, such as woods or a town) blocks when its top reaches the
  line or stands above it. So woods between two clear cells on level ground block, a ridge blocks,
  and woods well below both ends do not.
* A line running exactly along the side shared by two cells (a hexspine) is blocked there only
  when both of those cells block. On a square grid, a line passing exactly through a corner is
  blocked there only when both cells that meet the line at that corner alone block. A hex that the
  line touches at one corner only never blocks (the line passes through the other two hexes at
  that corner, which are judged in full).
* Cells next to each other always see each other. Otherwise the target must be within the turn's
  visibility, counted in cells (hex distance); a visibility of 0 leaves only adjacent cells.

Line of sight is symmetric: whoever can see a cell can be seen from it.

Geometry is exact. Hex cells are worked in cube coordinates, where a hex is the set of points
whose three pairwise coordinate differences from its centre all lie within 1; square cells are
worked in doubled coordinates. Whether a line runs along a side or through a corner is therefore
decided with integers, never with rounding.

The fast rule, ``LineOfSight``, precomputes for every cell the set of cells it can see up to the
largest visibility asked for, as one integer bitset a cell (bit ``i`` is cell index ``i``). It
works out one relative sight line at a time for all observers at once with big-integer shifts,
and uses the symmetry of sight to do only half of the relative lines.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Protocol

from rules.gamemap import GameMap
from rules.grid import Cell, Cube, HexGrid, SquareGrid, cube_round

#: A cell relative to the observer's: a cube offset ``(q, r, s)`` on hex grids, ``(dx, dy)`` on
#: square grids.
Rel = tuple[int, ...]

_HEX_STEPS: tuple[Rel, ...] = (
    (1, 0, -1), (1, -1, 0), (0, -1, 1), (-1, 0, 1), (-1, 1, 0), (0, 1, -1),
)
_SQUARE_STEPS: tuple[Rel, ...] = (
    (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1),
)


# -- the shape of a sight line ------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class LineShape:
    """The cells a sight line meets between its two end cells, relative to the observer's cell.

    ``crossed``: cells the line passes through, each with the position along the line (0 at the
    observer, 1 at the target) where the cell is judged. ``sides``: pairs of cells that the line
    passes between, along their shared side (hex) or through a corner (square), with the position
    where the pair is judged; such a pair blocks only when both cells block. ``grazed``: hexes the
    line touches at one corner only; they never block.
    """

    offset: Rel
    crossed: tuple[tuple[Rel, Fraction], ...]
    sides: tuple[tuple[Rel, Rel, Fraction], ...]
    grazed: tuple[Rel, ...]


def _lcm(values: Iterable[int]) -> int:
    out = 1
    for v in values:
        if v:
            out = out * abs(v) // math.gcd(out, abs(v))
    return out


def _hex_constraints(offset: Rel, cell: Rel) -> tuple[tuple[int, int], ...]:
    # A hex is the set of points whose pairwise cube differences from its centre are within 1.
    # Along the line P(t) = t * offset the difference is t*A - B for each pair of axes.
    dq, dr, ds = offset
    cq, cr, cs = cell
    return ((dq - dr, cq - cr), (dr - ds, cr - cs), (ds - dq, cs - cq))


def _square_constraints(offset: Rel, cell: Rel) -> tuple[tuple[int, int], ...]:
    # A square spans half a cell either side of its centre; doubled, |2t*d - 2c| <= 1.
    return ((2 * offset[0], 2 * cell[0]), (2 * offset[1], 2 * cell[1]))


def _hex_dot(a: Rel, b: Rel) -> int:
    # Euclidean dot product in the plane q + r + s = 0: a similarity of the true hex layout.
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _square_dot(a: Rel, b: Rel) -> int:
    return a[0] * b[0] + a[1] * b[1]


def _shape(
    offset: Rel,
    candidates: Iterable[Rel],
    constraints: Callable[[Rel, Rel], tuple[tuple[int, int], ...]],
    dot: Callable[[Rel, Rel], int],
    grazes_pair: bool,
) -> LineShape:
    """Classify exactly how the segment from the origin to ``offset`` meets each candidate cell.

    Each cell is an intersection of slabs ``|t*A - B| <= 1``. Positions along the line are
    scaled by a common multiple ``scale`` of every nonzero ``A`` so that all interval ends are
    integers and ties (a corner, a side) are exact.
    """
    zero = tuple(0 for _ in offset)
    first = constraints(offset, zero)
    scale = _lcm(a for a, _ in first)
    norm = dot(offset, offset)
    crossed: list[tuple[Rel, Fraction]] = []
    on_side: dict[tuple[int, int], list[tuple[Rel, Fraction]]] = {}
    at_corner: dict[int, list[Rel]] = {}
    grazed: list[Rel] = []
    for cell in candidates:
        if cell in (zero, offset):
            continue
        lo, hi = 0, scale
        boundary = False
        for a, b in constraints(offset, cell):
            if a == 0:
                if abs(b) > 1:
                    lo, hi = 1, 0
                    break
                boundary = boundary or abs(b) == 1
                continue
            k = scale // a
            e1, e2 = (b - 1) * k, (b + 1) * k
            if e1 > e2:
                e1, e2 = e2, e1
            lo, hi = max(lo, e1), min(hi, e2)
        if lo > hi:
            continue
        if lo == hi:
            if grazes_pair:
                at_corner.setdefault(lo, []).append(cell)
            else:
                grazed.append(cell)
            continue
        # Judge the cell where its stretch of line comes closest to its centre.
        t = Fraction(dot(offset, cell), norm)
        t = min(max(t, Fraction(lo, scale)), Fraction(hi, scale))
        if boundary:
            on_side.setdefault((lo, hi), []).append((cell, t))
        else:
            crossed.append((cell, t))
    sides: list[tuple[Rel, Rel, Fraction]] = []
    for (_, _), pair in sorted(on_side.items()):
        if len(pair) != 2 or pair[0][1] != pair[1][1]:
            raise AssertionError(f"a side of line {offset} is not shared by two cells: {pair}")
        sides.append((pair[0][0], pair[1][0], pair[0][1]))
    for pos, cells in sorted(at_corner.items()):
        if len(cells) != 2:
            raise AssertionError(f"a corner of line {offset} is not met by two cells: {cells}")
        sides.append((cells[0], cells[1], Fraction(pos, scale)))
    crossed.sort(key=lambda ct: (ct[1], ct[0]))
    sides.sort(key=lambda s: (s[2], s[0]))
    return LineShape(offset, tuple(crossed), tuple(sides), tuple(sorted(grazed)))


def _cube_round(fq: float, fr: float) -> Rel:
    return tuple(cube_round(fq, fr, -fq - fr))


def _candidates(offset: Rel, steps: tuple[Rel, ...], rounder: Callable[[float], Rel]) -> set[Rel]:
    # Every cell the segment touches is within one step of the cell holding a sample point
    # taken every quarter of a cell along it, so these samples and their neighbours cover it.
    n = max(1, 4 * max(abs(x) for x in offset))
    bases = {rounder(i / n) for i in range(n + 1)}
    out = set(bases)
    for base in bases:
        for st in steps:
            out.add(tuple([b + d for b, d in zip(base, st, strict=True)]))
    return out


@cache
def hex_line(offset: Rel) -> LineShape:
    """The shape of the sight line from a hex to the hex at cube ``offset`` from it."""
    dq, dr, _ = offset
    return _shape(
        offset,
        _candidates(offset, _HEX_STEPS, lambda t: _cube_round(dq * t, dr * t)),
        _hex_constraints, _hex_dot, grazes_pair=False,
    )


@cache
def square_line(offset: Rel) -> LineShape:
    """The shape of the sight line from a square to the square ``(dx, dy)`` from it."""
    dx, dy = offset
    return _shape(
        offset,
        _candidates(offset, _SQUARE_STEPS,
                    lambda t: (math.floor(dx * t + 0.5), math.floor(dy * t + 0.5))),
        _square_constraints, _square_dot, grazes_pair=True,
    )


# -- absolute sight lines -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SightLine:
    """The cells a sight line from ``start`` to ``end`` meets, as board cells (``LineShape``
    placed on the board). Cells of ``sides`` may lie off the board at its edges."""

    start: Cell
    end: Cell
    crossed: tuple[tuple[Cell, Fraction], ...]
    sides: tuple[tuple[Cell, Cell, Fraction], ...]
    grazed: tuple[Cell, ...]

    def cells(self) -> frozenset[Cell]:
        """Every cell the line touches, the two ends included."""
        out = {self.start, self.end, *self.grazed}
        out.update(c for c, _ in self.crossed)
        for a, b, _ in self.sides:
            out.update((a, b))
        return frozenset(out)


def relative(grid: HexGrid | SquareGrid, a: Cell, b: Cell) -> Rel:
    """Where ``b`` lies relative to ``a``: a cube offset on hex grids, ``(dx, dy)`` on squares."""
    if isinstance(grid, HexGrid):
        ca, cb = grid.to_cube(a), grid.to_cube(b)
        return (cb.q - ca.q, cb.r - ca.r, cb.s - ca.s)
    return (b.col - a.col, b.row - a.row)


def place(grid: HexGrid | SquareGrid, a: Cell, rel: Rel) -> Cell:
    """The cell at relative position ``rel`` from ``a`` (it may lie off the board)."""
    if isinstance(grid, HexGrid):
        c = grid.to_cube(a)
        return grid.from_cube(Cube(c.q + rel[0], c.r + rel[1], c.s + rel[2]))
    return Cell(a.col + rel[0], a.row + rel[1])


def line_shape(grid: HexGrid | SquareGrid, rel: Rel) -> LineShape:
    """The shape of the sight line to relative position ``rel`` on this kind of grid."""
    return hex_line(rel) if isinstance(grid, HexGrid) else square_line(rel)


def sight_line(grid: HexGrid | SquareGrid, a: Cell, b: Cell) -> SightLine:
    """The cells the straight line from the centre of ``a`` to the centre of ``b`` meets."""
    shape = line_shape(grid, relative(grid, a, b))
    return SightLine(
        a, b,
        tuple((place(grid, a, c), t) for c, t in shape.crossed),
        tuple((place(grid, a, c1), place(grid, a, c2), t) for c1, c2, t in shape.sides),
        tuple(place(grid, a, c) for c in shape.grazed),
    )


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
    distance (the visibility limit is applied by the sighting rule). Adjacent cells are clear."""
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


# -- bitsets of cells within a distance ---------------------------------------------------------

def _parity(grid: HexGrid | SquareGrid, cell: Cell) -> int:
    """Cells of one parity class share the offsets of every relative position (offset hex
    coordinates shift every other column or row)."""
    if isinstance(grid, HexGrid):
        return (cell.col if grid.orientation == "flat" else cell.row) & 1
    return 0


def _representative(grid: HexGrid | SquareGrid, parity: int) -> Cell:
    if isinstance(grid, HexGrid) and grid.orientation == "pointy":
        return Cell(0, parity)
    return Cell(parity, 0)


def _parities(grid: HexGrid | SquareGrid) -> tuple[int, ...]:
    return (0, 1) if isinstance(grid, HexGrid) else (0,)


def _disk(grid: HexGrid | SquareGrid, radius: int) -> list[Rel]:
    """Relative positions at or within ``radius`` (grid distance) of a cell."""
    out: list[Rel] = []
    if isinstance(grid, HexGrid):
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                out.append((dq, dr, -dq - dr))
    else:
        for dx in range(-radius, radius + 1):
            for dy in range(-radius, radius + 1):
                if grid.neighbour_count == 8 or abs(dx) + abs(dy) <= radius:
                    out.append((dx, dy))
    return out


def _distance(grid: HexGrid | SquareGrid, rel: Rel) -> int:
    if isinstance(grid, HexGrid):
        return max(abs(x) for x in rel)
    if grid.neighbour_count == 8:
        return max(abs(rel[0]), abs(rel[1]))
    return abs(rel[0]) + abs(rel[1])


def _col_row_delta(grid: HexGrid | SquareGrid, parity: int, rel: Rel) -> tuple[int, int]:
    rep = _representative(grid, parity)
    c = place(grid, rep, rel)
    return (c.col - rep.col, c.row - rep.row)


class CellDisks:
    """Bitsets of the cells within a distance of each cell, built on demand and kept."""

    def __init__(self, grid: HexGrid | SquareGrid) -> None:
        self.grid = grid
        self._runs: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
        self._masks: dict[int, list[int]] = {}

    def _runs_for(self, parity: int, radius: int) -> list[tuple[int, int, int]]:
        # The disk as runs of consecutive columns within each row: (row delta, first, last).
        key = (parity, radius)
        if key not in self._runs:
            by_row: dict[int, list[int]] = {}
            for rel in _disk(self.grid, radius):
                dc, dr = _col_row_delta(self.grid, parity, rel)
                by_row.setdefault(dr, []).append(dc)
            runs: list[tuple[int, int, int]] = []
            for dr, cols in sorted(by_row.items()):
                cols.sort()
                start = prev = cols[0]
                for c in cols[1:]:
                    if c != prev + 1:
                        runs.append((dr, start, prev))
                        start = c
                    prev = c
                runs.append((dr, start, prev))
            self._runs[key] = runs
        return self._runs[key]

    def mask(self, index: int, radius: int) -> int:
        """Cells at or within ``radius`` of cell ``index`` (radius below 0 counts as 0)."""
        radius = max(0, radius)
        masks = self._masks.get(radius)
        if masks is None:
            masks = self._masks[radius] = [-1] * self.grid.size
        m = masks[index]
        if m >= 0:
            return m
        grid = self.grid
        width, height = grid.width, grid.height
        cell = grid.cell(index)
        m = 0
        for dr, c0, c1 in self._runs_for(_parity(grid, cell), radius):
            row = cell.row + dr
            if 0 <= row < height:
                lo, hi = max(0, cell.col + c0), min(width - 1, cell.col + c1)
                if lo <= hi:
                    m |= ((1 << (hi - lo + 1)) - 1) << (row * width + lo)
        masks[index] = m
        return m


# -- sighting rules -----------------------------------------------------------------------------

class SightingRule(Protocol):
    """How a scenario decides who sees whom. Cells are board indices; a set of cells is an int
    bitset (bit ``i`` set for cell index ``i``).

    ``visible_from(cell, visibility)`` is the set of cells in which a unit would be seen by an
    observer in ``cell``, and ``sees`` tests one of them. The sighting pass only asks these two
    questions, so a rule need not be symmetric.
    """

    @property
    def name(self) -> str: ...

    @property
    def game_map(self) -> GameMap: ...

    def sees(self, observer: int, target: int, visibility: int) -> bool: ...

    def visible_from(self, observer: int, visibility: int) -> int: ...


class LineOfSight:
    """Straight-line sight with elevation, blocking terrain and a visibility limit (the rule
    stated at the top of this module), on a hex or square grid.

    Tables are built on first use for the largest visibility asked for so far (at least the
    ruleset's clear-weather visibility), or at once by ``prepare``. Shorter visibilities reuse
    them: whether a line is blocked does not depend on how far visibility reaches.
    """

    name = "los"

    def __init__(self, game_map: GameMap, max_range: int | None = None) -> None:
        self._map = game_map
        self.grid = game_map.grid
        self._want = max(1, max_range if max_range is not None else game_map.ruleset.visibility)
        # No two cells are farther apart than this, so a longer visibility sees no more.
        self._cap = self.grid.width + self.grid.height
        self._built = 0
        self._visible: list[int] = []
        self._limited: dict[int, list[int]] = {}
        self.disks = CellDisks(self.grid)

    @property
    def game_map(self) -> GameMap:
        return self._map

    @property
    def built_range(self) -> int:
        """The visibility the tables cover (0 before they are built)."""
        return self._built

    def prepare(self, max_range: int | None = None) -> None:
        """Build the tables now, for visibilities up to ``max_range`` at least."""
        want = max(self._want, max_range or 0)
        rng = min(want, self._cap)
        if self._built >= rng:
            return
        self._visible = _build_visibility(self._map, rng)
        self._built = rng
        self._want = want
        self._limited.clear()

    def visible_from(self, observer: int, visibility: int) -> int:
        """Cells that an observer in cell ``observer`` sees under ``visibility``: its own cell,
        the adjacent cells, and the cells within range to which the line is clear."""
        if visibility <= 1:
            return self.disks.mask(observer, 1)
        if visibility > self._built and self._built < self._cap:
            self.prepare(visibility)
        if visibility >= self._built:
            return self._visible[observer]
        cache = self._limited.get(visibility)
        if cache is None:
            cache = self._limited[visibility] = [-1] * self.grid.size
        out = cache[observer]
        if out < 0:
            out = cache[observer] = (
                self._visible[observer] & self.disks.mask(observer, visibility)
            )
        return out

    def sees(self, observer: int, target: int, visibility: int) -> bool:
        """Whether an observer in cell ``observer`` sees cell ``target`` under ``visibility``."""
        return bool(self.visible_from(observer, visibility) >> target & 1)


#: Sighting rules by the name a scenario gives, each built from the game map.
SIGHTING_RULES: dict[str, Callable[[GameMap], SightingRule]] = {"los": LineOfSight}


# -- building the tables ------------------------------------------------------------------------

def _build_visibility(game_map: GameMap, rng: int) -> list[int]:
    """For every cell, the bitset of cells it sees at distances up to ``rng``.

    For each relative position ``rel`` (and each parity class of offset coordinates) a bitset
    over observers is worked out at once: ``visible[rel]`` holds the observers whose line to the
    cell at ``rel`` is clear. A crossed cell at ``(c, t)`` blocks observer ``o`` when the cell
    ``o + c`` blocks at the interpolated height between the elevations of ``o`` and ``o + rel``;
    the observers are grouped by their own and their target's elevation, so that the height is
    the same across a group and the blocking cells are one precomputed bitset, shifted. Sight is
    symmetric, so ``visible[-rel]`` is ``visible[rel]`` moved to the targets. Finally the
    per-position bitsets are transposed into per-cell bitsets.
    """
    grid = game_map.grid
    width, height = grid.width, grid.height
    n = grid.size
    board = (1 << n) - 1
    parities = _parities(grid)

    # Masks of the board by parity class, and ranges of columns and rows.
    par_mask = [0] * len(parities)
    for i in range(n):
        par_mask[_parity(grid, grid.cell(i))] |= 1 << i
    col_prefix = [0] * (width + 1)
    column = sum(1 << (r * width) for r in range(height))
    for c in range(width):
        col_prefix[c + 1] = col_prefix[c] | (column << c)

    def rect(dc: int, dr: int) -> int:
        """Cells ``o`` for which ``o + (dc, dr)`` is on the board."""
        c0, c1 = max(0, -dc), min(width - 1, width - 1 - dc)
        r0, r1 = max(0, -dr), min(height - 1, height - 1 - dr)
        if c0 > c1 or r0 > r1:
            return 0
        cols = col_prefix[c1 + 1] ^ col_prefix[c0]
        rows = ((1 << ((r1 + 1) * width)) - 1) ^ ((1 << (r0 * width)) - 1)
        return cols & rows

    # Heights: elevation of the ends, line-of-sight height and obstacles of what lies between.
    elev = game_map.elevation
    low, high = min(elev), max(elev)
    span = high - low
    los_h = [game_map.los_height(i) for i in range(n)]
    obstacle = [is_obstacle(game_map, i) for i in range(n)]
    at_elev = [0] * (span + 1)
    for i, e in enumerate(elev):
        at_elev[e - low] |= 1 << i
    # blocking[2k] : cells that block a line at height exactly low + k;
    # blocking[2k+1]: cells that block a line at a height strictly between low + k and low + k + 1.
    blocking = [0] * (2 * span + 2)
    for k in range(span + 1):
        level = low + k
        exact = strictly = 0
        for i in range(n):
            h = los_h[i]
            if h > level or (obstacle[i] and h == level):
                exact |= 1 << i
            if h > level:
                strictly |= 1 << i
        blocking[2 * k], blocking[2 * k + 1] = exact, strictly

    # Relative positions in range, their board offsets per parity class, and the window of
    # offsets that the per-cell transposition runs over.
    rels = [r for r in _disk(grid, rng) if _distance(grid, r) <= rng]
    delta = {(p, r): _col_row_delta(grid, p, r) for p in parities for r in rels}
    shift0 = max(abs(dr * width + dc) for dc, dr in delta.values())
    big = shift0 + 1  # every bitset below is pre-shifted up by ``big`` so all shifts go down
    blocking_up = [b << big for b in blocking]
    elev_up = [e << big for e in at_elev]
    window = [0] * (2 * shift0 + 1)

    window[shift0] = board  # every cell sees itself
    for rel in rels:
        dist = _distance(grid, rel)
        if dist == 0:
            continue
        neg = tuple(-x for x in rel)
        if dist > 1 and rel < neg:
            continue  # done with its mirror image
        for p in parities:
            dc, dr = delta[(p, rel)]
            if abs(dc) >= width or abs(dr) >= height:
                continue
            observers = par_mask[p] & rect(dc, dr)
            if not observers:
                continue
            off = dr * width + dc
            if dist == 1:
                seen = observers  # adjacent cells always see each other
            else:
                seen = _clear_observers(
                    grid, p, rel, observers, off, width, span, blocking_up, elev_up, at_elev,
                    big, rect,
                )
            window[shift0 + off] |= seen
            if dist > 1:
                window[shift0 - off] |= seen << off if off >= 0 else seen >> -off
    return _transpose(window, shift0, n)


def _clear_observers(
    grid: HexGrid | SquareGrid,
    parity: int,
    rel: Rel,
    observers: int,
    off: int,
    width: int,
    span: int,
    blocking_up: list[int],
    elev_up: list[int],
    at_elev: list[int],
    big: int,
    rect: Callable[[int, int], int],
) -> int:
    """Observers (of one parity class) whose line to the cell at ``rel`` from them is clear."""
    shape = line_shape(grid, rel)

    def keys(t: Fraction) -> tuple[int, ...]:
        return _height_keys(t, span)

    crossings = []
    for c, t in shape.crossed:
        dc, dr = _col_row_delta(grid, parity, c)
        crossings.append((big + dr * width + dc, keys(t)))
    pairs = []
    for c1, c2, t in shape.sides:
        dc1, dr1 = _col_row_delta(grid, parity, c1)
        dc2, dr2 = _col_row_delta(grid, parity, c2)
        # A cell beside the line may lie off the board, where nothing blocks.
        valid = rect(dc1, dr1) & rect(dc2, dr2)
        pairs.append((big + dr1 * width + dc1, big + dr2 * width + dc2, valid, keys(t)))

    targets_at = [(e >> (big + off)) & observers for e in elev_up]
    seen = 0
    for a, at_a in enumerate(at_elev):
        group_a = at_a & observers
        if not group_a:
            continue
        base = 2 * a
        for b, at_b in enumerate(targets_at):
            group = group_a & at_b
            if not group:
                continue
            d = b - a + span
            blocked = 0
            for sh, k in crossings:
                blocked |= blocking_up[base + k[d]] >> sh
            for sh1, sh2, valid, k in pairs:
                bits = blocking_up[base + k[d]]
                blocked |= (bits >> sh1) & (bits >> sh2) & valid
            seen |= group & ~blocked
    return seen


@lru_cache(maxsize=4096)
def _height_keys(t: Fraction, span: int) -> tuple[int, ...]:
    """For each elevation difference d (target minus observer, -span..span), which of the
    ``blocking`` bitsets judges a line at position t: the line's height there is observer + t*d,
    and the whole part of t*d and whether it has a fractional part pick the bitset."""
    out = []
    for d in range(-span, span + 1):
        whole, part = divmod(t.numerator * d, t.denominator)
        out.append(2 * whole + (1 if part else 0))
    return tuple(out)


def _transpose(window: list[int], shift0: int, n: int) -> list[int]:
    """Turn bitsets by relative offset (over observers) into bitsets by observer (over cells).

    Each window row becomes a string of '0'/'1' with character ``i`` for cell ``i``; slicing the
    columns of all rows together with ``zip`` transposes them in C, one block of cells at a time.
    """
    zeros = "0" * n
    rows = [format(w, f"0{n}b")[::-1] if w else zeros for w in window]
    out = [0] * n
    block = 256
    for start in range(0, n, block):
        stop = min(n, start + block)
        columns = zip(*(row[start:stop] for row in rows), strict=True)
        for j, col in enumerate(columns):
            o = start + j
            bits = int("".join(col)[::-1], 2)
            out[o] = (bits << o) >> shift0
    return out
