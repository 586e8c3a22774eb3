"""rules.ground.grid against the facts of the Red Blob Games hex grid guide (offset <-> cube
conversions,
neighbour offsets for the four offset layouts, distances, rings, line drawing, hex-to-pixel), and
the square grid's metrics."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.ground.grid import Cell, Cube, HexGrid, SquareGrid, cube_round, make_grid

LAYOUTS = [("flat", "odd"), ("flat", "even"), ("pointy", "odd"), ("pointy", "even")]


# The guide's conversions, written out: offset (col, row) to cube (q, r, s).
def guide_to_cube(orientation: str, parity: str, col: int, row: int) -> Cube:
    if orientation == "flat":
        q = col
        r = row - (col - (col & 1)) // 2 if parity == "odd" else row - (col + (col & 1)) // 2
    else:
        q = col - (row - (row & 1)) // 2 if parity == "odd" else col - (row + (row & 1)) // 2
        r = row
    return Cube(q, r, -q - r)


# The guide's neighbour offsets (dcol, drow) for each offset layout: first for cells in an even
# column (flat) or row (pointy), then for cells in an odd one.
GUIDE_NEIGHBOURS = {
    ("flat", "odd"): (
        {(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (0, 1)},
        {(1, 1), (1, 0), (0, -1), (-1, 0), (-1, 1), (0, 1)},
    ),
    ("flat", "even"): (
        {(1, 1), (1, 0), (0, -1), (-1, 0), (-1, 1), (0, 1)},
        {(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (0, 1)},
    ),
    ("pointy", "odd"): (
        {(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)},
        {(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)},
    ),
    ("pointy", "even"): (
        {(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)},
        {(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)},
    ),
}


@pytest.mark.parametrize("orientation,parity", LAYOUTS)
def test_offset_to_cube_matches_the_guide(orientation: str, parity: str) -> None:
    g = HexGrid(12, 12, orientation, parity)  # type: ignore[arg-type]
    for cell in g.cells():
        cube = g.to_cube(cell)
        assert cube == guide_to_cube(orientation, parity, *cell)
        assert cube.q + cube.r + cube.s == 0
        assert g.from_cube(cube) == cell


def test_conversion_examples() -> None:
    # Hand-worked examples of the guide's formulas.
    assert HexGrid(5, 5, "flat", "odd").to_cube(Cell(1, 1)) == Cube(1, 1, -2)
    assert HexGrid(5, 5, "flat", "even").to_cube(Cell(1, 1)) == Cube(1, 0, -1)
    assert HexGrid(5, 5, "pointy", "odd").to_cube(Cell(1, 1)) == Cube(1, 1, -2)
    assert HexGrid(5, 5, "pointy", "even").to_cube(Cell(1, 1)) == Cube(0, 1, -1)
    assert HexGrid(5, 5, "flat", "odd").to_cube(Cell(3, 4)) == Cube(3, 3, -6)
    assert HexGrid(5, 5, "pointy", "even").to_cube(Cell(4, 3)) == Cube(2, 3, -5)


@given(st.sampled_from(LAYOUTS), st.integers(-40, 40), st.integers(-40, 40))
def test_cube_offset_round_trip(layout: tuple[str, str], q: int, r: int) -> None:
    g = HexGrid(3, 3, *layout)  # type: ignore[arg-type]
    cube = Cube(q, r, -q - r)
    assert g.to_cube(g.from_cube(cube)) == cube


@pytest.mark.parametrize("orientation,parity", LAYOUTS)
def test_neighbours_match_the_guide(orientation: str, parity: str) -> None:
    g = HexGrid(9, 9, orientation, parity)  # type: ignore[arg-type]
    for cell in g.cells():
        if not (1 <= cell.col <= 7 and 1 <= cell.row <= 7):
            continue
        which = (cell.col if orientation == "flat" else cell.row) & 1
        got = {(n.col - cell.col, n.row - cell.row) for n in g.neighbours(cell)}
        assert got == GUIDE_NEIGHBOURS[(orientation, parity)][which]
        assert {g.index(n) for n in g.neighbours(cell)} == set(g.neighbour_indices(g.index(cell)))


def test_neighbours_stop_at_the_edge() -> None:
    g = HexGrid(4, 4, "flat", "odd")
    assert len(g.neighbours(Cell(0, 0))) == 2  # (1, 0) and (0, 1)
    assert all(g.contains(n) for c in g.cells() for n in g.neighbours(c))


@pytest.mark.parametrize("grid", [HexGrid(5, 4, o, p) for o, p in LAYOUTS]
                         + [SquareGrid(5, 4, 4), SquareGrid(5, 4, 8)], ids=repr)
def test_adjacent_cells_are_each_others_neighbours_on_and_off_the_board(
        grid: HexGrid | SquareGrid) -> None:
    inside = list(grid.cells())
    beyond = [Cell(-1, 0), Cell(5, 3), Cell(2, -1), Cell(0, 4)]
    for a in inside + beyond:
        near = set(grid.neighbours(a))
        assert near == {b for b in inside if grid.distance(a, b) == 1}
        for b in inside + beyond:
            assert grid.adjacent(a, b) == (b in near), (a, b)


@pytest.mark.parametrize("orientation,parity", LAYOUTS)
def test_distance_is_the_cube_distance(orientation: str, parity: str) -> None:
    g = HexGrid(10, 10, orientation, parity)  # type: ignore[arg-type]
    cells = list(g.cells())
    for a in cells[::7]:
        for b in cells:
            ca, cb = g.to_cube(a), g.to_cube(b)
            assert g.distance(a, b) == max(abs(ca.q - cb.q), abs(ca.r - cb.r), abs(ca.s - cb.s))
            assert g.distance(a, b) == g.distance(b, a)
            assert (g.distance(a, b) == 1) == g.adjacent(a, b)
    # beyond the board's edge too (the board's own cells are looked up in a table)
    for a, b in itertools.product([Cell(-2, 3), Cell(11, -1), Cell(4, 4)], repeat=2):
        ca, cb = g.to_cube(a), g.to_cube(b)
        assert g.distance(a, b) == max(abs(ca.q - cb.q), abs(ca.r - cb.r), abs(ca.s - cb.s))


@pytest.mark.parametrize("orientation,parity", LAYOUTS)
def test_rings_and_ranges_count_as_in_the_guide(orientation: str, parity: str) -> None:
    g = HexGrid(21, 21, orientation, parity)  # type: ignore[arg-type]
    centre = Cell(10, 10)
    for n in range(0, 8):
        assert len(g.within(centre, n)) == 3 * n * (n + 1) + 1
        assert len(g.ring(centre, n)) == (6 * n if n else 1)


@pytest.mark.parametrize("orientation,parity", LAYOUTS)
def test_line_drawing(orientation: str, parity: str) -> None:
    g = HexGrid(12, 12, orientation, parity)  # type: ignore[arg-type]
    cells = list(g.cells())
    for a in cells[::5]:
        for b in cells[::3]:
            line = g.line(a, b)
            assert line[0] == a and line[-1] == b
            assert len(line) == g.distance(a, b) + 1
            assert all(g.distance(x, y) == 1 for x, y in itertools.pairwise(line))
    # Along a cube axis the line is the run of hexes on that axis.
    start = g.to_cube(Cell(2, 6))
    end = Cube(start.q + 5, start.r - 5, start.s)
    expected = [g.from_cube(Cube(start.q + i, start.r - i, start.s)) for i in range(6)]
    assert g.line(g.from_cube(start), g.from_cube(end)) == expected


def test_cube_round() -> None:
    assert cube_round(0.0, 0.0, 0.0) == Cube(0, 0, 0)
    # A point on the side between two hexes rounds to one of them.
    assert cube_round(1.2, -0.6, -0.6) in {Cube(1, -1, 0), Cube(1, 0, -1)}
    assert cube_round(2.1, -1.05, -1.05) == Cube(2, -1, -1)
    for fq, fr in [(0.3, 0.3), (-1.4, 0.9), (2.6, -2.2)]:
        c = cube_round(fq, fr, -fq - fr)
        assert c.q + c.r + c.s == 0


@pytest.mark.parametrize("orientation,parity", LAYOUTS)
def test_hex_to_pixel_as_in_the_guide(orientation: str, parity: str) -> None:
    # The guide: flat x = size * 3/2 q, y = size * sqrt(3) * (r + q/2); pointy x = size *
    # sqrt(3) * (q + r/2), y = size * 3/2 r. With neighbouring centres 1 apart, size = 1/sqrt(3).
    g = HexGrid(8, 8, orientation, parity)  # type: ignore[arg-type]
    size = 1 / math.sqrt(3)
    for cell in g.cells():
        q, r, _ = g.to_cube(cell)
        if orientation == "flat":
            want = (size * 1.5 * q, size * math.sqrt(3) * (r + q / 2))
        else:
            want = (size * math.sqrt(3) * (q + r / 2), size * 1.5 * r)
        assert g.centre(cell) == pytest.approx(want)
        for n in g.neighbours(cell):
            assert math.dist(g.centre(cell), g.centre(n)) == pytest.approx(1.0)
        corners = g.corners(cell)
        assert len(corners) == 6
        for corner in corners:
            assert math.dist(corner, g.centre(cell)) == pytest.approx(size)
    first = g.corners(Cell(0, 0))[0]
    centre = g.centre(Cell(0, 0))
    angle = math.degrees(math.atan2(first[1] - centre[1], first[0] - centre[0]))
    assert angle == pytest.approx(0.0 if orientation == "flat" else -30.0)


def test_index_is_row_major() -> None:
    for g in (HexGrid(7, 5), SquareGrid(7, 5)):
        assert [g.index(c) for c in g.cells()] == list(range(35))
        assert g.index(Cell(3, 2)) == 17 and g.cell(17) == Cell(3, 2)


@settings(max_examples=50)
@given(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9), st.integers(0, 9))
def test_square_metrics(c1: int, r1: int, c2: int, r2: int) -> None:
    four, eight = SquareGrid(10, 10, 4), SquareGrid(10, 10, 8)
    a, b = Cell(c1, r1), Cell(c2, r2)
    assert four.distance(a, b) == abs(c1 - c2) + abs(r1 - r2)
    assert eight.distance(a, b) == max(abs(c1 - c2), abs(r1 - r2))
    assert four.adjacent(a, b) == (four.distance(a, b) == 1)
    assert eight.adjacent(a, b) == (eight.distance(a, b) == 1)


def test_square_neighbours_and_make_grid() -> None:
    assert len(SquareGrid(5, 5, 4).neighbours(Cell(2, 2))) == 4
    assert len(SquareGrid(5, 5, 8).neighbours(Cell(2, 2))) == 8
    assert isinstance(make_grid("hex", 3, 3), HexGrid)
    assert isinstance(make_grid("square", 3, 3), SquareGrid)
    with pytest.raises(ValueError):
        make_grid("triangle", 3, 3)
