"""Sets of cells within a distance of a cell, as int bitsets (bit ``i`` is cell index ``i``).

Offset coordinates shift every other column (flat hexes) or row (pointy hexes), so a relative
position lands on different column and row offsets in the two parity classes of cells; within
one class it is always the same. Squares have one class.
"""

from __future__ import annotations

import threading

from rules.ground.grid import Cell, HexGrid, SquareGrid
from rules.sighting.geometry import Rel, place


def parity_of(grid: HexGrid | SquareGrid, cell: Cell) -> int:
    """Cells of one parity class share the offsets of every relative position (offset hex
    coordinates shift every other column or row)."""
    if isinstance(grid, HexGrid):
        return (cell.col if grid.orientation == "flat" else cell.row) & 1
    return 0


def _representative(grid: HexGrid | SquareGrid, parity: int) -> Cell:
    if isinstance(grid, HexGrid) and grid.orientation == "pointy":
        return Cell(0, parity)
    return Cell(parity, 0)


def parities(grid: HexGrid | SquareGrid) -> tuple[int, ...]:
    """The parity classes of the grid's cells."""
    return (0, 1) if isinstance(grid, HexGrid) else (0,)


def disk(grid: HexGrid | SquareGrid, radius: int) -> list[Rel]:
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


def distance(grid: HexGrid | SquareGrid, rel: Rel) -> int:
    """The grid distance of a relative position from its origin."""
    if isinstance(grid, HexGrid):
        return max(abs(x) for x in rel)
    if grid.neighbour_count == 8:
        return max(abs(rel[0]), abs(rel[1]))
    return abs(rel[0]) + abs(rel[1])


def col_row_delta(grid: HexGrid | SquareGrid, parity: int, rel: Rel) -> tuple[int, int]:
    """The column and row offsets of relative position ``rel`` from a cell of class ``parity``."""
    rep = _representative(grid, parity)
    c = place(grid, rep, rel)
    return (c.col - rep.col, c.row - rep.row)


class BoardMasks:
    """Whole-board bitsets that per-position table builders shift about: the cells of each
    parity class (``parity[p]``), and the cells a relative column and row offset keeps on the
    board (``inside``)."""

    def __init__(self, grid: HexGrid | SquareGrid) -> None:
        self.width, self.height = grid.width, grid.height
        self.parity = [0] * len(parities(grid))
        for i in range(grid.size):
            self.parity[parity_of(grid, grid.cell(i))] |= 1 << i
        self._col_prefix = [0] * (self.width + 1)
        column = sum(1 << (r * self.width) for r in range(self.height))
        for c in range(self.width):
            self._col_prefix[c + 1] = self._col_prefix[c] | (column << c)

    def inside(self, dc: int, dr: int) -> int:
        """Cells ``o`` for which ``o + (dc, dr)`` is on the board."""
        width, height = self.width, self.height
        c0, c1 = max(0, -dc), min(width - 1, width - 1 - dc)
        r0, r1 = max(0, -dr), min(height - 1, height - 1 - dr)
        if c0 > c1 or r0 > r1:
            return 0
        cols = self._col_prefix[c1 + 1] ^ self._col_prefix[c0]
        rows = ((1 << ((r1 + 1) * width)) - 1) ^ ((1 << (r0 * width)) - 1)
        return cols & rows


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
            for rel in disk(self.grid, radius):
                dc, dr = col_row_delta(self.grid, parity, rel)
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

    def table(self, radius: int) -> list[int]:
        """Every cell's disk of ``radius``, by cell index (worked out once for the whole board:
        a pass reads hundreds of them)."""
        radius = max(0, radius)
        masks = self._masks.get(radius)
        if masks is None or -1 in masks:
            for index in range(self.grid.size):
                self.mask(index, radius)
            masks = self._masks[radius]
        return masks

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
        for dr, c0, c1 in self._runs_for(parity_of(grid, cell), radius):
            row = cell.row + dr
            if 0 <= row < height:
                lo, hi = max(0, cell.col + c0), min(width - 1, cell.col + c1)
                if lo <= hi:
                    m |= ((1 << (hi - lo + 1)) - 1) << (row * width + lo)
        masks[index] = m
        return m


#: The disks of each grid shape worked out so far: every sighting of one board, in every game
#: played on it, shares them (a pass that worked them out anew spent most of its time here).
_SHARED: dict[tuple[object, ...], CellDisks] = {}
_SHARED_KEPT = 16
_SHARED_LOCK = threading.Lock()


def _shape(grid: HexGrid | SquareGrid) -> tuple[object, ...]:
    if isinstance(grid, HexGrid):
        return ("hex", grid.width, grid.height, grid.orientation, grid.parity)
    return ("square", grid.width, grid.height, grid.neighbour_count)


def disks_for(grid: HexGrid | SquareGrid) -> CellDisks:
    """The disks of the grid's shape, kept for every grid of that shape."""
    key = _shape(grid)
    with _SHARED_LOCK:
        found = _SHARED.get(key)
        if found is None:
            if len(_SHARED) >= _SHARED_KEPT:
                del _SHARED[next(iter(_SHARED))]
            found = _SHARED[key] = CellDisks(grid)
        return found
