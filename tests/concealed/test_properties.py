"""Properties of Concealed Forces over random play on the test ground: concealing, breeding,
moving markers and units, unconcealing, the enemy coming near (reveals), divisions lost, and
the phases passing. After every order, accepted or refused:

* no unit is lost or duplicated, and each is in exactly one place: on the map, or inside exactly
  one marker that exists and whose force lists it (or arriving, or out of play);
* the module's forces are exactly the markers on the map, a decoy holds nothing, a real force
  holds its units (a division its commander);
* decoys in play never exceed the pool, except that decoys already in play stay when the pool
  shrinks (ruling CF-2): a breeding never takes the side above its pool;
* no marker is left that an enemy unit finds (in its sight or within two hexes) and no marker
  shares a hex with an enemy unit;
* a refused order changes nothing.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rules import commands as cmd
from rules.concealed import records as rec
from rules.concealed.commands import BreedDecoy, ConcealForce, Unconceal
from rules.concealed.pool import decoy_pool
from rules.concealed.reveal.revealing import found_marker
from rules.engine import Refusal
from rules.forces.location import Arriving, Eliminated, InMarker, OnMap, Withdrawn
from rules.state import GameState, with_units
from tests.support.concealed_ground import SECOND, game
from tests.support.surprise import Game

KINDS = ("conceal", "conceal", "breed", "breed", "breed", "move_marker", "move_marker",
         "move_unit", "unconceal", "lose", "done", "done", "done")
#: The leaders and lone brigades that may take a marker, and the corps units that may join.
LEADERS = {"blue": ("blue-gen", "blue-gen2", "blue-cav"), "grey": ("grey-gen", "grey-cav")}
JOINERS = ("blue-cc", "blue-corps-art")
#: Divisions that may be destroyed (all at once, when all their units are on the map).
DIVISIONS = {"blue": ("blue-div", "blue-div2"), "grey": ("grey-div",)}

op = st.tuples(st.sampled_from(KINDS), st.integers(0, 1000), st.integers(0, 1000))


def side_of(g: Game) -> str:
    acting = g.state.acting_sides()
    return acting[0] if acting else "blue"


def attempt(g: Game, side: str, command: cmd.Command) -> None:
    before = g.state
    try:
        g.do(side, command)
    except Refusal:
        assert g.state is before  # a refused order changes nothing


def own_markers(state: GameState, side: str) -> list[str]:
    return sorted(m.id for m in state.markers.values() if m.side == side)


def play(g: Game, kind: str, a: int, b: int) -> None:
    side = side_of(g)
    state = g.state
    grid = state.loaded.map.grid
    mine = own_markers(state, side)
    match kind:
        case "conceal":
            leaders = LEADERS[side]
            join = tuple(j for n, j in enumerate(JOINERS) if b >> n & 1) if side == "blue" else ()
            attempt(g, side, ConcealForce(leader=leaders[a % len(leaders)], join=join))
        case "breed" if mine:
            attempt(g, side, BreedDecoy(marker=mine[a % len(mine)]))
        case "unconceal" if mine:
            attempt(g, side, Unconceal(marker=mine[a % len(mine)]))
        case "move_marker" if mine:
            marker = state.markers[mine[a % len(mine)]]
            near = sorted(grid.within(marker.cell, 8), key=lambda c: (c.row, c.col))
            attempt(g, side, cmd.Move(unit=marker.id,
                                      route=state.loaded.board.label(near[b % len(near)])))
        case "move_unit":
            units = sorted(u.id for u in state.units_of(side) if u.cell is not None)
            if units:
                unit = state.units[units[a % len(units)]]
                assert unit.cell is not None
                near = sorted(grid.within(unit.cell, 12), key=lambda c: (c.row, c.col))
                attempt(g, side, cmd.Move(unit=unit.id,
                                          route=state.loaded.board.label(near[b % len(near)])))
        case "lose":
            division = DIVISIONS[side][a % len(DIVISIONS[side])]
            units = [u for u in state.units.values() if u.command == division]
            if all(isinstance(u.location, OnMap) for u in units):
                g.state = with_units(state, {u.id: replace(u, location=Eliminated())
                                             for u in units})
        case "done":  # the step passes: every side acting in it is done
            for acting in state.acting_sides():
                attempt(g, acting, cmd.Done())
        case _:
            pass


def check(state: GameState, units: frozenset[str], breeding: dict[str, int]) -> None:
    assert frozenset(state.units) == units  # none lost, none made
    forces = rec.forces(state)
    assert set(forces) == set(state.markers)
    listed: dict[str, str] = {}
    for mid, record in forces.items():
        assert record["side"] == state.markers[mid].side
        kind = rec.kind_of(record)
        assert (kind is rec.ForceKind.DECOY) == (not record["units"])
        if kind is rec.ForceKind.DIVISION:
            assert record["commander"] in record["units"]
        for uid in record["units"]:
            assert uid not in listed, (uid, listed.get(uid), mid)  # in one marker only
            listed[uid] = mid
    for unit in state.units.values():
        location = unit.location
        assert isinstance(location, OnMap | InMarker | Arriving | Eliminated | Withdrawn)
        if isinstance(location, InMarker):
            assert listed.get(unit.id) == location.marker_id
            assert unit.cell is None
        else:
            assert unit.id not in listed
    for side in state.sides:
        decoys = len(rec.decoys_of(state, side))
        pool = decoy_pool(state, side)
        if decoys > breeding.get(side, 0):  # a decoy was bred: never above the pool
            assert decoys + rec.found_this_turn(state, side) <= pool, (side, decoys, pool)
        breeding[side] = decoys
    assert found_marker(state) is None
    for marker in state.markers.values():
        assert not any(u.cell == marker.cell for u in state.enemies_of(marker.side))


#: Blue with one division conceals it, breeds on turn 2, and both halves breed on turn 3.
BREEDING = [("conceal", 0, 0), *[("done", 0, 0)] * 6, ("breed", 0, 0), *[("done", 0, 0)] * 6,
            ("breed", 0, 0), ("breed", 1, 0), ("move_marker", 0, 5), *[("done", 0, 0)] * 6]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.booleans(), st.lists(op, min_size=1, max_size=40))
@example(True, BREEDING)
@example(False, BREEDING)
def test_random_play_keeps_every_unit_in_one_place_and_decoys_within_the_pool(
        small: bool, ops: list[tuple[str, int, int]]) -> None:
    g = game()
    if small:  # Blue with one division: a pool of one decoy, soon reached
        g.place(**{u: None for u in ("blue-cav", *SECOND)})
    units = frozenset(g.state.units)
    breeding: dict[str, int] = {}
    check(g.state, units, breeding)
    for kind, a, b in ops:
        if g.state.status != "active":
            break
        play(g, kind, a, b)
        check(g.state, units, breeding)
