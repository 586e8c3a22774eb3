"""Line of sight (rules.sighting): the rule on hand-built boards, the exact geometry of sight lines
against a brute-force polygon check, symmetry, the visibility limit, and the fast tables against
the plain reference."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.boards import GRID_KINDS, random_map
from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell, HexGrid, SquareGrid
from rules.sighting.geometry import sight_line
from rules.sighting.height import clear_line
from rules.sighting.los import LineOfSight
from rules.sighting.reference import reference_sees
from rules.sighting.registry import SIGHTING_RULES
from rules.sighting.rule import SightingRule
from tests.support.hand_maps import FLAT5, hand_map


def sees(gm: GameMap, a: Cell, b: Cell, visibility: int = 20) -> bool:
    """Fast rule, per-pair rule and reference all agree; return their answer."""
    i, j = gm.idx(a), gm.idx(b)
    fast = LineOfSight(gm).sees(i, j, visibility)
    assert reference_sees(gm, i, j, visibility) == fast
    if visibility == 0:
        assert not fast  # a night of nil visibility sees nothing (LOS-7)
    elif gm.grid.distance(a, b) <= visibility or gm.grid.distance(a, b) <= 1:
        assert clear_line(gm, i, j) == fast
    return fast


def with_terrain(rows: list[str], cell: Cell, ch: str) -> list[str]:
    out = list(rows)
    out[cell.row] = out[cell.row][: cell.col] + ch + out[cell.row][cell.col + 1:]
    return out


# -- the rule on hand-built boards --------------------------------------------------------------

def test_registry_names_the_los_rule() -> None:
    rule: SightingRule = SIGHTING_RULES["los"](hand_map(FLAT5))
    assert isinstance(rule, LineOfSight)
    assert rule.name == "los"


@pytest.mark.parametrize("kind,orientation,neighbours", [
    ("hex", "flat", 4), ("hex", "pointy", 4), ("square", "flat", 4), ("square", "flat", 8),
])
def test_adjacent_cells_always_see_each_other(
    kind: Literal["hex", "square"], orientation: Literal["flat", "pointy"],
    neighbours: Literal[4, 8],
) -> None:
    # A cliff of woods on a height next to a clear hollow: still in sight, even at night with a
    # visibility of 1. A night of nil visibility sees nothing, next door included (LOS-7).
    gm = hand_map(["w.w.w", ".w.w.", "w.w.w", ".w.w.", "w.w.w"],
                  ["50505", "05050", "50505", "05050", "50505"],
                  kind=kind, orientation=orientation, neighbours=neighbours)
    for cell in gm.grid.cells():
        for n in gm.grid.neighbours(cell):
            for visibility in (1, 20):
                assert sees(gm, cell, n, visibility)
            assert not sees(gm, cell, n, 0)


def test_woods_between_two_clear_hexes_on_flat_ground_block() -> None:
    # Flat-topped hexes: (2,0), (2,1), (2,2) lie on one straight line down a column.
    assert sees(hand_map(FLAT5), Cell(2, 0), Cell(2, 2))
    woods = hand_map(with_terrain(FLAT5, Cell(2, 1), "w"))
    assert not sees(woods, Cell(2, 0), Cell(2, 2))
    assert not sees(woods, Cell(2, 2), Cell(2, 0))
    town = hand_map(with_terrain(FLAT5, Cell(2, 1), "t"))
    assert not sees(town, Cell(2, 0), Cell(2, 2))


def test_woods_in_the_ends_own_cells_do_not_block() -> None:
    rows = with_terrain(with_terrain(FLAT5, Cell(2, 0), "w"), Cell(2, 2), "w")
    assert sees(hand_map(rows), Cell(2, 0), Cell(2, 2))


def test_a_hill_blocks_and_a_plateau_does_not() -> None:
    hill = ["00000", "00100", "00000", "00000", "00000"]
    assert not sees(hand_map(FLAT5, hill), Cell(2, 0), Cell(2, 2))
    plateau = ["11111"] * 5
    assert sees(hand_map(FLAT5, plateau), Cell(2, 0), Cell(2, 4))


def test_looking_down_over_lower_woods() -> None:
    rows = with_terrain(FLAT5, Cell(2, 1), "w")
    # From three levels up, the line passes 1.5 levels high over woods whose tops are at 1.
    high = ["00300", "00000", "00000", "00000", "00000"]
    assert sees(hand_map(rows, high), Cell(2, 0), Cell(2, 2))
    # From two levels up the line is exactly at the treetops there: the woods block ...
    two = ["00200", "00000", "00000", "00000", "00000"]
    assert not sees(hand_map(rows, two), Cell(2, 0), Cell(2, 2))
    # ... while bare ground of the same height does not (the line only skims it).
    knoll = ["00200", "00100", "00000", "00000", "00000"]
    assert sees(hand_map(FLAT5, knoll), Cell(2, 0), Cell(2, 2))
    # Between two heights, woods two levels down are overlooked; one level down, their tops
    # are at eye level and block.
    deep = ["00200", "00000", "00200", "00000", "00000"]
    assert sees(hand_map(rows, deep), Cell(2, 0), Cell(2, 2))
    shallow = ["00100", "00000", "00100", "00000", "00000"]
    assert not sees(hand_map(rows, shallow), Cell(2, 0), Cell(2, 2))


def test_height_is_interpolated_along_the_line() -> None:
    # Observer on a 3-level height, target 3 hexes away at 0; woods next to the target are
    # judged where the line is 1 level high (their tops reach it), woods next to the observer
    # where it is 2 levels high.
    elev = ["00300", "00000", "00000", "00000", "00000"]
    line = sight_line(HexGrid(5, 5), Cell(2, 0), Cell(2, 3))
    assert [(c, t) for c, t in line.crossed] == [
        (Cell(2, 1), Fraction(1, 3)), (Cell(2, 2), Fraction(2, 3))
    ]
    near_target = with_terrain(FLAT5, Cell(2, 2), "w")
    assert not sees(hand_map(near_target, elev), Cell(2, 0), Cell(2, 3))
    near_observer = with_terrain(FLAT5, Cell(2, 1), "w")
    assert sees(hand_map(near_observer, elev), Cell(2, 0), Cell(2, 3))


@pytest.mark.parametrize("orientation,parity,start,end,flanks", [
    # Flat-topped, odd columns shifted down: along row 2 from column 0 to column 2 the line
    # runs along the side between (1,1) and (1,2).
    ("flat", "odd", Cell(0, 2), Cell(2, 2), {Cell(1, 1), Cell(1, 2)}),
    ("flat", "even", Cell(0, 2), Cell(2, 2), {Cell(1, 2), Cell(1, 3)}),
    # Pointy-topped, odd rows shifted right: down column 1 from row 0 to row 2 the line runs
    # along the side between (0,1) and (1,1).
    ("pointy", "odd", Cell(1, 0), Cell(1, 2), {Cell(0, 1), Cell(1, 1)}),
    ("pointy", "even", Cell(1, 0), Cell(1, 2), {Cell(1, 1), Cell(2, 1)}),
])
def test_hexspine_is_blocked_only_when_both_sides_block(
    orientation: Literal["flat", "pointy"], parity: Literal["odd", "even"],
    start: Cell, end: Cell, flanks: set[Cell],
) -> None:
    line = sight_line(HexGrid(5, 5, orientation, parity), start, end)
    assert line.crossed == ()
    assert len(line.sides) == 1
    a, b, t = line.sides[0]
    assert {a, b} == flanks and t == Fraction(1, 2)
    for woods in ([], [a], [b], [a, b]):
        rows = FLAT5
        for cell in woods:
            rows = with_terrain(rows, cell, "w")
        gm = hand_map(rows, orientation=orientation, parity=parity)
        assert sees(gm, start, end) == (len(woods) < 2)


def test_long_hexspine_judges_each_side_on_its_own() -> None:
    # Along row 2 from column 0 to column 4 (flat, odd-q) the line runs along two sides, with
    # hex (2,2) crossed at its centre between them.
    grid = HexGrid(5, 5, "flat", "odd")
    line = sight_line(grid, Cell(0, 2), Cell(4, 2))
    assert [c for c, _ in line.crossed] == [Cell(2, 2)]
    assert [{a, b} for a, b, _ in line.sides] == [
        {Cell(1, 1), Cell(1, 2)}, {Cell(3, 1), Cell(3, 2)}
    ]
    # Woods on one side of the first spine and on the other side of the second: both spines
    # are open, so the line is clear.
    rows = with_terrain(with_terrain(FLAT5, Cell(1, 1), "w"), Cell(3, 2), "w")
    assert sees(hand_map(rows), Cell(0, 2), Cell(4, 2))
    rows = with_terrain(rows, Cell(1, 2), "w")
    assert not sees(hand_map(rows), Cell(0, 2), Cell(4, 2))


def test_hexspine_along_the_board_edge() -> None:
    # Along the top row the second flank lies off the board, where nothing blocks.
    line = sight_line(HexGrid(5, 5, "flat", "odd"), Cell(0, 0), Cell(2, 0))
    (a, b, _), = line.sides
    assert {a, b} == {Cell(1, 0), Cell(1, -1)}
    assert sees(hand_map(with_terrain(FLAT5, Cell(1, 0), "w")), Cell(0, 0), Cell(2, 0))


def test_a_hex_touched_at_one_corner_never_blocks() -> None:
    # Cube offset (4,-5,1) passes exactly through two hex corners without running along a
    # side; the hexes touched only at those corners do not block.
    grid = HexGrid(9, 9, "flat", "odd")
    start = Cell(1, 7)
    c = grid.to_cube(start)
    end = grid.from_cube(type(c)(c.q + 4, c.r - 5, c.s + 1))
    line = sight_line(grid, start, end)
    assert len(line.grazed) == 2 and line.sides == ()
    rows = ["." * 9] * 9
    for cell in line.grazed:
        rows = with_terrain(rows, cell, "w")
    gm = hand_map(rows)
    assert sees(gm, start, end)
    rows = with_terrain(rows, line.crossed[0][0], "w")
    assert not sees(hand_map(rows), start, end)


@pytest.mark.parametrize("neighbours", [4, 8])
def test_square_corner_is_blocked_only_when_both_corner_squares_block(
    neighbours: Literal[4, 8],
) -> None:
    flat = ["....."] * 5
    line = sight_line(SquareGrid(5, 5, neighbours), Cell(0, 0), Cell(2, 2))
    assert [c for c, _ in line.crossed] == [Cell(1, 1)]
    assert [{a, b} for a, b, _ in line.sides] == [
        {Cell(1, 0), Cell(0, 1)}, {Cell(2, 1), Cell(1, 2)}
    ]
    for woods, clear in (([], True), ([Cell(1, 0)], True), ([Cell(1, 0), Cell(0, 1)], False),
                         ([Cell(1, 0), Cell(1, 2)], True), ([Cell(2, 1), Cell(1, 2)], False)):
        rows = flat
        for cell in woods:
            rows = with_terrain(rows, cell, "w")
        gm = hand_map(rows, kind="square", neighbours=neighbours)
        assert sees(gm, Cell(0, 0), Cell(2, 2)) == clear
    # Diagonal neighbours: adjacent on an 8-way grid, so always in sight; on a 4-way grid the
    # corner rule applies.
    rows = with_terrain(with_terrain(flat, Cell(1, 0), "w"), Cell(0, 1), "w")
    gm = hand_map(rows, kind="square", neighbours=neighbours)
    assert sees(gm, Cell(0, 0), Cell(1, 1)) == (neighbours == 8)


def test_square_line_through_a_corner_at_a_slant() -> None:
    # From (0,0) to (3,1) the line passes the corner at (1.5, 0.5) between (1,1) and (2,0).
    line = sight_line(SquareGrid(5, 5), Cell(0, 0), Cell(3, 1))
    assert [c for c, _ in line.crossed] == [Cell(1, 0), Cell(2, 1)]
    assert [({a, b}, t) for a, b, t in line.sides] == [({Cell(1, 1), Cell(2, 0)}, Fraction(1, 2))]


def test_visibility_limit() -> None:
    gm = hand_map(["." * 15] * 15)
    rule = LineOfSight(gm)
    grid = gm.grid
    centre = Cell(7, 7)
    o = grid.index(centre)
    for visibility in (0, 1, 2, 6, 20):
        # Adjacent cells under any visibility but nil, which sees nothing (LOS-7).
        reach = max(1, visibility) if visibility else -1
        want = {c for c in grid.cells() if grid.distance(centre, c) <= reach}
        got = {c for c in grid.cells() if rule.sees(o, grid.index(c), visibility)}
        assert got == want
    far = Cell(7, 12)
    assert sees(gm, centre, far, 5) and not sees(gm, centre, far, 4)


def test_tables_grow_for_a_longer_visibility() -> None:
    gm = random_map(11, 14, 12, max_elevation=3)
    rule = LineOfSight(gm, max_range=3)
    rule.prepare()
    assert rule.built_range == 3
    for o in range(0, gm.grid.size, 17):
        got = rule.visible_from(o, 9)
        want = sum(1 << j for j in range(gm.grid.size) if reference_sees(gm, o, j, 9))
        assert got == want
    assert rule.built_range == 9


# -- exact geometry against a brute-force polygon check -----------------------------------------

def _exact(grid: HexGrid | SquareGrid, point: tuple[float, float]) -> tuple[Fraction, Fraction]:
    """A point of the grid's own float geometry, made exact. Hex layouts are stretched by
    2/sqrt(3) across the rows of hexes, which puts every centre and corner on a 1/6 lattice."""
    x, y = point
    if isinstance(grid, HexGrid):
        if grid.orientation == "flat":
            x *= 2 / math.sqrt(3)
        else:
            y *= 2 / math.sqrt(3)
    fx, fy = Fraction(round(x * 6), 6), Fraction(round(y * 6), 6)
    assert abs(fx - Fraction(x)) < 1e-9 and abs(fy - Fraction(y)) < 1e-9
    return fx, fy


def _norm(grid: HexGrid | SquareGrid, dx: Fraction, dy: Fraction) -> Fraction:
    # Squared true length, undoing the stretch of _exact.
    if isinstance(grid, HexGrid):
        if grid.orientation == "flat":
            return Fraction(3, 4) * dx * dx + dy * dy
        return dx * dx + Fraction(3, 4) * dy * dy
    return dx * dx + dy * dy


def _brute_force(grid: HexGrid | SquareGrid, a: Cell, b: Cell) -> dict[Cell, tuple[str, Fraction]]:
    """How the segment between the centres of a and b meets each other cell's polygon: 'cross'
    (through the inside), 'side' (along an edge) or 'point' (one point), with the position of
    the point of contact closest to the cell's centre."""
    ax, ay = _exact(grid, grid.centre(a))
    bx, by = _exact(grid, grid.centre(b))
    dx, dy = bx - ax, by - ay
    out: dict[Cell, tuple[str, Fraction]] = {}
    for cell in grid.cells():
        if cell in (a, b):
            continue
        poly = [_exact(grid, p) for p in grid.corners(cell)]
        area = sum(poly[i][0] * poly[i - 1][1] - poly[i - 1][0] * poly[i][1]
                   for i in range(len(poly)))
        sign = 1 if area < 0 else -1
        lo, hi, along = Fraction(0), Fraction(1), False
        for i in range(len(poly)):
            (vx, vy), (wx, wy) = poly[i], poly[(i + 1) % len(poly)]
            ex, ey = wx - vx, wy - vy
            f0 = sign * (ex * (ay - vy) - ey * (ax - vx))
            f1 = sign * (ex * dy - ey * dx)
            if f1 == 0:
                if f0 < 0:
                    lo, hi = Fraction(1), Fraction(0)
                elif f0 == 0:
                    along = True
                continue
            if f1 > 0:
                lo = max(lo, -f0 / f1)
            else:
                hi = min(hi, -f0 / f1)
        if lo > hi:
            continue
        cx, cy = _exact(grid, grid.centre(cell))
        # Closest point of the segment's stretch in the cell to the centre, in true distance.
        num = _dot(grid, dx, dy, cx - ax, cy - ay)
        t = min(max(num / _norm(grid, dx, dy), lo), hi)
        kind = "point" if lo == hi else "side" if along else "cross"
        out[cell] = (kind, t)
    return out


