"""The full state of a game, and how each event changes it.

``GameState`` is the umpire's truth: every unit where it really is, each side's memory of the
enemy, the reports each side has been given. It is never shown to a player; ``rules.view``
projects it onto one side. ``apply`` is the only way a state changes, so a state is exactly the
fold of its events.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import Enum
from types import MappingProxyType
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

from rules import events as ev
from rules.forces.lineage import replaced
from rules.forces.location import (
    Arriving,
    Location,
    OnMap,
    Withdrawn,
    legacy_location,
    location_from_json,
    location_json,
)
from rules.forces.markers import Marker, sorted_markers
from rules.forces.units import Command, Unit
from rules.forces.words import (
    DEFAULT_MOVEMENT_CLASS,
    FORMATIONS_BY_KIND,
    Echelon,
    Formation,
    MovementClass,
    UnitKind,
)
from rules.ground.grid import Cell
from rules.modules.catalog import available_actions
from rules.modules.data import with_module_data as with_module_data  # re-exported
from rules.scenario.loader import LoadedScenario
from rules.turn import reaction, victory
from rules.turn.sequence import Step
from rules.turn.sequence import steps as _steps
from rules.turn.status import GameStatus


@dataclass(frozen=True, slots=True)
class Memory:
    """What a side remembers of one enemy unit: where and when it was last seen, what it looked
    like then, and whether it is in sight now."""

    cell: Cell
    turn: int
    seen: Mapping[str, Any]
    in_sight: bool
    #: The stretch of the unit's way the side saw on its last move in sight (cells in order,
    #: ruling INFO-18); empty when it was not seen moving.
    trail: tuple[Cell, ...] = ()


#: The turn's steps by scenario (kept alive beside them, so an id is never reused) and modules.
_STEPS: dict[tuple[int, tuple[str, ...]], tuple[LoadedScenario, tuple[Step, ...]]] = {}


@dataclass(frozen=True)
class GameState:
    loaded: LoadedScenario
    units: Mapping[str, Unit]
    commands: Mapping[str, Command]
    turn: int = 1
    step: int = 0
    done: frozenset[str] = frozenset()
    status: GameStatus = GameStatus.SETUP
    memory: Mapping[str, Mapping[str, Memory]] = field(default_factory=dict)
    reports: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    requests: frozenset[str] = frozenset()
    modules: tuple[str, ...] = ()
    module_data: Mapping[str, Any] = field(default_factory=dict)
    seq: int = 0
    #: The markers on the map, by id (``rules.forces.markers``); what is under them is module data.
    markers: Mapping[str, Marker] = field(default_factory=dict)
    #: How many marker ids each side has drawn in the whole game (the key of its next draw).
    markers_drawn: Mapping[str, int] = field(default_factory=dict)

    # -- reading the state ---------------------------------------------------------------------
    @property
    def sides(self) -> tuple[str, ...]:
        return self.loaded.side_ids

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps of every turn: the ruleset's phases for these sides and modules (worked
        out once per scenario and modules, and asked for at every event)."""
        key = (id(self.loaded), self.modules)
        known = _STEPS.get(key)
        if known is None or known[0] is not self.loaded:
            known = (self.loaded, _steps(self.loaded.ruleset, self.sides,
                                         available_actions(self.modules)))
            if len(_STEPS) >= 64:
                _STEPS.clear()
            _STEPS[key] = known
        return known[1]

    @property
    def current(self) -> Step:
        return self.steps[self.step]

    @property
    def last_turn(self) -> int:
        return self.loaded.scenario.turns[-1].turn

    def acting_sides(self) -> tuple[str, ...]:
        """Sides that still have to act in the current step."""
        if self.status != GameStatus.ACTIVE:
            return ()
        return tuple(s for s in self.current.acting(self.sides) if s not in self.done)

    def units_of(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side]

    def enemies_of(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side != side]

    def markers_list(self) -> tuple[Marker, ...]:
        """Every marker on the map, sorted by id."""
        return sorted_markers(self.markers.values())

    def side_name(self, side: str) -> str:
        for s in self.loaded.scenario.sides:
            if s.id == side:
                return s.name
        return side


