"""The rule modules that can be played, by name.

Each module's package registers its ``RuleModule`` here when imported; ``load_all`` imports them
all. A module named in ``rules.modules.KNOWN_MODULES`` but not registered cannot be played yet.

Importing a module's package also registers its command and event classes, so whatever reads a
log or a stored command (``rules.events.event_from_json``, ``rules.commands.parse_command``)
calls ``load_all`` before it calls a type unknown: a log written by any module reads back in a
fresh process, whether or not a game was created or a rule consulted first. The packages are not
imported when this file is: they import the engine, which imports this registry.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from rules.commands import GameCommand
from rules.module_api import RuleModule

MODULES: dict[str, RuleModule] = {}

#: Packages that hold rule modules; each registers itself on import.
IMPLEMENTATIONS: tuple[str, ...] = ("rules.combat.module", "rules.surprise")


def register(module: RuleModule) -> RuleModule:
    MODULES[module.name] = module
    return module


def load_all() -> dict[str, RuleModule]:
    """Every rule module, with its commands and events registered (imported once)."""
    for package in IMPLEMENTATIONS:
        importlib.import_module(package)
    return MODULES


def in_force(names: Iterable[str]) -> list[RuleModule]:
    """The registered modules among ``names``, in that order."""
    load_all()
    return [MODULES[n] for n in names if n in MODULES]


def owner_of(command: GameCommand) -> RuleModule | None:
    """The module whose command this is (``None`` for the core's commands)."""
    for module in load_all().values():
        if isinstance(command, module.commands):
            return module
    return None
