"""The sighting rules a scenario can choose from, by name (its option ``sighting``, ``los``
when it says nothing). A new rule is a new module in this package and one line here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from rules.ground.gamemap import GameMap
from rules.sighting.los import LineOfSight
from rules.sighting.paths import ClearPath
from rules.sighting.rule import SightingRule

#: The rule a scenario gets when it names none.
DEFAULT_RULE = "los"

#: Sighting rules by the name a scenario gives, each built from the game map.
SIGHTING_RULES: Mapping[str, Callable[[GameMap], SightingRule]] = MappingProxyType({
    LineOfSight.name: LineOfSight,
    ClearPath.name: ClearPath,
})


class UnknownSightingRule(ValueError):
    """A scenario names a sighting rule that does not exist."""


def rule_named(name: str) -> Callable[[GameMap], SightingRule]:
    """The sighting rule of that name; a clear error listing the known ones otherwise."""
    try:
        return SIGHTING_RULES[name]
    except KeyError:
        known = ", ".join(sorted(SIGHTING_RULES))
        raise UnknownSightingRule(f"unknown sighting rule {name!r}; known: {known}") from None
