"""The rule options a host may choose when creating a game, checked before the game exists.

A chosen option is laid over the scenario's own (``umpire.catalog.with_options``), so it gets
the checks the scenario file's options get when it loads, and one more: it must belong to
something the game plays. An option for a rule module the scenario does not play (or that the
group leaves out) would be silently ignored, and the group would play a game they did not
choose.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.announcements import ANNOUNCE_FINISHED
from rules.module_spec import OptionValue
from rules.modules import SPEC_BY_NAME

#: Options of the core, with the value each takes when not chosen.
CORE_OPTIONS: Mapping[str, OptionValue] = {ANNOUNCE_FINISHED: False}

_KIND = {bool: "true or false", int: "a whole number", str: "a word"}


def refusal(modules: Iterable[str], options: Mapping[str, OptionValue]) -> str | None:
    """Why these options cannot be chosen for a game playing ``modules`` (the scenario's, less
    those left out), or ``None`` when they can."""
    modules = tuple(modules)
    for key, value in options.items():
        default = CORE_OPTIONS.get(key)
        owner = None
        if default is None:
            owner = next((m for m in SPEC_BY_NAME.values() if key in m.options), None)
            if owner is None:
                return f"there is no game option {key[:40]!r}"
            if owner.name not in modules:
                return (f"the option {key!r} belongs to the rule module {owner.name!r} "
                        f"({owner.source}), which this game does not play")
            default = owner.options[key]
        if type(value) is not type(default):
            return f"the option {key!r} is {_KIND[type(default)]}, not {value!r}"
    return None
