"""What one side knows during a combat, read through ``rules.view.project`` (the only door to a
side's knowledge): the enemy units it has identified, the counters it sees only as markers, the
cells its troops see; and the target a side names, resolved through that view alone."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from rules.forces.units import Unit
from rules.forces.words import COMBAT_KINDS
from rules.ground.board import LabelError
from rules.ground.grid import Cell
from rules.knowledge.levels import MarkerView
from rules.refusal import Refusal
from rules.state import GameState
from rules.view import ANONYMOUS, GHOST, IDENTIFIED, MARKER, SideView, UnitView, project


class Knowledge:
    """One side's view of the game at one moment."""

    def __init__(self, state: GameState, side: str) -> None:
        self.state = state
        self.side = side
        self.view: SideView = project(state, side)
        self.identified: dict[str, UnitView] = {
            u.ref: u for u in self.view.units if u.level == IDENTIFIED}

    def name(self, unit: Unit) -> str:
        """The unit as this side would name it."""
        if unit.side == self.side:
            return unit.name
        seen = self.identified.get(unit.id)
        return seen.name if seen is not None else "an enemy unit"

    def knows(self, unit: Unit) -> bool:
        return unit.side == self.side or unit.id in self.identified

    def sees_cell(self, cell: Cell) -> bool:
        """Whether an enemy unit standing in ``cell`` would be shown to this side."""
        if self.view.information.shows_every_enemy:
            return True
        return self.view.seen_cells is not None and cell in self.view.seen_cells

    def describe(self, units: tuple[Unit, ...]) -> str:
        """Enemy units as this side saw them: names of those it identified, else a count."""
        known = [self.name(u) for u in units if self.knows(u)]
        unknown = len(units) - len(known)
        if unknown:
            known.append("an unseen enemy" if unknown == 1 else f"{unknown} unseen enemy units")
        return " and ".join(known) if known else "an unseen enemy"


@dataclass(frozen=True)
class Target:
    """What a side aims at. ``label``: how it names it (a unit's name, or "the counter at
    A2409"); ``cell``: where it sees it; ``unit``: the true unit it named, when identified;
    ``identified``: whether the side sees what it aims at; ``units``: the enemy combat units
    truly in that cell."""

    label: str
    cell: Cell
    identified: bool
    unit: Unit | None
    units: tuple[Unit, ...]


def marker_refusal(label: str) -> Refusal:
    """The answer to fire or an assault aimed at an enemy marker (ruling CF-19): whatever is
    under it is off the map until it is revealed. The words name the hex and nothing else, so
    they are the same whatever the marker hides (troops, which ones, or nothing)."""
    return Refusal(f"Your troops see only an enemy marker at {label}: nothing under a marker "
                   "can be fired at or assaulted until it is revealed.")


def _enemy_marker(view: SideView, text: str) -> MarkerView | None:
    """The enemy marker in the side's view that ``text`` names by its id (``4821``,
    ``marker 4821``, ``#4821``), if any."""
    key = text.strip().lower().removeprefix("marker").strip().lstrip("#").strip()
    return next((m for m in view.markers if m.side != view.side and m.id == key), None)


def resolve_target(state: GameState, side: str, text: str, know: Knowledge) -> Target:
    """The target ``side`` names. Only what the side sees can be named: a name it does not see
    gets the same answer as a name that belongs to no unit, and its hints list only names it
    sees. An enemy marker, named by its id or by its hex, is no target (ruling CF-19), unless
    a counter the side may aim at stands with it."""
    view = know.view
    key = text.strip().lower()
    enemies = [u for u in view.units if u.level == IDENTIFIED]
    for uv in enemies:
        if key in (uv.name.lower(), uv.short.lower()):
            return _identified(state, uv)
    starts = [uv for uv in enemies if uv.name.lower().startswith(key)]
    if len(starts) == 1:
        return _identified(state, starts[0])
    ghosts = [u for u in view.units if u.level == GHOST and key == u.name.lower()]
    if ghosts:
        g = ghosts[0]
        raise Refusal(f"Your troops do not see {g.name} now (last seen at "
                      f"{state.loaded.board.label(g.cell)} on turn {g.last_seen_turn}).")
    board = state.loaded.board
    try:
        cell = board.parse(text)
    except LabelError:
        marker = _enemy_marker(view, text)
        if marker is not None:
            raise marker_refusal(board.label(marker.cell)) from None
        names = {uv.name.lower(): uv.name for uv in enemies}
        near = [names[n] for n in difflib.get_close_matches(key, list(names), n=3, cutoff=0.6)]
        hint = f" Did you mean: {', '.join(near)}?" if near else ""
        raise Refusal(f"Your troops see no enemy called {text.strip()[:60]!r}.{hint}") from None
    here = [uv for uv in view.units
            if uv.cell == cell and uv.level in (IDENTIFIED, ANONYMOUS, MARKER)]
    aimable = [uv for uv in here if uv.level != IDENTIFIED or uv.kind in COMBAT_KINDS]
    if not aimable and any(m.cell == cell and m.side != side for m in view.markers):
        raise marker_refusal(board.label(cell))
    if not here:
        raise Refusal(f"Your troops see no enemy at {board.label(cell)}.")
    named = [uv for uv in here if uv.level == IDENTIFIED and uv.kind in COMBAT_KINDS]
    if named:
        named.sort(key=lambda uv: (-(uv.strength or 0), uv.name))
        return _identified(state, named[0])
    if all(uv.level == IDENTIFIED for uv in here):
        return _identified(state, here[0])  # only leaders or wagons: refused as such
    truth = tuple(sorted((u for u in state.enemies_of(side) if u.cell == cell and u.combat),
                         key=lambda u: (-u.strength, u.id)))
    return Target(f"the counter at {board.label(cell)}", cell, False, None, truth)


def _identified(state: GameState, uv: UnitView) -> Target:
    unit = state.units.get(uv.ref)
    if uv.kind not in COMBAT_KINDS:
        raise Refusal(f"{uv.name} is not a combat unit: fire and assaults are at troops.")
    truth = tuple(sorted((u for u in state.units.values()
                          if u.cell == uv.cell and u.side == uv.side and u.combat),
                         key=lambda u: (-u.strength, u.id)))
    return Target(uv.name, uv.cell, True, unit, truth)
