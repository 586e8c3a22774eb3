"""The force a surprise-move order names: its units, its ranking leader, its pace.

A force is written as a list separated by commas: units (by name, short name or id) and commands
(by name or id), a command meaning "that command plus attached" (every unit of it and of the
commands beneath it). A name may itself hold commas ("1st Division, XI Corps (Devens)"): the
list is read against the side's own names (``rules.forces.lookup.split_list``, ruling ORD-10).
Only the ordering side's own units and commands are searched, so naming an enemy gets the same
answer as naming nothing (``rules.forces.lookup``). Units not on the map when
the order is given are not part of the force (ruling SM-20).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rules.forces.chain_of_command import force as command_force
from rules.forces.lookup import (
    Match,
    match,
    own_command,
    own_keys,
    own_unit,
    pieces_of,
    same_name,
    split_list,
    unit_names,
)
from rules.forces.units import Unit
from rules.forces.words import Echelon, UnitKind
from rules.refusal import Refusal
from rules.state import GameState
from rules.surprise import records as rec

#: Echelons from the largest down (the order ``Echelon`` lists them in).
RANK: dict[Echelon, int] = {e: n for n, e in enumerate(Echelon)}
_ATTACHED = re.compile(r"\s*(\+|plus)\s*attached\s*$", re.IGNORECASE)


def resolve(state: GameState, side: str, text: str) -> tuple[list[Unit], str]:
    """The force's units (in the order of the scenario) and a name for it."""
    keys = own_keys(state, side) | {same_name(k) for c in state.commands.values()
                                     if c.side == side for k in (c.id, c.name)}
    items = split_list(text, lambda item: same_name(_ATTACHED.sub("", item)) in keys,
                       pieces_of(keys))
    if not items:
        raise Refusal("name the force: units or commands, separated by commas")
    chosen: dict[str, Unit] = {}
    names: list[str] = []
    commands = 0
    for item in items:
        key = _ATTACHED.sub("", item).strip()
        command = _own_command(state, side, key)
        if command is not None:
            found = [u for u in command_force(state, command) if u.side == side]
            names.append(state.commands[command].name)
            commands += 1
        else:
            unit = own_unit(state, side, key)
            found = [unit]
            names.append(unit.name)
        for u in found:
            chosen.setdefault(u.id, u)
    on_map = [u for u in state.units.values() if u.id in chosen and u.cell is not None]
    refused = force_refusal(state, on_map)
    if refused is not None:
        raise refused
    if commands == 0:
        leader = ranking_leader(state, [u.id for u in on_map])
        if leader is not None:
            names = [f"{leader.name}'s column"]
    return on_map, _force_name(names)


def force_refusal(state: GameState, on_map: Sequence[Unit]) -> Refusal | None:
    """Why the force's units on the map may not march (``None``: they may): none of them on
    the map, or one of them on a surprise move already. The order's own check, which the
    side's offers ask too."""
    if not on_map:
        return Refusal("none of those units is on the map")
    for u in on_map:
        busy = rec.march_of_unit(state, u.id, rec.OPEN)
        if busy is not None:
            return Refusal(f"{u.name} is already in surprise move {busy['name']}")
    return None


def units_of_command(state: GameState, side: str, command: str) -> list[Unit]:
    """The side's units a command means in a force (it plus attached), on the map."""
    return [u for u in command_force(state, command) if u.side == side and u.cell is not None]


def _own_command(state: GameState, side: str, key: str) -> str | None:
    """The side's own command ``key`` names, if it names one rather than a unit: a command's id
    or whole name first, then a unit's; failing both, words of a command's names before words
    of a unit's (a force is most often a command: "Colston" is his division, ruling ORD-52)."""
    exact = own_command(state, side, key, closely=True)
    if exact is not None:
        return exact
    if any(match(unit_names(u), key) in (Match.ID, Match.EXACT) for u in state.units_of(side)):
        return None
    return own_command(state, side, key)


def _force_name(names: Sequence[str]) -> str:
    if len(names) <= 2:
        return " + ".join(names)
    return f"{names[0]} + {len(names) - 1} more"


def ranking_leader(state: GameState, unit_ids: Iterable[str]) -> Unit | None:
    """The force's ranking leader: its leader of the highest echelon (ties: the first listed)."""
    leaders = [state.units[u] for u in unit_ids if u in state.units and state.units[u].is_leader]
    if not leaders:
        return None
    return min(leaders, key=lambda u: RANK.get(u.echelon, 9))


def allowance(state: GameState, unit_ids: Iterable[str]) -> int:
    """The force's movement allowance a turn: its slowest combat unit's (ruling SM-8)."""
    units = [state.units[u] for u in unit_ids if u in state.units]
    combat = [u for u in units if u.combat] or units
    return min((u.movement for u in combat), default=0)


def has_cavalry(state: GameState, unit_ids: Iterable[str]) -> bool:
    """Whether cavalry marches with the force (ruling SM-5)."""
    return any(state.units[u].kind == UnitKind.CAVALRY and state.units[u].cell is not None
               for u in unit_ids if u in state.units)


def on_map(state: GameState, unit_ids: Iterable[str]) -> list[Unit]:
    return [state.units[u] for u in unit_ids if u in state.units
            and state.units[u].cell is not None]
