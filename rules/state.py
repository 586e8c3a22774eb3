"""The full state of a game, and how each event changes it.

``GameState`` is the umpire's truth: every unit where it really is, each side's memory of the
enemy, the reports each side has been given. It is never shown to a player; ``rules.view``
projects it onto one side. ``apply`` is the only way a state changes, so a state is exactly the
fold of its events.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from types import MappingProxyType
from typing import Any

from rules import events as ev
from rules import reaction
from rules.grid import Cell
from rules.loader import LoadedScenario
from rules.module_data import with_module_data as with_module_data  # re-exported
from rules.modules import available_actions
from rules.scenario import FORMATIONS_BY_KIND
from rules.turns import Step
from rules.turns import steps as _steps
from rules.units import DEFAULT_MOVEMENT_CLASS, Command, Unit


@dataclass(frozen=True, slots=True)
class Memory:
    """What a side remembers of one enemy unit: where and when it was last seen, what it looked
    like then, and whether it is in sight now."""

    cell: Cell
    turn: int
    seen: Mapping[str, Any]
    in_sight: bool


@dataclass(frozen=True)
class GameState:
    loaded: LoadedScenario
    units: Mapping[str, Unit]
    commands: Mapping[str, Command]
    turn: int = 1
    step: int = 0
    done: frozenset[str] = frozenset()
    status: str = "setup"
    memory: Mapping[str, Mapping[str, Memory]] = field(default_factory=dict)
    reports: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    requests: frozenset[str] = frozenset()
    modules: tuple[str, ...] = ()
    module_data: Mapping[str, Any] = field(default_factory=dict)
    seq: int = 0

    # -- reading the state ---------------------------------------------------------------------
    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.loaded.scenario.sides)

    @property
    def steps(self) -> tuple[Step, ...]:
        return _steps(self.loaded.ruleset, self.sides, available_actions(self.modules))

    @property
    def current(self) -> Step:
        return self.steps[self.step]

    @property
    def last_turn(self) -> int:
        return self.loaded.scenario.turns[-1].turn

    def acting_sides(self) -> tuple[str, ...]:
        """Sides that still have to act in the current step."""
        if self.status != "active":
            return ()
        return tuple(s for s in self.current.acting(self.sides) if s not in self.done)

    def units_of(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side]

    def enemies_of(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side != side]

    def side_name(self, side: str) -> str:
        for s in self.loaded.scenario.sides:
            if s.id == side:
                return s.name
        return side


def initial_state(loaded: LoadedScenario, without: tuple[str, ...] = ()) -> GameState:
    """The game as the scenario sets it up, before the first event; ``without`` names rule
    modules the players chose to leave out."""
    board = loaded.board
    units: dict[str, Unit] = {}
    for spec in loaded.scenario.units:
        mclass = spec.movement_class or DEFAULT_MOVEMENT_CLASS[spec.kind]
        movement = spec.movement
        if movement is None:
            movement = loaded.ruleset.movement_allowance.get(mclass, 0)  # type: ignore[call-overload]
        cell = board.parse(spec.at) if spec.at else None
        arrives_at = board.parse(spec.arrives.at) if spec.arrives else None
        units[spec.id] = Unit(
            id=spec.id, side=spec.side, name=spec.name, short=spec.short or spec.name[:10],
            kind=spec.kind, echelon=spec.echelon, command=spec.command, strength=spec.strength,
            movement_class=mclass, movement=movement,
            formation=spec.formation or FORMATIONS_BY_KIND[spec.kind][0],
            cell=cell, initiative=spec.initiative, command_range=spec.command_range,
            tags=spec.tags, arrives_turn=spec.arrives.turn if spec.arrives else None,
            arrives_at=arrives_at,
        )
    commands = {c.id: Command.from_spec(c) for c in loaded.scenario.commands}
    sides = tuple(s.id for s in loaded.scenario.sides)
    first = loaded.scenario.turns[0].turn
    return GameState(
        loaded=loaded, units=MappingProxyType(units), commands=MappingProxyType(commands),
        turn=first, memory={s: {} for s in sides}, reports={s: () for s in sides},
        modules=tuple(m for m in loaded.scenario.scenario.modules if m not in without),
    )


# -- the fold ----------------------------------------------------------------------------------
def apply(state: GameState, event: ev.Event) -> GameState:
    """The state after one event."""
    state = replace(state, seq=state.seq + 1)
    match event:
        case ev.CommandAccepted(request=request):
            return replace(state, requests=state.requests | {request}) if request else state
        case ev.GameStarted():
            return replace(state, status="active")
        case ev.PhaseBegan(turn=turn, step=step):
            fresh = {k: u.fresh() for k, u in state.units.items()}
            return replace(state, turn=turn, step=step, done=frozenset(),
                           units=MappingProxyType(fresh))
        case ev.SideDone(side=side):
            return replace(state, done=state.done | {side})
        case ev.UnitsArrived(units=ids):
            return with_units(state, {
                i: replace(state.units[i], cell=state.units[i].arrives_at, arrives_turn=None)
                for i in ids
            })
        case ev.UnitMoved(unit=uid, path=path, mp=mp):
            unit = state.units[uid]
            return with_units(state, {uid: unit.moved_to(Cell(*path[-1]), mp)})
        case ev.UnitHalted(unit=uid):
            unit = state.units[uid]
            return with_units(state, {uid: replace(unit, mp_spent=float(unit.movement))})
        case ev.FormationChanged(unit=uid, formation=formation, mp=mp):
            return with_units(state, {uid: state.units[uid].with_formation(formation, mp)})
        case ev.Sighted(side=side, seen=seen, lost=lost):
            return _remember(state, side, seen, lost)
        case ev.Told(text=text, audience=audience):
            return _tell(state, audience, text)
        case ev.UnitCorrected(unit=uid, changes=changes):
            return with_units(state, {uid: _corrected(state.units[uid], changes)})
        case ev.GamePaused(paused=paused):
            return replace(state, status="paused" if paused else "active")
        case ev.GameEnded():
            return replace(state, status="ended")
        case ev.DieRolled():
            return state
        case reaction.QuestionAsked() | reaction.QuestionAnswered():
            return reaction.fold(state, event)
    from rules.registry import in_force  # the modules in force fold their own events

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
    units = dict(state.units)
    units.update(changed)
    return replace(state, units=MappingProxyType(units))


def _remember(state: GameState, side: str, seen: Mapping[str, Mapping[str, Any]],
              lost: Iterable[str]) -> GameState:
    memory = dict(state.memory.get(side, {}))
    for uid in lost:
        if uid in memory:
            memory[uid] = replace(memory[uid], in_sight=False)
    for uid, what in seen.items():
        memory[uid] = Memory(Cell(*what["cell"]), state.turn, MappingProxyType(dict(what)), True)
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


def _corrected(unit: Unit, changes: Mapping[str, Any]) -> Unit:
    fields: dict[str, Any] = {}
    for key, value in changes.items():
        if key not in CORRECTABLE:
            raise ValueError(f"{key!r} cannot be corrected")
        fields[key] = Cell(*value) if key == "cell" and value is not None else value
    return replace(unit, **fields)


# -- snapshots ---------------------------------------------------------------------------------
def to_snapshot(state: GameState) -> dict[str, Any]:
    """The changing part of a state as JSON-ready data (the scenario is loaded separately)."""
    return {
        "turn": state.turn, "step": state.step, "done": sorted(state.done),
        "status": state.status, "seq": state.seq,
        "units": [_unit_json(u) for u in state.units.values()],
        "memory": {
            side: {uid: {"cell": list(m.cell), "turn": m.turn, "seen": dict(m.seen),
                         "in_sight": m.in_sight} for uid, m in mem.items()}
            for side, mem in state.memory.items()
        },
        "reports": {side: list(r) for side, r in state.reports.items()},
        "requests": sorted(state.requests),
        "module_data": dict(state.module_data),
    }


def from_snapshot(loaded: LoadedScenario, data: Mapping[str, Any],
                  without: tuple[str, ...] = ()) -> GameState:
    base = initial_state(loaded, without)
    units = {u["id"]: _unit_from_json(u) for u in data["units"]}
    memory = {
        side: MappingProxyType({
            uid: Memory(Cell(*m["cell"]), m["turn"], MappingProxyType(m["seen"]), m["in_sight"])
            for uid, m in mem.items()
        })
        for side, mem in data["memory"].items()
    }
    return replace(
        base, turn=data["turn"], step=data["step"], done=frozenset(data["done"]),
        status=data["status"], seq=data["seq"], units=MappingProxyType(units),
        memory=MappingProxyType(memory),
        reports=MappingProxyType({s: tuple(r) for s, r in data["reports"].items()}),
        requests=frozenset(data.get("requests", ())),
        module_data=MappingProxyType(dict(data.get("module_data", {}))),
    )


def _unit_json(u: Unit) -> dict[str, Any]:
    d = asdict(u)
    for key in ("cell", "arrives_at"):
        d[key] = list(d[key]) if d[key] is not None else None
    d["tags"] = list(u.tags)
    return d


def _unit_from_json(d: Mapping[str, Any]) -> Unit:
    fields = dict(d)
    for key in ("cell", "arrives_at"):
        fields[key] = Cell(*fields[key]) if fields[key] is not None else None
    fields["tags"] = tuple(fields["tags"])
    return Unit(**fields)
