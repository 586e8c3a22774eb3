"""Who may fight now: the phase, and the side's own units named in an order."""

from __future__ import annotations

from rules.forces.lookup import own_unit, own_unit_list
from rules.forces.units import Unit
from rules.modules.registry import in_force
from rules.refusal import Refusal
from rules.state import GameState


def require_phase(state: GameState, side: str, actions: tuple[str, ...], verb: str) -> None:
    """Refuse unless the current step allows one of ``actions`` and it is ``side``'s to act."""
    step = state.current
    if not any(step.allows(a) for a in actions):
        raise Refusal(f"you cannot {verb} in the {step.title}")
    if side not in step.acting(state.sides):
        raise Refusal(f"it is the {state.side_name(step.side or '')} {step.title}, not yours")
    if side in state.done:
        raise Refusal("you have already finished this phase")


def fighters(state: GameState, side: str, names: tuple[str, ...], action: str
             ) -> tuple[Unit, ...]:
    """The side's own combat units named for ``action`` (``"fire"`` or ``"assault"``), each
    on the map, able by its morale and by every rule module in force, and not yet used for it
    in this phase. The names are read as one list (``own_unit_list``), so a name with a comma
    in it names its unit whether it came whole or cut at the comma."""
    from rules.combat.ledger import used  # the ledger folds this module's events

    rules = state.loaded.ruleset.combat
    out: list[Unit] = []
    for name in own_unit_list(state, side, names):
        unit = own_unit(state, side, name)
        if unit in out:
            raise Refusal(f"{unit.name} is named twice")
        if unit.cell is None:
            raise Refusal(f"{unit.name} is not on the map")
        if not unit.combat:
            raise Refusal(f"{unit.name} is not a combat unit")
        morale = rules.state(unit.morale)
        if action == "fire" and not morale.may_fire:
            raise Refusal(f"{unit.name} is {unit.morale} and cannot fire")
        if action == "assault" and not morale.may_assault:
            raise Refusal(f"{unit.name} is {unit.morale} and cannot assault")
        if used(state, action, unit.id):
            verb = "fired" if action == "fire" else "assaulted"
            raise Refusal(f"{unit.name} has already {verb} in this phase")
        for module in in_force(state.modules):
            why = module.may_fight(state, unit, action)
            if why:
                raise Refusal(why)
        out.append(unit)
    return tuple(out)
