"""The fitted window: the part of the board a side's phase map shows (ruling ORD-30).

The window is as large as a picture about ``FIT_WIDTH`` pixels wide can show at ``FIT_SCALE``,
the scale at which every counter's name is printed at least ``LABEL_PX`` pixels high; where the
side's units and the enemies it knows do not all fit, it covers as many of its own units as it
can, then as many known enemies, then lies nearest the middle of all of them. It is worked out
from the view's counters alone, so the same view always gives the same window.
"""

from __future__ import annotations

from dataclasses import dataclass

from render.layout import Box, Layout
from rules.ground.grid import Cell
from rules.view import OWN, SideView

#: Pixels a cell in the fitted window.
FIT_SCALE = 60
#: The largest picture of the map itself (Discord's inline preview is about 550 px wide).
FIT_WIDTH = 550
FIT_HEIGHT = 440
#: The smallest print of a counter's name in the fitted window.
LABEL_PX = 10


@dataclass(frozen=True, slots=True)
class Window:
    """A rectangle of cells: ``cols`` columns from ``col``, ``rows`` rows from ``row``, and
    how many of the side's own units and known enemies it holds of how many there are."""

    col: int
    row: int
    cols: int
    rows: int
    own_in: int = 0
    own_all: int = 0
    enemy_in: int = 0
    enemy_all: int = 0

    def holds(self, cell: Cell) -> bool:
        return (self.col <= cell.col < self.col + self.cols
                and self.row <= cell.row < self.row + self.rows)


def window_box(lay: Layout, col: int, row: int, cols: int, rows: int) -> Box:
    """The pixel rectangle round the cells of a column and row range."""
    xs: list[float] = []
    ys: list[float] = []
    for c in (col, min(col + 1, col + cols - 1), col + cols - 1):
        for r in (row, row + rows - 1):
            for x, y in lay.polygon(Cell(c, r)):
                xs.append(x)
                ys.append(y)
    x0, y0 = max(0, int(min(xs)) - 2), max(0, int(min(ys)) - 2)
    return (x0, y0, min(lay.width, int(max(xs)) + 3), min(lay.height, int(max(ys)) + 3))


def window_size(lay: Layout) -> tuple[int, int]:
    """The most columns and rows whose picture fits ``FIT_WIDTH`` x ``FIT_HEIGHT``."""
    grid = lay.grid
    cols = grid.width
    while cols > 1 and _extent(window_box(lay, 0, 0, cols, 1), 0) > FIT_WIDTH:
        cols -= 1
    rows = grid.height
    while rows > 1 and _extent(window_box(lay, 0, 0, 1, rows), 1) > FIT_HEIGHT:
        rows -= 1
    return cols, rows


def _extent(box: Box, axis: int) -> int:
    return box[2 + axis] - box[axis]


def fitted_window(view: SideView, lay: Layout) -> Window | None:
    """The window of ``view`` on ``lay`` (a layout at ``FIT_SCALE``), or ``None`` when the
    view has no counter on the board (its map is then the whole board)."""
    grid = lay.grid
    w, h = grid.width, grid.height
    own = [[0] * (w + 1) for _ in range(h + 1)]
    enemy = [[0] * (w + 1) for _ in range(h + 1)]
    cells = [(u.cell, u.level == OWN or view.side is None) for u in view.units
             if grid.contains(u.cell)]
    cells += [(m.cell, m.side == view.side or view.side is None) for m in view.markers
              if grid.contains(m.cell)]
    if not cells:
        return None
    for at, mine in cells:
        (own if mine else enemy)[at.row + 1][at.col + 1] += 1
    for table in (own, enemy):  # two-dimensional running sums: any rectangle's count at once
        for r in range(1, h + 1):
            for k in range(1, w + 1):
                table[r][k] += table[r - 1][k] + table[r][k - 1] - table[r - 1][k - 1]
    cols, rows = window_size(lay)
    cols, rows = min(cols, w), min(rows, h)
    mid_c = (min(c.col for c, _ in cells) + max(c.col for c, _ in cells) + 1) / 2
    mid_r = (min(c.row for c, _ in cells) + max(c.row for c, _ in cells) + 1) / 2
    best: tuple[int, int, float, int, int] | None = None
    for r0 in range(h - rows + 1):
        for c0 in range(w - cols + 1):
            o = _count(own, c0, r0, cols, rows)
            e = _count(enemy, c0, r0, cols, rows)
            off = abs(c0 + cols / 2 - mid_c) + abs(r0 + rows / 2 - mid_r)
            key = (-o, -e, off, r0, c0)
            if best is None or key < best:
                best = key
    assert best is not None
    return Window(best[4], best[3], cols, rows, -best[0], sum(m for _, m in cells),
                  -best[1], sum(not m for _, m in cells))


def _count(t: list[list[int]], c0: int, r0: int, cols: int, rows: int) -> int:
    return t[r0 + rows][c0 + cols] - t[r0][c0 + cols] - t[r0 + rows][c0] + t[r0][c0]
