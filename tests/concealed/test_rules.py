"""Concealed Forces (rule text 001), section by section, on the test ground
(``tests/fixtures/concealed.toml``): Blue's I Corps (two divisions and a corps battery) and an
independent cavalry brigade west of a belt of woods no line of sight crosses; Grey's division
east of it. Each test states the rule it checks; units are placed by hand where a test needs an
enemy near."""

from __future__ import annotations

import pytest

from rules import commands as cmd
from rules.concealed import records as rec
from rules.concealed.commands import (
    BreedDecoy,
    ConcealForce,
    ConcealPlan,
    MarkDetached,
    Unconceal,
)
from rules.concealed.pool import decoy_pool, decoys_available
from rules.concealed.reveal.plans import directions, toward
from rules.engine import Refusal
from rules.forces.location import InMarker, OnMap
from rules.ground.grid import Cell
from rules.view import project
from tests.support.concealed_ground import (
    DIVISION,
    SECOND,
    breed,
    conceal,
    contents,
    eliminate,
    game,
    ground,
    to_blue_movement,
    unconceal,
    under,
)
from tests.support.surprise import Dice, Game
from umpire.games.dice import SeededDice

#: A third Blue division that reaches the field on turn 3 (Marengo's Monnier, say).
LATE_DIVISION = """
[[commands]]
id = "blue-div3"
side = "blue"
name = "3rd Division"
echelon = "division"
parent = "blue-corps"
leader = "blue-gen3"

[[units]]
id = "blue-gen3"
side = "blue"
name = "General Navy"
kind = "leader"
echelon = "division"
command = "blue-div3"
arrives = { turn = 3, at = "A0111" }

[[units]]
id = "blue-7"
side = "blue"
name = "7th Brigade"
kind = "infantry"
command = "blue-div3"
strength = 6
arrives = { turn = 3, at = "A0111" }
"""


def refused(g: Game, side: str, command: cmd.Command) -> str:
    """The refusal's words; the state is left as it was."""
    before = g.state
    with pytest.raises(Refusal) as e:
        g.do(side, command)
    assert g.state is before
    return str(e.value)


def cell(g: Game, unit: str) -> str:
    return g.label(unit)


# -- Cf 1.1, 1.5: the decoy pool ---------------------------------------------------------------
def test_the_pool_is_one_decoy_per_division_and_independent_cavalry_brigade() -> None:
    g = game()
    # Blue: two divisions and the independent Blue Dragoons; Grey: one division. The corps and
    # the army are no divisions.
    assert decoy_pool(g.state, "blue") == 3
    assert decoy_pool(g.state, "grey") == 1


def test_the_pool_grows_when_a_division_arrives() -> None:
    g = game(extra=LATE_DIVISION)
    assert decoy_pool(g.state, "blue") == 3
    to_blue_movement(g, 3)
    assert g.state.units["blue-7"].cell is not None
    assert decoy_pool(g.state, "blue") == 4


def test_the_pool_shrinks_when_a_division_is_lost_and_decoys_in_play_are_kept() -> None:
    g = game()
    eliminate(g, "blue-cav")
    assert decoy_pool(g.state, "blue") == 2
    first = conceal(g, "blue-gen")
    to_blue_movement(g, 2)
    second = conceal(g, "blue-gen2")
    to_blue_movement(g, 3)
    _, d1 = breed(g, first)
    _, d2 = breed(g, second)
    apart(g, d1)
    apart(g, d2)
    assert decoys_available(g.state, "blue") == 0
    # The second division is destroyed: the pool is 1, both decoys stay in play (CF-2) ...
    eliminate(g, *SECOND)
    assert decoy_pool(g.state, "blue") == 1
    to_blue_movement(g, 4)
    assert sorted(rec.decoys_of(g.state, "blue")) == sorted([d1, d2])
    # ... and no more is bred while the decoys in play are not below the pool.
    assert "no decoy is left" in refused(g, "blue", BreedDecoy(marker=d1))


