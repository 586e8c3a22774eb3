"""The path rules have no range (rule text 002, ruling CV-6 as amended): the article sights a unit
in the open along a clear shortest path and sets no distance, so the turn's visibility does not
bound it; only a limit the turn sets for this rule (``clear_path_limit``, for a night or weather)
does.

On the sample's first turn Averell's two brigades and a horse battery of the raid's cavalry stand
at C0406 and C0506, at the Germanna Ford end of the cleared road, and Stuart, Fitz Lee's brigade
and Stuart's battery stand at C1427 and C1527 by Todd's Tavern: 26 hexes apart, with clear paths
between them. Under the old cap of 20 they did not see each other.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from rules.ground.grid import Cell
from rules.knowledge.levels import MARKER, UnitView
from rules.knowledge.sighted import rule_for, sight
from rules.scenario.loader import LoadedScenario
from rules.state import GameState
from rules.turn.sequence import NO_LIMIT, visibility_warnings
from rules.view import project
from tests.support.chancellorsville import sample, started

UNION_HORSE = {"averell-sargent", "averell-mcintosh", "raid-horse-arty-1"}
CONFEDERATE_HORSE = {"stuart-hq", "fitz-lee", "stuart-horse-arty"}
FIRST_TURN = 'turn = 1\ntime = "06:00"\n'


def on_turn_1(*lines: str) -> LoadedScenario:
    """The sample with lines added to its first turn."""
    return sample((FIRST_TURN, FIRST_TURN + "".join(f"{line}\n" for line in lines)))


def seen(state: GameState, side: str) -> set[str]:
    return set(sight(state)[side].seen_units)


def test_on_the_first_turn_the_horsemen_26_hexes_apart_see_each_other() -> None:
    state = started(sample())
    assert state.turn == 1
    grid = state.loaded.map.grid
    for u in UNION_HORSE:
        for c in CONFEDERATE_HORSE:
            a, b = state.units[u].cell, state.units[c].cell
            assert a is not None and b is not None
            assert grid.distance(a, b) == 26
    assert seen(state, "union") >= CONFEDERATE_HORSE
    assert seen(state, "confederate") >= UNION_HORSE
    # The Union's map shows them face up: the sighting reaches the side's own view.
    faces = {v.ref: v.level for v in project(state, "union").units}
    assert all(faces.get(c) == "identified" for c in CONFEDERATE_HORSE)


def test_a_limit_the_turn_sets_for_the_rule_still_binds_it() -> None:
    short = started(on_turn_1("clear_path_limit = 25"))
    assert not CONFEDERATE_HORSE & seen(short, "union")
    assert not UNION_HORSE & seen(short, "confederate")
    exact = started(on_turn_1("clear_path_limit = 26"))
    assert seen(exact, "union") >= CONFEDERATE_HORSE


def test_the_samples_nights_see_next_door_only() -> None:
    state = started(sample())
    night = replace(state, turn=4)
    assert not CONFEDERATE_HORSE & seen(night, "union")
    grid = state.loaded.map.grid
    for side, result in sight(night).items():
        for uid in result.seen_units:
            cell = state.units[uid].cell
            assert cell is not None
            assert any(u.side == side and u.cell is not None and grid.distance(u.cell, cell) <= 1
                       for u in state.units.values())


def test_the_turns_visibility_does_not_bound_the_rule_and_the_author_is_told() -> None:
    loaded = on_turn_1("visibility = 5")
    assert seen(started(loaded), "union") >= CONFEDERATE_HORSE
    warnings = visibility_warnings(loaded.scenario, loaded.ruleset)
    assert any("turns 1, 4, 8, 12, 16" not in w and "visibility" in w
               and "clear_path_limit" in w for w in warnings)
    assert visibility_warnings(sample().scenario, sample().ruleset) == ()


def test_the_side_is_told_sight_has_no_range_limit() -> None:
    state = started(sample())
    assert project(state, "union").visibility is None
    assert project(replace(state, turn=4), "union").visibility == 1
    assert project(started(on_turn_1("clear_path_limit = 20")), "union").visibility == 20


def sighters(state: GameState, side: str, cell: Cell) -> set[str]:
    """The side's units on the map whose cell sees ``cell`` under the rule, with no limit."""
    gm = state.loaded.map
    rule = rule_for(state)
    return {u.id for u in state.units_of(side) if u.cell is not None
            and rule.sees(gm.idx(u.cell), gm.idx(cell), NO_LIMIT)}


def _by_cell(units: tuple[UnitView, ...]) -> dict[Cell, list[UnitView]]:
    """The counters by cell; a face-down counter without its ref, a running number over the
    face-down counters (which shifts when another is turned up)."""
    out: dict[Cell, list[UnitView]] = defaultdict(list)
    for v in units:
        # An own counter's face-up mark follows the enemy's sight (CV-38): compared apart.
        out[v.cell].append(replace(v, ref="") if v.level == MARKER else replace(v, face_up=False))
    return {c: sorted(vs, key=repr) for c, vs in out.items()}


def test_the_longer_sight_changes_only_the_counters_it_sees() -> None:
    # The same first turn with the old cap of 20 and with none: for each side, the only counters
    # that change are the enemy units sighted, all of them only from beyond 20 hexes, and the
    # cells seen only grow; its own units and everything else are the same.
    capped = started(on_turn_1("clear_path_limit = 20"))
    open_ = started(sample())
    grid = open_.loaded.map.grid
    for side in ("union", "confederate"):
        gained = seen(open_, side) - seen(capped, side)
        assert seen(capped, side) <= seen(open_, side)
        assert gained  # the control: the longer sight shows something
        a, b = project(capped, side), project(open_, side)
        before, after = _by_cell(a.units), _by_cell(b.units)
        changed = {c for c in before.keys() | after.keys() if before.get(c) != after.get(c)}
        assert changed == {open_.units[u].cell for u in gained}
        assert a.seen_cells is not None and b.seen_cells is not None
        assert a.seen_cells < b.seen_cells
        # the side's counters turned face up are those the enemy's longer sight now identifies
        enemy = "confederate" if side == "union" else "union"
        up = {u.ref for u in b.own_units() if u.face_up} - {u.ref for u in a.own_units()
                                                             if u.face_up}
        assert up == {u.ref for u in project(open_, enemy).enemy_units()
                      if u.level == "identified"} - {u.ref for u in project(
                          capped, enemy).enemy_units() if u.level == "identified"}
        for uid in gained:
            cell = open_.units[uid].cell
            assert cell is not None
            assert all(grid.distance(o.cell, cell) > 20 for o in open_.units_of(side)
                       if o.cell is not None and o.id in sighters(open_, side, cell))
        # The side's memory gains the units it sighted, and nothing else.
        assert set(a.memory) <= set(b.memory)
        assert {v.cell for v in set(b.memory) - set(a.memory)} <= changed
        assert a.game_map.terrain == b.game_map.terrain
        blank = {"units": (), "seen_cells": None, "visibility": None, "memory": (),
                 "game_map": b.game_map}
        assert replace(a, **blank) == replace(b, **blank)
