"""Every rule module a scenario may put in force, each declared once (``rules.modules.spec``).

Each rule text is one module: a package under ``rules/`` holding its ``ModuleSpec`` and its
``RuleModule``. ``SPECS`` lists every module's spec, played or not; ``rules.modules.built``
imports those that are built. A module declared here but not built makes the umpire refuse to
start a game with a clear message naming the rule, rather than play it wrongly.

Adding a module: its package, its spec's line in ``SPECS``, its implementation's line in
``rules.modules.built``; with reads of its own, ``umpire/modules/<name>.py``; with commands, its
cog ``bot/cogs/<name>.py`` and that extension's line in ``bot.client.EXTENSIONS``.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.chancellorsville.spec import RAID_SPEC as RAID_VICTORY
from rules.chancellorsville.spec import SPEC as CHANCELLORSVILLE
from rules.combat.spec import SPEC as COMBAT
from rules.concealed.spec import SPEC as CONCEALED_FORCES
from rules.modules.spec import ModuleSpec
from rules.surprise.spec import SPEC as SURPRISE_MOVE

#: Every rule module, by the name a scenario uses (built ones first).
SPECS: tuple[ModuleSpec, ...] = (
    COMBAT,
    SURPRISE_MOVE,
    CONCEALED_FORCES,
    CHANCELLORSVILLE,
    RAID_VICTORY,
)

SPEC_BY_NAME: dict[str, ModuleSpec] = {spec.name: spec for spec in SPECS}

#: Rule modules by the name a scenario uses, with the rule text each comes from.
KNOWN_MODULES: dict[str, str] = {spec.name: spec.source for spec in SPECS}

#: The actions the core provides whatever modules are in force.
CORE_ACTIONS: frozenset[str] = frozenset({"move", "formation"})

#: Actions (named in a ruleset's phases) that the core and each module provide.
ACTIONS: dict[str, frozenset[str]] = {"core": CORE_ACTIONS,
                                      **{spec.name: spec.actions for spec in SPECS}}


class RuleNotImplemented(Exception):
    """A scenario asks for a rule module the umpire does not play yet."""

    def __init__(self, module: str) -> None:
        self.module = module
        source = KNOWN_MODULES.get(module, "unknown rule")
        super().__init__(f"rule module {module!r} ({source}) is not implemented yet; remove it "
                         "from scenario.modules to play without it")


def available_actions(modules: tuple[str, ...] | list[str]) -> frozenset[str]:
    """The actions players can take with these modules in force."""
    out = CORE_ACTIONS
    for module in modules:
        spec = SPEC_BY_NAME.get(module)
        if spec is not None:
            out |= spec.actions
    return out


def visibility_limit(modules: Iterable[str]) -> int | None:
    """The farthest a turn may see with these modules in force: the least of their limits
    (``None`` when none sets one). Ruling LOS-8."""
    limits = [spec.max_visibility for m in modules
              if (spec := SPEC_BY_NAME.get(m)) is not None and spec.max_visibility is not None]
    return min(limits) if limits else None


def tables_needed(module: str) -> tuple[str, ...]:
    """The ruleset tables a module needs (none for a name no module has)."""
    spec = SPEC_BY_NAME.get(module)
    return spec.tables if spec is not None else ()
