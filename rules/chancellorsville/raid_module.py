"""The ``raid_victory`` rule module: the Federal cavalry raid and the victory roll."""

from __future__ import annotations

from rules.chancellorsville.spec import RAID_SPEC
from rules.module_api import RuleModule
from rules.registry import register


class RaidVictory(RuleModule):
    spec = RAID_SPEC


register(RaidVictory())
