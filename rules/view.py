"""What one side may know: the ``SideView``, and ``project``, the only function that decides it.

Every path by which game state reaches a player (messages, map pictures, autocomplete, errors)
starts from a ``SideView``. A side sees its own units in full. An enemy unit appears at one of
three levels, by the information model under which the side sees its enemies:

============  ===============================================================================
model         an enemy unit on the map is shown ...
============  ===============================================================================
open          identified, always
concealed     identified (a concealed-force marker, once that module is in force)
inverted      as a blank marker where it stands; identified while the side's troops sight it
hidden        identified while sighted; once lost from sight, as a ghost where last seen
============  ===============================================================================

Nothing in a view depends on enemy state the side does not see: markers carry no identity and are
numbered by where they stand, ghosts come from the side's own memory, and the blocked cells shown
to a side on a surprise move are worked out from the enemy counters in its view
(``blocked_as_known``), never from where the enemy really is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules.announcements import waiting_for
from rules.board import Board
from rules.gamemap import GameMap
from rules.grid import Cell
from rules.information import InformationModel
from rules.knowledge import SideSighting, bits_to_cells, information_model, rule_for, sight
from rules.module_api import RuleModule
from rules.registry import in_force
from rules.sighting.sighting_pass import COMBAT_KINDS, OBSERVER_KINDS, Presence, full_pass
from rules.state import GameState
from rules.turns import turn_spec, visibility
from rules.units import Unit


class ViewLevel(StrEnum):
    """How much of a counter a side is shown."""

    #: One of the side's own units: everything.
    OWN = "own"
    #: An enemy unit in full: identity, kind, strength, formation.
    IDENTIFIED = "identified"
    #: An enemy unit whose kind shows but not its identity (a released scout, say).
    ANONYMOUS = "anonymous"
    #: A counter face down: that something of that side stands there, nothing more.
    MARKER = "marker"
    #: Where an enemy unit was last seen, as it looked then.
    GHOST = "ghost"


OWN, IDENTIFIED, ANONYMOUS, MARKER, GHOST = (
    ViewLevel.OWN, ViewLevel.IDENTIFIED, ViewLevel.ANONYMOUS, ViewLevel.MARKER, ViewLevel.GHOST)


@dataclass(frozen=True, slots=True)
class UnitView:
    """A counter as a side knows it. Fields the side does not know are empty."""

    ref: str
    side: str
    level: ViewLevel
    cell: Cell
    name: str = ""
    short: str = ""
    kind: str = ""
    echelon: str = ""
    strength: int | None = None
    formation: str = ""
    morale: str = ""
    last_seen_turn: int | None = None
    mp_left: float | None = None
    #: Strength points straggling: told for the side's own units only.
    stragglers: int = 0


@dataclass(frozen=True, slots=True)
class OffMapUnit:
    """One of the side's own units that is not on the map: arriving later (``arrives_turn``), or
    gone from it."""

    ref: str
    name: str
    kind: str
    combat: bool
    strength: int
    stragglers: int
    formation: str
    morale: str
    mp_left: float
    arrives_turn: int | None = None


@dataclass(frozen=True)
class SideView:
    """Everything one side may know at this moment (``side`` is ``None`` for the umpire's view)."""

    scenario_id: str
    title: str
    side: str | None
    side_name: str
    turn: int
    time: str
    light: str
    visibility: int
    phase: str
    phasing: str | None
    information: InformationModel
    units: tuple[UnitView, ...]
    seen_cells: frozenset[Cell] | None
    fog: bool
    #: The board and its terrain: public, the same for every side.
    game_map: GameMap
    #: Every side's name and colour, by side id: public.
    side_names: Mapping[str, str] = field(default_factory=dict)
    side_colours: Mapping[str, str] = field(default_factory=dict)
    reports: tuple[str, ...] = ()
    blocked_cells: frozenset[Cell] = field(default_factory=frozenset)
    #: What the rule modules in force tell this side (its own marches, say), by module name.
    notes: Mapping[str, Any] = field(default_factory=dict)
    #: The day of the turn (the turn track is public).
    day: int = 0
    #: The side's memory of the enemy: each unit it has sighted, as last seen, where and in
    #: which turn (``last_seen_turn``); ``IDENTIFIED`` while in sight, ``GHOST`` once lost.
    memory: tuple[UnitView, ...] = ()
    #: The side's own units not on the map (reinforcements to come, units gone).
    off_map: tuple[OffMapUnit, ...] = ()
    #: The sides everyone may know are still to act in this phase; ``None`` when that is not
    #: told (a phase played at once: ``rules.announcements.waiting_for``).
    waiting_for: tuple[str, ...] | None = ()

    @property
    def board(self) -> Board:
        return self.game_map.board

    def name_of_side(self, side: str | None) -> str:
        return self.side_names.get(side or "", side or "")

    def own_units(self) -> list[UnitView]:
        return [u for u in self.units if u.level == OWN]

    def enemy_units(self) -> list[UnitView]:
        return [u for u in self.units if u.level != OWN]

    def at(self, cell: Cell) -> list[UnitView]:
        return [u for u in self.units if u.cell == cell]

    def remembered(self, *, in_sight: bool) -> list[UnitView]:
        """The enemy units in the side's memory that are in sight now (or lost from sight)."""
        return [u for u in self.memory if (u.level != GHOST) == in_sight]

    def unit(self, ref: str) -> UnitView | None:
        """The counter ``ref`` in this view, if the side has it in view."""
        return next((u for u in self.units if u.ref == ref), None)


def project(state: GameState, side: str | None) -> SideView:
    """The view of ``side`` (or, for ``None``, the umpire's view of everything)."""
    scenario = state.loaded.scenario
    spec = turn_spec(scenario, state.turn)
    step = state.current
    info = information_model(state, side) if side else InformationModel.UMPIRE
    units: list[UnitView] = []
    seen_cells: frozenset[Cell] | None = None
    modules = in_force(state.modules)
    notes: dict[str, Any] = {}
    blocked: frozenset[Cell] = frozenset()
    if side is None:
        units = [_full(u, OWN) for u in _placed(state)]
    else:
        mine = sight(state)[side]
        seen_cells = bits_to_cells(mine.seen_cells, state.loaded.board.grid)
        units = [_full(u, OWN) for u in _placed(state) if u.side == side]
        enemies = _enemies(state, side, info, mine, modules)
        units += enemies
        for module in modules:
            note = module.view_notes(state, side)
            if note:
                notes[module.name] = note
                if note.get("show_blocked"):
                    blocked = blocked_as_known(state, side, enemies)
    return SideView(
        scenario_id=scenario.scenario.id, title=scenario.scenario.title, side=side,
        side_name=state.side_name(side) if side else "Umpire", turn=state.turn, time=spec.time,
        light=spec.light, visibility=visibility(scenario, state.loaded.ruleset, state.turn),
        phase=step.title, phasing=step.side, information=info, units=tuple(units),
        seen_cells=seen_cells, fog=info.fog,
        game_map=state.loaded.map, side_names=_side_names(state),
        side_colours={s.id: s.colour for s in scenario.sides},
        reports=state.reports.get(side, ()) if side else (),
        blocked_cells=blocked, notes=notes, day=spec.day,
        memory=_memory(state, side) if side else (),
        off_map=_off_map(state, side) if side else (), waiting_for=waiting_for(state),
    )


def public_view(state: GameState) -> SideView:
    """What every side knows: the board, the turn and phase, the sides; no unit at all. Public
    texts (the channel's) are written from this view only."""
    scenario = state.loaded.scenario
    spec = turn_spec(scenario, state.turn)
    step = state.current
    return SideView(
        scenario_id=scenario.scenario.id, title=scenario.scenario.title, side=None,
        side_name="", turn=state.turn, time=spec.time, light=spec.light,
        visibility=visibility(scenario, state.loaded.ruleset, state.turn), phase=step.title,
        phasing=step.side, information=InformationModel.HIDDEN, units=(), seen_cells=frozenset(),
        fog=True, game_map=state.loaded.map, side_names=_side_names(state),
        side_colours={s.id: s.colour for s in scenario.sides}, day=spec.day,
        waiting_for=waiting_for(state),
    )


def _side_names(state: GameState) -> dict[str, str]:
    return {s.id: s.name for s in state.loaded.scenario.sides}


def _placed(state: GameState) -> list[Unit]:
    return sorted((u for u in state.units.values() if u.cell is not None), key=lambda u: u.id)


def _full(u: Unit, level: ViewLevel) -> UnitView:
    assert u.cell is not None
    return UnitView(
        ref=u.id, side=u.side, level=level, cell=u.cell, name=u.name, short=u.short, kind=u.kind,
        echelon=u.echelon, strength=u.strength, formation=u.formation, morale=u.morale,
        mp_left=u.mp_left if level == OWN else None,
        stragglers=u.stragglers if level == OWN else 0,
    )


def _enemies(state: GameState, side: str, info: InformationModel, mine: SideSighting,
             modules: list[RuleModule]) -> list[UnitView]:
    out: list[UnitView] = []
    markers: list[UnitView] = []
    memory = state.memory.get(side, {})
    for u in _placed(state):
        if u.side == side:
            continue
        # What the side is shown of the unit: a sham retreat moves even a blank marker.
        face = u
        for module in modules:
            face = module.appearance(state, side, face)
        cell = face.cell
        assert cell is not None
        if info.shows_every_enemy or u.id in mine.seen_units:
            out.append(_full(face, IDENTIFIED))
        elif info is InformationModel.INVERTED:
            markers.append(UnitView(ref="", side=u.side, level=MARKER, cell=cell))
    if info is InformationModel.HIDDEN:
        for uid, m in sorted(memory.items()):
            if not m.in_sight and uid not in mine.seen_units:
                seen = m.seen
                out.append(UnitView(
                    ref=uid, side=str(seen.get("side", "")), level=GHOST, cell=m.cell,
                    name=str(seen.get("name", "")), short=str(seen.get("short", "")),
                    kind=str(seen.get("kind", "")), echelon=str(seen.get("echelon", "")),
                    strength=seen.get("strength"), formation=str(seen.get("formation", "")),
                    last_seen_turn=m.turn,
                ))
    # Markers are named by where they stand, so that nothing hidden orders or names them.
    markers.sort(key=lambda m: (m.cell.row, m.cell.col, m.side))
    out += [
        UnitView(ref=f"marker-{n + 1}", side=m.side, level=MARKER, cell=m.cell)
        for n, m in enumerate(markers)
    ]
    return out


def blocked_as_known(state: GameState, side: str, enemies: list[UnitView]) -> frozenset[Cell]:
    """The cells a side can tell are blocked for its surprise marches, from the enemy counters in
    its own view only (ruling INFO-7): those at or within the blocked radius of a counter that
    may be a combat unit, and those a counter that may be an observer sees under the turn's
    visibility. A sighted unit or a ghost is what it was seen to be; a blank marker may be
    anything, so it counts as both. Under the open model this is the truth; under the others it
    is the side's best knowledge, and the umpire still stops a march where it really is
    blocked."""
    gm = state.loaded.map
    known = [
        Presence(
            unit_id=f"{n}:{u.ref}", side=u.side or "enemy", cell=gm.idx(u.cell),
            combat=u.level == MARKER or u.kind in COMBAT_KINDS,
            observer=u.level == MARKER or u.kind in OBSERVER_KINDS,
        )
        for n, u in enumerate(enemies) if gm.grid.contains(u.cell)
    ]
    vis = visibility(state.loaded.scenario, state.loaded.ruleset, state.turn)
    passed = full_pass(rule_for(state), vis, known,
                       blocked_radius=state.loaded.ruleset.blocked_radius, sides=(side,))
    return bits_to_cells(passed[side].blocked_cells, gm.grid)


def _memory(state: GameState, side: str) -> tuple[UnitView, ...]:
    """The side's memory of enemy units as counters, sorted by ref: what it saw, never more."""
    out = []
    for uid, m in sorted(state.memory.get(side, {}).items()):
        seen = m.seen
        out.append(UnitView(
            ref=uid, side=str(seen.get("side", "")), level=IDENTIFIED if m.in_sight else GHOST,
            cell=m.cell, name=str(seen.get("name", uid)), short=str(seen.get("short", "")),
            kind=str(seen.get("kind", "")), echelon=str(seen.get("echelon", "")),
            strength=seen.get("strength"), formation=str(seen.get("formation", "")),
            last_seen_turn=m.turn,
        ))
    return tuple(out)


def _off_map(state: GameState, side: str) -> tuple[OffMapUnit, ...]:
    return tuple(
        OffMapUnit(ref=u.id, name=u.name, kind=u.kind, combat=u.combat, strength=u.strength,
                   stragglers=u.stragglers, formation=u.formation, morale=u.morale,
                   mp_left=u.mp_left, arrives_turn=u.arrives_turn)
        for u in sorted(state.units_of(side), key=lambda u: u.id) if u.cell is None)
