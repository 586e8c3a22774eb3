"""Stragglers: checks on the ruleset's straggler table, rolled in secret and told to the unit's
side only; and their recovery at the end of each turn, away from the enemy.

Strength points that straggle leave the unit's strength for its ``stragglers``; recovery brings
them back, never more than have straggled. Other modules call ``straggler_check`` for their own
checks (forced marches under a surprise order, with their own column).
"""

from __future__ import annotations

from rules.combat import events as cev
from rules.combat.conditions import Situation, applicable
from rules.events import side_audience
from rules.forces.counting import counts_at, enemy_combat_cells
from rules.forces.units import Unit
from rules.knowledge.sighted import appearance
from rules.modules.registry import in_force
from rules.outcome import Outcome
from rules.state import GameState


def straggler_check(out: Outcome, unit: Unit, column: str, reason: str) -> int:
    """Roll a straggler check for the unit on ``column`` of the straggler table (secret: told
    to its side only) and apply it; the points that straggle. No table or no such column: 0."""
    table = out.state.loaded.ruleset.tables.get("straggler")
    # A unit inside a concealment marker checks too: it counts where the marker stands.
    if (table is None or column not in table.columns or counts_at(out.state, unit) is None
            or unit.strength <= 0):
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
    it, as a surprise order does); stragglers a sham result showed an enemy side come back for
    that side the same way."""
    state = out.state
    recovery = state.loaded.ruleset.combat.straggler_recovery
    if recovery.points <= 0:
        return
    grid = state.loaded.board.grid
    modules = in_force(state.modules)
    enemy = {side: enemy_combat_cells(state, side) for side in state.sides}
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        here = counts_at(state, unit)
        if here is None or not unit.combat:
            continue
        if any(grid.distance(e, here) <= recovery.distance for e in enemy[unit.side]):
            continue
        _recover_shown(out, state, unit, recovery.points)
        if unit.stragglers <= 0:
            continue
        if not all(m.may_recover_stragglers(state, unit) for m in modules):
            continue
        points = min(recovery.points, unit.stragglers)
        out.add(cev.StragglersRecovered(audience=side_audience(unit.side), unit=unit.id,
                                        points=points))


def _recover_shown(out: Outcome, state: GameState, unit: Unit, points: int) -> None:
    """Stragglers that sham results showed an enemy side (the unit's stragglers as that side
    sees it, beyond its true ones) come back for that side as a real unit's would, whatever
    the module that shields the unit forbids the unit itself: the enemy must see what it would
    see of a real one (ruling COMBAT-16)."""
    for side in state.sides:
        if side == unit.side:
            continue
        shown = appearance(state, side, unit).stragglers - unit.stragglers
        if shown > 0:
            out.add(cev.ShamStragglersRecovered(audience=side_audience(unit.side),
                                                unit=unit.id, by_side=side,
                                                points=min(points, shown)))