def test_a_found_decoy_is_back_in_the_pool_only_next_turn() -> None:
    g = game()
    eliminate(g, "blue-cav", *SECOND)
    assert decoy_pool(g.state, "blue") == 1
    force = conceal(g, "blue-gen")
    to_blue_movement(g, 2)
    force, decoy = breed(g, force)
    apart(g, decoy)
    assert decoys_available(g.state, "blue") == 0
    to_blue_movement(g, 3)
    unconceal(g, decoy)  # the owner lifts it at the start of his phase (CF-20)
    assert decoy not in g.state.markers
    assert decoys_available(g.state, "blue") == 0
    assert "no decoy is left" in refused(g, "blue", BreedDecoy(marker=force))
    to_blue_movement(g, 4)
    assert decoys_available(g.state, "blue") == 1
    breed(g, force)


def apart(g: Game, marker: str) -> None:
    """Move the marker one hex, to the first neighbouring hex it may enter (Cf 1.4: a bred
    marker must leave its parent's hex in the phase it was bred in)."""
    here = g.state.markers[marker].cell
    for there in g.state.loaded.map.grid.neighbours(here):
        if not g.state.loaded.board.on_a_sheet(there):
            continue
        try:
            g.do("blue", cmd.Move(unit=marker, route=g.state.loaded.board.label(there)))
        except Refusal:
            continue
        if g.state.markers[marker].cell != here:
            return
    raise AssertionError(f"marker {marker} could not leave {here}")


# -- Cf 1.3: creating concealed forces ---------------------------------------------------------
def test_a_division_goes_under_a_marker_on_its_commander() -> None:
    g = game()
    where = g.state.units["blue-gen"].cell
    mid = conceal(g, "blue-gen")
    marker = g.state.markers[mid]
    assert marker.cell == where and marker.side == "blue"
    assert under(g.state, mid) == set(DIVISION)
    assert all(g.state.units[u].cell is None for u in DIVISION)
    assert contents(g.state, "blue") == {mid: tuple(sorted(DIVISION))}
    assert rec.kind_of(rec.force(g.state, mid) or {}) is rec.ForceKind.DIVISION
    # The other division and the corps units stay on the map.
    assert all(isinstance(g.state.units[u].location, OnMap) for u in (*SECOND, "blue-cc"))


def test_corps_units_in_range_and_unseen_may_join_the_division() -> None:
    g = game()
    mid = conceal(g, "blue-gen", "blue-cc", "Corps Battery")
    assert under(g.state, mid) == {*DIVISION, "blue-cc", "blue-corps-art"}


def test_a_corps_unit_beyond_command_range_may_not_join() -> None:
    g = game()
    g.place(**{"blue-corps-art": "A1108"})  # 6 hexes from General Azure; the range is 5
    why = refused(g, "blue", ConcealForce(leader="blue-gen", join=("blue-corps-art",)))
    assert "beyond General Azure's command range (5 hexes)" in why


def test_only_units_directly_under_the_corps_may_join() -> None:
    g = game()
    why = refused(g, "blue", ConcealForce(leader="blue-gen", join=("blue-5",)))
    assert "not directly under the division's corps" in why


def test_a_division_with_a_unit_out_of_command_may_not_conceal_until_it_is_detached() -> None:
    g = game()
    g.place(**{"blue-3": "A0212"})  # 7 hexes from General Azure
    why = refused(g, "blue", ConcealForce(leader="blue-gen"))
    assert "3rd Brigade is out of command" in why
    g.to(2, "command")
    g.do("blue", MarkDetached(unit="blue-3"))  # an order of the Command Phase (CF-25)
    to_blue_movement(g, 2)
    mid = conceal(g, "blue-gen")
    assert under(g.state, mid) == {"blue-1", "blue-2", "blue-gen"}
    assert cell(g, "blue-3") == "A0212"  # the detached brigade stays on the map