T = TypeVar("T")
Source = TypeVar("Source")
P = ParamSpec("P")


class Remembered(Generic[Source, P, T]):
    """``work``, a function of an object that never changes (a state, a set of unit records, a
    side's memory) and a few plain values, worked out once for each. The last ``kept`` answers
    are remembered, each object kept alive beside its answer, so that its id is never
    another's while remembered."""

    def __init__(self, work: Callable[Concatenate[Source, P], T], kept: int) -> None:
        self._work = work
        self._kept = kept
        self._answers: dict[tuple[object, ...], tuple[Source, T]] = {}
        functools.update_wrapper(self, work)

    def __call__(self, source: Source, *args: P.args, **kwargs: P.kwargs) -> T:
        key = (id(source), *args, *kwargs.items())
        known = self._answers.get(key)
        if known is not None and known[0] is source:
            return known[1]
        found = self._work(source, *args, **kwargs)
        if len(self._answers) >= self._kept:
            self._answers.clear()  # (one call: safe beside the worker threads' reads)
        self._answers[key] = (source, found)
        return found

    def forget(self) -> None:
        """Drop every answer (for tests that compare with work done afresh)."""
        self._answers.clear()


def remembered(kept: int = 64) -> Callable[[Callable[Concatenate[Source, P], T]],
                                           Remembered[Source, P, T]]:
    """``Remembered``, as a decorator."""
    return lambda work: Remembered(work, kept)


def initial_state(loaded: LoadedScenario, without: tuple[str, ...] = ()) -> GameState:
    """The game as the scenario sets it up, before the first event; ``without`` names rule
    modules the players chose to leave out. Units a module in force leaves out of the game
    (``RuleModule.left_out``: the Chancellorsville raid) are never created; whatever plays a
    game has registered every built module (``rules.modules.built``, imported by the
    engine) before it sets one up."""
    from rules.modules.registry import in_force  # the modules in force may leave units out

    board = loaded.board
    modules = tuple(m for m in loaded.scenario.scenario.modules if m not in without)
    left_out = frozenset().union(*(m.left_out(loaded) for m in in_force(modules)))
    withdrawn = set(loaded.scenario.withdrawn_units())
    units: dict[str, Unit] = {}
    for spec in loaded.scenario.units:
        if spec.id in left_out:
            continue
        mclass = spec.movement_class or DEFAULT_MOVEMENT_CLASS[spec.kind]
        movement = spec.movement
        if movement is None:
            movement = loaded.ruleset.movement_allowance.get(mclass, 0)
        location: Location
        if spec.id in withdrawn:
            location = Withdrawn()
        elif spec.arrives is not None:
            location = Arriving(spec.arrives.turn, board.parse(spec.arrives.at))
        else:
            location = OnMap(board.parse(spec.at))
        units[spec.id] = Unit(
            id=spec.id, side=spec.side, name=spec.name, short=spec.short or spec.name[:10],
            kind=spec.kind, echelon=spec.echelon, command=spec.command, strength=spec.strength,
            movement_class=mclass, movement=movement,
            formation=Formation(spec.formation) if spec.formation
            else FORMATIONS_BY_KIND[spec.kind][0],
            location=location, initiative=spec.initiative, command_range=spec.command_range,
            tags=spec.tags,
        )
    commands = {c.id: Command.from_spec(c) for c in loaded.scenario.commands}
    sides = tuple(s.id for s in loaded.scenario.sides)
    first = loaded.scenario.turns[0].turn
    return GameState(
        loaded=loaded, units=MappingProxyType(units), commands=MappingProxyType(commands),
        turn=first, memory={s: {} for s in sides}, reports={s: () for s in sides},
        modules=modules,
    )


