"""The sighting pass (rules.sighting.sighting_pass): equal to the plain reference on random
boards and forces, incremental updates equal to a fresh pass, and the blocked cells of a
surprise move."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.boards import GRID_KINDS, random_forces, random_map
from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell
from rules.sighting.los import LineOfSight
from rules.sighting.reference import reference_sighting
from rules.sighting.sighting_pass import Presence, SideSighting, Sighting, full_pass

KINDS = GRID_KINDS
VISIBILITIES = [0, 1, 2, 3, 5, 20]


def small_map(seed: int, kind: dict[str, str | int], width: int, height: int) -> GameMap:
    return random_map(seed, width, height, max_elevation=3, woods=0.35, **kind)  # type: ignore[arg-type]


def cells_of(bits: int) -> set[int]:
    return {i for i in range(bits.bit_length()) if bits >> i & 1}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(KINDS), st.integers(3, 8), st.integers(3, 8),
       st.sampled_from(VISIBILITIES), st.integers(1, 6), st.sampled_from([2, 2, 3]))
def test_fast_pass_equals_the_reference(
    seed: int, kind: dict[str, str | int], width: int, height: int, visibility: int,
    per_side: int, n_sides: int,
) -> None:
    gm = small_map(seed, kind, width, height)
    sides = ("blue", "red", "green")[:n_sides]
    units = random_forces(gm, seed, per_side, sides=sides, leaders=0.2, wagons=0.15)
    fast = full_pass(LineOfSight(gm), visibility, units)
    assert fast == reference_sighting(gm, visibility, units)
    assert set(fast) == set(sides)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(KINDS), st.integers(3, 8), st.integers(3, 8),
       st.sampled_from(VISIBILITIES), st.integers(1, 5))
def test_incremental_updates_equal_a_fresh_pass(
    seed: int, kind: dict[str, str | int], width: int, height: int, visibility: int,
    per_side: int,
) -> None:
    gm = small_map(seed, kind, width, height)
    rule = LineOfSight(gm)
    rng = random.Random(seed)
    sides = ("blue", "red", "green")[: rng.choice((2, 3))]
    units = random_forces(gm, seed, per_side, sides=sides, leaders=0.2, wagons=0.15)
    sighting = Sighting(rule, visibility, units)
    here = {u.unit_id: u for u in units}
    spare = [Presence(f"new-{k}", rng.choice(sides), rng.randrange(gm.grid.size),
                      rng.random() < 0.7, rng.random() < 0.8) for k in range(6)]
    for _ in range(25):
        roll = rng.random()
        if roll < 0.6 and here:
            uid = rng.choice(sorted(here))
            cell = rng.randrange(gm.grid.size)
            sighting.move(uid, cell)
            here[uid] = Presence(uid, here[uid].side, cell, here[uid].combat, here[uid].observer)
        elif roll < 0.8 and spare:
            p = spare.pop()
            sighting.add(p)
            here[p.unit_id] = p
        elif here:
            uid = rng.choice(sorted(here))
            sighting.remove(uid)
            del here[uid]
        assert sighting.result() == full_pass(rule, visibility, here.values(), sides=sides)
    assert sighting.result() == reference_sighting(gm, visibility, here.values(), sides=sides)


def test_blocked_cells_are_pickets_and_enemy_sight() -> None:
    gm = small_map(3, KINDS[0], 12, 10)
    grid = gm.grid
    units = [
        Presence("b-inf", "blue", grid.index(Cell(2, 2)), combat=True, observer=True),
        Presence("b-ldr", "blue", grid.index(Cell(9, 8)), combat=False, observer=True),
        Presence("b-wag", "blue", grid.index(Cell(6, 0)), combat=False, observer=False),
        Presence("r-cav", "red", grid.index(Cell(10, 2)), combat=True, observer=True),
        Presence("r-art", "red", grid.index(Cell(5, 7)), combat=True, observer=True),
    ]
    result = full_pass(LineOfSight(gm), 6, units)
    blue, red = result["blue"], result["red"]

    def near(*cells: Cell) -> set[int]:
        return {grid.index(c) for cell in cells for c in grid.within(cell, 2)}

    # Exactly the radius-2 neighbourhoods of the enemy combat units: leaders and wagons post no
    # pickets.
    assert cells_of(blue.near_enemy_cells) == near(Cell(10, 2), Cell(5, 7))
    assert cells_of(red.near_enemy_cells) == near(Cell(2, 2))
    assert blue.enemy_watched_cells == red.seen_cells
    assert red.enemy_watched_cells == blue.seen_cells
    assert blue.blocked_cells == blue.near_enemy_cells | red.seen_cells
    for i in range(grid.size):
        assert blue.blocked(i) == (i in near(Cell(10, 2), Cell(5, 7)) or red.sees_cell(i))
    # A wagon sees nothing; a leader does.
    rule = LineOfSight(gm)
    assert blue.seen_cells == (rule.visible_from(units[0].cell, 6)
                               | rule.visible_from(units[1].cell, 6))


def test_adjacent_enemies_are_seen_at_night() -> None:
    """At night with a visibility of 1 adjacent enemies are seen; with nil visibility none is
    (LOS-7)."""
    gm = small_map(5, KINDS[2], 8, 8)
    grid = gm.grid
    a, b = Cell(3, 3), grid.neighbours(Cell(3, 3))[0]
    far = Cell(7, 7)
    units = [
        Presence("b", "blue", grid.index(a), True, True),
        Presence("r", "red", grid.index(b), True, True),
        Presence("r2", "red", grid.index(far), True, True),
    ]
    result = full_pass(LineOfSight(gm), 1, units)
    assert result["blue"].seen_units == {"r"}
    assert result["red"].seen_units == {"b"}
    nil = full_pass(LineOfSight(gm), 0, units)
    assert nil["blue"].seen_units == nil["red"].seen_units == frozenset()


def test_three_sides_count_every_other_side_as_enemy() -> None:
    gm = small_map(9, KINDS[0], 10, 8)
    units = random_forces(gm, 4, 4, sides=("a", "b", "c"))
    result = full_pass(LineOfSight(gm), 20, units)
    for side, mine in result.items():
        others = [r for s, r in result.items() if s != side]
        watched = 0
        for r in others:
            watched |= r.seen_cells
        assert mine.enemy_watched_cells == watched
        assert all(u.side != side for u in units if u.unit_id in mine.seen_units)


def test_sides_without_units_still_get_a_result() -> None:
    gm = small_map(2, KINDS[0], 6, 6)
    units = [Presence("r", "red", 7, True, True)]
    result = full_pass(LineOfSight(gm), 20, units, sides=("blue", "red"))
    assert result["blue"] == SideSighting(
        "blue", 0, frozenset(), result["blue"].near_enemy_cells,
        result["red"].seen_cells,
    )
    assert result["blue"].near_enemy_cells != 0


def test_changing_visibility_matches_a_fresh_pass() -> None:
    gm = small_map(8, KINDS[1], 12, 10)
    rule = LineOfSight(gm)
    units = random_forces(gm, 8, 8)
    sighting = Sighting(rule, 20, units)
    for visibility in (2, 6, 0, 20):
        sighting.set_visibility(visibility)
        assert sighting.result() == full_pass(rule, visibility, units)


def test_bad_changes_are_refused() -> None:
    gm = small_map(1, KINDS[0], 5, 5)
    sighting = Sighting(LineOfSight(gm), 20, [Presence("x", "blue", 0, True, True)])
    with pytest.raises(ValueError):
        sighting.add(Presence("x", "blue", 3, True, True))
    with pytest.raises(KeyError):
        sighting.move("nobody", 3)
    with pytest.raises(ValueError):
        Sighting(LineOfSight(gm), 20, [Presence("x", "blue", 0, True, True)] * 2)


def test_presence_of_kind() -> None:
    assert Presence.of_kind("i", "blue", 0, "infantry") == Presence("i", "blue", 0, True, True)
    assert Presence.of_kind("l", "blue", 0, "leader") == Presence("l", "blue", 0, False, True)
    assert Presence.of_kind("h", "blue", 0, "hq") == Presence("h", "blue", 0, False, True)
    assert Presence.of_kind("w", "blue", 0, "wagon") == Presence("w", "blue", 0, False, False)


@pytest.mark.parametrize("kind", KINDS)
def test_fast_pass_equals_the_reference_on_a_medium_board(kind: dict[str, str | int]) -> None:
    gm = random_map(12, 20, 15, max_elevation=5, woods=0.3, **kind)  # type: ignore[arg-type]
    units = random_forces(gm, 12, 12, sides=("blue", "red", "green"))
    rule = LineOfSight(gm)
    for visibility in (20, 4):
        fast = full_pass(rule, visibility, units)
        assert fast == reference_sighting(gm, visibility, units)
        assert all(r.seen_units for r in fast.values())
