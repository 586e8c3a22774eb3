"""Sighting tables kept by the map's content (``rules.sighting.built_tables``): copies of one board
share one build, a board that differs in anything gets tables of its own that see as it does,
only the last few sets are kept, and the sighting rule of each map is kept for the last few maps
only."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from rules.ground.gamemap import GameMap
from rules.knowledge import sighted
from rules.knowledge.sighted import rule_for
from rules.sighting import built_tables
from rules.sighting.los import LineOfSight
from rules.sighting.paths import ClearPath
from rules.sighting.reference import reference_sees
from rules.state import initial_state
from tests.support.hand_maps import hand_map
from tests.support.tiny_games import load_tiny

ROWS = [".....", ".w...", "..t..", ".....", "....."]


class CountedLos(LineOfSight):
    """Line of sight that counts its builds."""

    builds = 0

    def build(self, game_map: GameMap, rng: int) -> list[int]:
        CountedLos.builds += 1
        return super().build(game_map, rng)


@pytest.fixture
def counted() -> Iterator[type[CountedLos]]:
    built_tables.forget()  # each test starts with no board built
    CountedLos.builds = 0
    yield CountedLos


def test_copies_of_one_board_share_one_build(counted: type[CountedLos]) -> None:
    first, second = hand_map(ROWS), hand_map(ROWS)
    assert first is not second
    a, b = counted(first), counted(second)
    a.prepare(4)
    b.prepare(4)
    assert counted.builds == 1
    assert all(a.visible_from(i, 4) == b.visible_from(i, 4) for i in range(first.grid.size))


def test_a_board_that_differs_gets_its_own_tables_and_sees_as_it_does(
        counted: type[CountedLos]) -> None:
    open_ground = hand_map(["....."] * 5)
    wooded = hand_map(["....."] * 2 + [".www."] + ["....."] * 2)
    elsewhere, behind = open_ground.idx(open_ground.grid.cell(2)), open_ground.grid.size - 3
    assert counted(open_ground).sees(elsewhere, behind, 4)
    assert not counted(wooded).sees(elsewhere, behind, 4)
    assert counted.builds == 2
    for gm in (open_ground, wooded):
        rule = counted(gm)
        for i in range(gm.grid.size):
            for j in range(gm.grid.size):
                assert rule.sees(i, j, 4) == reference_sees(gm, i, j, 4), (i, j)


def test_a_board_changed_after_a_build_is_built_again(counted: type[CountedLos]) -> None:
    gm = hand_map(["....."] * 5)
    top, bottom = 2, gm.grid.size - 3
    assert counted(gm).sees(top, bottom, 4)
    gm.terrain[gm.grid.size // 2] = "woods"  # right between them
    assert counted(gm).sees(top, bottom, 4) == reference_sees(gm, top, bottom, 4)
    assert counted.builds == 2


def test_each_rule_and_each_visibility_has_its_own_tables(counted: type[CountedLos]) -> None:
    gm = hand_map(ROWS)
    los, paths = LineOfSight(gm, max_range=3), ClearPath(gm, max_range=3)
    los.prepare(3)
    paths.prepare(3)
    assert paths.built_range == los.built_range == 3
    assert [paths.visible_from(i, 3) for i in range(gm.grid.size)] == paths.build(gm, 3)
    assert [los.visible_from(i, 3) for i in range(gm.grid.size)] == los.build(gm, 3)
    assert paths.build(gm, 3) != los.build(gm, 3)  # the woods hide differently under each
    wider = LineOfSight(hand_map(ROWS), max_range=3)
    wider.prepare(4)
    assert wider.built_range == 4
    assert [wider.visible_from(i, 4) for i in range(gm.grid.size)] == los.build(gm, 4)


def test_only_the_last_few_sets_of_tables_are_kept(counted: type[CountedLos]) -> None:
    maps = [hand_map(["." * (5 + n)] * 5) for n in range(built_tables.KEPT + 3)]
    for gm in maps:
        counted(gm).prepare(3)
    assert built_tables.kept_count() == built_tables.KEPT
    assert counted.builds == len(maps)
    counted(hand_map(["." * (5 + len(maps) - 1)] * 5)).prepare(3)  # the latest: still kept
    assert counted.builds == len(maps)
    counted(hand_map(["." * 5] * 5)).prepare(3)  # the first: long gone
    assert counted.builds == len(maps) + 1


def test_the_rule_of_a_map_is_kept_for_the_last_few_maps_only() -> None:
    loaded = load_tiny()
    state = initial_state(loaded)
    rule = rule_for(state)
    assert rule_for(state) is rule
    others = [dataclasses.replace(state, loaded=dataclasses.replace(
        loaded, map=dataclasses.replace(loaded.map))) for _ in range(sighted._RULES_KEPT + 2)]
    for other in others:
        assert rule_for(other) is not rule
    assert len(sighted._RULES) == sighted._RULES_KEPT
