"""The ``clear_path`` sighting rule (rules.sighting.paths, rulings CV-1 to CV-9): hand-worked
cases on hex and square boards, the plain reference (rules.sighting.path_reference) checked
against a literal enumeration of shortest paths, and the fast rule and pass equal to the
reference on random boards, incremental moves included."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.ground.board import Board
from rules.ground.gamemap import GameMap, edge
from rules.ground.grid import Cell, Cube, HexGrid, make_grid
from rules.knowledge.sighted import presences, rule_for, sight
from rules.scenario.ruleset import Ruleset, TerrainType
from rules.sighting.path_reference import (
    clear_shortest_path,
    reference_cover,
    reference_path_sees,
    reference_path_sighting,
    shortest_paths,
)
from rules.sighting.paths import ClearPath, Cover, cover_of
from rules.sighting.registry import rule_named
from rules.sighting.sighting_pass import Presence, Sighting, full_pass
from rules.state import initial_state
from rules.turn.sequence import NO_LIMIT
from rules.turn.sequence import visibility as turn_visibility
from tests.support.hand_maps import load_sample

_COST = {"foot": 1.0, "horse": 1.0, "wheeled": 1.0, "leader": 1.0}

Kind = dict[str, str | int]
HEX: Kind = {"kind": "hex", "orientation": "flat", "parity": "odd"}
SQUARE4: Kind = {"kind": "square", "neighbours": 4}
SQUARE8: Kind = {"kind": "square", "neighbours": 8}
KINDS: list[Kind] = [
    HEX,
    {"kind": "hex", "orientation": "flat", "parity": "even"},
    {"kind": "hex", "orientation": "pointy", "parity": "odd"},
    {"kind": "hex", "orientation": "pointy", "parity": "even"},
    SQUARE4,
    SQUARE8,
]


def ruleset() -> Ruleset:
    """Clear ground, woods, hills and towns (towns stand up for line of sight, not here)."""
    return Ruleset(
        id="paths",
        name="Clear-path test ruleset (stand-in numbers)",
        stand_in=True,
        terrain={
            "clear": TerrainType(name="Clear", cost=_COST),
            "woods": TerrainType(name="Woods", cost=_COST, los_height=1, woods=True),
            "hill": TerrainType(name="Hill", cost=_COST, hill=True),
            "town": TerrainType(name="Town", cost=_COST, los_height=1),
        },
        movement_allowance={"foot": 6, "horse": 12, "wheeled": 6, "leader": 12},
    )


_LETTERS = {".": "clear", "W": "woods", "h": "hill", "T": "town", "r": "clear", "R": "woods"}


def text_map(rows: list[str], kind: Kind = HEX, sheets: list[tuple[str, int, int]] | None = None,
             sheet_size: tuple[int, int] | None = None) -> GameMap:
    """A map drawn as text: ``.`` clear, ``W`` woods, ``h`` hill, ``T`` town, ``r`` a clear cell
    carrying a road, ``R`` a woods cell carrying a road. Road cells are joined to the road cells
    next to them. By default the whole grid is one sheet."""
    height, width = len(rows), len(rows[0])
    grid = make_grid(kind["kind"], width, height, kind.get("orientation", "flat"),  # type: ignore[arg-type]
                     kind.get("parity", "odd"), kind.get("neighbours", 4))  # type: ignore[arg-type]
    sw, sh = sheet_size or (width, height)
    board = Board.build(grid, sheets or [("A", 0, 0)], sw, sh)
    terrain = [_LETTERS[rows[c.row][c.col]] for c in grid.cells()]
    gm = GameMap(board, ruleset(), terrain, [0] * grid.size)
    road = {i for i, c in enumerate(grid.cells()) if rows[c.row][c.col] in "rR"}
    for i in road:
        for n in grid.neighbour_indices(i):
            if n in road:
                gm.road_edges[edge(i, n)] = "road"
    return gm


def at(gm: GameMap, col: int, row: int) -> int:
    return gm.grid.index(Cell(col, row))


def seen_cells(rule: ClearPath, observer: int, visibility: int) -> set[int]:
    bits = rule.visible_from(observer, visibility)
    return {i for i in range(rule.grid.size) if bits >> i & 1}


def reference_cells(gm: GameMap, observer: int, visibility: int) -> set[int]:
    return {t for t in range(gm.grid.size) if reference_path_sees(gm, observer, t, visibility)}


def both_see(gm: GameMap, a: int, b: int, visibility: int = 20) -> bool:
    """The fast rule's answer, checked to be the reference's."""
    fast = ClearPath(gm).sees(a, b, visibility)
    assert fast == reference_path_sees(gm, a, b, visibility)
    return fast


def random_path_map(seed: int, kind: Kind, width: int, height: int,
                    holes: bool = False) -> GameMap:
    """Random woods, hills and towns, and random road links; with ``holes``, a board of 2 x 2
    sheets with one sheet missing."""
    rng = random.Random(seed)
    if holes:
        sw, sh = max(2, width // 2), max(2, height // 2)
        width, height = 2 * sw, 2 * sh
        layout = [("A", 0, 0), ("B", 1, 0), ("C", 0, 1), ("D", 1, 1)]
        layout.pop(rng.randrange(4))
    grid = make_grid(kind["kind"], width, height, kind.get("orientation", "flat"),  # type: ignore[arg-type]
                     kind.get("parity", "odd"), kind.get("neighbours", 4))  # type: ignore[arg-type]
    board = (Board.build(grid, layout, sw, sh) if holes
             else Board.build(grid, [("A", 0, 0)], width, height))
    woods, hills = rng.uniform(0.1, 0.6), rng.uniform(0.0, 0.2)
    terrain = []
    for _ in range(grid.size):
        roll = rng.random()
        terrain.append("woods" if roll < woods else "hill" if roll < woods + hills
                       else "town" if roll < woods + hills + 0.05 else "clear")
    gm = GameMap(board, ruleset(), terrain, [rng.randrange(3) for _ in range(grid.size)])
    for i in range(grid.size):
        for n in grid.neighbour_indices(i):
            if n > i and rng.random() < 0.15:
                gm.road_edges[edge(i, n)] = "road"
    return gm


def random_units(gm: GameMap, rng: random.Random, per_side: int,
                 sides: tuple[str, ...] = ("blue", "red")) -> list[Presence]:
    cells = [i for i in range(gm.grid.size) if gm.board.on_a_sheet(gm.grid.cell(i))]
    return [
        Presence(f"{side}-{k}", side, rng.choice(cells), rng.random() < 0.75,
                 rng.random() < 0.85)
        for side in sides for k in range(per_side)
    ]


# Directions on the hex grid, as cube offsets: E-ish (1, 0, -1), then counter-clockwise.
DIRS = [(1, 0, -1), (1, -1, 0), (0, -1, 1), (-1, 0, 1), (-1, 1, 0), (0, 1, -1)]


def hex_map(width: int = 9, height: int = 9) -> GameMap:
    return text_map(["." * width] * height, HEX)


def hex_step(gm: GameMap, index: int, *dirs: int) -> int:
    """The hex reached from cell ``index`` by the steps ``dirs`` (indices into ``DIRS``)."""
    grid = gm.grid
    assert isinstance(grid, HexGrid)
    c = grid.to_cube(grid.cell(index))
    q, r, s = c
    for d in dirs:
        q, r, s = q + DIRS[d][0], r + DIRS[d][1], s + DIRS[d][2]
    return grid.index(grid.from_cube(Cube(q, r, s)))


def paint(gm: GameMap, terrain: str, *cells: int) -> None:
    for c in cells:
        gm.terrain[c] = terrain


def road(gm: GameMap, *cells: int) -> None:
    """A road running through ``cells`` in order."""
    for a, b in itertools.pairwise(cells):
        assert gm.grid.adjacent(gm.grid.cell(a), gm.grid.cell(b))
        gm.road_edges[edge(a, b)] = "road"


# -- woods ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", [HEX, SQUARE4, SQUARE8])
def test_a_unit_in_the_woods_is_seen_only_from_next_door(kind: Kind) -> None:
    gm = text_map([".......", "...W...", "......."], kind)
    target = at(gm, 3, 1)
    assert cover_of(gm, target) is Cover.WOODS
    assert both_see(gm, at(gm, 2, 1), target)
    assert both_see(gm, at(gm, 4, 1), target)
    # Two cells off, over open ground, the same observers see an open cell but not the woods.
    assert not both_see(gm, at(gm, 1, 1), target)
    assert not both_see(gm, at(gm, 5, 1), target)
    assert both_see(gm, at(gm, 1, 1), at(gm, 3, 0))
    # Even the largest visibility does not reach into the woods.
    assert seen_cells(ClearPath(gm), at(gm, 1, 1), 20) & {target} == set()


# -- a road in the woods ---------------------------------------------------------------------------

def woods_road() -> tuple[GameMap, int]:
    """A hex map with a road cell whose neighbours 0 to 3 are woods and 4 and 5 clear: a road
    in the woods, the road leaving by neighbour 4."""
    gm = hex_map()
    t = at(gm, 4, 4)
    paint(gm, "woods", *(hex_step(gm, t, d) for d in (0, 1, 2, 3)))
    road(gm, hex_step(gm, t, 4, 4), hex_step(gm, t, 4), t, hex_step(gm, t, 0))
    return gm, t


def test_a_road_in_the_woods_is_seen_two_cells_off_through_a_clear_cell() -> None:
    gm, t = woods_road()
    assert cover_of(gm, t) is Cover.WOODS_ROAD
    assert reference_cover(gm, gm.grid.cell(t)) is Cover.WOODS_ROAD
    # Next door, whatever the cell between (there is none), and from inside the woods too.
    for d in range(6):
        assert both_see(gm, hex_step(gm, t, d), t)
    # Two cells off straight down the road: the one cell between is clear.
    assert both_see(gm, hex_step(gm, t, 4, 4), t)
    # Two cells off between neighbours 4 and 5 (both clear), and between 3 (woods) and 4 (clear):
    # one clear cell between is enough.
    assert both_see(gm, hex_step(gm, t, 4, 5), t)
    assert both_see(gm, hex_step(gm, t, 3, 4), t)
    # Two cells off beyond the woods only: no clear cell between.
    assert not both_see(gm, hex_step(gm, t, 1, 1), t)
    assert not both_see(gm, hex_step(gm, t, 2, 3), t)


def test_a_road_in_the_woods_is_not_seen_three_cells_off_even_down_a_clear_road() -> None:
    gm, t = woods_road()
    far = hex_step(gm, t, 4, 4, 4)
    assert not both_see(gm, far, t)
    # The same distance, the same clear ground, to an open cell: seen.
    assert both_see(gm, far, hex_step(gm, t, 4))
    assert both_see(gm, far, hex_step(gm, t, 5))


def test_a_hill_between_blocks_the_two_cell_path() -> None:
    gm, t = woods_road()
    paint(gm, "hill", hex_step(gm, t, 4))
    assert not both_see(gm, hex_step(gm, t, 4, 4), t)
    assert both_see(gm, hex_step(gm, t, 4, 5), t)  # through neighbour 5, still clear
    paint(gm, "hill", hex_step(gm, t, 5))
    assert not both_see(gm, hex_step(gm, t, 4, 5), t)


def test_a_road_cell_with_three_woods_neighbours_is_open_ground() -> None:
    gm = hex_map()
    t = at(gm, 4, 4)
    paint(gm, "woods", *(hex_step(gm, t, d) for d in (0, 1, 2)))
    road(gm, hex_step(gm, t, 4), t, hex_step(gm, t, 0))
    assert cover_of(gm, t) is Cover.OPEN
    assert both_see(gm, hex_step(gm, t, 4, 4, 4, 4), t)
    # A fourth woods neighbour makes it a road in the woods: no longer seen from four cells.
    paint(gm, "woods", hex_step(gm, t, 3))
    assert cover_of(gm, t) is Cover.WOODS_ROAD
    assert not both_see(gm, hex_step(gm, t, 4, 4, 4, 4), t)


def test_a_woods_cell_carrying_a_road_is_woods() -> None:
    gm, t = woods_road()
    paint(gm, "woods", t)
    assert cover_of(gm, t) is Cover.WOODS
    assert not both_see(gm, hex_step(gm, t, 4, 4), t)
    assert both_see(gm, hex_step(gm, t, 4), t)


def test_woods_roads_on_square_grids_count_the_eight_squares_round() -> None:
    # Any four of the eight squares round a road square, corners included, on either grid.
    rows = [".....", "..W..", ".WrW.", "..r..", "..r.."]
    four = text_map(rows, SQUARE4)
    t = at(four, 2, 2)
    assert cover_of(four, t) is Cover.OPEN  # three woods squares round it
    rows8 = [".....", ".WW..", ".WrW.", "..r..", "..r.."]
    eight = text_map(rows8, SQUARE8)
    assert cover_of(eight, t) is Cover.WOODS_ROAD
    # The corner square (1, 1) borders the road square on a 4-neighbour grid too (ruling CV-3).
    assert cover_of(text_map(rows8, SQUARE4), t) is Cover.WOODS_ROAD
    full = text_map([".....", "..W..", ".WrW.", "..R..", "..r.."], SQUARE4)
    assert cover_of(full, t) is Cover.WOODS_ROAD
    assert both_see(four, at(four, 2, 4), t)
    assert both_see(four, at(four, 4, 4), t)  # open ground: four steps off
    assert both_see(eight, at(eight, 2, 4), t)  # two squares down the road, (2, 3) clear
    assert not both_see(eight, at(eight, 0, 0), t)  # two squares off, only woods between
    assert both_see(eight, at(eight, 4, 4), t)  # two off diagonally, (3, 3) clear
    assert not both_see(full, at(full, 2, 4), t)  # the one square between is woods



#: A straight road cut through the woods down column 2: its squares are clear.
ROAD_THROUGH_WOODS = ["WWrWW"] * 9


@pytest.mark.parametrize("kind", [HEX, SQUARE4, SQUARE8])
def test_a_road_cut_straight_through_the_woods_is_a_road_in_the_woods_on_every_grid(
        kind: Kind) -> None:
    # On a 4-neighbour grid the road square has road squares on two sides and woods on two;
    # its four woods corners make it hemmed in all the same.
    gm = text_map(ROAD_THROUGH_WOODS, kind)
    middle = at(gm, 2, 4)
    assert cover_of(gm, middle) is Cover.WOODS_ROAD
    assert reference_cover(gm, gm.grid.cell(middle)) is Cover.WOODS_ROAD
    assert not both_see(gm, at(gm, 2, 0), middle)  # four squares down the road: too far
    assert both_see(gm, at(gm, 2, 2), middle)  # two squares down it, the square between clear
    assert both_see(gm, at(gm, 2, 3), middle)  # next door


# -- open ground -----------------------------------------------------------------------------------

def test_one_clear_shortest_path_among_ties_is_enough() -> None:
    gm = hex_map()
    o = at(gm, 4, 4)
    t = hex_step(gm, o, 0, 1)  # two cells off, with two shortest paths: via 0 or via 1
    paint(gm, "woods", hex_step(gm, o, 0))
    assert both_see(gm, o, t)
    paint(gm, "hill", hex_step(gm, o, 1))
    assert not both_see(gm, o, t)
    # A longer way round is clear, but only shortest paths count.
    assert all(gm.terrain[hex_step(gm, o, *p)] == "clear" for p in [(5,), (5, 0), (5, 0, 0)])
    assert not both_see(gm, o, t)


def test_square_paths_run_in_steps_of_the_grid() -> None:
    rows = [".....", ".W...", "....."]
    four = text_map(rows, SQUARE4)
    o = at(four, 0, 1)
    # Straight along the row there is one shortest path, through the woods.
    assert not both_see(four, o, at(four, 2, 1))
    # One row up, three steps: the path over the top row is clear.
    assert both_see(four, o, at(four, 2, 0))
    # With diagonal steps the shortest path is two long and may pass (1, 0) or (1, 2).
    eight = text_map(rows, SQUARE8)
    assert both_see(eight, o, at(eight, 2, 1))
    eight2 = text_map([".W...", ".W...", ".W..."], SQUARE8)
    assert not both_see(eight2, at(eight2, 0, 1), at(eight2, 2, 1))


def test_the_two_end_cells_never_block_and_the_rule_is_not_symmetric() -> None:
    gm = text_map(["W...h.W"], SQUARE4)
    woods, hill = at(gm, 0, 0), at(gm, 4, 0)
    # From the woods one sees along clear ground; a unit on a hill stands on open ground.
    assert both_see(gm, woods, hill)
    # The unit on the hill is not seen back: it is four squares from a unit in the woods.
    assert not both_see(gm, hill, woods)
    # From the hill one sees over clear ground to the next woods only from next door.
    assert both_see(gm, hill, at(gm, 5, 0))
    assert not both_see(gm, hill, at(gm, 6, 0))
    assert both_see(gm, at(gm, 5, 0), at(gm, 6, 0))


def test_a_hill_between_blocks_and_towns_and_elevation_do_not() -> None:
    gm = text_map(["..h..", "..T..", "....."], SQUARE4)
    assert not both_see(gm, at(gm, 0, 0), at(gm, 4, 0))
    assert both_see(gm, at(gm, 0, 1), at(gm, 4, 1))
    gm.elevation[at(gm, 2, 2)] = 9  # a ridge, high above both ends
    assert both_see(gm, at(gm, 0, 2), at(gm, 4, 2))


# -- range ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", [HEX, SQUARE4, SQUARE8])
def test_visibility_caps_every_case(kind: Kind) -> None:
    gm = text_map([".........", "...W.....", "........."], kind)
    rule = ClearPath(gm)
    o, woods = at(gm, 2, 1), at(gm, 3, 1)
    assert seen_cells(rule, o, 0) == set()  # not even next door (ruling LOS-7)
    assert both_see(gm, o, woods, 1)
    next_door = {gm.grid.index(c) for c in gm.grid.within(gm.grid.cell(o), 1)}
    assert seen_cells(rule, o, 1) == next_door
    for vis in (2, 3, 5):
        seen = seen_cells(rule, o, vis)
        assert seen == reference_cells(gm, o, vis)
        assert max(gm.grid.distance(gm.grid.cell(o), gm.grid.cell(t)) for t in seen) == vis
    far = at(gm, 8, 0)
    dist = gm.grid.distance(gm.grid.cell(o), gm.grid.cell(far))
    assert not both_see(gm, o, far, dist - 1)
    assert both_see(gm, o, far, dist)


def test_a_longer_visibility_builds_the_tables_again() -> None:
    gm = text_map(["." * 30], SQUARE4)
    rule = ClearPath(gm, max_range=5)
    assert not rule.sees(0, 29, 5)
    assert rule.sees(0, 29, 29)
    assert rule.built_range >= 29
    assert not rule.sees(0, 29, 28)


# -- the board -------------------------------------------------------------------------------------

def test_paths_do_not_cross_the_gap_of_a_missing_sheet() -> None:
    # Sheets of 3 x 3 squares; the top right one is missing (columns 3-5, rows 0-2).
    gm = text_map(["......"] * 6, SQUARE4, sheets=[("A", 0, 0), ("C", 0, 1), ("D", 1, 1)],
                  sheet_size=(3, 3))
    rule = ClearPath(gm)
    o = at(gm, 2, 0)
    seen = seen_cells(rule, o, 20)
    assert seen == reference_cells(gm, o, 20)
    assert all(gm.board.on_a_sheet(gm.grid.cell(t)) for t in seen)
    # Six steps down and right: the paths that keep left of the gap are clear.
    assert both_see(gm, o, at(gm, 5, 3))
    assert not both_see(gm, o, at(gm, 5, 2))  # no sheet there: nothing to see
    # Woods below the observer leave only paths across the gap, which carries none.
    gm.terrain[at(gm, 2, 1)] = "woods"
    assert not both_see(gm, o, at(gm, 5, 3))
    assert not both_see(gm, o, at(gm, 3, 3))
    assert both_see(gm, o, at(gm, 0, 3))


def test_the_reference_search_equals_trying_every_shortest_path() -> None:
    for seed in range(30):
        kind = KINDS[seed % len(KINDS)]
        gm = random_path_map(seed, kind, 5, 5, holes=seed % 2 == 0)
        grid = gm.grid
        cells = list(grid.cells())
        rng = random.Random(seed)
        for a, b in (rng.sample(cells, 2) for _ in range(40)):
            paths = list(shortest_paths(gm, a, b))
            assert paths, (a, b)
            for p in paths:
                assert len(p) == grid.distance(a, b) + 1 and p[0] == a and p[-1] == b
                assert all(grid.adjacent(x, y) for x, y in itertools.pairwise(p))
            clear = any(
                all(gm.board.on_a_sheet(c) and not gm.is_woods(c) and not gm.is_hill(c)
                    for c in p[1:-1])
                for p in paths
            )
            assert clear_shortest_path(gm, a, b) == clear


# -- the fast rule and pass against the reference ------------------------------------------------

VISIBILITIES = [0, 1, 2, 3, 5, 20]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(KINDS), st.integers(2, 8), st.integers(2, 8),
       st.booleans())
def test_the_rule_equals_the_reference_from_every_cell(
    seed: int, kind: Kind, width: int, height: int, holes: bool,
) -> None:
    gm = random_path_map(seed, kind, width, height, holes=holes)
    rule = ClearPath(gm)
    for o in range(gm.grid.size):
        for vis in VISIBILITIES:
            assert seen_cells(rule, o, vis) == reference_cells(gm, o, vis), (o, vis)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(KINDS), st.integers(3, 8), st.integers(3, 8),
       st.sampled_from(VISIBILITIES), st.integers(1, 6), st.sampled_from([2, 2, 3]),
       st.booleans())
def test_the_pass_equals_the_reference(
    seed: int, kind: Kind, width: int, height: int, visibility: int, per_side: int,
    n_sides: int, holes: bool,
) -> None:
    gm = random_path_map(seed, kind, width, height, holes=holes)
    sides = ("blue", "red", "green")[:n_sides]
    units = random_units(gm, random.Random(seed), per_side, sides)
    fast = full_pass(ClearPath(gm), visibility, units)
    assert fast == reference_path_sighting(gm, visibility, units)
    assert set(fast) == set(sides)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(KINDS), st.integers(3, 8), st.integers(3, 8),
       st.sampled_from(VISIBILITIES), st.integers(1, 5))
def test_incremental_moves_equal_the_reference(
    seed: int, kind: Kind, width: int, height: int, visibility: int, per_side: int,
) -> None:
    gm = random_path_map(seed, kind, width, height, holes=seed % 3 == 0)
    rule = ClearPath(gm)
    rng = random.Random(seed)
    units = random_units(gm, rng, per_side)
    sighting = Sighting(rule, visibility, units)
    here = {u.unit_id: u for u in units}
    cells = [i for i in range(gm.grid.size) if gm.board.on_a_sheet(gm.grid.cell(i))]
    spare = [Presence(f"new-{k}", rng.choice(("blue", "red")), rng.choice(cells),
                      rng.random() < 0.7, rng.random() < 0.8) for k in range(4)]
    for _ in range(20):
        roll = rng.random()
        if roll < 0.6 and here:
            uid = rng.choice(sorted(here))
            cell = rng.choice(cells)
            sighting.move(uid, cell)
            p = here[uid]
            here[uid] = Presence(uid, p.side, cell, p.combat, p.observer)
        elif roll < 0.75 and spare:
            p = spare.pop()
            sighting.add(p)
            here[p.unit_id] = p
        elif roll < 0.9 and here:
            uid = rng.choice(sorted(here))
            sighting.remove(uid)
            del here[uid]
        else:
            visibility = rng.choice(VISIBILITIES)
            sighting.set_visibility(visibility)
        assert sighting.result() == reference_path_sighting(
            gm, visibility, here.values(), sides=("blue", "red"))


# -- the rule in the game --------------------------------------------------------------------------

def test_the_rule_is_chosen_by_name() -> None:
    assert rule_named("clear_path") is ClearPath
    assert ClearPath.name == "clear_path"


def test_the_sample_sights_by_clear_paths_and_its_nights_see_next_door_only() -> None:
    loaded = load_sample("chancellorsville-hidden")
    scenario = loaded.scenario
    assert scenario.scenario.options["sighting"] == "clear_path"
    nights = [t.turn for t in scenario.turns if t.light == "night"]
    assert nights == [4, 8, 12, 16]
    for t in scenario.turns:
        # By day the paths run as far as they go (ruling CV-6); at night the turn limits them.
        expected = 1 if t.turn in nights else NO_LIMIT
        assert turn_visibility(scenario, loaded.ruleset, t.turn) == expected
    gm = loaded.map
    covers = [cover_of(gm, i) for i in range(gm.grid.size)]
    assert covers.count(Cover.WOODS_ROAD) > 0  # the sample has roads cut through the woods
    assert covers == [reference_cover(gm, gm.grid.cell(i)) for i in range(gm.grid.size)]


@pytest.mark.slow
def test_the_sample_game_sees_by_the_reference_by_day_and_at_night() -> None:
    loaded = load_sample("chancellorsville-hidden")
    state = initial_state(loaded)
    assert isinstance(rule_for(state), ClearPath)
    units = presences(state)
    gm = loaded.map
    day = sight(state)
    assert day == reference_path_sighting(gm, NO_LIMIT, units, sides=day)
    night = replace(state, turn=4)
    dark = sight(night)
    assert dark == reference_path_sighting(gm, 1, units, sides=dark)
    # At night only units next to an enemy observer are sighted.
    for side, result in dark.items():
        for uid in result.seen_units:
            cell = state.units[uid].cell
            assert cell is not None
            assert any(
                u.side == side and u.observer and u.cell is not None
                and gm.grid.distance(u.cell, cell) <= 1
                for u in state.units.values()
            )
    assert sum(len(r.seen_units) for r in dark.values()) < sum(
        len(r.seen_units) for r in day.values())
