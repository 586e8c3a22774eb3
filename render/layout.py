"""Pixel geometry: where each cell of a grid falls on the picture, at a given scale, and the
rectangle a window around a cell cuts out of the whole board."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from rules.ground.grid import Cell, HexGrid, SquareGrid

Point = tuple[float, float]
Box = tuple[int, int, int, int]

#: Pixels between the centres of adjacent cells: on the whole board, and in windows (small,
#: middling and large radius).
BOARD_SCALE = 32
WINDOW_SCALES = (48, 40, 34)
#: Margin round the board, in pixels.
PAD = 6


class Layout:
    """The cells of ``grid`` drawn ``scale`` pixels apart (centre to centre) with a margin.
    With an ``origin``, every point is given from that corner of the picture rather than its
    top left: a piece of the picture drawn alone lies exactly where it lies in the whole."""

    def __init__(self, grid: HexGrid | SquareGrid, scale: int, pad: int = PAD,
                 origin: tuple[int, int] = (0, 0)) -> None:
        self.grid = grid
        self.scale = scale
        self.pad = pad
        self.origin = origin
        key = (repr(grid), scale, pad)
        found = _PLACED.get(key)
        if found is None:
            if len(_PLACED) >= PLACED_KEPT:
                _PLACED.clear()
            found = _PLACED[key] = _Placed.of(grid, scale, pad)
        self.width, self.height = found.width, found.height
        self._offsets = found.offsets
        #: The centres on the whole picture; points are moved to the origin last of all, so
        #: that a piece drawn alone is drawn from exactly the whole picture's points, moved.
        self._whole = found.centres
        ox, oy = origin
        self._centres = self._whole if origin == (0, 0) else [
            (x - ox, y - oy) for x, y in self._whole]

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def centre(self, cell: Cell) -> Point:
        return self._centres[self.grid.index(cell)]

    def polygon(self, cell: Cell, shrink: float = 0.0) -> list[Point]:
        """The cell's corners in pixels, optionally pulled in by ``shrink`` pixels."""
        x, y = self._whole[self.grid.index(cell)]
        k = float(self.scale)
        if shrink:
            r = max(1e-6, math.hypot(*self._offsets[0]) * k)
            k *= max(0.0, (r - shrink) / r)
        ox, oy = self.origin
        return [(x + dx * k - ox, y + dy * k - oy) for dx, dy in self._offsets]

    def radius(self) -> float:
        """Circumradius of a cell in pixels."""
        return math.hypot(*self._offsets[0]) * self.scale

    def shared_edge(self, a: Cell, b: Cell) -> tuple[Point, Point] | None:
        """The two ends of the side two adjacent cells share, or ``None`` if they share none
        (diagonal neighbours on a square grid)."""
        pb = self.polygon(b)
        common = [p for p in self.polygon(a)
                  if any(abs(p[0] - q[0]) < 0.01 and abs(p[1] - q[1]) < 0.01 for q in pb)]
        if len(common) != 2:
            return None
        return common[0], common[1]

    def window(self, around: Cell, radius: int, margin: int = 4) -> Box:
        """The pixel rectangle of a window of ``radius`` cells round ``around``: as big as such a
        window in the middle of the board would be, moved inside the board near its edges."""
        gx, gy = 1.0, 1.0
        if isinstance(self.grid, HexGrid):
            if self.grid.orientation == "flat":
                gx = 1.5 / math.sqrt(3.0)
            else:
                gy = 1.5 / math.sqrt(3.0)
        reach_x = max(abs(dx) for dx, _ in self._offsets)
        reach_y = max(abs(dy) for _, dy in self._offsets)
        half_w = (radius * gx + reach_x) * self.scale + margin
        half_h = (radius * gy + reach_y) * self.scale + margin
        x, y = self.centre(around)
        x0, x1 = _span(x, half_w, self.width)
        y0, y1 = _span(y, half_h, self.height)
        return (x0, y0, x1, y1)

    def cells_in(self, box: Box) -> list[Cell]:
        """Every cell whose picture overlaps the rectangle ``box``, in index order."""
        r = self.radius()
        bx0, by0, bx1, by1 = box[0] - r, box[1] - r, box[2] + r, box[3] + r
        w = self.grid.width
        return [Cell(i % w, i // w) for i, (x, y) in enumerate(self._centres)
                if bx0 <= x <= bx1 and by0 <= y <= by1]

    def touches(self, cell: Cell, box: Box) -> bool:
        """True when the cell's picture overlaps the rectangle ``box``."""
        x, y = self.centre(cell)
        r = self.radius()
        return x + r >= box[0] and x - r <= box[2] and y + r >= box[1] and y - r <= box[3]


@dataclass(frozen=True, slots=True)
class _Placed:
    """Where a grid's cells fall on the whole picture at one scale and margin: the same for
    every layout of that grid, scale and margin, whatever its origin."""

    width: int
    height: int
    offsets: list[Point]
    centres: list[Point]

    @classmethod
    def of(cls, grid: HexGrid | SquareGrid, scale: int, pad: int) -> _Placed:
        xs: list[float] = []
        ys: list[float] = []
        for c in _rim(grid):
            for x, y in grid.corners(c):
                xs.append(x)
                ys.append(y)
        x0, y0 = min(xs), min(ys)
        cx, cy = grid.centre(Cell(0, 0))
        return cls(math.ceil((max(xs) - x0) * scale) + 2 * pad,
                   math.ceil((max(ys) - y0) * scale) + 2 * pad,
                   [(x - cx, y - cy) for x, y in grid.corners(Cell(0, 0))],
                   [((x - x0) * scale + pad, (y - y0) * scale + pad)
                    for x, y in (grid.centre(c) for c in grid.cells())])


#: Grids placed at a scale and margin, kept for the next layout of the same (a piece of a map
#: is drawn on two layouts of its own).
PLACED_KEPT = 64
_PLACED: dict[tuple[str, int, int], _Placed] = {}


def label_rise(grid: HexGrid | SquareGrid) -> float:
    """How far above a cell's centre its label is printed, in cells."""
    if isinstance(grid, HexGrid):
        return 0.34 if grid.orientation == "flat" else 0.37
    return 0.36


def counter_drop(grid: HexGrid | SquareGrid) -> float:
    """How far below a cell's centre its counters sit (clear of the label), in cells."""
    if isinstance(grid, HexGrid):
        return 0.1 if grid.orientation == "flat" else 0.13
    return 0.07


def counter_scale(grid: HexGrid | SquareGrid, scale: int) -> int:
    """The scale counters are drawn at: pointy hexes stand closer row to row, so their counters
    are a little smaller."""
    if isinstance(grid, HexGrid) and grid.orientation == "pointy":
        return round(scale * 0.88)
    return scale


def _span(mid: float, half: float, limit: int) -> tuple[int, int]:
    """``mid`` +- ``half`` in whole pixels, moved (or, if too long, cut) to fit 0..limit."""
    size = min(limit, 2 * math.ceil(half))
    lo = max(0, min(limit - size, round(mid - size / 2)))
    return lo, lo + size


def _rim(grid: HexGrid | SquareGrid) -> Iterable[Cell]:
    """The cells on the board's edge (the picture's bounds depend on no others)."""
    w, h = grid.width, grid.height
    for col in range(w):
        yield Cell(col, 0)
        yield Cell(col, h - 1)
        if h > 1:
            yield Cell(col, 1)
            yield Cell(col, h - 2)
    for row in range(h):
        yield Cell(0, row)
        yield Cell(w - 1, row)
        if w > 1:
            yield Cell(1, row)
            yield Cell(w - 2, row)
