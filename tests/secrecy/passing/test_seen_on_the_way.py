"""Seen on the way (rulings INFO-18, INFO-19): a move is watched as it is made, not only where it
ends.

On the tiny board at dusk (turn 3, troops see 4 hexes), Blue's 1st Brigade stands at A0804. Grey's
brigade (given 12 MPs) sets out from B0504, out of its sight, walks west to B0204, two hexes from
the brigade, then turns north-east and ends its move at B0601, out of sight again. Before, Blue
learned nothing of it; on the table the brigade would have watched it pass.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import commands as cmd
from rules import engine
from rules import events as ev
from rules.ground.grid import Cell
from rules.knowledge.levels import GHOST
from rules.state import GameState, apply, from_snapshot, to_snapshot, with_units
from rules.view import project
from tests.support.combat import Dice
from tests.support.hidden_views import cell, sighted, tiny
from tests.support.hiding_module import in_force
from umpire.games.routing import messages_for
from umpire.reads.maps import draw_side_map

PAST_BLUE = "B0204 B0601"
#: Two ways from B0504 to B0502 that keep out of the brigade's sight (4 hexes at dusk).
UNSEEN_WAYS = ("B0503 B0502", "B0604 B0603 B0502")


def dusk(model: str, grey_at: str = "B0504") -> GameState:
    """Turn 3, the Grey Movement Phase: Blue's brigade at A0804, Grey's brigade at ``grey_at``
    and its battery far off at B0801, each side's sighting recorded."""
    s = replace(tiny(model), turn=3)
    s = with_units(s, {"blue-1": s.units["blue-1"].placed(cell(s, "A0804")),
                       "grey-1": replace(s.units["grey-1"], movement=12).placed(
                           cell(s, grey_at)),
                       "grey-bat": s.units["grey-bat"].placed(cell(s, "B0801"))})
    step = next(i for i, st in enumerate(s.steps)
                if st.phase.id == "movement" and st.side == "grey")
    return sighted(replace(s, step=step))


def grey_moves(state: GameState, route: str) -> tuple[GameState, list[ev.GameEvent]]:
    out = engine.decide(state, "grey", cmd.Move(unit="grey-1", route=route), Dice(default=1))
    return out.state, out.events


def told(before: GameState, events: list[ev.GameEvent], after: GameState,
         side: str) -> list[str]:
    return [m.text for m in messages_for(before, events, after) if m.target == side]


def labels(state: GameState, cells: tuple[Cell, ...]) -> list[str]:
    return [state.loaded.board.label(c) for c in cells]


def test_a_unit_that_passes_in_sight_and_ends_out_of_it_is_remembered_where_it_left_sight(
) -> None:
    before = dusk("hidden")
    after, events = grey_moves(before, PAST_BLUE)
    assert after.units["grey-1"].cell == cell(after, "B0601")
    memory = after.memory["blue"]["grey-1"]
    assert not memory.in_sight
    # Last seen at B0402, on its way north-east; the stretch in sight runs from B0404.
    assert after.loaded.board.label(memory.cell) == "B0402"
    assert labels(after, memory.trail) == ["B0404", "B0304", "B0204", "B0304", "B0403",
                                           "B0402"]
    ghost = [u for u in project(after, "blue").units if u.level == GHOST]
    assert [(g.ref, after.loaded.board.label(g.cell)) for g in ghost] == [("grey-1", "B0402")]
    assert told(before, events, after, "blue") == [
        "Seen on the way, then lost from sight: Grey Brigade (infantry, 7) moving north from "
        "B0404 to B0402"]


def test_the_side_that_sees_every_enemy_gets_the_trail_on_its_map_and_no_words() -> None:
    before = dusk("open")
    after, events = grey_moves(before, PAST_BLUE)
    view = project(after, "blue")
    assert [labels(after, t.cells)[0] for t in view.trails] == ["B0404"]
    assert [t.side for t in view.trails] == ["grey"]
    assert told(before, events, after, "blue") == []
    # The trail is drawn: the same view without it is another picture.
    assert draw_side_map(view) != draw_side_map(replace(view, trails=()))


def test_under_face_down_counters_the_owner_sees_his_counter_turned_up_as_it_passed() -> None:
    before = dusk("inverted")
    after, events = grey_moves(before, PAST_BLUE)
    turned = [e for e in events if isinstance(e, ev.SeenOnTheWay)]
    assert [(e.side, list(e.stretches)) for e in turned] == [("grey", ["grey-1"])]
    assert ("**Seen by the enemy on the way** (turned face up as it passed): Grey Brigade "
            "from B0404 to B0402.") in told(before, events, after, "grey")
    # The enemy playing face-down counters sees the blank counter where it stands, and knows
    # which it was on the way.
    assert after.memory["blue"]["grey-1"].trail


