"""The combat module's own data in the game state, and how its events change the state.

``GameState.module_data["combat"]`` holds, as JSON-ready data:

* ``used``: for ``fire``, ``assault`` and ``rally``, the step (turn and step number) in which
  each unit last did it, so that each unit does each once a phase;
* ``casualties``: strength points each unit has lost for good (stragglers are on the unit), so
  that strength + stragglers + casualties is always the unit's starting strength;
* ``attacks``: this turn's attacks (``AttackMade``), for other modules to read (an attack on a
  surprise force within four hexes triggers it, and so does a sham it could not keep up:
  ``SHAM_BROKEN``, whose record replaces the sham's);
* ``shams``: results that units secretly ignored (their retreats are made for real), for the
  module that shields them to show the attacker (``rules.modules.api.RuleModule.combat_shield``):
  the strength shown lost and how much of it straggled;
* ``sham_recoveries``: shown stragglers the attacker has since seen come back (unit, attacking
  side, turn, points), for the same module to take off the loss it shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.combat import events as cev
from rules.events import GameEvent
from rules.forces.location import Eliminated, OnMap
from rules.ground.grid import Cell
from rules.modules.data import data_of
from rules.state import GameState, with_module_data, with_units

NAME = "combat"


def data(state: GameState) -> Mapping[str, Any]:
    return data_of(state, NAME)


def used(state: GameState, action: str, unit_id: str) -> bool:
    """Whether the unit has already done ``action`` in the current step."""
    when = data(state).get("used", {}).get(action, {}).get(unit_id)
    return bool(when == [state.turn, state.step])


def casualties(state: GameState, unit_id: str) -> int:
    return int(data(state).get("casualties", {}).get(unit_id, 0))


def shams(state: GameState) -> list[Mapping[str, Any]]:
    return list(data(state).get("shams", []))


def attacks(state: GameState) -> list[Mapping[str, Any]]:
    """This turn's attacks: kind, attackers, targets, cell, distance (the farthest attacker's),
    distances (each attacker's; empty in games recorded before), shield, turn, step."""
    return [a for a in data(state).get("attacks", []) if a.get("turn") == state.turn]


def _changed(state: GameState, **changes: Any) -> GameState:
    new = dict(data(state))
    new.update(changes)
    return with_module_data(state, NAME, new)


def _mark(state: GameState, action: str, unit_ids: tuple[str, ...]) -> GameState:
    all_used = {k: dict(v) for k, v in data(state).get("used", {}).items()}
    marks = all_used.setdefault(action, {})
    for uid in unit_ids:
        marks[uid] = [state.turn, state.step]
    return _changed(state, used=all_used)


def _unit(state: GameState, uid: str, **changes: Any) -> GameState:
    return with_units(state, {uid: replace(state.units[uid], **changes)})


#: The shield of an attack first recorded as a sham whose result would have eliminated the
#: unit, so that it was ignored instead (``rules.combat.fire``).
SHAM_BROKEN = "sham_broken"


def _same_attack(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    keys = ("step", "kind", "attackers", "targets", "cell")
    return all(a.get(k) == b.get(k) for k in keys)


def take_losses(strength: int, casualties: int, stragglers: int) -> tuple[int, int]:
    """The casualties and stragglers a unit of ``strength`` can actually lose: casualties
    first, and never more than its strength."""
    c = max(0, min(casualties, strength))
    s = max(0, min(stragglers, strength - c))
    return c, s


def apply(state: GameState, event: GameEvent) -> GameState | None:
    """The state after one of the combat module's events, or ``None`` if it is not one."""
    match event:
        case cev.AttackMade():
            record: dict[str, Any] = {"turn": state.turn, "step": state.step, "kind": event.kind,
                      "attackers": list(event.attackers), "targets": list(event.targets),
                      "cell": list(event.cell), "distance": event.distance,
                      "distances": list(event.distances), "shield": event.shield}
            kept = [a for a in data(state).get("attacks", []) if a.get("turn") == state.turn]
            if event.shield == SHAM_BROKEN and kept and _same_attack(kept[-1], record):
                kept = kept[:-1]  # the sham could not be kept up: this record replaces it
            state = _changed(state, attacks=[*kept, record])
            return _mark(state, event.kind, event.attackers)
        case cev.LossesTaken(unit=uid):
            unit = state.units[uid]
            c, s = take_losses(unit.strength, event.casualties, event.stragglers)
            lost = dict(data(state).get("casualties", {}))
            lost[uid] = int(lost.get(uid, 0)) + c
            strength = unit.strength - c - s
            state = _changed(state, casualties=lost)
            return _unit(state, uid, strength=strength, stragglers=unit.stragglers + s,
                         location=unit.location if strength > 0 else Eliminated())
        case cev.MoraleChanged(unit=uid, morale=morale):
            return _unit(state, uid, morale=morale)
        case cev.UnitRetreated(unit=uid, path=path) | cev.UnitAdvanced(unit=uid, path=path):
            return _unit(state, uid, location=OnMap(Cell(*path[-1]))) if path else state
        case cev.StragglersChecked(unit=uid, points=points):
            unit = state.units[uid]
            _, s = take_losses(unit.strength, 0, points)
            strength = unit.strength - s
            return _unit(state, uid, strength=strength, stragglers=unit.stragglers + s,
                         location=unit.location if strength > 0 else Eliminated())
        case cev.StragglersRecovered(unit=uid, points=points):
            unit = state.units[uid]
            n = max(0, min(points, unit.stragglers))
            return _unit(state, uid, strength=unit.strength + n, stragglers=unit.stragglers - n)
        case cev.RallyAttempted(unit=uid, after=after):
            unit = state.units[uid]
            state = _unit(state, uid, morale=after, mp_spent=float(unit.movement))
            return _mark(state, "rally", (uid,))
        case cev.ShamResult():
            sham: dict[str, Any] = {
                "unit": event.unit, "by_side": event.by_side, "turn": state.turn,
                "strength_lost": event.strength_lost, "stragglers": event.stragglers,
                "morale": event.morale,
                "retreat_to": list(event.retreat_to) if event.retreat_to else None,
                "eliminated": event.eliminated}
            return _changed(state, shams=[*data(state).get("shams", []), sham])
        case cev.ShamStragglersRecovered():
            back = {"unit": event.unit, "by_side": event.by_side, "turn": state.turn,
                    "points": event.points}
            return _changed(state, sham_recoveries=[*data(state).get("sham_recoveries", []),
                                                    back])
        case (cev.FireResolved() | cev.FireReceived() | cev.CloseCombatResolved()
              | cev.AttackIgnored()):
            return state
    return None