# -- the fold ----------------------------------------------------------------------------------
def apply(state: GameState, event: ev.Event) -> GameState:
    """The state after one event."""
    state = replace(state, seq=state.seq + 1)
    match event:
        case ev.CommandAccepted(request=request):
            return replace(state, requests=state.requests | {request}) if request else state
        case ev.GameStarted():
            return replace(state, status=GameStatus.ACTIVE)
        case ev.PhaseBegan(turn=turn, step=step):
            fresh = {k: u.fresh() for k, u in state.units.items()}
            return replace(state, turn=turn, step=step, done=frozenset(),
                           units=MappingProxyType(fresh))
        case ev.SideDone(side=side):
            return replace(state, done=state.done | {side})
        case ev.UnitsArrived(units=ids):
            return with_units(state, {i: _arrived(state.units[i]) for i in ids})
        case ev.UnitMoved(unit=uid, path=path, mp=mp):
            unit = state.units[uid]
            return with_units(state, {uid: unit.moved_to(Cell(*path[-1]), mp)})
        case ev.UnitHalted(unit=uid):
            unit = state.units[uid]
            return with_units(state, {uid: replace(unit, mp_spent=float(unit.movement))})
        case ev.FormationChanged(unit=uid, formation=formation, mp=mp):
            return with_units(state, {uid: state.units[uid].with_formation(Formation(formation),
                                                                          mp)})
        case ev.Sighted(side=side, seen=seen, lost=lost, forgotten=forgotten):
            return _remember(state, side, seen, lost, forgotten)
        case ev.SeenPassing(side=side, passed=passed, trails=trails, forgotten=forgotten):
            return _remember_passing(state, side, passed, trails, forgotten)
        case ev.Told(text=text, audience=audience):
            return _tell(state, audience, text)
        case ev.UnitCorrected(unit=uid, changes=changes):
            return with_units(state, {uid: _corrected(state.units[uid], changes)})
        case ev.GamePaused(paused=paused):
            return replace(state, status=GameStatus.PAUSED if paused else GameStatus.ACTIVE)
        case ev.GameEnded():
            return replace(state, status=GameStatus.ENDED)
        case ev.DieRolled() | ev.FaceTurned() | ev.SeenOnTheWay():
            return state  # a roll's result, and a face turned, are in the units' state already
        case (ev.MarkerPlaced() | ev.MarkerMoved() | ev.MarkerRemoved() | ev.MarkerSplit()
              | ev.MarkersJoined()):
            return _fold_marker(state, event)
        case reaction.QuestionAsked() | reaction.QuestionAnswered():
            return reaction.fold(state, event)
        case victory.PlacesTaken():
            return victory.fold(state, event)
        case victory.VictoryReached():
            return state  # the result tells; it changes nothing
    from rules.modules.registry import in_force  # the modules in force fold their own events

    for module in in_force(state.modules):
        folded = module.apply(state, event)
        if folded is not None:
            return folded
    raise TypeError(f"no rule in force folds an event of type {type(event).__name__}")


def replay(initial: GameState, events: Iterable[ev.Event]) -> GameState:
    state = initial
    for e in events:
        state = apply(state, e)
    return state


def with_units(state: GameState, changed: Mapping[str, Unit]) -> GameState:
    """The state with some units replaced (rule modules call this from ``apply`` too)."""
    return replace(state, units=replaced(state.units, changed))


def _fold_marker(state: GameState, event: ev.Event) -> GameState:
    """The state after a marker event. A log that places an id twice or names a marker that is
    not on the map is corrupt: it is refused rather than folded into a wrong state."""
    markers = dict(state.markers)
    drawn = dict(state.markers_drawn)

    def fresh(mid: str, side: str) -> None:
        if mid in markers:
            raise ValueError(f"marker {mid} is already on the map")
        drawn[side] = drawn.get(side, 0) + 1

    def existing(mid: str) -> Marker:
        if mid not in markers:
            raise ValueError(f"no marker {mid} is on the map")
        return markers[mid]

    match event:
        case ev.MarkerPlaced(marker=mid, side=side, cell=cell):
            fresh(mid, side)
            markers[mid] = Marker(mid, side, Cell(*cell), state.turn)
        case ev.MarkerMoved(marker=mid, path=path):
            if path:
                markers[mid] = existing(mid).moved_to(Cell(*path[-1]), state.turn, state.step)
        case ev.MarkerRemoved(marker=mid):
            existing(mid)
            del markers[mid]
        case ev.MarkerSplit(marker=mid, into=into, cells=cells):
            old = existing(mid)
            del markers[mid]
            if into[0] == into[1] or mid in into:
                raise ValueError(f"marker {mid} must split into two markers with new ids")
            for new_id, cell in zip(into, cells, strict=True):
                fresh(new_id, old.side)
                # The halves keep the phase the old marker moved in: splitting is no new move.
                markers[new_id] = Marker(new_id, old.side, Cell(*cell), state.turn,
                                         old.moved_phase)
        case ev.MarkersJoined(markers=joined, into=new_id, cell=cell):
            olds = [existing(mid) for mid in joined]
            if joined[0] == joined[1] or new_id in joined:
                raise ValueError(f"markers {joined} must join into a marker with a new id")
            if len({m.side for m in olds}) != 1 or any(m.cell != Cell(*cell) for m in olds):
                raise ValueError(f"markers {joined} must be one side's, in one hex")
            for mid in joined:
                del markers[mid]
            fresh(new_id, olds[0].side)
            # Joining is no new move: it keeps the later of the phases the two last moved in.
            moved = max((m.moved_phase for m in olds if m.moved_phase is not None), default=None)
            markers[new_id] = Marker(new_id, olds[0].side, Cell(*cell), state.turn, moved)
    return replace(state, markers=MappingProxyType(markers),
                   markers_drawn=MappingProxyType(drawn))


