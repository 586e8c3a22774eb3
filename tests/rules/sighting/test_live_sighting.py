"""A game's live sighting (``rules.knowledge.live_sighting``) is always exactly a fresh pass over
the units it is given, for every sighting rule, however they changed since it last saw them:
units moving, arriving, leaving the map, dropped from the records, turned into another kind,
several games' states asked for in turn, and a move walked step by step in it."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.boards import as_units, random_forces, random_map
from rules.forces.location import Eliminated, OnMap
from rules.forces.units import Unit
from rules.forces.words import UnitKind
from rules.ground.gamemap import GameMap
from rules.knowledge import live_sighting
from rules.knowledge.live_sighting import synced
from rules.sighting.along import sighting_along, walk_along
from rules.sighting.los import LineOfSight
from rules.sighting.or_tree import OrTree
from rules.sighting.paths import ClearPath
from rules.sighting.rule import SightingRule
from rules.sighting.sighting_pass import Presence, SideSighting, full_pass

RULES: dict[str, Callable[[GameMap], SightingRule]] = {"los": LineOfSight,
                                                       "clear_path": ClearPath}
GRIDS: list[dict[str, str | int]] = [
    {"kind": "hex", "orientation": "flat", "parity": "odd"},
    {"kind": "hex", "orientation": "pointy", "parity": "even"},
    {"kind": "square", "neighbours": 4},
    {"kind": "square", "neighbours": 8},
]
SIDES = ("blue", "red")
Units = dict[str, Unit]


def fresh(rule: SightingRule, visibility: int, units: Units) -> dict[str, SideSighting]:
    gm = rule.game_map
    return full_pass(rule, visibility, [Presence(u.id, u.side, gm.idx(u.cell), u.combat,
                                                 u.observer)
                                        for u in units.values() if u.cell is not None],
                     sides=SIDES)


def live(rule: SightingRule, visibility: int, units: Units) -> dict[str, SideSighting]:
    with synced(rule, visibility, rule.game_map.ruleset.blocked_radius, SIDES, units) as s:
        return s.result()


def changed(rng: random.Random, gm: GameMap, units: Units) -> Units:
    """A new set of records, as a command would leave it: most records the same objects, a few
    replaced, moved, put off or back on the map, dropped or added."""
    out = dict(units)
    for _ in range(rng.randrange(1, 4)):
        uid = rng.choice(sorted(out))
        unit = out[uid]
        roll = rng.random()
        cell = gm.grid.cell(rng.randrange(gm.grid.size))
        if roll < 0.5:
            out[uid] = unit.placed(cell)
        elif roll < 0.6:
            out[uid] = replace(unit, location=Eliminated())
        elif roll < 0.7:
            out[uid] = replace(unit, kind=rng.choice(list(UnitKind)))
        elif roll < 0.8 and len(out) > 1:
            del out[uid]
        elif roll < 0.9:
            new = f"new-{rng.randrange(10**6)}"
            out[new] = replace(unit, id=new, side=rng.choice(SIDES), location=OnMap(cell))
        else:
            out[uid] = replace(unit, strength=unit.strength + 1)  # a new record, same place
    return out


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(GRIDS), st.sampled_from(sorted(RULES)),
       st.integers(3, 8), st.integers(3, 8), st.sampled_from([0, 1, 2, 4, 20]),
       st.integers(1, 5))
def test_a_live_sighting_is_a_fresh_pass_after_every_change(
        seed: int, grid: dict[str, str | int], rule_name: str, width: int, height: int,
        visibility: int, per_side: int) -> None:
    live_sighting.clear()
    gm = random_map(seed, width, height, max_elevation=3, woods=0.35, **grid)  # type: ignore[arg-type]
    rule = RULES[rule_name](gm)
    rng = random.Random(seed)
    # Two games on the one board, their states asked for in turn, now and then an old one.
    games = [as_units(gm.grid, random_forces(gm, seed + g, per_side, sides=SIDES,
                                             leaders=0.2, wagons=0.15)) for g in range(2)]
    history: list[Units] = list(games)
    for _ in range(12):
        g = rng.randrange(2)
        games[g] = changed(rng, gm, games[g])
        history.append(games[g])
        asked = rng.choice(history) if rng.random() < 0.2 else games[g]
        assert live(rule, visibility, asked) == fresh(rule, visibility, asked)


@pytest.mark.parametrize("rule_name", sorted(RULES))
def test_a_move_walked_in_the_live_sighting_leaves_it_where_the_move_ended(
        rule_name: str) -> None:
    live_sighting.clear()
    gm = random_map(7, 10, 8, max_elevation=3, woods=0.3)
    rule = RULES[rule_name](gm)
    radius = gm.ruleset.blocked_radius
    units = as_units(gm.grid, random_forces(gm, 7, 6, sides=SIDES, leaders=0.2))
    mover = next(u for u in units.values() if u.combat)
    assert mover.cell is not None
    way = [gm.idx(mover.cell)]
    rng = random.Random(7)
    for _ in range(6):
        way.append(rng.choice(gm.grid.neighbour_indices(way[-1])))
    before = dict(units)
    after = {**units, mover.id: mover.placed(gm.grid.cell(way[-1]))}
    live(rule, 4, before)  # the command before left the live sighting here
    with synced(rule, 4, radius, SIDES, after) as sighting:
        steps = walk_along(sighting, {mover.id: way})
    presences = [Presence(u.id, u.side, gm.idx(u.cell), u.combat, u.observer)
                 for u in after.values() if u.cell is not None]
    assert steps == sighting_along(rule, 4, presences, {mover.id: way}, sides=SIDES)
    assert live(rule, 4, after) == fresh(rule, 4, after)


def test_a_change_that_fails_midway_is_not_kept() -> None:
    live_sighting.clear()
    gm = random_map(3, 6, 6)
    rule = LineOfSight(gm)
    units = as_units(gm.grid, random_forces(gm, 3, 4, sides=SIDES))
    with pytest.raises(KeyError), synced(rule, 3, 2, SIDES, units) as sighting:
        sighting.move("no such unit", 0)
    assert live(rule, 3, units) == fresh(rule, 3, units)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 2**40)), max_size=60),
       st.dictionaries(st.integers(0, 30), st.integers(0, 2**40), max_size=10))
def test_an_or_tree_is_the_union_of_its_members(changes: list[tuple[int, int]],
                                                first: dict[int, int]) -> None:
    tree = OrTree(first)
    members = dict(first)
    for key, bits in changes:
        if key in members and bits % 3 == 0:
            tree.drop(key)
            del members[key]
        else:
            tree.put(key, bits)
            members[key] = bits
        union = 0
        for value in members.values():
            union |= value
        assert tree.total == union and len(tree) == len(members)
