"""Who may fight now: the phase, and the side's own units named in an order."""

from __future__ import annotations

from rules.forces.lookup import own_unit, own_unit_list
from rules.forces.units import Unit
from rules.forces.words import formation_said
from rules.ground.grid import Cell
from rules.modules.registry import in_force
from rules.refusal import Refusal
from rules.sighting.height import clear_line
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
    one ``fighter_refusal`` lets fight. The names are read as one list (``own_unit_list``), so
    a name with a comma in it names its unit whether it came whole or cut at the comma."""
    out: list[Unit] = []
    for name in own_unit_list(state, side, names):
        unit = own_unit(state, side, name)
        if unit in out:
            raise Refusal(f"{unit.name} is named twice")
        why = fighter_refusal(state, unit, action)
        if why is not None:
            raise why
        out.append(unit)
    return tuple(out)


def fighter_refusal(state: GameState, unit: Unit, action: str) -> Refusal | None:
    """Why ``unit`` may not ``fire`` or ``assault`` now, whatever its target (``None``: it may):
    it must be a combat unit on the map, able by its morale, not yet used for it in this phase,
    and let by every rule module in force. The order and the side's offers ask this same
    function (ruling ORD-55)."""
    from rules.combat.ledger import used  # the ledger folds this module's events

    rules = state.loaded.ruleset.combat
    if unit.cell is None:
        return Refusal(f"{unit.name} is not on the map")
    if not unit.combat:
        return Refusal(f"{unit.name} is not a combat unit")
    morale = rules.state(unit.morale)
    if action == "fire" and not morale.may_fire:
        return Refusal(f"{unit.name} is {unit.morale} and cannot fire")
    if action == "assault" and not morale.may_assault:
        return Refusal(f"{unit.name} is {unit.morale} and cannot assault")
    if used(state, action, unit.id):
        verb = "fired" if action == "fire" else "assaulted"
        return Refusal(f"{unit.name} has already {verb} in this phase")
    for module in in_force(state.modules):
        why = module.may_fight(state, unit, action)
        if why:
            return Refusal(why)
    return None


def fire_formation_refusal(state: GameState, unit: Unit) -> Refusal | None:
    """Why ``unit`` cannot fire at anything in the formation it is in (``None``: it can)."""
    allowed = state.loaded.ruleset.combat.fire_formations.get(unit.kind, ())
    if unit.formation in allowed:
        return None
    need = " or ".join(formation_said(a) for a in allowed) or "in any formation"
    return Refusal(f"{unit.name} cannot fire {formation_said(unit.formation)} (it fires {need})")


def aim_refusal(state: GameState, unit: Unit, action: str, cell: Cell, label: str
                ) -> Refusal | None:
    """Why ``unit`` cannot reach the target in ``cell`` (called ``label``) by ``action``
    (``None``: it can): to fire, in a formation it fires in, within its range and on a clear
    line; to assault, next to it and not across an impassable hexside. Asked by the orders,
    and by the side's offers for each enemy counter its view shows (ruling ORD-55)."""
    here = unit.cell
    if here is None:
        return Refusal(f"{unit.name} is not on the map")
    gm = state.loaded.map
    ruleset = state.loaded.ruleset
    if action == "fire":
        why = fire_formation_refusal(state, unit)
        if why is not None:
            return why
        distance = gm.grid.distance(here, cell)
        if ruleset.combat.band_at(unit.kind, distance) is None:
            return Refusal(f"{label} is {distance} hexes from {unit.name}, beyond its range "
                           f"of {ruleset.combat.reach(unit.kind)}")
        if not clear_line(gm, gm.idx(here), gm.idx(cell)):
            return Refusal(f"{unit.name} has no line of sight to {label}")
        return None
    if not gm.grid.adjacent(here, cell):
        return Refusal(f"{unit.name} is not next to {label}")
    between = gm.hexside_between(here, cell)
    if between is not None and ruleset.hexsides[between].impassable:
        return Refusal(f"{unit.name} cannot attack across the "
                       f"{ruleset.hexsides[between].name or between} between them")
    return None
