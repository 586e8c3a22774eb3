"""The rule modules that can be played, by name: a table each built module adds itself to.

A module's implementation registers its ``RuleModule`` here when it is imported;
``rules.modules.built`` imports every built one. This file imports no module, so that the
fold (``rules.state.apply``) and the readers of a side's view can ask which modules are in force
without importing the engine. A module declared in ``rules.modules.catalog.SPECS`` but not
registered
cannot be played yet. (A built module that was not loaded is not silently skipped in play: the
fold raises on an event no module in force folds.)
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.commands import GameCommand
from rules.modules.api import RuleModule
from rules.modules.catalog import SPEC_BY_NAME

MODULES: dict[str, RuleModule] = {}


def register(module: RuleModule) -> RuleModule:
    """Add a module to the table. Its name and its declaration must agree: a module is what its
    spec says it is (commands, actions), nothing beside it."""
    spec = module.spec
    if spec is not None:
        if spec.name != module.name:
            raise ValueError(f"module {module.name!r} carries the spec of {spec.name!r}")
        if SPEC_BY_NAME.get(spec.name) is not spec:
            raise ValueError(
                f"module {module.name!r} is not declared in rules.modules.catalog.SPECS"
            )
    MODULES[module.name] = module
    _IN_FORCE.clear()
    return module


def in_force(names: Iterable[str]) -> list[RuleModule]:
    """The registered modules among ``names``, in that order."""
    if not isinstance(names, tuple):
        return [MODULES[n] for n in names if n in MODULES]
    # A state's modules are a tuple, asked for at every counter of every view: found once.
    found = _IN_FORCE.get(names)
    if found is None:
        found = _IN_FORCE[names] = tuple(MODULES[n] for n in names if n in MODULES)
    return list(found)


#: ``in_force`` by the tuple of names (forgotten when a module is registered).
_IN_FORCE: dict[tuple[str, ...], tuple[RuleModule, ...]] = {}


def owner_of(command: GameCommand) -> RuleModule | None:
    """The module whose command this is (``None`` for the core's commands)."""
    for module in MODULES.values():
        if isinstance(command, module.commands):
            return module
    return None