def _dot(grid: HexGrid | SquareGrid, ux: Fraction, uy: Fraction, vx: Fraction,
         vy: Fraction) -> Fraction:
    if isinstance(grid, HexGrid):
        if grid.orientation == "flat":
            return Fraction(3, 4) * ux * vx + uy * vy
        return ux * vx + Fraction(3, 4) * uy * vy
    return ux * vx + uy * vy


GRIDS = [
    HexGrid(9, 9, "flat", "odd"), HexGrid(9, 9, "flat", "even"),
    HexGrid(9, 9, "pointy", "odd"), HexGrid(9, 9, "pointy", "even"),
    SquareGrid(9, 9, 4), SquareGrid(9, 9, 8),
]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(GRIDS), st.integers(0, 80), st.integers(0, 80))
def test_sight_line_is_the_exact_supercover(grid: HexGrid | SquareGrid, i: int, j: int) -> None:
    a, b = grid.cell(i), grid.cell(j)
    line = sight_line(grid, a, b)
    got: dict[Cell, tuple[str, Fraction | None]] = {}
    for c, t in line.crossed:
        got[c] = ("cross", t)
    for c1, c2, t in line.sides:
        for c in (c1, c2):
            if grid.contains(c):
                got[c] = ("side" if isinstance(grid, HexGrid) else "point", t)
    for c in line.grazed:
        got[c] = ("point", None)
    want: dict[Cell, tuple[str, Fraction | None]] = {}
    for c, (kind, t) in _brute_force(grid, a, b).items():
        want[c] = (kind, None if kind == "point" and isinstance(grid, HexGrid) else t)
    assert got == want
    assert line.cells() >= set(got) | {a, b}


