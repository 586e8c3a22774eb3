"""The ``chancellorsville`` rule module: hidden units, clear-path sighting, Stuart and forts.

Its rules live elsewhere, where each belongs: the face-down counters are the ``inverted``
information model (``rules.view``), the sighting is the ``clear_path`` rule chosen by the
scenario (``rules.sighting``), and Stuart's cavalry and forts are column shifts of the ruleset's
combat table with their conditions (``rules.combat.conditions``).
"""

from __future__ import annotations

from rules.chancellorsville.spec import SPEC
from rules.module_api import RuleModule
from rules.registry import register


class HiddenUnits(RuleModule):
    spec = SPEC


register(HiddenUnits())
