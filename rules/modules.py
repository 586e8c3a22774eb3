"""The registry of rule modules a scenario may put in force.

Each rule text is one module. A module named here but not yet built makes the umpire refuse to
start a game with a clear message naming the rule, rather than play it wrongly.
"""

from __future__ import annotations

#: Rule modules by the name a scenario uses, with the rule text each comes from.
KNOWN_MODULES: dict[str, str] = {
    "combat": "the series' fire, close combat, morale and straggler rules (ruleset tables)",
    "surprise_move": "Surprise Move (rule text 000)",
    "concealed_forces": "Concealed Forces (rule text 001)",
    "chancellorsville": "Chancellorsville hidden units and grid sighting (rule text 002)",
    "raid_victory": "Chancellorsville raid option and its victory die roll (rule text 002)",
}

def playable_modules() -> frozenset[str]:
    """Modules the umpire can play today. The others are refused at game creation."""
    from rules.registry import load_all  # the registry imports every module's package

    return frozenset(load_all())


class RuleNotImplemented(Exception):
    """A scenario asks for a rule module the umpire does not play yet."""

    def __init__(self, module: str) -> None:
        self.module = module
        source = KNOWN_MODULES.get(module, "unknown rule")
        super().__init__(f"rule module {module!r} ({source}) is not implemented yet; remove it "
                         "from scenario.modules to play without it")


def require_playable(modules: tuple[str, ...] | list[str]) -> None:
    """Raise ``RuleNotImplemented`` for the first module in force that cannot be played yet."""
    playable = playable_modules()
    for module in modules:
        if module not in playable:
            raise RuleNotImplemented(module)


#: Actions (named in a ruleset's phases) that the core and each module provide.
ACTIONS: dict[str, frozenset[str]] = {
    "core": frozenset({"move", "formation"}),
    "combat": frozenset({"fire", "close_combat", "combat", "rally"}),
    "surprise_move": frozenset({"order"}),
}


def available_actions(modules: tuple[str, ...] | list[str]) -> frozenset[str]:
    """The actions players can take with these modules in force."""
    out = ACTIONS["core"]
    for module in modules:
        out |= ACTIONS.get(module, frozenset())
    return out