def test_a_division_with_a_unit_in_enemy_sight_may_not_conceal() -> None:
    g = game()
    g.place(**{"grey-cav": "A0904"})  # clear ground to 2nd Brigade at A0504, 4 hexes off
    why = refused(g, "blue", ConcealForce(leader="blue-gen"))
    assert "is in the enemy's line of sight" in why


def test_a_marker_may_not_be_placed_within_two_hexes_of_the_enemy() -> None:
    g = game()
    g.place(**{"grey-train": "A0705"})  # a wagon: sees nothing, but stands 2 hexes off
    why = refused(g, "blue", ConcealForce(leader="blue-gen"))
    assert "at least 3 hexes from the enemy" in why
    g.place(**{"grey-train": "A0805"})  # 3 hexes: far enough
    conceal(g, "blue-gen")


def test_an_independent_cavalry_brigade_conceals_alone_a_divisional_one_does_not() -> None:
    g = game()
    mid = conceal(g, "blue-cav")
    assert under(g.state, mid) == {"blue-cav"}
    assert rec.kind_of(rec.force(g.state, mid) or {}) is rec.ForceKind.CAVALRY
    g.step()
    why = refused(g, "grey", ConcealForce(leader="grey-cav"))
    assert "part of its division" in why


def test_only_a_divisional_commander_takes_a_marker() -> None:
    g = game()
    assert "not a divisional commander" in refused(g, "blue", ConcealForce(leader="blue-cc"))
    assert "not a divisional commander" in refused(g, "blue", ConcealForce(leader="blue-1"))


def test_forces_conceal_only_at_the_start_of_their_own_movement_phase() -> None:
    g = game()
    g.do("blue", cmd.Move(unit="blue-cav", route="A0303"))
    assert "before any unit of your side moves" in refused(
        g, "blue", ConcealForce(leader="blue-gen"))
    g.step()  # Grey's movement phase
    assert "your own movement phase" in refused(g, "blue", ConcealForce(leader="blue-gen"))


# -- Cf 1.4: moving concealed forces -----------------------------------------------------------
def test_a_force_may_not_move_in_the_turn_it_was_concealed() -> None:
    g = game()
    mid = conceal(g, "blue-gen")
    why = refused(g, "blue", cmd.Move(unit=mid, route="A0605"))
    assert "concealed this turn" in why
    to_blue_movement(g, 2)
    g.do("blue", cmd.Move(unit=mid, route="A0605"))
    assert g.state.markers[mid].cell == g.cell("A0605")


def test_a_force_moves_at_the_pace_of_its_slowest_unit() -> None:
    g = game()
    mid = conceal(g, "blue-gen2")  # a brigade on foot (6 MP) and a battery (8 MP)
    to_blue_movement(g, 2)
    # 7 clear hexes: the brigade's 6 MP pay for 6 of them, and the move is cut there (CF-21).
    out = g.do("blue", cmd.Move(unit=mid, route="A1209"))
    assert g.state.markers[mid].cell == g.cell("A1109")
    [moved] = [e for e in out.events if e.type == "cf_moved"]
    assert moved.stopped == "its MPs ran out at A1109"  # type: ignore[attr-defined]
    assert "only 0 of 6 MP left" in refused(g, "blue", cmd.Move(unit=mid, route="A1209"))


def test_a_decoy_moves_as_fast_as_a_mounted_brigade_and_no_faster() -> None:
    g = game()
    force = conceal(g, "blue-gen")
    to_blue_movement(g, 2)
    _, decoy = breed(g, force)
    # The decoy may move at once, and farther than the division could (7 hexes of 12 MP).
    g.do("blue", cmd.Move(unit=decoy, route="A1205"))
    assert g.state.markers[decoy].cell == g.cell("A1205")
    # 5 MP left pay for 5 of the next 6 hexes: 12 in all, and no further.
    g.do("blue", cmd.Move(unit=decoy, route="A1211 A1111"))
    assert g.state.markers[decoy].cell == g.cell("A1210")
    assert "only 0 of 12 MP left" in refused(g, "blue", cmd.Move(unit=decoy, route="A1211"))


