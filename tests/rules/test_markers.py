"""Markers as map objects: placed, moved, split and removed by core events; ids drawn from the
game's secret dice, never counted; nothing in a marker derived from what is under it."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from rules import events as ev
from rules.engine import Outcome
from rules.forces.markers import Marker, draw_marker_id, markers_at, markers_of
from rules.ground.grid import Cell
from rules.reading import event_from_json
from rules.state import GameState, apply, from_snapshot, initial_state, to_snapshot
from umpire.games import catalog
from umpire.games.dice import SeededDice

SEED = bytes(range(32))


def game() -> GameState:
    return initial_state(catalog.load_file(catalog.find("flank-march")))


def outcome(state: GameState, seed: bytes = SEED) -> Outcome:
    return Outcome(state, SeededDice(seed, "g1"))


def place(out: Outcome, side: str, cell: Cell) -> str:
    mid = out.new_marker_id(side)
    out.add(ev.MarkerPlaced(marker=mid, side=side, cell=tuple(cell)))
    return mid


def test_a_marker_holds_nothing_of_its_contents() -> None:
    assert [f.name for f in fields(Marker)] == ["id", "side", "cell", "created_turn",
                                                 "moved_phase"]


def test_placing_moving_and_removing_fold_into_the_state() -> None:
    state = game()
    side = state.sides[0]
    out = outcome(state)
    mid = place(out, side, Cell(2, 3))
    marker = out.state.markers[mid]
    assert (marker.side, marker.cell, marker.created_turn, marker.moved_phase) == (
        side, Cell(2, 3), state.turn, None)
    out.add(ev.MarkerMoved(marker=mid, path=((2, 4), (3, 4))))
    moved = out.state.markers[mid]
    assert moved.cell == Cell(3, 4)
    assert moved.moved_during(out.state.turn, out.state.step)
    assert not moved.moved_during(out.state.turn + 1, out.state.step)
    assert markers_at(out.state.markers, Cell(3, 4)) == (moved,)
    out.add(ev.MarkerRemoved(marker=mid, reason="revealed"))
    assert out.state.markers == {}
    # the side's count of drawn ids stays: the next id is drawn under a new key
    assert out.state.markers_drawn == {side: 1}


def test_a_split_gives_both_halves_fresh_ids() -> None:
    state = game()
    side = state.sides[0]
    out = outcome(state)
    old = place(out, side, Cell(2, 3))
    out.add(ev.MarkerMoved(marker=old, path=((2, 4),)))
    a, b = out.new_marker_id(side), out.new_marker_id(side)
    assert len({old, a, b}) == 3
    out.add(ev.MarkerSplit(marker=old, into=(a, b), cells=((2, 4), (3, 4))))
    assert set(out.state.markers) == {a, b}
    assert out.state.markers[a].cell == Cell(2, 4) and out.state.markers[b].cell == Cell(3, 4)
    # splitting is no new move: the halves keep the phase the old marker moved in
    assert out.state.markers[a].moved_phase == out.state.markers[b].moved_phase == (
        state.turn, state.step)
    assert out.state.markers_drawn == {side: 3}
    assert out.drawn_marker_ids == {side: []}


def test_markers_are_listed_by_id_whatever_the_order_they_were_made_in() -> None:
    state = game()
    side = state.sides[0]
    out = outcome(state)
    made = [place(out, side, Cell(1, n)) for n in range(6)]
    listed = [m.id for m in out.state.markers_list()]
    assert listed == sorted(made)
    assert listed != made  # with this seed the ids do not come out in the order made
    assert [m.id for m in markers_of(out.state.markers, side)] == sorted(made)
    assert markers_of(out.state.markers, state.sides[1]) == ()


def test_ids_do_not_depend_on_the_place_in_the_log() -> None:
    """The enemy's hidden activity adds events to the log; it must not change a side's ids."""
    state = game()
    side = state.sides[0]
    quiet = place(outcome(state), side, Cell(2, 3))
    busy = place(outcome(replace(state, seq=state.seq + 57)), side, Cell(2, 3))
    assert quiet == busy


def test_ids_come_from_the_secret_seed_and_are_no_counter() -> None:
    state = game()
    side = state.sides[0]
    ids = {place(outcome(state, bytes([n]) * 32), side, Cell(2, 3)) for n in range(20)}
    assert len(ids) >= 18  # different seeds draw different ids (10,000 possible)
    out = outcome(state)
    drawn = [place(out, side, Cell(1, n)) for n in range(4)]
    assert drawn != [f"{n:04d}" for n in range(4)]
    assert all(len(i) == 4 and i.isdigit() for i in drawn)


def test_a_taken_id_is_drawn_again_even_with_dice_that_always_agree() -> None:
    def stuck(key: int, purpose: str, dice: str) -> int:
        return 3

    assert draw_marker_id(stuck, "blue", 0, ()) == "2222"
    assert draw_marker_id(stuck, "blue", 0, ("2222",)) == "2223"
    assert draw_marker_id(stuck, "blue", 0, ("2222", "2223")) == "2224"


def test_a_split_that_reuses_an_id_or_names_no_marker_is_refused() -> None:
    state = game()
    side = state.sides[0]
    out = outcome(state)
    mid = place(out, side, Cell(2, 3))
    with pytest.raises(ValueError, match="already on the map"):
        apply(out.state, ev.MarkerPlaced(marker=mid, side=side, cell=(1, 1)))
    with pytest.raises(ValueError, match="new ids"):
        apply(out.state, ev.MarkerSplit(marker=mid, into=("0001", "0001"),
                                        cells=((1, 1), (1, 2))))
    with pytest.raises(ValueError, match="new ids"):
        apply(out.state, ev.MarkerSplit(marker=mid, into=(mid, "0001"),
                                        cells=((1, 1), (1, 2))))
    for bad in (ev.MarkerMoved(marker="9999", path=((1, 1),)), ev.MarkerRemoved(marker="9999")):
        with pytest.raises(ValueError, match="no marker 9999"):
            apply(out.state, bad)


def test_markers_survive_a_snapshot() -> None:
    state = game()
    out = outcome(state)
    a = place(out, state.sides[0], Cell(2, 3))
    place(out, state.sides[1], Cell(5, 5))
    out.add(ev.MarkerMoved(marker=a, path=((2, 4),)))
    back = from_snapshot(state.loaded, to_snapshot(out.state))
    assert back.markers == out.state.markers
    assert back.markers_drawn == out.state.markers_drawn
    assert to_snapshot(back) == to_snapshot(out.state)


def test_marker_events_read_back_from_the_log() -> None:
    for e in (ev.MarkerPlaced(marker="0042", side="blue", cell=(1, 2)),
              ev.MarkerMoved(marker="0042", path=((1, 3),)),
              ev.MarkerSplit(marker="0042", into=("1111", "2222"), cells=((1, 3), (2, 3))),
              ev.MarkerRemoved(marker="1111", reason="decoy")):
        assert event_from_json(ev.event_to_json(e), e.audience) == e