# -- properties on random boards ----------------------------------------------------------------

KINDS = GRID_KINDS


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(KINDS), st.integers(3, 9), st.integers(3, 9),
       st.integers(1, 4))
def test_line_of_sight_is_symmetric_and_matches_the_reference(
    seed: int, kind: dict[str, str | int], width: int, height: int, top: int,
) -> None:
    gm = random_map(seed, width, height, max_elevation=top, woods=0.35, **kind)  # type: ignore[arg-type]
    rule = LineOfSight(gm)
    n = gm.grid.size
    visible = [rule.visible_from(i, 30) for i in range(n)]
    for i in range(n):
        for j in range(n):
            assert (visible[i] >> j & 1) == (visible[j] >> i & 1)
            assert bool(visible[i] >> j & 1) == reference_sees(gm, i, j, 30)


# -- the registry of sighting rules ------------------------------------------------------------
def test_every_registered_rule_answers_to_its_name_and_sees_its_neighbours() -> None:
    """A scenario names its sighting rule; each rule is registered under its own name, builds
    from a map alone, lets adjacent cells see each other under a visibility of 1, and sees
    nothing under a visibility of 0 (LOS-7)."""
    from rules.sighting.registry import DEFAULT_RULE, rule_named

    game_map = hand_map(FLAT5)
    assert DEFAULT_RULE in SIGHTING_RULES
    for name, make in SIGHTING_RULES.items():
        rule = make(game_map)
        assert rule.name == name and rule_named(name) is make and rule.game_map is game_map
        grid = game_map.grid
        centre = grid.index(Cell(2, 2))
        for near in grid.neighbours(Cell(2, 2)):
            assert rule.sees(centre, grid.index(near), 1)
        assert rule.visible_from(centre, 0) == 0


def test_an_unknown_sighting_rule_is_a_clear_error() -> None:
    from rules.sighting.registry import UnknownSightingRule, rule_named

    with pytest.raises(UnknownSightingRule,
                       match="unknown sighting rule 'radar'; known: clear_path, los"):
        rule_named("radar")
