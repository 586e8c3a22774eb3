"""The chain of command: forces and command range."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from rules.forces.chain_of_command import force, in_command
from rules.scenario.loader import LoadedScenario
from rules.state import GameState, initial_state


def moved(state: GameState, uid: str, label: str) -> GameState:
    units = dict(state.units)
    units[uid] = units[uid].placed(state.loaded.board.parse(label))
    return replace(state, units=MappingProxyType(units))


def test_in_command_by_the_leaders_range(tiny: LoadedScenario) -> None:
    state = initial_state(tiny)  # General Azure at A0204, command range 4
    assert in_command(state, state.units["blue-1"])
    far = moved(state, "blue-1", "A0804")  # 6 hexes away
    assert not in_command(far, far.units["blue-1"])
    edge = moved(state, "blue-1", "A0604")  # 4 hexes away: still in range
    assert in_command(edge, edge.units["blue-1"])


def test_units_without_a_command_or_off_the_map_are_not_in_command(tiny: LoadedScenario) -> None:
    state = initial_state(tiny)
    assert not in_command(state, state.units["grey-1"])  # no command given
    assert not in_command(state, state.units["blue-cav"])  # not yet arrived


def test_force_expands_a_command_with_everything_under_it(tiny: LoadedScenario) -> None:
    state = initial_state(tiny)
    assert [u.id for u in force(state, "blue-div")] == ["blue-gen", "blue-1", "blue-2"]