def _remember(state: GameState, side: str, seen: Mapping[str, Mapping[str, Any]],
              lost: Iterable[str], forgotten: Iterable[str] = ()) -> GameState:
    memory = dict(state.memory.get(side, {}))
    for key in forgotten:
        memory.pop(key, None)
    for uid in lost:
        if uid in memory:
            memory[uid] = replace(memory[uid], in_sight=False)
    for uid, what in seen.items():
        memory[uid] = Memory(Cell(*what["cell"]), state.turn, MappingProxyType(dict(what)), True)
    all_memory = dict(state.memory)
    all_memory[side] = MappingProxyType(memory)
    return replace(state, memory=MappingProxyType(all_memory))


def _remember_passing(state: GameState, side: str, passed: Mapping[str, Mapping[str, Any]],
                      trails: Mapping[str, Iterable[tuple[int, int]]],
                      forgotten: Iterable[str]) -> GameState:
    """Units seen on the way are remembered lost from sight where last seen; the trail of a
    unit still in sight is kept with what the side saw of it."""
    memory = dict(state.memory.get(side, {}))
    for key in forgotten:
        memory.pop(key, None)
    for key, what in passed.items():
        memory[key] = Memory(Cell(*what["cell"]), state.turn, MappingProxyType(dict(what)),
                             False, tuple(Cell(*c) for c in trails.get(key, ())))
    for key, cells in trails.items():
        if key not in passed and key in memory:
            memory[key] = replace(memory[key], trail=tuple(Cell(*c) for c in cells))
    all_memory = dict(state.memory)
    all_memory[side] = MappingProxyType(memory)
    return replace(state, memory=MappingProxyType(all_memory))


def _tell(state: GameState, audience: str, text: str) -> GameState:
    reports = dict(state.reports)
    targets = state.sides if audience == "public" else (
        (audience.removeprefix("side:"),) if audience.startswith("side:") else ()
    )
    for side in targets:
        reports[side] = (*reports.get(side, ()), text)
    return replace(state, reports=MappingProxyType(reports))


CORRECTABLE = ("cell", "strength", "stragglers", "formation", "morale")


def _arrived(unit: Unit) -> Unit:
    """A reinforcement on the map at its arrival cell (one not arriving stays where it is)."""
    return unit.placed(unit.location.cell) if isinstance(unit.location, Arriving) else unit


def _corrected(unit: Unit, changes: Mapping[str, Any]) -> Unit:
    """The unit as the host corrected it. A cell of ``None`` takes it off the map: it is then
    withdrawn (ruling CORE-11)."""
    fields: dict[str, Any] = {}
    for key, value in changes.items():
        if key not in CORRECTABLE:
            raise ValueError(f"{key!r} cannot be corrected")
        if key == "cell":
            fields["location"] = OnMap(Cell(*value)) if value is not None else Withdrawn()
        elif key == "formation":
            fields[key] = Formation(value)
        else:
            fields[key] = value
    return replace(unit, **fields)


