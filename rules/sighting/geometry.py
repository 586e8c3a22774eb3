"""The exact geometry of a sight line: which cells a straight line between two cell centres
meets, and where along it, on hex and square grids.

Hex cells are worked in cube coordinates, where a hex is the set of points whose three pairwise
coordinate differences from its centre all lie within 1; square cells are worked in doubled
coordinates. Whether a line runs along a side or through a corner is therefore decided with
integers, never with rounding. The shape of a line depends only on where the target lies relative
to the observer, so it is worked out once per relative position and kept.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from rules.ground.grid import Cell, Cube, HexGrid, SquareGrid, cube_round

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
