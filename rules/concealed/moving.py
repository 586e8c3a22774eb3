"""Moving a concealed force (Cf 1.4): its marker, named in an ordinary move.

A force may not move in the turn it was concealed. It marches as its slowest unit: every combat
unit under the marker pays each step at its own rates, in march formation (column, limbered,
mounted), out of its own allowance, and the marker goes only as far as all of them can (a force
of leaders alone moves as its slowest leader). A decoy moves as fast as the owner likes up to a
mounted cavalry brigade's allowance at horse rates: the fastest any real force could go, so that
no decoy is known by its speed (ruling CF-5).

What the side knows refuses the order: a step that cannot be taken, MPs that do not pay, a route
ending on a friendly unit (other than leaders and HQs) or another of its markers. What the enemy
does stops it, never refuses it: the marker halts before a hex in an enemy unit's line of sight,
within two hexes of an enemy unit or marker, or held by the enemy (ruling CF-7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rules import events as ev
from rules.concealed import events as cev
from rules.concealed.records import ForceKind, force, forced_mp, kind_of, spent
from rules.concealed.reveal.spacing import KEEP_AWAY, cell_in_enemy_sight, enemy_cells
from rules.forces.markers import Marker
from rules.forces.words import STACKING_KINDS, Formation, MovementClass, UnitKind
from rules.ground.board import LabelError
from rules.ground.grid import Cell
from rules.orders.positions import positions_changed
from rules.orders.route import RouteError, expand, parse_route
from rules.refusal import Refusal
from rules.state import GameState
from rules.turn import reaction

if TYPE_CHECKING:
    from rules.outcome import Outcome

#: The one member a decoy moves as (its MPs are kept under this key).
DECOY_MEMBER = ""
_MARCH: Mapping[UnitKind, Formation] = {
    UnitKind.INFANTRY: Formation.COLUMN, UnitKind.ARTILLERY: Formation.LIMBERED,
    UnitKind.CAVALRY: Formation.MOUNTED, UnitKind.LEADER: Formation.MOUNTED,
    UnitKind.HQ: Formation.MOUNTED, UnitKind.WAGON: Formation.COLUMN,
}


@dataclass(frozen=True, slots=True)
class Member:
    """One unit the force marches as: its key, movement class, march formation, allowance."""

    key: str
    movement_class: MovementClass
    formation: Formation
    movement: float


def members(state: GameState, record: Mapping[str, Any]) -> list[Member]:
    """The paces the force keeps: a decoy's is a mounted cavalry brigade's; a real force keeps
    that one too, and its combat units' (its leaders' when it has none), so that no real force
    ever outruns what a decoy could do (ruling CF-5)."""
    allowance = state.loaded.ruleset.movement_allowance.get(MovementClass.HORSE, 0)
    ceiling = Member(DECOY_MEMBER, MovementClass.HORSE, Formation.MOUNTED, allowance)
    if kind_of(record) is ForceKind.DECOY:
        return [ceiling]
    units = [state.units[u] for u in record["units"] if u in state.units]
    pace = [u for u in units if u.combat] or units
    return [*(Member(u.id, u.movement_class, _MARCH[u.kind], u.movement) for u in pace),
            ceiling]


def decide_marker_move(out: Outcome, side: str, marker: Marker, route: str) -> bool:
    """Move one of the side's concealed forces; ``False`` if this module did not make the
    marker."""
    state = out.state
    record = force(state, marker.id)
    if record is None:
        return False
    reaction.require_not_held(state, side)
    refused = marker_refusal(state, marker)
    if refused is not None:
        raise refused
    gm = state.loaded.map
    try:
        path = expand(gm, parse_route(gm, route), marker.cell)
    except (RouteError, LabelError) as e:
        raise Refusal(str(e)) from None
    # A forced march adds its MPs to every member's allowance (ruling CF-15).
    extra = forced_mp(state, marker.id)
    pace = [replace(m, movement=m.movement + extra) for m in members(state, record)]
    costs = _check(state, side, marker, path, pace)
    entered, stopped = _walk(state, side, marker, path)
    # A stop never leaves the marker on a friend: it falls back to the last free hex.
    while entered and _friend_at(state, side, marker, entered[-1]):
        entered.pop()
    used = dict(spent(state, marker.id))
    for m in pace:
        used[m.key] = used.get(m.key, 0.0) + sum(costs[m.key][:len(entered)])
    cells = tuple((c.col, c.row) for c in entered)
    if cells:
        out.add(ev.MarkerMoved(audience="public", marker=marker.id, path=cells))
    out.add(cev.ForceMoved(audience=ev.side_audience(side), marker=marker.id, mp=used,
                           path=cells, stopped=stopped))
    positions_changed(out, ())
    return True


def marker_refusal(state: GameState, marker: Marker) -> Refusal | None:
    """Why the force under the marker may not be ordered to move at all now: none of this
    module's, or concealed this turn (a decoy excepted). A force that may be ordered still
    needs the MPs for its route (``marker_can_step``)."""
    record = force(state, marker.id)
    if record is None:
        return Refusal(f"marker {marker.id} cannot be moved by an order")
    if kind_of(record) is not ForceKind.DECOY and record["concealed_turn"] == state.turn:
        return Refusal(f"marker {marker.id} was concealed this turn: a concealed force may not "
                       "move in the turn it is created")
    return None


def marker_can_step(state: GameState, side: str, marker: Marker) -> bool:
    """Whether some one-step route of the marker would be accepted now: the cheapest order it
    could be given, checked as the order itself is (``_check``)."""
    record = force(state, marker.id)
    if record is None or marker_refusal(state, marker) is not None:
        return False
    extra = forced_mp(state, marker.id)
    pace = [replace(m, movement=m.movement + extra) for m in members(state, record)]
    for cell in state.loaded.map.grid.neighbours(marker.cell):
        try:
            _check(state, side, marker, [cell], pace)
        except Refusal:
            continue
        return True
    return False


def _check(state: GameState, side: str, marker: Marker, path: Sequence[Cell],
           pace: list[Member]) -> dict[str, list[float]]:
    """Each member's cost of each step; refuses what the side itself knows is wrong."""
    if not path:
        raise Refusal("the route does not leave the marker's hex")
    gm = state.loaded.map
    board = gm.board
    used = spent(state, marker.id)
    costs: dict[str, list[float]] = {m.key: [] for m in pace}
    here = marker.cell
    for n, cell in enumerate(path, start=1):
        where = f"step {n} ({board.describe(here)} to {board.describe(cell)})"
        if not board.on_a_sheet(cell):
            raise Refusal(f"step {n} (from {board.describe(here)}): leaves the map")
        if not gm.grid.adjacent(here, cell):
            raise Refusal(f"{where}: the cells do not touch")
        for m in pace:
            cost = gm.step_cost(here, cell, m.movement_class, m.formation)
            if cost is None:
                raise Refusal(f"{where}: the force cannot go that way")
            costs[m.key].append(cost)
            total = used.get(m.key, 0.0) + sum(costs[m.key])
            if total > m.movement + 1e-9:
                left = m.movement - used.get(m.key, 0.0) - sum(costs[m.key][:-1])
                raise Refusal(f"{where}: costs {cost:g} MP but the force's slowest unit has "
                              f"only {left:g} of {m.movement:g} MP left")
        here = cell
    if _friend_at(state, side, marker, path[-1]):
        raise Refusal(f"{board.describe(path[-1])} holds other troops of yours: a concealed "
                      "force stacks with no unit but leaders and HQs")
    return costs


def _walk(state: GameState, side: str, marker: Marker, path: Sequence[Cell]
          ) -> tuple[list[Cell], str]:
    """The hexes the marker enters before the enemy stops it, and why it stopped (empty: it
    went the whole way)."""
    grid = state.loaded.map.grid
    board = state.loaded.board
    enemies = enemy_cells(state, side)
    entered: list[Cell] = []
    for cell in path:
        if cell in enemies:
            return entered, f"the enemy holds {board.describe(cell)}"
        if any(grid.distance(cell, e) < KEEP_AWAY for e in enemies):
            return entered, (f"{board.describe(cell)} is within {KEEP_AWAY - 1} hexes of the "
                             "enemy")
        if cell_in_enemy_sight(state, side, cell):
            return entered, f"{board.describe(cell)} is in the enemy's line of sight"
        entered.append(cell)
    return entered, ""


def _friend_at(state: GameState, side: str, marker: Marker, cell: Cell) -> bool:
    """Whether a friendly unit (but a leader or HQ) or another friendly marker stands there."""
    if any(u.cell == cell and u.kind in STACKING_KINDS for u in state.units_of(side)):
        return True
    return any(m.side == side and m.cell == cell and m.id != marker.id
               for m in state.markers.values())
