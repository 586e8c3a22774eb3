"""The owner knows which of his counters are face up (rule text 002, ruling CV-38): on the table
a player sees his counter turned over when an enemy sighting identifies it, and turned back when
it is lost from sight. The owner is told both, his map marks the counters the enemy sees, and
what he is told is exactly what the enemy's own sighting gave it."""

from __future__ import annotations

from dataclasses import replace

from render.counters import draw_counter, look_of
from rules import commands as cmd
from rules import events as ev
from rules.engine import Outcome, decide
from rules.knowledge.sighted import face_up, sight
from rules.state import GameState
from rules.view import project
from tests.support.chancellorsville import dice, sample, started


def union_move(unit: str, to: str) -> tuple[GameState, Outcome]:
    """The sample's first Union phase, before and after ``unit`` moves to ``to``."""
    state = started(sample())
    assert state.current.allows("move") and state.acting_sides() == ("union",)
    return state, decide(state, "union", cmd.Move(unit=unit, route=to), dice)


def turned(out: Outcome, side: str) -> list[ev.FaceTurned]:
    return [e for e in out.events if isinstance(e, ev.FaceTurned) and e.side == side]


def test_a_unit_stepping_into_the_enemys_sight_is_turned_face_up_and_its_owner_told() -> None:
    before, out = union_move("ii-hq", "C2412")
    assert "ii-hq" not in face_up(before, "union")
    [told] = turned(out, "union")
    assert told.up == ("ii-hq",) and told.down == () and told.audience == "side:union"
    assert turned(out, "confederate") == []
    view = project(out.state, "union")
    [hq] = [u for u in view.own_units() if u.ref == "ii-hq"]
    assert hq.face_up
    assert told.report(view).startswith("**Turned face up** (the enemy sees them): ")
    # the enemy's own sighting is what turned it: it identifies the unit now
    assert "ii-hq" in sight(out.state)["confederate"].seen_units


def test_a_unit_stepping_out_of_sight_falls_face_down_again() -> None:
    before, out = union_move("v-hq", "C2515")
    assert "v-hq" in face_up(before, "union")
    [told] = turned(out, "union")
    assert told.down == ("v-hq",) and told.up == ()
    [hq] = [u for u in project(out.state, "union").own_units() if u.ref == "v-hq"]
    assert not hq.face_up
    assert "Face down again" in told.report(project(out.state, "union"))


def test_face_up_is_what_the_enemy_identifies_and_only_the_owner_sees_the_mark() -> None:
    """The mark on each side's own counters is the set of its units the other side's view
    shows identified; no counter of the enemy's ever carries it."""
    state = started(sample())
    for side, enemy in (("union", "confederate"), ("confederate", "union")):
        marked = {u.ref for u in project(state, side).units if u.face_up}
        identified = {u.ref for u in project(state, enemy).enemy_units()
                      if u.level == "identified"}
        assert marked == identified == set(face_up(state, side))
        assert marked, side


def test_the_map_draws_the_mark() -> None:
    state = started(sample())
    [up] = [u for u in project(state, "union").own_units() if u.ref == "v-hq"]
    assert up.face_up
    plain = look_of(up, (40, 60, 160), 40)
    assert plain.face_up
    down = look_of(replace(up, face_up=False), (40, 60, 160), 40)
    assert draw_counter(plain).tobytes() != draw_counter(down).tobytes()
