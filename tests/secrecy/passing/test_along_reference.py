"""The sighting at every step of a move (``rules.sighting.along``) is exactly a fresh pass of the
slow reference over the units as they stand after that step, for every sighting rule, on random
boards, with several units moving at once along random ways of different lengths."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.ground.board import Board
from rules.ground.gamemap import GameMap
from rules.ground.grid import make_grid
from rules.scenario.ruleset import Ruleset, TerrainType
from rules.sighting.along import cell_at_step, sighting_along, steps_of
from rules.sighting.los import LineOfSight
from rules.sighting.path_reference import reference_path_sighting
from rules.sighting.paths import ClearPath
from rules.sighting.reference import reference_sighting
from rules.sighting.rule import SightingRule
from rules.sighting.sighting_pass import Presence

_COST = {"foot": 1.0, "horse": 1.0, "wheeled": 1.0, "leader": 1.0}
GRIDS: list[dict[str, Any]] = [
    {"kind": "hex", "orientation": "flat", "parity": "odd"},
    {"kind": "hex", "orientation": "pointy", "parity": "even"},
    {"kind": "square", "neighbours": 4},
    {"kind": "square", "neighbours": 8},
]
#: Each sighting rule, with its reference.
RULES: dict[str, tuple[Callable[[GameMap], SightingRule], Callable[..., Any]]] = {
    "los": (LineOfSight, reference_sighting),
    "clear_path": (ClearPath, reference_path_sighting),
}


def random_board(seed: int, grid_kind: dict[str, Any], width: int, height: int) -> GameMap:
    rng = random.Random(seed)
    grid = make_grid(grid_kind["kind"], width, height, grid_kind.get("orientation", "flat"),
                     grid_kind.get("parity", "odd"), grid_kind.get("neighbours", 4))
    ruleset = Ruleset(
        id="along", name="Sighting along a move (stand-in numbers)", stand_in=True,
        terrain={"clear": TerrainType(name="Clear", cost=_COST),
                 "woods": TerrainType(name="Woods", cost=_COST, los_height=1, woods=True),
                 "hill": TerrainType(name="Hill", cost=_COST, hill=True)},
        movement_allowance={"foot": 6, "horse": 12, "wheeled": 6, "leader": 12})
    terrain = [rng.choice(("clear", "clear", "woods", "hill")) for _ in range(grid.size)]
    return GameMap(Board.build(grid, [("A", 0, 0)], width, height), ruleset, terrain,
                   [rng.randrange(3) for _ in range(grid.size)])


def random_way(gm: GameMap, rng: random.Random, start: int, length: int) -> list[int]:
    """A walk from ``start`` through neighbouring cells (it may turn back on itself)."""
    way = [start]
    for _ in range(length):
        way.append(rng.choice(gm.grid.neighbour_indices(way[-1])))
    return way


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(GRIDS), st.integers(3, 8), st.integers(3, 8),
       st.sampled_from([1, 2, 4, 20]), st.sampled_from(sorted(RULES)), st.integers(1, 3))
def test_every_step_equals_a_fresh_reference_pass(
    seed: int, grid_kind: dict[str, Any], width: int, height: int, visibility: int,
    rule_name: str, movers: int,
) -> None:
    gm = random_board(seed, grid_kind, width, height)
    rng = random.Random(seed)
    units = [Presence(f"{side}-{k}", side, rng.randrange(gm.grid.size), rng.random() < 0.75,
                      rng.random() < 0.85) for side in ("blue", "red") for k in range(3)]
    moving = rng.sample([u.unit_id for u in units], movers)
    paths = {uid: random_way(gm, rng, rng.randrange(gm.grid.size), rng.randrange(0, 7))
             for uid in moving}
    make_rule, reference = RULES[rule_name]
    steps = sighting_along(make_rule(gm), visibility, units, paths, sides=("blue", "red"))
    assert len(steps) == steps_of(paths) + 1
    for step, seen in enumerate(steps):
        here = [Presence(u.unit_id, u.side, cell_at_step(paths[u.unit_id], step), u.combat,
                         u.observer) if u.unit_id in paths else u for u in units]
        expected = reference(gm, visibility, here, sides=("blue", "red"))
        assert seen == {side: s.seen_units for side, s in expected.items()}, step


def test_a_way_is_walked_one_cell_a_step_and_a_short_one_waits_at_its_end() -> None:
    paths = {"a": [5, 6, 7, 8], "b": [1, 2]}
    assert steps_of(paths) == 3
    assert [cell_at_step(paths["a"], s) for s in range(4)] == [5, 6, 7, 8]
    assert [cell_at_step(paths["b"], s) for s in range(4)] == [1, 2, 2, 2]