def test_a_force_stops_before_three_hexes_of_the_enemy() -> None:
    g = game()
    mid = conceal(g, "blue-gen")
    g.place(**{"grey-train": "A1005"})  # a wagon: it sees nothing, it only stands there
    to_blue_movement(g, 2)
    out = g.do("blue", cmd.Move(unit=mid, route="A0905"))
    assert g.state.markers[mid].cell == g.cell("A0705")  # 3 hexes from the wagon
    [moved] = [e for e in out.events if e.type == "cf_moved"]
    assert "within 2 hexes of the enemy" in moved.stopped  # type: ignore[attr-defined]
    assert mid in g.state.markers  # a stop is no reveal


def test_a_force_stops_before_a_hex_in_enemy_sight() -> None:
    g = game()
    mid = conceal(g, "blue-gen")
    to_blue_movement(g, 2)
    _, decoy = breed(g, mid)
    g.do("blue", cmd.Move(unit=decoy, route="A1105"))
    g.place(**{"grey-cav": "A1805"})  # east of the woods: it sees the woods' last hex, A1505
    to_blue_movement(g, 3)
    out = g.do("blue", cmd.Move(unit=decoy, route="A1505"))
    [moved] = [e for e in out.events if e.type == "cf_moved"]
    assert "A1505 is in the enemy's line of sight" in moved.stopped  # type: ignore[attr-defined]
    assert g.state.markers[decoy].cell == g.cell("A1405")
    assert decoy in g.state.markers


def test_a_force_may_not_end_its_move_on_other_troops_or_markers_but_on_leaders() -> None:
    g = game()
    force = conceal(g, "blue-gen")
    to_blue_movement(g, 2)
    force, decoy = breed(g, force)
    assert "holds other troops of yours" in refused(
        g, "blue", cmd.Move(unit=decoy, route="A0302"))  # the Blue Dragoons
    g.do("blue", cmd.Move(unit=decoy, route="A0807"))
    assert "holds other troops of yours" in refused(
        g, "blue", cmd.Move(unit=force, route="A0807"))  # the decoy's marker
    g.place(**{"blue-hq": "A0605"})
    g.do("blue", cmd.Move(unit=force, route="A0605"))  # a leader is no obstacle
    assert g.state.markers[force].cell == g.cell("A0605")


# -- Cf 1.5: breeding decoys --------------------------------------------------------------------
def test_breeding_splits_the_marker_in_its_hex_and_a_secret_die_says_which_holds_the_force(
        ) -> None:
    for roll in (1, 6):
        g = game(dice=Dice(**queues_marker_roll(roll)))
        force = conceal(g, "blue-gen")
        to_blue_movement(g, 2)
        where = g.state.markers[force].cell
        kept, decoy = breed(g, force)
        assert force not in g.state.markers
        assert sorted(m for m in g.state.markers) == sorted([kept, decoy])
        assert g.state.markers[kept].cell == g.state.markers[decoy].cell == where
        assert under(g.state, kept) == set(DIVISION) and under(g.state, decoy) == set()
        assert rec.decoys_of(g.state, "blue") == [decoy]
        first, second = sorted([kept, decoy])
        assert kept == (first if roll <= 3 else second)


def test_breeding_rolls_a_die_the_games_own_dice_have() -> None:
    """The umpire's dice are d6s, 2d6 and d10s: the draw of the marker that keeps the force is
    made on one of them (a 1d2 made every breeding fail)."""
    g = Game(ground(), SeededDice(bytes(range(32)), "g1"))  # type: ignore[arg-type]
    to_blue_movement(g, 1)
    force = conceal(g, "blue-gen")
    to_blue_movement(g, 2)
    kept, decoy = breed(g, force)
    [roll] = [e for e in g.events if e.type == "die_rolled" and "holds the force" in e.purpose]  # type: ignore[attr-defined]
    assert roll.dice == "1d6"  # type: ignore[attr-defined]
    assert kept == sorted([kept, decoy])[0 if roll.value <= 3 else 1]  # type: ignore[attr-defined]


