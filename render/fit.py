"""The fitted window: the part of the board a side's phase map shows (ruling ORD-30).

The window is as large as a picture about ``FIT_WIDTH`` pixels wide can show at ``FIT_SCALE``,
the scale at which every counter's name is printed at least ``LABEL_PX`` pixels high; where the
side's units and the enemies it knows do not all fit, it is placed on what the side should look
at first (``render.focus``: a contact, a fight, a march), and when nothing is happening it
covers as many of its own units as it can, then as many known enemies, then lies nearest the
middle of all of them (``densest_window``). It is worked out from the view alone, so the same
view always gives the same window.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import accumulate

from render.layout import Box, Layout
from rules.ground.grid import Cell, HexGrid, SquareGrid
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
    #: Why the window is where it is: the first hot spot's reason (``render.focus``).
    reason: str = ""

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


#: The fitted window's size on each kind of grid met, by the grid's ``repr``.
_SIZES: dict[str, tuple[int, int]] = {}


def fit_size(grid: HexGrid | SquareGrid) -> tuple[int, int]:
    """The columns and rows of the fitted window on ``grid`` (``window_size`` at
    ``FIT_SCALE``, no larger than the board)."""
    key = repr(grid)
    found = _SIZES.get(key)
    if found is None:
        cols, rows = window_size(Layout(grid, FIT_SCALE))
        if len(_SIZES) >= 64:
            _SIZES.clear()
        found = _SIZES[key] = (min(cols, grid.width), min(rows, grid.height))
    return found


@dataclass(frozen=True, slots=True)
class Counters:
    """Where a view's counters stand, as two-dimensional running sums (any rectangle's count
    at once): the side's own (every counter, for the umpire) and the enemies it knows."""

    own: list[list[int]]
    enemy: list[list[int]]
    cells: list[tuple[Cell, bool]]

    def count(self, mine: bool, c0: int, r0: int, cols: int, rows: int) -> int:
        return _count(self.own if mine else self.enemy, c0, r0, cols, rows)


def counters_of(view: SideView) -> Counters | None:
    """The view's counters on the board, or ``None`` when there are none."""
    grid = view.game_map.grid
    cells = [(u.cell, u.level == OWN or view.side is None) for u in view.units
             if grid.contains(u.cell)]
    cells += [(m.cell, m.side == view.side or view.side is None) for m in view.markers
              if grid.contains(m.cell)]
    if not cells:
        return None
    own = running_sums(grid, (at for at, mine in cells if mine))
    enemy = running_sums(grid, (at for at, mine in cells if not mine))
    return Counters(own, enemy, cells)


def running_sums(grid: HexGrid | SquareGrid, cells: Iterable[Cell]) -> list[list[int]]:
    """How many of ``cells`` (one a counter) lie in each rectangle from the board's corner."""
    w, h = grid.width, grid.height
    counts = [[0] * w for _ in range(h)]
    for at in cells:
        counts[at.row][at.col] += 1
    above = [0] * (w + 1)
    table = [above]
    for row in counts:
        above = [a + b for a, b in zip(above, accumulate(row, initial=0), strict=True)]
        table.append(above)
    return table


def densest_window(view: SideView) -> Window | None:
    """The window of the fitted size that holds most of the side's own counters, then most
    known enemies, then lies nearest the middle of all of them; ``None`` when the view has no
    counter on the board."""
    found = counters_of(view)
    if found is None:
        return None
    grid = view.game_map.grid
    w, h = grid.width, grid.height
    cols, rows = fit_size(grid)
    cells = found.cells
    mid_c = (min(c.col for c, _ in cells) + max(c.col for c, _ in cells) + 1) / 2
    mid_r = (min(c.row for c, _ in cells) + max(c.row for c, _ in cells) + 1) / 2
    # Every place the window can lie, narrowed by each wish in turn (``most``): the most own
    # counters, then the most known enemies, then nearest the middle, the topmost, the leftmost.
    at = [(r0, c0) for r0 in range(h - rows + 1) for c0 in range(w - cols + 1)]
    at = most(at, lambda r0, c0: found.count(True, c0, r0, cols, rows))
    at = most(at, lambda r0, c0: found.count(False, c0, r0, cols, rows))
    r0, c0 = min(at, key=lambda p: (abs(p[1] + cols / 2 - mid_c) + abs(p[0] + rows / 2 - mid_r),
                                    p))
    return Window(c0, r0, cols, rows, found.count(True, c0, r0, cols, rows),
                  sum(m for _, m in cells), found.count(False, c0, r0, cols, rows),
                  sum(not m for _, m in cells))


def most(at: list[tuple[int, int]], score: Callable[[int, int], int]) -> list[tuple[int, int]]:
    """The places (row, column) of ``at``, in their order, with the highest ``score``: each
    wish for a window, asked in its rank, only of the places that did best by those before."""
    scores = [score(r0, c0) for r0, c0 in at]
    best = max(scores)
    return [p for p, n in zip(at, scores, strict=True) if n == best]


def _count(t: list[list[int]], c0: int, r0: int, cols: int, rows: int) -> int:
    return t[r0 + rows][c0 + cols] - t[r0][c0 + cols] - t[r0 + rows][c0] + t[r0][c0]
