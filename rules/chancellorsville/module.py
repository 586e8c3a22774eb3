"""The ``chancellorsville`` rule module: hidden units, clear-path sighting, Stuart and forts.

Its rules live elsewhere, where each belongs: the face-down counters are the ``inverted``
information model (``rules.view``), the sighting is the ``clear_path`` rule chosen by the
scenario (``rules.sighting``), and Stuart's cavalry and forts are column shifts of the ruleset's
combat table with their conditions (``rules.combat.conditions``), as are the cavalry rules the
ruleset maps to shifts (``rules.chancellorsville.cavalry``). The module itself only tells both
sides, at the start, which cavalry rules are played.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.chancellorsville.cavalry import TABLE
from rules.chancellorsville.cavalry_notice import CavalryRulesAnnounced, announcement
from rules.chancellorsville.spec import SPEC
from rules.events import GameEvent
from rules.modules.api import RuleModule
from rules.modules.registry import register

if TYPE_CHECKING:
    from rules.outcome import Outcome
    from rules.state import GameState


class HiddenUnits(RuleModule):
    spec = SPEC

    def on_game_start(self, out: Outcome) -> None:
        """Both sides are told once, publicly, which cavalry rules are played and which are
        stand-ins (the ruleset holds them, so nothing here is hidden from anyone)."""
        ruleset = out.state.loaded.ruleset
        if not ruleset.cavalry_rules:
            return
        table = ruleset.tables.get(TABLE)
        out.add(announcement(ruleset.cavalry_rules, table.shifts if table else {}))

    def apply(self, state: GameState, event: GameEvent) -> GameState | None:
        # The notice changes nothing in play.
        return state if isinstance(event, CavalryRulesAnnounced) else None


register(HiddenUnits())