def queues_marker_roll(value: int) -> dict[str, list[int]]:
    return {"which of markers": [value]}


def test_decoys_are_bred_before_forces_are_concealed() -> None:
    g = game()
    force = conceal(g, "blue-gen")
    to_blue_movement(g, 2)
    conceal(g, "blue-gen2")
    assert "before new forces are concealed" in refused(g, "blue", BreedDecoy(marker=force))


def test_a_force_breeds_once_a_turn_and_a_decoy_from_the_next_turn() -> None:
    g = game()
    force = conceal(g, "blue-gen")
    to_blue_movement(g, 2)
    kept, decoy = breed(g, force)
    assert "may breed from the next turn" in refused(g, "blue", BreedDecoy(marker=kept))
    assert "may breed from the next turn" in refused(g, "blue", BreedDecoy(marker=decoy))
    g.do("blue", cmd.Move(unit=decoy, route="A0807"))  # apart, or the breeding is undone
    to_blue_movement(g, 4)
    _, grandchild = breed(g, decoy)
    assert len(rec.decoys_of(g.state, "blue")) == 2 and grandchild in rec.decoys_of(g.state,
                                                                                     "blue")


def test_halves_still_stacked_when_the_phase_ends_are_one_marker_again() -> None:
    """Markers never stack (Cf 1.4): a force and the decoy it bred that still share their hex
    when the Movement Phase ends become one marker with a fresh id, over the force, and the
    decoy goes back to the pool (ruling CF-24)."""
    g = game()
    force = conceal(g, "blue-gen")
    to_blue_movement(g, 2)
    where = g.state.markers[force].cell
    pool = decoys_available(g.state, "blue")
    kept, decoy = breed(g, force)
    assert decoys_available(g.state, "blue") == pool - 1
    since = len(g.events)
    g.step()
    [joined] = [e for e in g.events[since:] if e.type == "markers_joined"]
    [one] = [m for m in g.state.markers.values() if m.side == "blue"]
    assert one.id == joined.into not in (kept, decoy)  # type: ignore[attr-defined]
    assert one.cell == where
    assert under(g.state, one.id) == set(DIVISION)
    assert rec.decoys_of(g.state, "blue") == []
    assert decoys_available(g.state, "blue") == pool
    assert any("breeding is undone" in t for t in g.reports("blue", since))


def test_halves_that_part_in_the_phase_stay_two() -> None:
    g = game()
    force = conceal(g, "blue-gen")
    to_blue_movement(g, 2)
    kept, decoy = breed(g, force)
    g.do("blue", cmd.Move(unit=decoy, route="A0807"))
    g.step()
    assert {kept, decoy} <= set(g.state.markers)
    assert rec.decoys_of(g.state, "blue") == [decoy]


def test_an_undone_breeding_tells_the_enemy_nothing_of_which_was_the_decoy() -> None:
    """Whichever half the secret die put the force under, the public events of the end of the
    phase are the same."""
    public = []
    for roll in (1, 6):
        g = game(dice=Dice(**queues_marker_roll(roll)))
        force = conceal(g, "blue-gen")
        to_blue_movement(g, 2)
        breed(g, force)
        since = len(g.events)
        g.step()
        public.append([e.model_dump() for e in g.events[since:] if e.audience == "public"])
    assert public[0] == public[1]
    assert any(e["type"] == "markers_joined" for e in public[0])


def test_breeding_only_at_the_start_of_the_phase() -> None:
    g = game()
    force = conceal(g, "blue-gen")
    to_blue_movement(g, 2)
    g.do("blue", cmd.Move(unit="blue-cav", route="A0303"))
    assert "before any unit of your side moves" in refused(g, "blue", BreedDecoy(marker=force))


def test_an_enemy_marker_cannot_be_bred_from() -> None:
    g = game()
    force = conceal(g, "blue-gen")
    g.step()
    assert "no concealment marker" in refused(g, "grey", BreedDecoy(marker=force))


