"""Rallying shammed units (SM, "Enemy Interference"; ruling SM-23): the one movement a force on
an accepted order may make, "recover morale and return", as a real unit would.

In the owner's movement phase each named unit of the march (all its shammed units if none are
named) does what a real unit showing the same would do. A unit that shows a sham morale marker
rolls a rally for the shown state: the rally of the module that offers one (``rally_as``: the
combat module's ``/rally``), with its table, modifiers and refusals (moved this phase, in
contact with the enemy, a leader needed); a holding result makes the marker one state better
(gone once it is no worse than the unit's true state), and the unit's movement for the phase is
spent. The roll is its side's secret, as any rally roll. A unit whose marker is gone walks back
to its proper cell by the cheapest way over the ground: checked like any move against what the
side itself knows (each step can be taken, the unit's MPs left this phase pay for the whole way,
the proper cell has room), refused if that fails; whatever the side could not know stops it
instead (an enemy unit in the way, a cell the enemy closes), and it may walk on in a later
movement phase. Every side sees the unit move, as any move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules.events import side_audience
from rules.forces.lookup import own_unit, own_unit_list
from rules.forces.units import Unit
from rules.forces.words import STACKING_KINDS
from rules.ground.grid import Cell
from rules.modules.registry import in_force
from rules.orders.movement import MoveError, check_order, walk
from rules.orders.positions import positions_changed
from rules.refusal import Refusal
from rules.state import GameState
from rules.surprise import cancellation
from rules.surprise import events as sev
from rules.surprise import records as rec
from rules.surprise.commands import RallyShammed
from rules.surprise.march.paths import cheapest_path
from rules.turn import reaction

if TYPE_CHECKING:
    from rules.outcome import Outcome


def _require_movement_phase(state: GameState, side: str, rolls: bool) -> None:
    """The owner's own movement phase; one that allows a rally too when a marker is rolled."""
    step = state.current
    if not step.allows("move"):
        raise Refusal(f"shammed units rally back in your movement phase, not in the "
                      f"{step.title}")
    if rolls and not step.allows("rally"):
        raise Refusal(f"you cannot rally in the {step.title}")
    if side not in step.acting(state.sides):
        raise Refusal(f"it is the {state.side_name(step.side or '')} {step.title}, not yours")
    if side in state.done:
        raise Refusal("you have already finished this phase")


def _accepted_march(state: GameState, side: str, wanted: str) -> Mapping[str, Any]:
    """The march named ``wanted``; with no name, the side's only accepted march with shammed
    units on the map, else its only march (ruling ORD-59). Refused unless it is accepted."""
    shammed = [m for m in rec.side_marches(state, side, rec.ACCEPTED) if _on_map(state, m)]
    record = (shammed[0] if not wanted.strip() and len(shammed) == 1
              else cancellation.find_march(state, side, wanted))
    if record["status"] == rec.SENT:
        raise Refusal(f"the order for {record['name']} has not been accepted yet: its units "
                      "carry no sham result")
    if record["status"] not in rec.ACCEPTED:
        raise Refusal(f"surprise move {record['name']} is "
                      f"{rec.STATUS_WORDS.get(str(record['status']), record['status'])}")
    return record


def _on_map(state: GameState, record: Mapping[str, Any]) -> list[Unit]:
    """The march's shammed units on the map, by id."""
    shams: Mapping[str, Any] = record.get("shams") or {}
    return [state.units[u] for u in sorted(shams) if u in state.units
            and state.units[u].cell is not None]


def _units(state: GameState, side: str, record: Mapping[str, Any], names: str
           ) -> list[Unit]:
    wanted = own_unit_list(state, side, names)
    if not wanted:
        found = _on_map(state, record)
        if not found:
            raise Refusal(f"no unit of surprise move {record['name']} carries a sham result")
        return found
    out: list[Unit] = []
    for name in wanted:
        unit = _shammed(state, side, record, name)
        if unit not in out:
            out.append(unit)
    return out


def _shammed(state: GameState, side: str, record: Mapping[str, Any], name: str) -> Unit:
    """The side's unit named ``name``, refused unless it carries a sham result of the march."""
    unit = own_unit(state, side, name)
    if unit.id not in record["shams"] or unit.cell is None:
        raise Refusal(f"{unit.name} has no sham result to rally from in surprise move "
                      f"{record['name']}")
    return unit


def _require_unit(state: GameState, side: str, record: Mapping[str, Any], unit: Unit
                  ) -> None:
    """What the side can tell of one unit's rally: a unit still showing a sham marker may roll
    for it now (the phase allows a rally, no other module forbids it, the rally module's own
    limits for the state shown); one whose marker is gone has a way home it may take. An enemy
    next to a unit that rolls, and an enemy in its way home, are the rally's to find."""
    marker = _marker(record, unit)
    if not marker:
        _way_home(state, unit, rec.cell_of(record["shams"][unit.id]["home"]))
        return
    _require_movement_phase(state, side, True)
    shown = replace(unit, morale=marker)
    for module in in_force(state.modules):
        why = (None if module.name == rec.MODULE else module.may_fight(state, shown, "rally")
               ) or module.may_rally_as(state, shown)
        if why:
            raise Refusal(why)


def _friends(state: GameState, side: str, moving: str) -> Counter[Cell]:
    """The side's units that count for stacking in each cell, the moving one left out."""
    return Counter(u.cell for u in state.units_of(side)
                   if u.cell is not None and u.id != moving and u.kind in STACKING_KINDS)


