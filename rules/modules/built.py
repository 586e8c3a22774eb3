"""The rule modules the umpire plays: importing this file registers every one of them.

One line per built module (its ``RuleModule`` registers itself on import). Whatever plays a
game imports this (the engine does), so that every module's hooks are in the registry before a
state is folded.
"""

from __future__ import annotations

import rules.chancellorsville.module
import rules.chancellorsville.raid_module
import rules.combat.module
import rules.concealed.module
import rules.surprise.module  # noqa: F401  (registers "surprise_move")
from rules.modules.api import RuleModule
from rules.modules.catalog import RuleNotImplemented
from rules.modules.registry import MODULES


def load_all() -> dict[str, RuleModule]:
    """Every rule module that can be played, registered (by importing this file)."""
    return MODULES


def playable_modules() -> frozenset[str]:
    """Modules the umpire can play today. The others are refused at game creation."""
    return frozenset(MODULES)


def require_playable(modules: tuple[str, ...] | list[str]) -> None:
    """Raise ``RuleNotImplemented`` for the first module in force that cannot be played yet."""
    for module in modules:
        if module not in MODULES:
            raise RuleNotImplemented(module)