# -- Cf 2.1: revealing -------------------------------------------------------------------------
def _force_at_a1105(g: Game) -> str:
    """Blue's first division concealed, moved to A1105 in turn 2, out of Grey's sight."""
    force = conceal(g, "blue-gen")
    to_blue_movement(g, 2)
    g.do("blue", cmd.Move(unit=force, route="A1105"))
    return force


def test_an_enemy_unit_moving_within_sight_stops_and_the_force_deploys() -> None:
    g = game()
    force = _force_at_a1105(g)
    g.place(**{"grey-cav": "A1705"})
    g.step()  # Grey's movement phase
    out = g.do("grey", cmd.Move(unit="grey-cav", route="A0805"))
    assert force not in g.state.markers
    stop = g.state.units["grey-cav"].cell
    assert stop is not None and stop.col >= g.cell("A1305").col  # it stopped in the woods
    assert [e.type for e in out.events].count("cf_revealed") == 1
    assert g.label("blue-gen") == "A1105"
    grid = g.loaded.map.grid
    for u in DIVISION:
        here = g.state.units[u].cell
        assert here is not None and grid.distance(here, g.cell("A1105")) <= 1
        assert not isinstance(g.state.units[u].location, InMarker)
    # It moved last turn: infantry deploys in column (2nd Brigade concealed in line).
    assert g.state.units["blue-2"].formation.value == "column"
    assert rec.forces(g.state) == {}


def test_a_decoy_found_by_an_enemy_unit_is_removed() -> None:
    g = game()
    force = conceal(g, "blue-gen")
    to_blue_movement(g, 2)
    kept, decoy = breed(g, force)
    g.do("blue", cmd.Move(unit=decoy, route="A1105"))
    g.place(**{"grey-cav": "A1705"})
    g.step()
    out = g.do("grey", cmd.Move(unit="grey-cav", route="A0805"))
    assert decoy not in g.state.markers and decoy not in rec.forces(g.state)
    revealed = {e.marker: e for e in out.events if e.type == "cf_revealed"}  # type: ignore[attr-defined]
    assert revealed[decoy].placed == ()  # type: ignore[attr-defined]
    removed = {e.marker: e.reason for e in out.events  # type: ignore[attr-defined]
               if e.type == "marker_removed"}
    assert removed[decoy] == "a decoy: nothing was under it"
    # From where it stopped the cavalry also sees the division's marker back at A0505.
    assert kept in revealed and len(revealed[kept].placed) == len(DIVISION)  # type: ignore[attr-defined]
    assert rec.decoys_of(g.state, "blue") == [] and rec.found_this_turn(g.state, "blue") == 1
    grey = project(g.state, "grey")
    assert grey.markers == ()


def test_a_unit_arriving_within_reach_reveals_the_force() -> None:
    arrival = """
[[units]]
id = "grey-scouts"
side = "grey"
name = "Grey Scouts"
kind = "cavalry"
command = "grey-div"
strength = 2
arrives = { turn = 3, at = "A1207" }
"""
    g = game(extra=arrival)
    force = _force_at_a1105(g)
    assert force in g.state.markers
    to_blue_movement(g, 3)
    assert g.label("grey-scouts") == "A1207"
    assert force not in g.state.markers and g.label("blue-gen") == "A1105"


def test_a_longer_sight_at_a_new_turn_reveals_the_force() -> None:
    g = game(('turn = 1\ntime = "14:00"\n', 'turn = 1\ntime = "14:00"\nvisibility = 3\n'),
             ('turn = 2\ntime = "14:20"\n', 'turn = 2\ntime = "14:20"\nvisibility = 3\n'))
    g.place(**{"grey-cav": "A1005"})  # 4 hexes and more from the division: not seen at 3
    force = conceal(g, "blue-gen")
    to_blue_movement(g, 2)
    assert force in g.state.markers
    g.step()  # Grey's phase: nothing seen yet at 3 hexes
    assert force in g.state.markers
    to_blue_movement(g, 3)  # the first step of turn 3, in clear daylight, reveals it
    assert force not in g.state.markers
    [revealed] = [e for e in g.events if e.type == "cf_revealed"]
    assert not revealed.voluntary  # type: ignore[attr-defined]
    assert g.label("blue-gen") == "A0505"


