"""Morale: checks on the ruleset's morale table (the unit's grade is the column), the states
they lead to, and rallying.

A unit's morale grade comes from a ``grade:X`` tag in the scenario, else the ruleset's
``combat.default_grade``. A result that names a morale state's marker puts the unit in that state
if it is worse than the one it is in; a result in ``combat.holds`` leaves it as it is.
"""

from __future__ import annotations

from rules.combat import events as cev
from rules.combat.checks import require_phase
from rules.combat.commands import Rally
from rules.combat.conditions import Situation, applicable
from rules.combat.played import rally_unplayable
from rules.events import side_audience
from rules.forces.counting import enemy_combat_cells
from rules.forces.lookup import own_unit
from rules.forces.units import Unit
from rules.modules.registry import in_force
from rules.outcome import Outcome
from rules.refusal import Refusal
from rules.state import GameState


def grade(state: GameState, unit: Unit) -> str:
    """The unit's morale grade, as a column of the morale table."""
    rules = state.loaded.ruleset.combat
    for tag in unit.tags:
        if tag.startswith("grade:"):
            return tag.removeprefix("grade:")
    return rules.default_grade


def _column(state: GameState, unit: Unit) -> str:
    table = state.loaded.ruleset.tables["morale"]
    wanted = grade(state, unit)
    if wanted in table.columns:
        return wanted
    default = state.loaded.ruleset.combat.default_grade
    return default if default in table.columns else table.columns[len(table.columns) // 2]


def morale_roll(out: Outcome, unit: Unit, situation: Situation, reason: str) -> str:
    """Roll the unit's morale check (secret: told to its side only); the table's result."""
    table = out.state.loaded.ruleset.tables["morale"]
    mods = applicable(situation, "morale", table.modifiers)
    _, code = out.roll(f"morale check of {unit.name} ({reason})", table.dice,
                       side_audience(unit.side), table="morale",
                       column=_column(out.state, unit), modifiers=mods)
    return code


def morale_check(out: Outcome, unit: Unit, situation: Situation, reason: str) -> str:
    """The morale state a check leaves the unit in ("" when it holds, or when the result is no
    worse than its present state). Nothing changes yet: the caller applies it (or shams it)."""
    if "morale" not in out.state.loaded.ruleset.tables:
        return ""
    rules = out.state.loaded.ruleset.combat
    code = morale_roll(out, unit, situation, reason)
    result = rules.state_for_marker(code)
    if result is None or rules.rank(result.name) <= rules.rank(unit.morale):
        return ""
    return result.name


def worse(state: GameState, current: str, imposed: str) -> str:
    """``imposed`` if it is worse than ``current``, else ""."""
    rules = state.loaded.ruleset.combat
    return imposed if imposed and rules.rank(imposed) > rules.rank(current) else ""


def require_rally(state: GameState, unit: Unit) -> None:
    """Refuse a rally of ``unit`` from the morale state it is in (``unit.morale``, which a
    caller may give as shown rather than true) unless the rules allow one now: a morale table,
    a state worse than good order, no movement yet this phase, no enemy combat unit next to
    it, and a leader in its cell where the state needs one (ruling COMBAT-13)."""
    _require_state(state, unit)
    grid = state.loaded.board.grid
    assert unit.cell is not None
    if any(grid.distance(e, unit.cell) <= 1 for e in enemy_combat_cells(state, unit.side)):
        raise Refusal(f"{unit.name} is in contact with the enemy and cannot rally")
    _require_leader(state, unit)


def require_rally_known(state: GameState, unit: Unit) -> None:
    """``require_rally`` without the enemy next to the unit, which its side may not see
    (ruling FLOW-12): what a list of the units that may rally can ask."""
    _require_state(state, unit)
    _require_leader(state, unit)


def _require_state(state: GameState, unit: Unit) -> None:
    if "morale" not in state.loaded.ruleset.tables:
        raise Refusal("this game's rules have no morale table")
    rules = state.loaded.ruleset.combat
    if unit.cell is None:
        raise Refusal(f"{unit.name} is not on the map")
    if rules.rank(unit.morale) == 0:
        raise Refusal(f"{unit.name} is in good order and needs no rallying")
    if unit.mp_spent > 0:
        raise Refusal(f"{unit.name} has moved (or tried to rally) in this phase")


def _require_leader(state: GameState, unit: Unit) -> None:
    rules = state.loaded.ruleset.combat
    here = rules.state(unit.morale)
    if here.rally_needs_leader and not any(
            u.is_leader and u.side == unit.side and u.cell == unit.cell
            for u in state.units.values()):
        raise Refusal(f"{unit.name} is {unit.morale}: only a leader with it can rally it")


def rally_roll(out: Outcome, unit: Unit) -> str:
    """The rally roll of ``unit`` from ``unit.morale`` (secret: told to its side only), with
    the modifiers of a unit in that state: the state it reaches, one better on a holding
    result, else the same. Nothing changes yet: the caller records it."""
    rules = out.state.loaded.ruleset.combat
    code = morale_roll(out, unit, Situation(out.state, unit=unit), "rally")
    if code in rules.holds:
        return rules.morale_states[rules.rank(unit.morale) - 1].name
    return unit.morale


def rally(out: Outcome, side: str, command: Rally) -> None:
    """A rally roll on the morale table: a holding result restores the unit one state."""
    state = out.state
    require_phase(state, side, ("rally",), "rally")
    missing = rally_unplayable(state.loaded.ruleset)
    if missing is not None:
        raise missing
    unit = own_unit(state, side, command.unit)
    require_rally(state, unit)
    for module in in_force(state.modules):
        why = module.may_fight(state, unit, "rally")
        if why:
            raise Refusal(why)
    after = rally_roll(out, unit)
    out.add(cev.RallyAttempted(audience=side_audience(side), unit=unit.id, before=unit.morale,
                               after=after))
