"""Grids: the cells of a board and how they touch.

A board is a rectangle of cells addressed by ``Cell(col, row)``, counted from 0 at the top left of
the whole board (all sheets together). Two kinds of grid stand behind one interface:

* ``HexGrid``: hexagons, flat-topped (columns of hexes, every other column shifted half a hex
  down) or pointy-topped (rows of hexes, every other row shifted half a hex right). Distances,
  rings and lines use cube coordinates, after the Red Blob Games hex guide.
* ``SquareGrid``: squares with 4 neighbours (orthogonal steps) or 8 (diagonals too).

Cells are also numbered ``0 .. size-1`` (row-major); the fast sighting code works on those indices.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from functools import cached_property
from typing import Literal, NamedTuple, Protocol

Orientation = Literal["flat", "pointy"]
Parity = Literal["odd", "even"]

SQRT3 = math.sqrt(3.0)


class Cell(NamedTuple):
    """One cell of the board: column and row from the top-left of the whole board, from 0."""

    col: int
    row: int

    def __str__(self) -> str:
        return f"({self.col},{self.row})"


class Cube(NamedTuple):
    """Cube coordinates of a hex: q + r + s == 0."""

    q: int
    r: int
    s: int


class Grid(Protocol):
    """What every grid offers. Geometry is in units where neighbouring centres are 1 apart."""

    kind: str
    width: int
    height: int

    @property
    def size(self) -> int: ...
    def contains(self, cell: Cell) -> bool: ...
    def index(self, cell: Cell) -> int: ...
    def cell(self, index: int) -> Cell: ...
    def cells(self) -> Iterator[Cell]: ...
    def neighbours(self, cell: Cell) -> tuple[Cell, ...]: ...
    def neighbour_indices(self, index: int) -> tuple[int, ...]: ...
    def adjacent(self, a: Cell, b: Cell) -> bool: ...
    def distance(self, a: Cell, b: Cell) -> int: ...
    def ring(self, centre: Cell, radius: int) -> list[Cell]: ...
    def within(self, centre: Cell, radius: int) -> list[Cell]: ...
    def line(self, a: Cell, b: Cell) -> list[Cell]: ...
    def centre(self, cell: Cell) -> tuple[float, float]: ...
    def corners(self, cell: Cell) -> list[tuple[float, float]]: ...


class _Rectangle(ABC):
    """Bounds and index arithmetic shared by both grids."""

    kind: str

    def __init__(self, width: int, height: int) -> None:
        if width < 1 or height < 1:
            raise ValueError("a grid needs at least one column and one row")
        self.width = width
        self.height = height

    @property
    def size(self) -> int:
        return self.width * self.height

    def contains(self, cell: Cell) -> bool:
        return 0 <= cell.col < self.width and 0 <= cell.row < self.height

    def index(self, cell: Cell) -> int:
        return cell.row * self.width + cell.col

    def cell(self, index: int) -> Cell:
        row, col = divmod(index, self.width)
        return Cell(col, row)

    def cells(self) -> Iterator[Cell]:
        for row in range(self.height):
            for col in range(self.width):
                yield Cell(col, row)

    @abstractmethod
    def _neighbours_of(self, cell: Cell) -> tuple[Cell, ...]:
        """The cells that share a side (or, on an 8-way square grid, a corner) with ``cell``."""

    @cached_property
    def _neighbour_table(self) -> tuple[tuple[int, ...], ...]:
        return tuple(
            tuple(self.index(n) for n in self._neighbours_of(c)) for c in self.cells()
        )

    @cached_property
    def _neighbour_cells(self) -> tuple[tuple[Cell, ...], ...]:
        return tuple(self._neighbours_of(c) for c in self.cells())

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The cells on the board one step from ``cell``."""
        if self.contains(cell):
            return self._neighbour_cells[self.index(cell)]
        return self._neighbours_of(cell)

    def neighbour_indices(self, index: int) -> tuple[int, ...]:
        return self._neighbour_table[index]

    def adjacent(self, a: Cell, b: Cell) -> bool:
        """Whether ``b`` is on the board and one step from ``a``."""
        return self.contains(b) and self.distance(a, b) == 1

    @abstractmethod
    def distance(self, a: Cell, b: Cell) -> int:
        """Steps between two cells."""

    def within(self, centre: Cell, radius: int) -> list[Cell]:
        """Every cell on the board at or within ``radius`` of ``centre``, in index order."""
        out: list[Cell] = []
        rows = range(max(0, centre.row - radius - 1), min(self.height, centre.row + radius + 2))
        for row in rows:
            for col in range(
                max(0, centre.col - radius - 1), min(self.width, centre.col + radius + 2)
            ):
                c = Cell(col, row)
                if self.distance(centre, c) <= radius:
                    out.append(c)
        return out

    def ring(self, centre: Cell, radius: int) -> list[Cell]:
        """Every cell on the board at exactly ``radius`` from ``centre``."""
        return [c for c in self.within(centre, radius) if self.distance(centre, c) == radius]


