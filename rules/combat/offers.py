"""What combat lets a side do now (``RuleModule.offers``): fire, close combat and rallies.

Fire and close combat need an enemy counter the side's view shows where it could be aimed at
(an identified combat unit, or a counter seen without its identity; never a ghost, never a
concealment marker: ruling CF-19), in range and in a clear line for fire, next to the unit for
close combat. Only the view is read for the enemy, so an enemy out of sight keeps no phase open
and its absence closes none that its presence would not (ruling FLOW-11). A rally is offered to
a unit worse than good order that has not moved, with a leader in its cell where its state
needs one; contact with the enemy (which would refuse it) is not looked at, since the side may
not see the enemy next to it.
"""

from __future__ import annotations

from rules.combat.ledger import used
from rules.combat.played import assault_unplayable, fire_unplayable, rally_unplayable
from rules.forces.units import Unit
from rules.forces.words import COMBAT_KINDS
from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell
from rules.modules.registry import in_force
from rules.sighting.height import clear_line
from rules.state import GameState
from rules.turn.offers import Offer
from rules.turn.sequence import Step
from rules.view import ANONYMOUS, IDENTIFIED, MARKER, SideView


def combat_offers(state: GameState, side: str, view: SideView, step: Step
                  ) -> tuple[Offer, ...]:
    ruleset = state.loaded.ruleset
    rules = ruleset.combat
    mine = [state.units[u.ref] for u in view.own_units()
            if u.ref in state.units and state.units[u.ref].combat]
    targets = aimable_cells(view)
    gm = state.loaded.map
    out: list[Offer] = []
    if (step.allows("fire") or step.allows("combat")) and fire_unplayable(ruleset) is None:
        firers = [u for u in mine if _may(state, u, "fire")
                  and rules.state(u.morale).may_fire
                  and u.formation in rules.fire_formations.get(u.kind, ())
                  and _in_range(gm, u, targets, rules.reach(u.kind))]
        if firers:
            out.append(Offer("fire", "fire at an enemy in sight (/fire)",
                             tuple(u.name for u in firers), tuple(u.id for u in firers)))
    if (step.allows("close_combat") or step.allows("combat")) \
            and assault_unplayable(ruleset) is None:
        attackers = [u for u in mine if _may(state, u, "assault")
                     and rules.state(u.morale).may_assault
                     and u.cell is not None
                     and any(gm.grid.adjacent(u.cell, c) for c in targets)]
        if attackers:
            out.append(Offer("close_combat", "assault an enemy next to you (/assault)",
                             tuple(u.name for u in attackers), tuple(u.id for u in attackers)))
    if step.allows("rally") and rally_unplayable(ruleset) is None:
        rallying = [u for u in mine if _may_rally(state, u)]
        if rallying:
            out.append(Offer("rally", "rally a unit (/rally)", tuple(u.name for u in rallying),
                             tuple(u.id for u in rallying)))
    return tuple(out)


def aimable_cells(view: SideView) -> frozenset[Cell]:
    """The cells where the side's view shows an enemy counter it could aim at."""
    return frozenset(u.cell for u in view.enemy_units()
                     if (u.level == IDENTIFIED and u.kind in COMBAT_KINDS)
                     or u.level in (ANONYMOUS, MARKER))


def _may(state: GameState, unit: Unit, action: str) -> bool:
    """Not yet used for ``action`` in this step, and no rule module forbids it."""
    return unit.cell is not None and not used(state, action, unit.id) and not any(
        module.may_fight(state, unit, action) for module in in_force(state.modules))


def _in_range(gm: GameMap, unit: Unit, targets: frozenset[Cell], reach: int) -> bool:
    here = unit.cell
    if here is None:
        return False
    return any(gm.grid.distance(here, c) <= reach and clear_line(gm, gm.idx(here), gm.idx(c))
               for c in targets)


def _may_rally(state: GameState, unit: Unit) -> bool:
    rules = state.loaded.ruleset.combat
    if unit.cell is None or rules.rank(unit.morale) == 0 or unit.mp_spent > 0:
        return False
    if rules.state(unit.morale).rally_needs_leader and not any(
            u.is_leader and u.side == unit.side and u.cell == unit.cell
            for u in state.units_of(unit.side)):
        return False
    return not any(module.may_fight(state, unit, "rally") for module in in_force(state.modules))
