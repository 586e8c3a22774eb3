"""A rule module's own data in a game state: JSON-ready, under the module's name.

Kept apart from ``rules.state`` so that a module's records can be read and written without
importing the fold (which consults the modules in force).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.state import GameState


def data_of(state: GameState, module: str) -> Mapping[str, Any]:
    """A module's own data in a state."""
    data: Mapping[str, Any] = state.module_data.get(module, {})
    return data


def with_module_data(state: GameState, module: str, data: Mapping[str, Any]) -> GameState:
    """The state with a module's own data replaced (modules call this from ``apply``)."""
    all_data = dict(state.module_data)
    all_data[module] = data
    return replace(state, module_data=MappingProxyType(all_data))
