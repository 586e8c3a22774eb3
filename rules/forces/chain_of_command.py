"""The chain of command on the map: which units a command holds, and which are in command.

A unit is in command when the leader of its command (its division, say) stands on the map within
command range of it: the leader's own rating, else the ruleset's range for the command's echelon.
Range is counted in cells, through any terrain (ruling CMD-1).
"""

from __future__ import annotations

from rules.forces.counting import counts_at
from rules.forces.units import Unit, subordinates
from rules.forces.words import Echelon
from rules.state import GameState


def command_range(state: GameState, leader: Unit, echelon: Echelon) -> int:
    if leader.command_range is not None:
        return leader.command_range
    return state.loaded.ruleset.command_range.get(echelon, 0)


def leader_of(state: GameState, unit: Unit) -> Unit | None:
    """The leader commanding the unit's command, if it has one."""
    command = state.commands.get(unit.command)
    if command is None or not command.leader:
        return None
    return state.units.get(command.leader)


def in_command(state: GameState, unit: Unit) -> bool:
    """Whether the unit is within command range of its command's leader, both measured from
    where they count (``rules.forces.counting.counts_at``: a unit inside a marker, from the
    marker)."""
    here = counts_at(state, unit)
    if here is None:
        return False
    command = state.commands.get(unit.command)
    leader = leader_of(state, unit)
    if command is None or leader is None:
        return False
    there = counts_at(state, leader)
    if there is None:
        return False
    if leader.id == unit.id:
        return True
    grid = state.loaded.map.grid
    return grid.distance(there, here) <= command_range(state, leader, command.echelon)


def force(state: GameState, command_id: str) -> list[Unit]:
    """Every unit of a command and of the commands beneath it ("I Corps plus attached"),
    in the order of the scenario."""
    ids = subordinates(dict(state.commands), command_id)
    return [u for u in state.units.values() if u.command in ids]
