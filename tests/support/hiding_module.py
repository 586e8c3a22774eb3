"""A rule module for tests only: it hides a side's units inside markers and shows chosen enemy
units as anonymous, by what its data says. Tests register it (the ``hiding`` fixture) and put it
in force in a state by hand; no scenario can name it.

Its data (``module_data["test_hiding"]``)::

    {"anonymous": ["grey-1", ...], "contents": {"<marker id>": ["blue-1", ...]},
     "blocked_for": ["grey", ...]}

A side named in ``blocked_for`` gets a note saying so, and its map the cells it can tell are
blocked (``rules.knowledge.blocked.blocked_as_known``), as a side on a surprise move does.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

import pytest

from rules import events as ev
from rules.forces.location import InMarker
from rules.forces.markers import Marker
from rules.forces.units import Unit
from rules.ground.grid import Cell
from rules.knowledge.blocked import blocked_as_known
from rules.knowledge.levels import UnitView
from rules.knowledge.notes import ModuleNote
from rules.knowledge.overlay import Ground, Overlay
from rules.modules.api import RuleModule, data_of
from rules.modules.registry import MODULES, register
from rules.state import GameState, apply, with_module_data, with_units

NAME = "test_hiding"


@dataclass(frozen=True)
class HidingNote(ModuleNote):
    """The side's map shows the cells it can tell are blocked."""

    show_blocked: bool


class Hiding(RuleModule):
    """Units under markers and anonymous enemies, as the test's data says."""

    name = NAME

    def shows_anonymous(self, state: GameState, viewer: str, unit: Unit) -> bool:
        return unit.side != viewer and unit.id in data_of(state, NAME).get("anonymous", ())

    def marker_contents(self, state: GameState, side: str, marker: Marker
                        ) -> tuple[str, ...] | None:
        contents: Mapping[str, Sequence[str]] = data_of(state, NAME).get("contents", {})
        if marker.id not in contents:
            return None
        return tuple(contents[marker.id])

    def view_notes(self, state: GameState, side: str) -> ModuleNote | None:
        return HidingNote(True) if side in data_of(state, NAME).get("blocked_for", ()) else None

    def overlay(self, note: ModuleNote | None, enemies: tuple[UnitView, ...],
                ground: Ground) -> Overlay:
        if isinstance(note, HidingNote) and note.show_blocked:
            return Overlay(blocked=blocked_as_known(ground, enemies))
        return Overlay()


@pytest.fixture
def hiding() -> Iterator[Hiding]:
    """The module, registered for the test and taken away after it."""
    module = Hiding()
    register(module)
    try:
        yield module
    finally:
        MODULES.pop(NAME, None)


def in_force(state: GameState, **data: object) -> GameState:
    """The state with the module in force and ``data`` as its data."""
    state = replace(state, modules=(*state.modules, NAME) if NAME not in state.modules
                    else state.modules)
    return with_module_data(state, NAME, dict(data))


def under(unit: Unit, marker_id: str) -> Unit:
    """The unit taken off the map, inside a marker."""
    return replace(unit, location=InMarker(marker_id))


def with_markers(state: GameState, side: str, where: Mapping[str, Cell],
                 contents: Mapping[str, Sequence[str]], anonymous: Sequence[str] = (),
                 blocked_for: Sequence[str] = ()) -> GameState:
    """``side``'s markers placed (id: cell) with the module in force; the units named in
    ``contents`` go under them (off the map)."""
    for mid, cell in where.items():
        state = apply(state, ev.MarkerPlaced(audience="public", marker=mid, side=side,
                                             cell=(cell.col, cell.row)))
    state = with_units(state, {u: under(state.units[u], mid)
                               for mid, ids in contents.items() for u in ids})
    return in_force(state, anonymous=list(anonymous),
                    contents={m: list(ids) for m, ids in contents.items()},
                    blocked_for=list(blocked_for))
