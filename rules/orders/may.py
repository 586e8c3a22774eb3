"""Whether one of the side's units may be given a core order now: a move or a change of
formation. Each answer is a ``Refusal`` (the words the order would be refused with) or ``None``;
the order itself and the side's offers (``rules.turn.idle``) ask the same function, so that what
a player is offered is never refused for the unit itself.

Only the unit, its own side's records and the map are read: an enemy in the way stops a move,
never refuses it (``rules.orders.core``).
"""

from __future__ import annotations

from rules.forces.units import Unit
from rules.forces.words import formation_said
from rules.ground.gamemap import GameMap
from rules.modules.registry import in_force
from rules.orders.movement import formation_change_cost
from rules.refusal import Refusal
from rules.state import GameState

_EPS = 1e-9


def held(state: GameState, unit: Unit) -> Refusal | None:
    """Why a rule module keeps the unit where it is (an accepted surprise move), if one does."""
    for module in in_force(state.modules):
        why = module.may_move(state, unit)
        if why:
            return Refusal(why)
    return None


def move_refusal(state: GameState, unit: Unit) -> Refusal | None:
    """Why the unit may not be ordered to move at all: off the map, or held by a rule module.
    A unit that may be ordered still needs the MPs for its route (``can_step``)."""
    if unit.cell is None:
        return Refusal(f"{unit.name} is not on the map")
    return held(state, unit)


def can_step(gm: GameMap, unit: Unit) -> bool:
    """Whether the unit has the MPs for a step into some neighbouring cell of the map: the
    cheapest route an order could give it."""
    here = unit.cell
    if here is None or unit.mp_left <= _EPS:
        return False
    cheapest = gm.cheapest_step(here, unit.movement_class, unit.formation)
    return cheapest is not None and cheapest <= unit.mp_left + _EPS


def may_step(state: GameState, unit: Unit) -> bool:
    """Whether some move order of the unit would be accepted now (its side's step aside)."""
    return move_refusal(state, unit) is None and can_step(state.loaded.map, unit)


def formation_refusal(state: GameState, unit: Unit, wanted: str | None = None
                      ) -> Refusal | None:
    """Why the unit may not change to ``wanted`` (``None``: to any other formation): held by
    a rule module (a change of formation is movement too), a formation its kind does not have
    or the one it is in, or too few MPs left."""
    why = held(state, unit)
    if why is not None:
        return why
    if wanted is None:
        if len(unit.formations) < 2:
            return Refusal(f"{unit.name} may only be {formation_said(unit.formation)}")
    elif wanted not in unit.formations:
        return Refusal(f"{unit.name} may be {' or '.join(f.said for f in unit.formations)}")
    elif wanted == unit.formation:
        return Refusal(f"{unit.name} is already {formation_said(wanted)}")
    if unit.mp_left + _EPS < formation_change_cost(unit):
        return Refusal(f"{unit.name} has no MPs left to change formation")
    return None