class HexGrid(_Rectangle):
    """A hex grid in offset coordinates.

    ``orientation="flat"``: flat-topped hexes in columns; ``parity`` says whether the odd or the
    even columns are shifted half a hex down (Red Blob's odd-q / even-q). ``"pointy"``:
    pointy-topped hexes in rows; the odd or even rows are shifted half a hex right (odd-r / even-r).
    """

    kind = "hex"

    def __init__(
        self, width: int, height: int, orientation: Orientation = "flat", parity: Parity = "odd"
    ) -> None:
        super().__init__(width, height)
        self.orientation: Orientation = orientation
        self.parity: Parity = parity

    def __repr__(self) -> str:
        return f"HexGrid({self.width}, {self.height}, {self.orientation!r}, {self.parity!r})"

    def __reduce__(self) -> tuple[type[HexGrid], tuple[int, int, Orientation, Parity]]:
        # What defines the grid, not the tables worked out from it: a grid sent to another
        # process (a map drawn there) arrives small and builds its own.
        return HexGrid, (self.width, self.height, self.orientation, self.parity)

    # -- cube coordinates -------------------------------------------------------------------
    def to_cube(self, cell: Cell) -> Cube:
        col, row = cell
        if self.orientation == "flat":
            q = col
            shift = (col - (col & 1)) // 2 if self.parity == "odd" else (col + (col & 1)) // 2
            r = row - shift
        else:
            r = row
            shift = (row - (row & 1)) // 2 if self.parity == "odd" else (row + (row & 1)) // 2
            q = col - shift
        return Cube(q, r, -q - r)

    def from_cube(self, cube: Cube) -> Cell:
        q, r, _ = cube
        if self.orientation == "flat":
            shift = (q - (q & 1)) // 2 if self.parity == "odd" else (q + (q & 1)) // 2
            return Cell(q, r + shift)
        shift = (r - (r & 1)) // 2 if self.parity == "odd" else (r + (r & 1)) // 2
        return Cell(q + shift, r)

    _CUBE_DIRECTIONS = (
        Cube(1, 0, -1), Cube(1, -1, 0), Cube(0, -1, 1),
        Cube(-1, 0, 1), Cube(-1, 1, 0), Cube(0, 1, -1),
    )

    def _neighbours_of(self, cell: Cell) -> tuple[Cell, ...]:
        q, r, s = self.to_cube(cell)
        out = []
        for dq, dr, ds in self._CUBE_DIRECTIONS:
            n = self.from_cube(Cube(q + dq, r + dr, s + ds))
            if self.contains(n):
                out.append(n)
        return tuple(out)

    def distance(self, a: Cell, b: Cell) -> int:
        """Hex steps between two cells: half the sum of the cube differences."""
        width, height = self.width, self.height
        if 0 <= a.col < width and 0 <= b.col < width and 0 <= a.row < height \
                and 0 <= b.row < height:  # (asked very often: the board's cells are tabled)
            qa, ra = self._axial[a.row * width + a.col]
            qb, rb = self._axial[b.row * width + b.col]
            dq, dr = qa - qb, ra - rb
            return (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        ca, cb = self.to_cube(a), self.to_cube(b)
        return (abs(ca.q - cb.q) + abs(ca.r - cb.r) + abs(ca.s - cb.s)) // 2

    @cached_property
    def _axial(self) -> tuple[tuple[int, int], ...]:
        """Each cell's cube ``q`` and ``r``, by index (``s`` follows from them)."""
        return tuple((cube.q, cube.r) for cube in map(self.to_cube, self.cells()))

    def line(self, a: Cell, b: Cell) -> list[Cell]:
        """The hexes a straight line from centre to centre passes nearest (Red Blob's cube lerp,
        nudged so that a line along a hexspine picks one side consistently). Sighting uses the
        exact supercover in ``rules.sighting.geometry`` instead; this is for drawing roads
        between waypoints."""
        ca, cb = self.to_cube(a), self.to_cube(b)
        n = self.distance(a, b)
        if n == 0:
            return [a]
        eps = (1e-6, 2e-6, -3e-6)
        out = []
        for i in range(n + 1):
            t = i / n
            fq = ca.q + (cb.q - ca.q) * t + eps[0]
            fr = ca.r + (cb.r - ca.r) * t + eps[1]
            fs = ca.s + (cb.s - ca.s) * t + eps[2]
            out.append(self.from_cube(cube_round(fq, fr, fs)))
        return out

    # -- geometry ---------------------------------------------------------------------------
    def centre(self, cell: Cell) -> tuple[float, float]:
        """Centre of a hex, in units where adjacent centres are 1 apart (y grows downwards)."""
        q, r, _ = self.to_cube(cell)
        if self.orientation == "flat":
            return (1.5 * q / SQRT3, (r + q / 2.0))
        return ((q + r / 2.0), 1.5 * r / SQRT3)

    def corners(self, cell: Cell) -> list[tuple[float, float]]:
        """The six corners, clockwise from the rightmost (flat) or the top-right (pointy)."""
        x, y = self.centre(cell)
        radius = 1.0 / SQRT3  # circumradius when the centre spacing is 1
        start = 0.0 if self.orientation == "flat" else -30.0
        return [
            (x + radius * math.cos(math.radians(start + 60 * k)),
             y + radius * math.sin(math.radians(start + 60 * k)))
            for k in range(6)
        ]


def cube_round(fq: float, fr: float, fs: float) -> Cube:
    """Round fractional cube coordinates to the hex that contains them."""
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    else:
        s = -q - r
    return Cube(int(q), int(r), int(s))


class SquareGrid(_Rectangle):
    """A square grid; ``neighbours`` is 4 (orthogonal steps only) or 8 (diagonals as well)."""

    kind = "square"

    def __init__(self, width: int, height: int, neighbours: Literal[4, 8] = 4) -> None:
        super().__init__(width, height)
        if neighbours not in (4, 8):
            raise ValueError("a square grid has 4 or 8 neighbours")
        self.neighbour_count = neighbours

    def __repr__(self) -> str:
        return f"SquareGrid({self.width}, {self.height}, {self.neighbour_count})"

    def __reduce__(self) -> tuple[type[SquareGrid], tuple[int, int, Literal[4, 8]]]:
        return SquareGrid, (self.width, self.height, self.neighbour_count)

    _ORTHOGONAL: Sequence[tuple[int, int]] = ((1, 0), (0, -1), (-1, 0), (0, 1))
    _DIAGONAL: Sequence[tuple[int, int]] = ((1, -1), (-1, -1), (-1, 1), (1, 1))

    def _neighbours_of(self, cell: Cell) -> tuple[Cell, ...]:
        steps = list(self._ORTHOGONAL)
        if self.neighbour_count == 8:
            steps += list(self._DIAGONAL)
        out = []
        for dc, dr in steps:
            n = Cell(cell.col + dc, cell.row + dr)
            if self.contains(n):
                out.append(n)
        return tuple(out)

    def distance(self, a: Cell, b: Cell) -> int:
        """Steps between cells: Manhattan with 4 neighbours, Chebyshev with 8."""
        dc, dr = abs(a.col - b.col), abs(a.row - b.row)
        return dc + dr if self.neighbour_count == 4 else max(dc, dr)

    def line(self, a: Cell, b: Cell) -> list[Cell]:
        """Cells along the straight line, one step at a time (each adjacent to the last)."""
        n = max(abs(a.col - b.col), abs(a.row - b.row))
        if n == 0:
            return [a]
        pts = [
            Cell(round(a.col + (b.col - a.col) * i / n + 1e-9),
                 round(a.row + (b.row - a.row) * i / n + 1e-9))
            for i in range(n + 1)
        ]
        if self.neighbour_count == 8:
            return pts
        out = [pts[0]]
        for p in pts[1:]:
            last = out[-1]
            if last.col != p.col and last.row != p.row:
                out.append(Cell(p.col, last.row))  # step round the corner orthogonally
            out.append(p)
        return out

    def centre(self, cell: Cell) -> tuple[float, float]:
        return (float(cell.col), float(cell.row))

    def corners(self, cell: Cell) -> list[tuple[float, float]]:
        x, y = self.centre(cell)
        return [(x + 0.5, y - 0.5), (x + 0.5, y + 0.5), (x - 0.5, y + 0.5), (x - 0.5, y - 0.5)]


def make_grid(
    kind: str,
    width: int,
    height: int,
    orientation: Orientation = "flat",
    parity: Parity = "odd",
    neighbours: Literal[4, 8] = 4,
) -> HexGrid | SquareGrid:
    """Build the grid a scenario's map describes."""
    if kind == "hex":
        return HexGrid(width, height, orientation, parity)
    if kind == "square":
        return SquareGrid(width, height, neighbours)
    raise ValueError(f"unknown grid kind {kind!r}: expected 'hex' or 'square'")