def test_under_the_hidden_model_the_owner_is_not_told_where_the_enemy_saw_him() -> None:
    before = dusk("hidden")
    after, events = grey_moves(before, PAST_BLUE)
    assert not any(isinstance(e, ev.SeenOnTheWay) for e in events)
    assert not any("Seen by the enemy" in t for t in told(before, events, after, "grey"))


def test_the_moving_side_sees_what_it_passes_too() -> None:
    before = dusk("hidden")
    assert "blue-1" not in before.memory["grey"]
    after, events = grey_moves(before, PAST_BLUE)
    memory = after.memory["grey"]["blue-1"]
    assert not memory.in_sight and after.loaded.board.label(memory.cell) == "A0804"
    assert memory.trail == ()  # it stood still: no trail
    assert told(before, events, after, "grey") == [
        "Seen on the way, then lost from sight: 1st Brigade (infantry, 8) at A0804"]


@pytest.mark.parametrize("model", ["hidden", "inverted", "open"])
def test_a_mover_never_in_sight_changes_nothing_for_the_other_side(model: str) -> None:
    before = dusk(model)
    seen_by_blue = []
    for route in UNSEEN_WAYS:
        after, events = grey_moves(before, route)
        assert after.units["grey-1"].cell == cell(after, "B0502")
        assert not any(isinstance(e, ev.SeenPassing) and e.side == "blue" for e in events)
        view = project(after, "blue")
        seen_by_blue.append((view.units, view.trails, view.memory,
                             told(before, events, after, "blue"), draw_side_map(view)))
    assert seen_by_blue[0] == seen_by_blue[1]


def test_what_the_side_learns_is_what_was_in_sight_and_no_more() -> None:
    """Two ways that share the stretch in sight and differ out of it tell Blue the same."""
    seen_by_blue = []
    for start, route in (("B0504", "B0204 B0601"), ("B0604", "B0504 B0204 B0601")):
        before = dusk("hidden", grey_at=start)
        after, events = grey_moves(before, route)
        assert after.units["grey-1"].cell == cell(after, "B0601")
        view = project(after, "blue")
        seen_by_blue.append((view.units, view.trails, told(before, events, after, "blue")))
    assert seen_by_blue[0] == seen_by_blue[1]
    assert seen_by_blue[0][1]  # and it was seen


@pytest.mark.usefixtures("hiding")
def test_a_counter_seen_only_as_anonymous_leaves_a_ghost_and_no_trail() -> None:
    before = in_force(dusk("hidden"), anonymous=["grey-1"])
    after, events = grey_moves(before, PAST_BLUE)
    [passing] = [e for e in events if isinstance(e, ev.SeenPassing) and e.side == "blue"]
    assert "grey-1" not in passing.passed and not passing.trails
    [(key, seen)] = passing.passed.items()
    assert key.startswith("anon:") and seen["anonymous"] and seen["name"] == ""
    assert project(after, "blue").trails == ()
    assert told(before, events, after, "blue") == [
        "Seen on the way, then lost from sight: an unidentified infantry unit (infantry) at "
        "B0402"]


def test_a_trail_is_kept_in_a_snapshot_and_read_back() -> None:
    after, _ = grey_moves(dusk("hidden"), PAST_BLUE)
    again = from_snapshot(after.loaded, to_snapshot(after))
    assert again.memory["blue"]["grey-1"] == after.memory["blue"]["grey-1"]


def test_the_event_folds_as_it_says() -> None:
    before = dusk("hidden")
    e = ev.SeenPassing(audience="side:blue", side="blue",
                       passed={"grey-1": {"cell": [9, 3], "side": "grey", "name": "Grey Brigade",
                                          "short": "G Bde", "kind": "infantry",
                                          "echelon": "brigade", "strength": 7,
                                          "formation": "column"}},
                       trails={"grey-1": ((10, 3), (9, 3))})
    after = apply(before, e)
    m = after.memory["blue"]["grey-1"]
    assert (m.cell, m.in_sight, m.turn, m.trail) == (Cell(9, 3), False, 3,
                                                      (Cell(10, 3), Cell(9, 3)))