def test_markers_never_reveal_markers() -> None:
    g = game()
    blue = conceal(g, "blue-gen")
    g.place(**{u: None for u in ("blue-cc", "blue-corps-art", "blue-cav", "blue-hq", *SECOND)})
    g.step()
    # Grey's division, set down in plain sight of the Blue marker 3 hexes off, conceals: once
    # its troops are under their marker, neither marker reveals the other.
    g.place(**{"grey-gen": "A0805", "grey-1": "A0805", "grey-2": "A0806",
               "grey-cav": "A0906"})
    grey = conceal(g, "grey-gen", side="grey")
    assert {blue, grey} <= set(g.state.markers)
    to_blue_movement(g, 2)
    assert {blue, grey} <= set(g.state.markers)


# -- Cf 2.2: unconcealing ----------------------------------------------------------------------
def test_a_force_unconceals_at_the_start_of_its_phase_and_deploys() -> None:
    g = game()
    force = conceal(g, "blue-gen")
    to_blue_movement(g, 2)
    out = unconceal(g, force)
    assert force not in g.state.markers and rec.forces(g.state) == {}
    [revealed] = [e for e in out.events if e.type == "cf_revealed"]
    assert revealed.voluntary  # type: ignore[attr-defined]
    assert g.label("blue-gen") == "A0505"
    assert all(isinstance(g.state.units[u].location, OnMap) for u in DIVISION)
    # It did not move: its units keep the formations they concealed in.
    assert g.state.units["blue-2"].formation.value == "line"


def test_unconcealing_after_a_move_or_in_the_enemys_phase_is_refused() -> None:
    g = game()
    force = conceal(g, "blue-gen")
    to_blue_movement(g, 2)
    g.do("blue", cmd.Move(unit="blue-cav", route="A0303"))
    assert "before any unit of your side moves" in refused(g, "blue", Unconceal(marker=force))
    g.step()
    assert "your own movement phase" in refused(g, "blue", Unconceal(marker=force))
    assert "no concealment marker" in refused(g, "grey", Unconceal(marker=force))


def test_a_marker_move_counts_as_movement_begun() -> None:
    g = game()
    force = conceal(g, "blue-gen")
    to_blue_movement(g, 2)
    kept, decoy = breed(g, force)
    g.do("blue", cmd.Move(unit=decoy, route="A0605"))
    assert "before any unit of your side moves" in refused(g, "blue", Unconceal(marker=kept))


# -- detaching (ruling CF-3) ---------------------------------------------------------------------
def test_a_unit_marked_detached_stays_on_the_map_and_can_be_marked_back() -> None:
    g = game()
    g.to(2, "command")
    g.do("blue", MarkDetached(unit="blue-3"))
    to_blue_movement(g, 2)
    assert rec.is_detached(g.state, "blue-3")
    g.to(3, "command")
    assert "already detached" in refused(g, "blue", MarkDetached(unit="blue-3"))
    g.do("blue", MarkDetached(unit="blue-3", detached=False))
    to_blue_movement(g, 3)
    assert not rec.is_detached(g.state, "blue-3")
    g.to(4, "command")
    assert "not a combat unit of a division" in refused(g, "blue", MarkDetached(unit="blue-gen"))
    to_blue_movement(g, 4)
    mid = conceal(g, "blue-gen")
    assert "blue-3" in under(g.state, mid)
    g.to(5, "command")
    assert "not on the map" in refused(g, "blue", MarkDetached(unit="blue-3"))