# -- snapshots ---------------------------------------------------------------------------------
def to_snapshot(state: GameState) -> dict[str, Any]:
    """The changing part of a state as JSON-ready data (the scenario is loaded separately)."""
    return {
        "turn": state.turn, "step": state.step, "done": sorted(state.done),
        "status": _as_json(state.status), "seq": state.seq,
        "units": [_unit_json(u) for u in state.units.values()],
        "memory": {
            side: {uid: {"cell": list(m.cell), "turn": m.turn,
                         "seen": {k: _as_json(v) for k, v in m.seen.items()},
                         "in_sight": m.in_sight, **_trail_json(m)} for uid, m in mem.items()}
            for side, mem in state.memory.items()
        },
        "reports": {side: list(r) for side, r in state.reports.items()},
        "requests": sorted(state.requests),
        "module_data": dict(state.module_data),
        "markers": [_marker_json(m) for m in state.markers_list()],
        "markers_drawn": dict(state.markers_drawn),
    }


def _trail_json(m: Memory) -> dict[str, Any]:
    """A remembered trail, kept in a snapshot only when there is one (snapshots of memory
    without trails read the same as before)."""
    return {"trail": [list(c) for c in m.trail]} if m.trail else {}


def from_snapshot(loaded: LoadedScenario, data: Mapping[str, Any],
                  without: tuple[str, ...] = ()) -> GameState:
    base = initial_state(loaded, without)
    units = {u["id"]: _unit_from_json(u) for u in data["units"]}
    memory = {
        side: MappingProxyType({
            uid: Memory(Cell(*m["cell"]), m["turn"], MappingProxyType(m["seen"]), m["in_sight"],
                        tuple(Cell(*c) for c in m.get("trail", ())))
            for uid, m in mem.items()
        })
        for side, mem in data["memory"].items()
    }
    return replace(
        base, turn=data["turn"], step=data["step"], done=frozenset(data["done"]),
        status=GameStatus(data["status"]), seq=data["seq"], units=MappingProxyType(units),
        memory=MappingProxyType(memory),
        reports=MappingProxyType({s: tuple(r) for s, r in data["reports"].items()}),
        requests=frozenset(data.get("requests", ())),
        module_data=MappingProxyType(dict(data.get("module_data", {}))),
        markers=MappingProxyType({m["id"]: _marker_from_json(m)
                                  for m in data.get("markers", ())}),
        markers_drawn=MappingProxyType(dict(data.get("markers_drawn", {}))),
    )


def _marker_json(m: Marker) -> dict[str, Any]:
    return {"id": m.id, "side": m.side, "cell": list(m.cell), "created_turn": m.created_turn,
            "moved_phase": list(m.moved_phase) if m.moved_phase is not None else None}


def _marker_from_json(d: Mapping[str, Any]) -> Marker:
    moved = d["moved_phase"]
    return Marker(d["id"], d["side"], Cell(*d["cell"]), d["created_turn"],
                  (int(moved[0]), int(moved[1])) if moved is not None else None)


def _unit_json(u: Unit) -> dict[str, Any]:
    d = {name: _as_json(getattr(u, name)) for name in _UNIT_FIELDS}
    d["location"] = location_json(u.location)
    d["tags"] = list(u.tags)
    return d


#: A unit's fields, as a snapshot writes them (those given to make one).
_UNIT_FIELDS = tuple(f.name for f in fields(Unit) if f.init)


def _as_json(value: Any) -> Any:
    """A game word (an enum member) as its text: the same JSON, and plain to the store's check
    (``storage.json_codec``), which looks hard at anything that is not a plain type."""
    return value.value if isinstance(value, Enum) else value


def _unit_from_json(d: Mapping[str, Any]) -> Unit:
    data = dict(d)
    if "location" in data:
        location = location_from_json(data.pop("location"))
    else:  # a snapshot from before units had a location
        location = legacy_location(data.pop("cell"), data.pop("arrives_turn", None),
                                   data.pop("arrives_at", None))
    data.update(location=location, tags=tuple(data["tags"]), kind=UnitKind(data["kind"]),
                echelon=Echelon(data["echelon"]), formation=Formation(data["formation"]),
                movement_class=MovementClass(data["movement_class"]))
    return Unit(**data)

