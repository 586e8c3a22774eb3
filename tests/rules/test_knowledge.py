"""Sighting as the rules ask for it: ``knowledge.sight`` always equals a fresh pass."""

from __future__ import annotations

from dataclasses import replace

from rules.knowledge.sighted import presences, rule_for, sight
from rules.sighting.sighting_pass import full_pass
from rules.state import GameState, initial_state, with_units
from rules.turn.sequence import visibility
from umpire.games import catalog


def fresh(state: GameState) -> dict[str, object]:
    vis = visibility(state.loaded.scenario, state.loaded.ruleset, state.turn)
    return dict(full_pass(rule_for(state), vis, presences(state),
                          blocked_radius=state.loaded.ruleset.blocked_radius,
                          sides=state.sides))


def test_sight_follows_the_units_and_the_turn() -> None:
    state = initial_state(catalog.load_file(catalog.find("flank-march")))
    assert sight(state) == fresh(state)
    sight(state).clear()  # a caller's copy: changing it changes nothing for the next caller
    assert sight(state) == fresh(state)
    unit = next(u for u in state.units.values() if u.cell is not None and u.observer)
    assert unit.cell is not None
    moved = with_units(state, {unit.id: unit.placed(state.loaded.board.parse("A0101"))})
    assert sight(moved) == fresh(moved) != fresh(state)
    later = replace(state, turn=state.last_turn)
    assert sight(later) == fresh(later)
