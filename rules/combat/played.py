"""Which of combat's orders the game's ruleset gives the means to play: fire needs a fire table
and the meaning of its results, close combat a table of odds or differentials and the meaning of
its results, a rally the morale table. Each answer is the refusal an order meets when its means
are missing (``None``: they are there); the orders, the side's offers and ``/help`` ask the same
function, so that no game lists a command its rules cannot play (ruling ORD-57)."""

from __future__ import annotations

from rules.refusal import Refusal
from rules.scenario.ruleset import Ruleset

#: Each command of the module, by the action it plays.
COMMAND_ACTIONS: dict[str, str] = {"/fire": "fire", "/assault": "assault", "/rally": "rally"}


def fire_unplayable(ruleset: Ruleset) -> Refusal | None:
    if "fire" not in ruleset.tables:
        return Refusal("this game's rules have no fire combat")
    if not ruleset.combat.fire_results:
        return Refusal("the ruleset does not say what its fire results mean "
                       "(combat.fire_results)")
    return None


def assault_unplayable(ruleset: Ruleset) -> Refusal | None:
    table = ruleset.tables.get("close_combat")
    if table is None or table.kind == "plain":
        return Refusal("this game's rules have no close-combat table of odds or differentials")
    if not ruleset.combat.close_combat_results:
        return Refusal("the ruleset does not say what its close-combat results mean "
                       "(combat.close_combat_results)")
    return None


def rally_unplayable(ruleset: Ruleset) -> Refusal | None:
    if "morale" not in ruleset.tables:
        return Refusal("this game's rules have no morale table")
    return None


def unplayable(ruleset: Ruleset, action: str) -> Refusal | None:
    """Why ``action`` (``fire``, ``assault`` or ``rally``) cannot be played under the ruleset."""
    match action:
        case "fire":
            return fire_unplayable(ruleset)
        case "assault":
            return assault_unplayable(ruleset)
        case "rally":
            return rally_unplayable(ruleset)
    return None
