"""Stragglers: checks on the ruleset's straggler table, rolled in secret and told to the unit's
side only; and their recovery at the end of each turn, away from the enemy.

Strength points that straggle leave the unit's strength for its ``stragglers``; recovery brings
them back, never more than have straggled. Other modules call ``straggler_check`` for their own
checks (forced marches under a surprise order, with their own column).
"""

from __future__ import annotations

from rules.combat import events as cev
from rules.combat.conditions import Situation, applicable
from rules.counting import counts_at, enemy_combat_cells
from rules.events import side_audience
from rules.outcome import Outcome
from rules.registry import in_force
from rules.units import Unit


def straggler_check(out: Outcome, unit: Unit, column: str, reason: str) -> int:
    """Roll a straggler check for the unit on ``column`` of the straggler table (secret: told
    to its side only) and apply it; the points that straggle. No table or no such column: 0."""
    table = out.state.loaded.ruleset.tables.get("straggler")
    if table is None or column not in table.columns or unit.cell is None or unit.strength <= 0:
        return 0
    mods = applicable(Situation(out.state, unit=unit), "straggler", table.modifiers)
    audience = side_audience(unit.side)
    _, code = out.roll(f"straggler check of {unit.name} ({reason})", table.dice, audience,
                       table="straggler", column=column, modifiers=mods)
    points = max(0, min(unit.strength, int(code))) if code.strip().lstrip("-").isdigit() else 0
    out.add(cev.StragglersChecked(audience=audience, unit=unit.id, points=points,
                                  reason=reason, name=unit.name,
                                  present=unit.strength - points,
                                  straggling=unit.stragglers + points))
    return points


def recover_stragglers(out: Outcome) -> None:
    """At the end of a turn: each unit with stragglers and no enemy combat unit within the
    ruleset's distance gets back up to its points of them (unless a module in force forbids
    it, as a surprise order does)."""
    state = out.state
    recovery = state.loaded.ruleset.combat.straggler_recovery
    if recovery.points <= 0:
        return
    grid = state.loaded.board.grid
    modules = in_force(state.modules)
    enemy = {side: enemy_combat_cells(state, side) for side in state.sides}
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        here = counts_at(state, unit)
        if here is None or unit.stragglers <= 0 or not unit.combat:
            continue
        if any(grid.distance(e, here) <= recovery.distance for e in enemy[unit.side]):
            continue
        if not all(m.may_recover_stragglers(state, unit) for m in modules):
            continue
        points = min(recovery.points, unit.stragglers)
        out.add(cev.StragglersRecovered(audience=side_audience(unit.side), unit=unit.id,
                                        points=points))