def test_a_detached_cavalry_brigade_may_conceal_alone() -> None:
    g = game()
    g.to(2, "command")
    g.do("grey", MarkDetached(unit="grey-cav"))
    g.to(2, "movement", "grey")
    mid = conceal(g, "grey-cav", side="grey")
    assert under(g.state, mid) == {"grey-cav"}
    assert Cell(0, 0) not in {g.state.markers[mid].cell}


def test_an_enemy_finds_a_marker_within_two_hexes_in_every_direction_and_not_at_three() -> None:
    """The reveal check measures only the enemy units near a marker: it must still find every
    one within two hexes, whatever the column's parity, and none farther off."""
    from rules.concealed.reveal.revealing import found_marker

    g = game()
    mid = conceal(g, "blue-gen2")
    g.place(**{u: None for u in ("grey-cav", "grey-gen", "grey-1", "grey-2", "grey-hq")})
    grid = g.loaded.map.grid
    centre = g.state.markers[mid].cell
    checked = 0
    for there in grid.within(centre, 4):
        if there == centre:
            continue
        g.place(**{"grey-train": g.board.label(there)})  # a wagon: it finds by nearness only
        found = found_marker(g.state)
        assert (found is not None) == (grid.distance(there, centre) <= 2), there
        checked += 1
    assert checked > 40


def _furthest(g: Game, marker: str, routes: tuple[str, ...]) -> str:
    """The furthest of ``routes`` (each one hex longer) the marker may be ordered along."""
    reached = g.board.label(g.state.markers[marker].cell)
    for route in routes:
        try:
            g.do("blue", cmd.Move(unit=marker, route=route))
        except Refusal:
            break
        reached = g.board.label(g.state.markers[marker].cell)
    return reached


def test_a_force_of_leaders_alone_goes_no_further_than_a_decoy() -> None:
    """Cf 1.4, ruling CF-5: a decoy's pace is the ceiling of every real force, so a marker that
    outran a decoy could not be one. A general whose brigades are all detached conceals alone
    and would cross woods at leader rates (cheaper than horse): he is held to the decoy's
    pace."""
    woods = ("A1302", "A1303", "A1304", "A1305", "A1306", "A1307")
    leaders = Game(ground())  # detached in the Command Phase of turn 1 (CF-25)
    leaders.place(**{"blue-gen2": "A1301", "blue-5": "A0211", "blue-6": "A0311"})
    leaders.do("blue", MarkDetached(unit="blue-5"))
    leaders.do("blue", MarkDetached(unit="blue-6"))
    to_blue_movement(leaders, 1)
    general = conceal(leaders, "blue-gen2")
    leaders.to(2, "movement", "blue")
    decoys = game()
    decoys.place(**{"blue-gen": "A1301", "blue-1": "A1301", "blue-2": "A1302",
                    "blue-3": "A1201"})
    parent = conceal(decoys, "blue-gen")
    decoys.to(2, "movement", "blue")
    _kept, decoy = breed(decoys, parent)
    # One hex an order, each a step further than the last.
    assert _furthest(leaders, general, woods) == _furthest(decoys, decoy, woods) == "A1305"


def test_a_deploying_force_never_sets_up_with_another_of_its_markers() -> None:
    """Cf 1.4, 2.3: a concealed force stacks with no unit, so a force that deploys next to
    another friendly marker leaves that marker's hex alone, even when its plan names it."""
    g = game()
    g.place(**{"blue-gen2": "A0506", "blue-5": "A0506", "blue-6": "A0606"})
    first = conceal(g, "blue-gen")
    second = conceal(g, "blue-gen2")
    g.to(2, "movement", "blue")
    grid = g.state.loaded.map.grid
    there = g.state.markers[second].cell
    [south] = [d for d in directions(grid) if toward(grid, g.state.markers[first].cell, d)
               == there]
    g.do("blue", ConcealPlan(marker=first, unit="blue-1", place=south))
    g.do("blue", Unconceal(marker=first))
    assert g.state.units["blue-1"].cell is not None
    assert [u.id for u in g.state.units.values() if u.cell == there] == []
