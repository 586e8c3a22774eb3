"""Rallying shammed units (SM, "Enemy Interference"; ruling SM-23): the one movement a force on
an accepted order may make.

In the owner's movement phase the named units of the march (all its shammed units if none are
named) lose their sham markers and walk back to their proper cells by the cheapest way over the
ground. The walk is checked like any move against what the side itself knows (each step can be
taken, the unit's MPs left this phase pay for the whole way, the proper cell has room): a walk
that fails that is refused. Whatever the side could not know stops it instead (an enemy unit in
the way, a cell the enemy closes): the unit stands in the last cell it reached, its marker gone,
and may walk on in a later movement phase. Every side sees the unit move, as any move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules import reaction
from rules.events import side_audience
from rules.grid import Cell
from rules.movement import MoveError, check_order, walk
from rules.positions import positions_changed
from rules.refusal import Refusal
from rules.registry import in_force
from rules.state import GameState
from rules.surprise import cancellation
from rules.surprise import events as sev
from rules.surprise import records as rec
from rules.surprise.commands import RallyShammed
from rules.surprise.paths import cheapest_path
from rules.unit_lookup import own_unit
from rules.units import Unit
from rules.words import STACKING_KINDS

if TYPE_CHECKING:
    from rules.outcome import Outcome


def _require_movement_phase(state: GameState, side: str) -> None:
    step = state.current
    if not step.allows("move"):
        raise Refusal(f"shammed units rally back in your movement phase, not in the "
                      f"{step.title}")
    if side not in step.acting(state.sides):
        raise Refusal(f"it is the {state.side_name(step.side or '')} {step.title}, not yours")
    if side in state.done:
        raise Refusal("you have already finished this phase")


def _accepted_march(state: GameState, side: str, wanted: str) -> Mapping[str, Any]:
    record = cancellation.find_march(state, side, wanted)
    if record["status"] == rec.SENT:
        raise Refusal(f"the order for {record['name']} has not been accepted yet: its units "
                      "carry no sham result")
    if record["status"] not in rec.ACCEPTED:
        raise Refusal(f"surprise move {record['name']} is "
                      f"{rec.STATUS_WORDS.get(str(record['status']), record['status'])}")
    return record


def _units(state: GameState, side: str, record: Mapping[str, Any], names: str
           ) -> list[Unit]:
    shams: Mapping[str, Any] = record["shams"]
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    if not wanted:
        found = [state.units[u] for u in sorted(shams) if u in state.units
                 and state.units[u].cell is not None]
        if not found:
            raise Refusal(f"no unit of surprise move {record['name']} carries a sham result")
        return found
    out: list[Unit] = []
    for name in wanted:
        unit = own_unit(state, side, name)
        if unit.id not in shams or unit.cell is None:
            raise Refusal(f"{unit.name} has no sham result to rally from in surprise move "
                          f"{record['name']}")
        if unit not in out:
            out.append(unit)
    return out


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


def decide_rally(out: Outcome, side: str, command: RallyShammed) -> None:
    state = out.state
    _require_movement_phase(state, side)
    reaction.require_not_held(state, side)
    record = _accepted_march(state, side, command.march)
    units = _units(state, side, record, command.units)
    march_id = str(record["id"])
    for unit in units:  # every walk is checked before any unit moves
        _way_home(state, unit, rec.cell_of(record["shams"][unit.id]["home"]))
    moved: list[str] = []
    for unit in units:
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
    positions_changed(out, moved)
