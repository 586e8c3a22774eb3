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
numbered by where they stand, ghosts come from the side's own memory, and the map's overlay (the
side's own routes, the blocked cells shown to a side on a surprise move) is worked out by the
modules from their note for the side, the enemy counters in its view and the public ground
(``RuleModule.overlay``), never from where the enemy really is.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from rules.forces.lineage import made_from
from rules.forces.location import InMarker, Location
from rules.forces.markers import Marker
from rules.forces.units import Command, Unit
from rules.ground.board import Board
from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell
from rules.knowledge.information import InformationModel
from rules.knowledge.levels import (
    ANONYMOUS,
    GHOST,
    IDENTIFIED,
    MARKER,
    OWN,
    CommandView,
    MarkerView,
    UnitView,
    ViewLevel,
)
from rules.knowledge.notes import ModuleNote
from rules.knowledge.overlay import Ground, Overlay, Route, Trail
from rules.knowledge.public import waiting_for
from rules.knowledge.sighted import (
    SideSighting,
    appearance,
    bits_to_cells,
    face_up,
    information_model,
    known_name,
    known_order,
    rule_for,
    shows_anonymous,
    sight,
    turn_sight_limit,
    turn_visibility,
)
from rules.modules.api import RuleModule
from rules.modules.registry import in_force
from rules.state import GameState, Memory, remembered
from rules.turn.reaction import before_play
from rules.turn.sequence import turn_spec


@dataclass(frozen=True, slots=True)
class OffMapUnit:
    """One of the side's own units that is not on the map: arriving later, under one of the
    side's markers, or gone from it (``location``)."""

    ref: str
    name: str
    kind: str
    combat: bool
    strength: int
    stragglers: int
    formation: str
    morale: str
    mp_left: float
    location: Location
    #: The command (``CommandView.id``) it belongs to.
    command: str = ""


__all__ = ["ANONYMOUS", "GHOST", "IDENTIFIED", "MARKER", "OWN", "CommandView", "MarkerView",
           "OffMapUnit",
           "SideView", "UnitView", "ViewLevel", "project", "public_view"]


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
    #: How far sight reaches this turn, in cells (``None``: no limit, ruling CV-6).
    visibility: int | None
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
    #: The cells the side can tell are blocked (the modules' overlay).
    blocked_cells: frozenset[Cell] = field(default_factory=frozenset)
    #: What the rule modules in force tell this side (its own marches, say), by module name.
    notes: Mapping[str, ModuleNote] = field(default_factory=dict)
    #: The side's own routes drawn on its map (the modules' overlay, or a planned move).
    routes: tuple[Route, ...] = ()
    #: The stretches of enemy units' ways its troops saw them move along, this turn and the
    #: last (ruling INFO-18), from its memory.
    trails: tuple[Trail, ...] = ()
    #: The markers the side knows of, sorted by id: its own with what is under them, the
    #: enemy's as markers only.
    markers: tuple[MarkerView, ...] = ()
    #: The day of the turn (the turn track is public).
    day: int = 0
    #: The side's memory of the enemy: each unit it has sighted, as last seen, where and in
    #: which turn (``last_seen_turn``); ``IDENTIFIED`` while in sight, ``GHOST`` once lost.
    #: A counter seen only as anonymous is remembered by its slot, without a name (INFO-12).
    memory: tuple[UnitView, ...] = ()
    #: The side's own units not on the map (reinforcements to come, units gone).
    off_map: tuple[OffMapUnit, ...] = ()
    #: The sides everyone may know are still to act in this phase; ``None`` when that is not
    #: told (a phase played at once: ``rules.knowledge.public.waiting_for``).
    waiting_for: tuple[str, ...] | None = ()
    #: The side's own chain of command, in the order of battle's order (the umpire's view: every
    #: side's).
    commands: tuple[CommandView, ...] = ()

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


#: Recent views by the state they project (kept alive beside them, so an id is never reused
#: while cached), the side and the rule modules in force. A state never changes, and one
#: command asks for the same side's view several times: its messages, its reply, its map.
_VIEWS: dict[tuple[int, str | None, tuple[int, ...]], tuple[GameState, SideView]] = {}
_VIEWS_KEPT = 64
_VIEWS_LOCK = threading.Lock()  # views are made in worker threads too


def project(state: GameState, side: str | None) -> SideView:
    """The view of ``side`` (or, for ``None``, the umpire's view of everything)."""
    key = (id(state), side, tuple(id(m) for m in in_force(state.modules)))
    with _VIEWS_LOCK:
        found = _VIEWS.get(key)
    if found is not None and found[0] is state:
        return found[1]
    view = _project(state, side)
    with _VIEWS_LOCK:
        if len(_VIEWS) >= _VIEWS_KEPT:
            del _VIEWS[next(iter(_VIEWS))]
        _VIEWS[key] = (state, view)
    return view


def _project(state: GameState, side: str | None) -> SideView:
    scenario = state.loaded.scenario
    spec = turn_spec(scenario, state.turn)
    step = state.current
    info = information_model(state, side) if side else InformationModel.UMPIRE
    units: list[UnitView] = []
    seen_cells: frozenset[Cell] | None = None
    modules = in_force(state.modules)
    notes: dict[str, ModuleNote] = {}
    overlay = Overlay()
    markers: tuple[MarkerView, ...] = ()
    if side is None:
        units = [_full(u, OWN) for u in _placed(state.units)]
        markers = tuple(_marker_view(state, m, _contents(state, m, modules))
                        for m in state.markers_list())
    else:
        now = sight(state)
        mine = now[side]
        seen_cells = bits_to_cells(mine.seen_cells, state.loaded.board.grid)
        up = face_up(state, side, now)
        units = list(_own_counters(state, side))
        if up:  # what the owner sees of his own counters on the table (ruling CV-38)
            units = [replace(v, face_up=True) if v.ref in up else v for v in units]
        # Before the first turn, while a choice made before play is awaited, the enemy's
        # counters are not yet set out on the board (rules.turn.opening).
        unset = before_play(state) is not None
        enemies = () if unset else tuple(_enemies(state, side, info, mine, modules))
        units += enemies
        markers = _markers(state, side, info, seen_cells, modules)
        if unset:
            markers = tuple(m for m in markers if m.side == side)
        # An enemy marker may hide anything: to the overlay it is a blank counter (INFO-10).
        counters = enemies + tuple(UnitView(ref=f"marker:{m.id}", side=m.side, level=MARKER,
                                            cell=m.cell) for m in markers if m.side != side)
        ground = Ground(side, state.loaded.map, turn_visibility(state),
                        rule_for(state), state.loaded.ruleset.blocked_radius)
        for module in modules:
            note = module.view_notes(state, side)
            if note is not None:
                notes[module.name] = note
            # The overlay sees the module's note, the enemy counters and the public ground only.
            overlay |= module.overlay(note, counters, ground)
    return SideView(
        scenario_id=scenario.scenario.id, title=scenario.scenario.title, side=side,
        side_name=state.side_name(side) if side else "Umpire", turn=state.turn, time=spec.time,
        light=spec.light, visibility=turn_sight_limit(state),
        phase=step.title, phasing=step.side, information=info, units=tuple(units),
        seen_cells=seen_cells, fog=info.fog,
        game_map=state.loaded.map, side_names=_side_names(state),
        side_colours={s.id: s.colour for s in scenario.sides},
        reports=state.reports.get(side, ()) if side else (),
        blocked_cells=overlay.blocked, notes=notes, routes=overlay.routes, markers=markers,
        day=spec.day, memory=_memory(state, side) if side else (),
        trails=_trails(state, side) if side else (),
        off_map=_off_map(state, side) if side else (), waiting_for=waiting_for(state),
        commands=_commands(state.commands, side),
    )


def own_view(state: GameState, side: str) -> SideView:
    """What a side knows of its own forces alone: its view with every enemy left out (no enemy
    counter, marker or memory, no sighting, no overlay). A reply about the side's own order
    reads this: it holds less than ``project`` gives the side, never more, and costs no
    sighting."""
    scenario = state.loaded.scenario
    spec = turn_spec(scenario, state.turn)
    step = state.current
    modules = in_force(state.modules)
    return SideView(
        scenario_id=scenario.scenario.id, title=scenario.scenario.title, side=side,
        side_name=state.side_name(side), turn=state.turn, time=spec.time, light=spec.light,
        visibility=turn_sight_limit(state), phase=step.title,
        phasing=step.side, information=information_model(state, side),
        units=_own_counters(state, side), seen_cells=None,
        fog=False, game_map=state.loaded.map, side_names=_side_names(state),
        side_colours={s.id: s.colour for s in scenario.sides}, day=spec.day,
        markers=tuple(_marker_view(state, m, _contents(state, m, modules))
                      for m in state.markers_list() if m.side == side),
        off_map=_off_map(state, side), waiting_for=waiting_for(state),
        commands=_commands(state.commands, side),
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
        visibility=turn_sight_limit(state), phase=step.title,
        phasing=step.side, information=InformationModel.HIDDEN, units=(), seen_cells=frozenset(),
        fog=True, game_map=state.loaded.map, side_names=_side_names(state),
        side_colours={s.id: s.colour for s in scenario.sides}, day=spec.day,
        waiting_for=waiting_for(state),
    )


@remembered()  # (most states share their commands with the one before them)
def _commands(commands: Mapping[str, Command], side: str | None) -> tuple[CommandView, ...]:
    """The side's own commands (every side's for the umpire's view), as the order of battle
    lists them."""
    return tuple(CommandView(id=c.id, name=c.name, echelon=c.echelon, parent=c.parent,
                             leader=c.leader)
                 for c in commands.values() if side is None or c.side == side)


def _own_counters(state: GameState, side: str) -> tuple[UnitView, ...]:
    """The side's own counters on the map, in full, by id: worked out once for each set of unit
    records and side (a command's messages, its answer and every view read them)."""
    units = state.units
    key = (id(units), side)
    known = _OWN.get(key)
    if known is not None and known[0] is units:
        return known[1]
    found = _own_changed(units, side)
    if found is None:
        found = tuple(_full(u, OWN) for u in _placed(state.units) if u.side == side)
    with _VIEWS_LOCK:  # (views are made in worker threads too)
        if len(_OWN) >= _OWN_KEPT:  # the oldest first: the next command's records are made
            del _OWN[next(iter(_OWN))]  # from the newest
        _OWN[key] = (units, found)
    return found


def _own_changed(units: Mapping[str, Unit], side: str) -> tuple[UnitView, ...] | None:
    """The side's own counters, from those of the set of records ``units`` was made from with
    the few records it replaced (``rules.forces.lineage``), when that set's are known: a
    command moves a few units, and the side's other counters are the very same."""
    made = made_from(units)
    if made is None:
        return None
    parent, changed = made
    known = _OWN.get((id(parent), side))
    if known is None or known[0] is not parent:
        return None
    counters = list(known[1])
    refs = [c.ref for c in counters]  # by id, as the counters are
    for uid in sorted(set(changed)):
        at = bisect_left(refs, uid)
        if at < len(refs) and refs[at] == uid:
            del refs[at], counters[at]
        unit = units.get(uid)
        if unit is not None and unit.side == side and unit.cell is not None:
            refs.insert(at, uid)
            counters.insert(at, _full(unit, OWN))
    return tuple(counters)


def _side_names(state: GameState) -> dict[str, str]:
    return {s.id: s.name for s in state.loaded.scenario.sides}


@remembered()  # (every view of a state reads them)
def _placed(units: Mapping[str, Unit]) -> tuple[Unit, ...]:
    """The units on the map, by id."""
    return tuple(sorted((u for u in units.values() if u.cell is not None), key=lambda u: u.id))


#: A side's own counters by the set of records they were worked out from (kept alive beside
#: them, so that an id is never another's).
_OWN: dict[tuple[int, str], tuple[Mapping[str, Unit], tuple[UnitView, ...]]] = {}
#: (Each side of each game being played keeps a few sets: 20 games at once in bench.umpire.)
_OWN_KEPT = 256


#: Counters already drawn up, one table for each level a unit is shown in full at, by the unit
#: (kept alive beside them: a unit never changes, and most units are the same from one state
#: to the next) and the cell.
_OWN_COUNTERS: dict[tuple[int, Cell], tuple[Unit, UnitView]] = {}
_SEEN_COUNTERS: dict[tuple[int, Cell], tuple[Unit, UnitView]] = {}
_COUNTERS_KEPT = 8192


def _full(u: Unit, level: ViewLevel, cell: Cell | None = None) -> UnitView:
    """The unit in full, where it stands (or at ``cell``: the marker it is under)."""
    where = cell or u.cell
    assert where is not None
    # (Tables told apart by identity: an enum member's hash is worked out in Python.)
    table = _OWN_COUNTERS if level is OWN else _SEEN_COUNTERS
    key = (id(u), where)
    known = table.get(key)
    if known is not None and known[0] is u and known[1].level is level:
        return known[1]
    view = _counter(u, level, where)
    if len(table) >= _COUNTERS_KEPT:
        table.clear()
    table[key] = (u, view)
    return view


def _counter(u: Unit, level: ViewLevel, where: Cell) -> UnitView:
    return UnitView(
        ref=u.id, side=u.side, level=level, cell=where, name=u.name, short=u.short, kind=u.kind,
        echelon=u.echelon, strength=u.strength, formation=u.formation, morale=u.morale,
        mp_left=u.mp_left if level == OWN else None,
        stragglers=u.stragglers if level == OWN else 0,
        command=u.command if level == OWN else "",
    )


def _markers(state: GameState, side: str, info: InformationModel, seen: frozenset[Cell],
             modules: list[RuleModule]) -> tuple[MarkerView, ...]:
    """The markers ``side`` knows of: every one of its own, with what is under it; an enemy
    marker as a marker only, where the side's model shows every enemy or its troops see the
    marker's cell (ruling INFO-9)."""
    out = []
    for m in state.markers_list():
        if m.side == side:
            out.append(_marker_view(state, m, _contents(state, m, modules)))
        elif info.shows_every_enemy or m.cell in seen:
            out.append(_marker_view(state, m, None))
    return tuple(out)


def _contents(state: GameState, marker: Marker, modules: list[RuleModule]
              ) -> tuple[UnitView, ...]:
    """What is under a marker, as its owner sees it (empty for a decoy): what the module that
    made it says, or else the side's units whose location is inside it."""
    for module in modules:
        ids = module.marker_contents(state, marker.side, marker)
        if ids is not None:
            return tuple(_full(state.units[i], OWN, marker.cell) for i in sorted(ids)
                         if i in state.units)
    inside = InMarker(marker.id)
    return tuple(_full(u, OWN, marker.cell) for u in sorted(state.units.values(),
                                                             key=lambda u: u.id)
                 if u.side == marker.side and u.location == inside)


def _marker_view(state: GameState, m: Marker, contents: tuple[UnitView, ...] | None
                 ) -> MarkerView:
    return MarkerView(id=m.id, side=m.side, cell=m.cell, created_turn=m.created_turn,
                      moved_this_phase=m.moved_during(state.turn, state.step),
                      contents=contents)


def _enemies(state: GameState, side: str, info: InformationModel, mine: SideSighting,
             modules: list[RuleModule]) -> list[UnitView]:
    out: list[UnitView] = []
    markers: list[UnitView] = []
    anonymous: list[UnitView] = []
    anonymous_ghosts: list[UnitView] = []
    memory = state.memory.get(side, {})
    every = info.shows_every_enemy
    for u in _placed(state.units):
        if u.side == side:
            continue
        # What the side is shown of the unit: a sham retreat moves even a blank marker.
        face = appearance(state, side, u, modules)
        cell = face.cell
        assert cell is not None
        if every or u.id in mine.seen_units:
            if shows_anonymous(state, side, face, modules):
                anonymous.append(UnitView(ref="", side=face.side, level=ANONYMOUS, cell=cell,
                                          kind=face.kind, formation=face.formation))
            else:
                out.append(_full(face, IDENTIFIED))
        elif info is InformationModel.INVERTED:
            markers.append(UnitView(ref="", side=u.side, level=MARKER, cell=cell))
    if info is InformationModel.HIDDEN:
        for uid, m in sorted(memory.items()):
            if not m.in_sight and uid not in mine.seen_units:
                seen = m.seen
                if seen.get("anonymous"):
                    anonymous_ghosts.append(UnitView(
                        ref="", side=str(seen.get("side", "")), level=GHOST, cell=m.cell,
                        kind=str(seen.get("kind", "")),
                        formation=str(seen.get("formation", "")), last_seen_turn=m.turn))
                    continue
                out.append(UnitView(
                    ref=uid, side=str(seen.get("side", "")), level=GHOST, cell=m.cell,
                    name=str(seen.get("name", "")), short=str(seen.get("short", "")),
                    kind=str(seen.get("kind", "")), echelon=str(seen.get("echelon", "")),
                    strength=seen.get("strength"), formation=str(seen.get("formation", "")),
                    last_seen_turn=m.turn,
                ))
    # Markers and anonymous counters are named and ordered by what shows of them and where they
    # stand, so that nothing hidden (which unit it is) orders or names them.
    out += _numbered(anonymous, "anonymous")
    out += _numbered(anonymous_ghosts, "ghost")
    out += _numbered(markers, "marker")
    return out


def memory_of(state: GameState, side: str) -> tuple[UnitView, ...]:
    """The side's memory of enemy units alone (``SideView.memory``), without working out the
    rest of its view: what a report of news compares with."""
    return _memory(state, side)


def _memory(state: GameState, side: str) -> tuple[UnitView, ...]:
    """The side's memory of enemy units as counters: what it saw, never more, ordered by what it
    knows of them (``known_order``). One seen only as anonymous keeps no name, and its ref is
    its slot (where it stood and what showed: ruling INFO-12), never a unit's id."""
    return _memory_counters(state.memory.get(side, _NOTHING))


_NOTHING: Mapping[str, Memory] = MappingProxyType({})


@remembered()  # (a state's memory of a side is replaced whole when it changes)
def _memory_counters(memory: Mapping[str, Memory]) -> tuple[UnitView, ...]:
    out = []
    for uid, m in memory.items():
        seen = m.seen
        anonymous = bool(seen.get("anonymous"))
        out.append(((*known_order(seen), "" if anonymous else uid), UnitView(
            ref=uid, side=str(seen.get("side", "")),
            level=IDENTIFIED if m.in_sight else GHOST, cell=m.cell, name=known_name(seen),
            short=str(seen.get("short", "")), kind=str(seen.get("kind", "")),
            echelon=str(seen.get("echelon", "")), strength=seen.get("strength"),
            formation=str(seen.get("formation", "")), last_seen_turn=m.turn,
            anonymous=anonymous,
        )))
    return tuple(u for _key, u in sorted(out, key=lambda kv: kv[0]))


#: How many turns back a trail the side saw is still drawn on its map (this turn and the last).
TRAIL_TURNS = 2


def _trails(state: GameState, side: str) -> tuple[Trail, ...]:
    """The trails in the side's memory seen lately enough to draw, in the order of their cells
    (nothing but what the side saw orders them)."""
    return _trails_in(state.memory.get(side, _NOTHING), state.turn)


@remembered()
def _trails_in(memory: Mapping[str, Memory], turn: int) -> tuple[Trail, ...]:
    return tuple(sorted(
        (Trail(str(m.seen.get("side", "")), m.trail)
         for m in memory.values() if len(m.trail) > 1 and m.turn > turn - TRAIL_TURNS),
        key=lambda t: (t.cells, t.side)))


def _off_map(state: GameState, side: str) -> tuple[OffMapUnit, ...]:
    return _off_map_of(state.units, side)


@remembered()
def _off_map_of(units: Mapping[str, Unit], side: str) -> tuple[OffMapUnit, ...]:
    """The side's units off the map, by id."""
    return tuple(
        OffMapUnit(ref=u.id, name=u.name, kind=u.kind, combat=u.combat, strength=u.strength,
                   stragglers=u.stragglers, formation=u.formation, morale=u.morale,
                   mp_left=u.mp_left, location=u.location, command=u.command)
        for u in sorted(units.values(), key=lambda u: u.id) if u.side == side and u.cell is None)


def _numbered(counters: list[UnitView], prefix: str) -> list[UnitView]:
    """Counters without an identity, ordered by where they stand and what shows, and named
    ``<prefix>-<n>`` in that order."""
    ordered = sorted(counters, key=lambda u: (u.cell.row, u.cell.col, u.side, u.kind,
                                              u.formation, u.last_seen_turn or 0))
    return [replace(u, ref=f"{prefix}-{n + 1}") for n, u in enumerate(ordered)]
