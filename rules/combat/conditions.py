"""When a table's named modifiers and column shifts apply: the ruleset's conditions
(``rules.combat.config``) judged against one situation (who attacks whom, from where, at what
range, or which unit checks its morale)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from rules.chancellorsville.cavalry import TABLE as CAVALRY_TABLE
from rules.chancellorsville.cavalry import plays, rule_of_shift
from rules.combat.config import Atom, Condition, hidden_from_firer
from rules.forces.counting import counts_at
from rules.forces.units import Unit
from rules.ground.grid import Cell
from rules.state import GameState
from rules.turn.sequence import is_night

CONVERGING_DEGREES = 90.0
OPPOSITE_DEGREES = 150.0


@dataclass(frozen=True)
class Situation:
    """What a condition may ask about. ``attackers`` fire or assault ``defenders`` (the target's
    units); ``unit`` checks morale or stragglers; ``from_cells`` are the attacking cells and
    ``target_cell`` the attacked one; ``band`` the fire's range band."""

    state: GameState
    attackers: tuple[Unit, ...] = ()
    defenders: tuple[Unit, ...] = ()
    unit: Unit | None = None
    band: str = ""
    target_cell: Cell | None = None
    from_cells: tuple[Cell, ...] = ()


def applicable(situation: Situation, table: str, named: Mapping[str, int], *,
               public_only: bool = False) -> dict[str, int]:
    """The named modifiers (or shifts) of ``table`` whose conditions hold, with their values.
    ``public_only`` leaves out those whose condition reads the target's hidden attributes. A
    close-combat shift that a ruleset's cavalry rule plays applies only where that rule may be
    played (``rules.chancellorsville.cavalry.plays``)."""
    ruleset = situation.state.loaded.ruleset
    rules = ruleset.combat
    out: dict[str, int] = {}
    for name, value in named.items():
        cond = rules.condition(table, name)
        if cond is None:
            continue
        if public_only and hidden_from_firer(cond):
            continue
        cavalry = rule_of_shift(ruleset.cavalry_rules, name) if table == CAVALRY_TABLE else None
        if cavalry is not None and not plays(cavalry, value, situation.attackers,
                                             situation.defenders):
            continue
        if holds(cond, situation):
            out[name] = value
    return out


def holds(condition: Condition, s: Situation) -> bool:
    return any(all(_atom(a, s) != a.negated for a in conj) for conj in condition)


def _atom(a: Atom, s: Situation) -> bool:
    if not a.subject:
        match a.prop:
            case "night":
                return is_night(s.state.loaded.scenario, s.state.turn)
            case "range":
                return s.band == a.value
            case "converging":
                return spread(s) >= CONVERGING_DEGREES
            case "opposite":
                return spread(s) >= OPPOSITE_DEGREES
            case "uphill":
                return _uphill(s)
        return False
    units: tuple[Unit, ...]
    if a.subject in ("attackers", "any_attacker"):
        units = s.attackers
    elif a.subject in ("defenders", "any_defender"):
        units = s.defenders
    else:
        units = (s.unit,) if s.unit is not None else ()
    tests = [_property(a, u, s.state) for u in units]
    if a.subject.startswith("any_"):
        return any(tests)
    return bool(tests) and all(tests)


def _property(a: Atom, u: Unit, state: GameState) -> bool:
    match a.prop:
        case "kind":
            return u.kind == a.value
        case "class":
            # The movement class, which the kind does not tell: a horse battery is artillery
            # that rides with the cavalry (ruling CV-21).
            return u.movement_class == a.value
        case "tag":
            return a.value in u.tags
        case "side":
            return u.side == a.value
        case "formation":
            return u.formation == a.value
        case "morale":
            return u.morale == a.value
        case "echelon":
            return u.echelon == a.value
        case "terrain":
            if u.cell is None:
                return False
            terrain_id = state.loaded.map.terrain_at(u.cell)
            terrain = state.loaded.ruleset.terrain[terrain_id]
            return terrain_id == a.value or bool(
                a.value in ("woods", "hill", "fort") and getattr(terrain, a.value))
        case "leader":
            # Where units count (a unit under a marker counts at it), so that a leader under
            # the same marker is with each unit of the force (ruling CF-14).
            here = counts_at(state, u)
            return here is not None and any(
                o.is_leader and o.side == u.side and counts_at(state, o) == here
                for o in state.units.values())
    return False


def spread(s: Situation) -> float:
    """The widest angle, in degrees, between two attacking cells as seen from the target."""
    if s.target_cell is None or len(set(s.from_cells)) < 2:
        return 0.0
    grid = s.state.loaded.board.grid
    tx, ty = grid.centre(s.target_cell)
    angles = []
    for c in sorted(set(s.from_cells)):
        x, y = grid.centre(c)
        angles.append(math.atan2(y - ty, x - tx))
    widest = 0.0
    for i, a in enumerate(angles):
        for b in angles[i + 1:]:
            d = abs(a - b) % (2 * math.pi)
            d = min(d, 2 * math.pi - d)
            widest = max(widest, math.degrees(d))
    return widest + 1e-9  # exact right angles and straight lines count


def _uphill(s: Situation) -> bool:
    if s.target_cell is None or not s.from_cells:
        return False
    gm = s.state.loaded.map
    return gm.elevation_at(s.target_cell) > max(gm.elevation_at(c) for c in s.from_cells)