def _way_home(state: GameState, unit: Unit, home: Cell) -> tuple[list[Cell], list[float]]:
    """The cheapest way home over the ground and each step's cost, checked against what the
    side knows (``check_order``); ``Refusal`` if there is none it may take."""
    gm = state.loaded.map
    assert unit.cell is not None
    if unit.cell == home:
        return [], []
    found = cheapest_path(gm, unit.cell, (home,), unit.movement_class, unit.formation)
    if found is None:
        raise Refusal(f"{unit.name} has no way back to {gm.board.describe(home)}")
    friends = _friends(state, unit.side, unit.id)
    try:
        costs = check_order(gm, unit, found[0], friends.__getitem__)
    except MoveError as e:
        raise Refusal(f"{unit.name} cannot walk back to {gm.board.describe(home)}: {e}"
                      ) from None
    return found[0], costs


def _marker(record: Mapping[str, Any], unit: Unit) -> str:
    return str(record["shams"][unit.id].get("marker") or "")


def _roll(out: Outcome, side: str, march_id: str, unit: Unit, marker: str) -> None:
    """A rally of the unit as it shows (ruling SM-23): refused, or rolled, as the real rally of
    a unit in that state; the marker improves as the unit would."""
    state = out.state
    shown = replace(unit, morale=marker)
    for module in in_force(state.modules):
        after = module.rally_as(out, shown)
        if after is not None:
            break
    else:
        raise Refusal("this game's rules have no rally")
    rules = state.loaded.ruleset.combat
    if rules.rank(after) <= rules.rank(unit.morale):
        after = ""  # no worse than the truth: the marker goes and the unit shows as it is
    out.add(sev.ShamMarkerRallied(audience=side_audience(side), march=march_id,
                                  name=rec.name_of(state, march_id), unit=unit.id,
                                  before=marker, after=after))


def rally_refusal(state: GameState, side: str, march: str, units: str = "") -> Refusal | None:
    """Why the shammed ``units`` (all of them if empty) of the side's march named ``march``
    may not rally now (``None``: they may): the order's own check of each
    (``rally_unit_refusal``). What only the enemy knows is left to the rally itself."""
    try:
        _rallying(state, side, march, units)
    except Refusal as why:
        return why
    return None


def march_rally_refusal(state: GameState, side: str, march: str) -> Refusal | None:
    """Why no shammed unit of the side's march named ``march`` may rally now (``None``: some
    unit may, so the order takes the march with that unit): the first unit's refusal."""
    try:
        record = _rally_march(state, side, march)
    except Refusal as why:
        return why
    found = [rally_unit_refusal(state, side, march, u.id) for u in _on_map(state, record)]
    if not found:
        return Refusal(f"no unit of surprise move {record['name']} carries a sham result")
    return None if None in found else found[0]


def rally_unit_refusal(state: GameState, side: str, march: str, unit: str
                       ) -> Refusal | None:
    """Why the side's ``unit`` (an id or a name) may not rally now with its march named
    ``march`` (empty: as the order reads it, ruling ORD-59), as the order would refuse it;
    ``None``: the order takes it. The order asks this of every unit it rallies before it rolls
    or walks any; an enemy next to a unit that rolls and an enemy in the way home, which the
    side may not see, are left to the rally itself (rulings FLOW-12, ORD-60)."""
    try:
        record = _rally_march(state, side, march)
        _require_unit(state, side, record, _shammed(state, side, record, unit))
    except Refusal as why:
        return why
    return None


def shammed_units(state: GameState, side: str, march: str) -> list[Unit]:
    """The shammed units on the map of the side's march named ``march`` (empty: as the order
    reads it, ruling ORD-59); ``Refusal`` when the order would take no unit of it now."""
    return _on_map(state, _rally_march(state, side, march))


def _rally_march(state: GameState, side: str, march: str) -> Mapping[str, Any]:
    _require_movement_phase(state, side, False)
    reaction.require_not_held(state, side)
    return _accepted_march(state, side, march)


def _rallying(state: GameState, side: str, march: str, names: str
              ) -> tuple[Mapping[str, Any], list[Unit]]:
    """The march and the units the order rallies, each checked (``_require_unit``)."""
    record = _rally_march(state, side, march)
    units = _units(state, side, record, names)
    for unit in units:
        _require_unit(state, side, record, unit)
    return record, units


def decide_rally(out: Outcome, side: str, command: RallyShammed) -> None:
    state = out.state
    # every unit is checked (rally_unit_refusal) before any rolls or moves
    record, units = _rallying(state, side, command.march, command.units)
    march_id = str(record["id"])
    marked = [(u, _marker(record, u)) for u in units if _marker(record, u)]
    walkers = [u for u in units if not _marker(record, u)]
    for unit, marker in marked:  # a refusal of any undoes every roll before it
        _roll(out, side, march_id, out.state.units[unit.id], marker)
    moved: list[str] = []
    ways: dict[str, list[Cell]] = {}
    for unit in walkers:
        now = out.state
        unit = now.units[unit.id]
        home = rec.cell_of(rec.march(now, march_id)["shams"][unit.id]["home"])
        path, costs = _way_home(now, unit, home)
        enemy = {u.cell for u in now.enemies_of(side) if u.cell is not None}
        for module in in_force(now.modules):
            enemy |= module.closed_cells(now, side)
        friends = _friends(now, side, unit.id)
        result = walk(now.loaded.map, unit, path, costs, enemy_at=enemy.__contains__,
                      friendly_count=friends.__getitem__)
        out.add(sev.ShamRallied(audience=side_audience(side), march=march_id,
                                name=rec.name_of(now, march_id), unit=unit.id,
                                home=rec.ref(home), path=[rec.ref(c) for c in result.cells],
                                mp=result.mp, stopped=result.stopped))
        if result.cells:
            moved.append(unit.id)
            if unit.cell is not None:
                ways[unit.id] = [unit.cell, *result.cells]
    positions_changed(out, moved, ways)
