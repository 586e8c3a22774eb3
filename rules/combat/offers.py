"""What combat lets a side do now (``RuleModule.offers``): fire, close combat and rallies.

Fire and close combat need an enemy counter the side's view shows where it could be aimed at
(an identified combat unit, or a counter seen without its identity; never a ghost, never a
concealment marker: ruling CF-19), in range and in a clear line for fire, next to the unit for
close combat. Only the view is read for the enemy, so an enemy out of sight keeps no phase open
and its absence closes none that its presence would not (ruling FLOW-11). A unit is offered
when the order's own checks take it (``rules.combat.checks``: the unit, then its aim at one of
those counters), and a rally when the rally's own check does (``rally_refusal``); contact with
the enemy, which refuses a rally, is not looked at, since the side may not see the enemy next
to its unit (ruling ORD-55).
"""

from __future__ import annotations

from rules.combat.checks import aim_refusal, fighter_refusal, fire_formation_refusal
from rules.combat.morale import rally_refusal
from rules.combat.played import assault_unplayable, fire_unplayable, rally_unplayable
from rules.forces.units import Unit
from rules.forces.words import COMBAT_KINDS
from rules.ground.grid import Cell
from rules.state import GameState
from rules.turn.offers import Offer
from rules.turn.sequence import Step
from rules.view import ANONYMOUS, IDENTIFIED, MARKER, SideView


def combat_offers(state: GameState, side: str, view: SideView, step: Step
                  ) -> tuple[Offer, ...]:
    ruleset = state.loaded.ruleset
    mine = [state.units[u.ref] for u in view.own_units()
            if u.ref in state.units and state.units[u.ref].combat]
    targets = aimable_cells(view)
    out: list[Offer] = []
    if (step.allows("fire") or step.allows("combat")) and fire_unplayable(ruleset) is None:
        firers = [u for u in mine if _may(state, u, "fire", targets)]
        if firers:
            out.append(Offer("fire", "fire at an enemy in sight (/fire)",
                             tuple(u.name for u in firers), tuple(u.id for u in firers)))
    if (step.allows("close_combat") or step.allows("combat")) \
            and assault_unplayable(ruleset) is None:
        attackers = [u for u in mine if _may(state, u, "assault", targets)]
        if attackers:
            out.append(Offer("close_combat", "assault an enemy next to you (/assault)",
                             tuple(u.name for u in attackers), tuple(u.id for u in attackers)))
    if step.allows("rally") and rally_unplayable(ruleset) is None:
        rallying = [u for u in mine if rally_refusal(state, u) is None]
        if rallying:
            out.append(Offer("rally", "rally a unit (/rally)", tuple(u.name for u in rallying),
                             tuple(u.id for u in rallying)))
    return tuple(out)


def aimable_cells(view: SideView) -> frozenset[Cell]:
    """The cells where the side's view shows an enemy counter it could aim at."""
    return frozenset(u.cell for u in view.enemy_units()
                     if (u.level == IDENTIFIED and u.kind in COMBAT_KINDS)
                     or u.level in (ANONYMOUS, MARKER))


def _may(state: GameState, unit: Unit, action: str, targets: frozenset[Cell]) -> bool:
    """Whether the order would take ``unit`` for ``action`` against one of ``targets``: the
    order's own checks of the unit and of its aim (ruling ORD-55)."""
    if fighter_refusal(state, unit, action) is not None or unit.cell is None:
        return False
    if action == "fire":
        if fire_formation_refusal(state, unit) is not None:
            return False  # (refused whatever the aim: asked once, not for each target)
        # Targets beyond its range are refused by the distance alone.
        reach, grid = state.loaded.ruleset.combat.reach(unit.kind), state.loaded.map.grid
        targets = frozenset(c for c in targets if grid.distance(unit.cell, c) <= reach)
    else:  # an assault can aim at the cells next to the unit only
        targets = frozenset(c for c in state.loaded.map.grid.neighbours(unit.cell)
                            if c in targets)
    return any(aim_refusal(state, unit, action, cell, "") is None for cell in targets)
