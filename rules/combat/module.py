"""The ``combat`` rule module: fire, close combat, morale and stragglers, from the ruleset's
tables (see the package's other modules), with secret results where the rule texts hide them.

Importing this module registers it (``rules.modules.registry.IMPLEMENTATIONS`` names it).
"""

from __future__ import annotations

from rules.combat import ledger
from rules.combat.close_combat import assault
from rules.combat.commands import Assault, Fire, Rally
from rules.combat.fire import fire
from rules.combat.morale import rally, rally_refusal, rally_roll, require_rally
from rules.combat.offers import combat_offers
from rules.combat.played import COMMAND_ACTIONS, unplayable
from rules.combat.spec import SPEC
from rules.combat.stragglers import recover_stragglers
from rules.commands import GameCommand
from rules.events import GameEvent
from rules.forces.units import Unit
from rules.modules.api import RuleModule
from rules.modules.registry import register
from rules.outcome import Outcome
from rules.state import GameState
from rules.turn.offers import Offer
from rules.turn.sequence import Step
from rules.view import SideView


class Combat(RuleModule):
    spec = SPEC

    def decide(self, out: Outcome, side: str, command: GameCommand) -> None:
        match command:
            case Fire():
                fire(out, side, command)
            case Assault():
                assault(out, side, command)
            case Rally():
                rally(out, side, command)

    def apply(self, state: GameState, event: GameEvent) -> GameState | None:
        return ledger.apply(state, event)

    def on_step_begin(self, out: Outcome) -> None:
        """Stragglers come back at the end of each turn (the last step of the sequence)."""
        state = out.state
        if state.step == len(state.steps) - 1:
            recover_stragglers(out)

    def offers(self, state: GameState, side: str, view: SideView, step: Step
               ) -> tuple[Offer, ...]:
        return combat_offers(state, side, view, step)

    def plays(self, state: GameState, command: str) -> bool:
        action = COMMAND_ACTIONS.get(command)
        return action is None or unplayable(state.loaded.ruleset, action) is None

    def rally_as(self, out: Outcome, unit: Unit) -> str | None:
        """The rally of ``/rally`` (ruling COMBAT-13) from the state ``unit`` is given in."""
        require_rally(out.state, unit, modules=False)
        return rally_roll(out, unit)

    def may_rally_as(self, state: GameState, unit: Unit) -> str | None:
        why = rally_refusal(state, unit, modules=False)
        return None if why is None else str(why)

    def may_move(self, state: GameState, unit: Unit) -> str | None:
        rules = state.loaded.ruleset.combat
        if not rules.state(unit.morale).may_move:
            return f"{unit.name} is {unit.morale}: rally it before it can move"
        if ledger.used(state, "assault", unit.id):
            return f"{unit.name} has assaulted in this phase and cannot move again"
        return None


COMBAT = register(Combat())
