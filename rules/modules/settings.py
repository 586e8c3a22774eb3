"""A rule module's settings: the part of a scenario that tells one module about this battle.

Options (``[scenario] options``) are switches and small numbers a group may change per game.
Settings (``[settings.<module>]``) are what a module needs to know about the scenario itself,
written once by its author: which side plays which army, which commands a rule names, what the
places on the map are worth. A module declares their shape as a ``ModuleSettings`` model in its
spec; the loader checks the section against it, then asks the model for the problems that need
the whole scenario (ids that must be units or commands, names that must be places).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from rules.scenario.loader import LoadedScenario


class ModuleSettings(BaseModel):
    """The base of every module's settings model: frozen, and unknown fields are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def problems(self, loaded: LoadedScenario) -> list[tuple[str, str]]:
        """What is wrong with these settings in this scenario, as (field inside the section,
        message) pairs; empty when nothing is."""
        return []


S = TypeVar("S", bound=ModuleSettings)

#: Parsed settings by scenario object and module (the scenario is kept alive beside them, so
#: that its id is never reused while cached): modules read their settings at every move.
_PARSED: dict[tuple[int, str], tuple[object, ModuleSettings]] = {}
_LOCK = threading.Lock()  # commands and maps are worked out in worker threads


def settings_of(loaded: LoadedScenario, module: str, model: type[S]) -> S:
    """The module's settings in a loaded (so already checked) scenario."""
    scenario = loaded.scenario
    key = (id(scenario), module)
    with _LOCK:
        known = _PARSED.get(key)
    if known is not None and known[0] is scenario and isinstance(known[1], model):
        return known[1]
    parsed = model.model_validate(scenario.settings.get(module, {}))
    with _LOCK:
        if len(_PARSED) >= 64:
            _PARSED.clear()
        _PARSED[key] = (scenario, parsed)
    return parsed
