"""Moving a concealed force (Cf 1.4): its marker, named in an ordinary move.

A force may not move in the turn it was concealed. It marches as its slowest unit: every combat
unit under the marker pays each step at its own rates, in march formation (column, limbered,
mounted), out of its own allowance, and the marker goes only as far as all of them can (a force
of leaders alone moves as its slowest leader). A decoy moves as fast as the owner likes up to a
mounted cavalry brigade's allowance at horse rates: the fastest any real force could go, so that
no decoy is known by its speed (ruling CF-5).

What the side knows refuses the order: a step that cannot be taken, MPs that do not pay for the
first step, a route ending on a friendly unit (other than leaders and HQs) or another of its
markers. A route longer than the MPs is cut at the last hex they pay for, as a unit's is (ruling
CF-21). What the enemy does stops it, never refuses it: the marker halts before a hex in an enemy
unit's line of sight, within two hexes of an enemy unit or marker, or held by the enemy (ruling
CF-7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rules import events as ev
from rules.concealed import events as cev
from rules.concealed.foresight import foreseen_halt
from rules.concealed.records import ForceKind, force, forced_mp, kind_of, spent
from rules.concealed.reveal.spacing import KEEP_AWAY, cell_in_enemy_sight, enemy_cells
from rules.forces.markers import Marker
from rules.forces.words import STACKING_KINDS, Formation, MovementClass, UnitKind
from rules.ground.gamemap import StepPrice
from rules.ground.grid import Cell
from rules.orders.hints import expand_for, read_route
from rules.orders.known import known_enemy
from rules.orders.marker_order import MarkerOrder
from rules.orders.movement import MoveResult, OrderPlan, PlannedStep
from rules.orders.positions import positions_changed
from rules.orders.stops import out_of_mp
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


def marker_order(state: GameState, side: str, marker: Marker, route: str
                 ) -> MarkerOrder | None:
    """The side's move of one of its concealed forces as its own knowledge settles it, the one
    reading both the move and its preview use, with where the enemy the side knows of would
    halt it (``rules.concealed.foresight``); ``None`` if this module did not make the marker."""
    settled = _settle(state, side, marker, route)
    if settled is None:
        return None
    order = settled[0]
    entered, why = foreseen_halt(known_enemy(state, side), order.expected.cells)
    if not why:
        return order
    cells = list(order.expected.cells[:entered])
    while cells and _friend_at(state, side, marker, cells[-1]):
        cells.pop()
    mp = order.plan.budget - order.plan.steps[len(cells) - 1].left if cells else 0.0
    return replace(order, foreseen=MoveResult(tuple(cells), mp, None), halt=why)


def decide_marker_move(out: Outcome, side: str, marker: Marker, route: str) -> bool:
    """Move one of the side's concealed forces; ``False`` if this module did not make the
    marker."""
    state = out.state
    if force(state, marker.id) is None:
        return False
    reaction.require_not_held(state, side)
    settled = _settle(state, side, marker, route)
    if settled is None:
        return False
    order, costs = settled
    entered, stopped = _walk(state, side, marker, order.plan.path)
    if len(entered) == len(order.plan.path) and not stopped:
        # Nothing of the enemy's on the way: it ends exactly where its preview said.
        entered, stopped = list(order.expected.cells), order.expected.stopped
    # A stop never leaves the marker on a friend: it falls back to the last free hex.
    while entered and _friend_at(state, side, marker, entered[-1]):
        entered.pop()
    used = dict(spent(state, marker.id))
    for key, steps in costs.items():
        used[key] = used.get(key, 0.0) + sum(steps[:len(entered)])
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
    could be given, checked as the order itself is (``_plan``)."""
    record = force(state, marker.id)
    if record is None or marker_refusal(state, marker) is not None:
        return False
    extra = forced_mp(state, marker.id)
    pace = [replace(m, movement=m.movement + extra) for m in members(state, record)]
    for cell in state.loaded.map.grid.neighbours(marker.cell):
        try:
            _plan(state, side, marker, [cell], pace)
        except Refusal:
            continue
        return True
    return False


def _settle(state: GameState, side: str, marker: Marker, route: str
            ) -> tuple[MarkerOrder, dict[str, list[float]]] | None:
    """The order, and what each member pays for each step its MPs reach."""
    record = force(state, marker.id)
    if record is None:
        return None
    refused = marker_refusal(state, marker)
    if refused is not None:
        raise refused
    gm = state.loaded.map
    parsed = read_route(gm, route)
    # A hint keeps clear of the enemy the side knows of, as a unit's does (ruling ORD-46).
    path = expand_for(state, side, parsed, marker.cell)
    # A forced march adds its MPs to every member's allowance (ruling CF-15).
    extra = forced_mp(state, marker.id)
    pace = [replace(m, movement=m.movement + extra) for m in members(state, record)]
    plan, costs, slowest = _plan(state, side, marker, path, pace)
    order = MarkerOrder(marker, parsed, plan, _expected(state, side, marker, plan),
                        _pace_words(state, slowest))
    return order, costs


def _pace_words(state: GameState, member: Member) -> str:
    """Whom the force keeps pace with, in its own side's words."""
    unit = state.units.get(member.key)
    return unit.name if unit is not None else "a mounted cavalry brigade"


def _plan(state: GameState, side: str, marker: Marker, path: Sequence[Cell],
          pace: list[Member]) -> tuple[OrderPlan, dict[str, list[float]], Member]:
    """Every step priced for the force, cut at the last hex all its members pay for (ruling
    CF-21, as ORD-1 for a unit); refuses what the side itself knows is wrong. The plan's steps
    and MPs are those of the member whose MPs run out first (the fewest MPs left at the end on
    a tie): the one the force keeps pace with, returned with the plan."""
    if not path:
        raise Refusal("the route does not leave the marker's hex")
    gm = state.loaded.map
    board = gm.board
    used = spent(state, marker.id)
    start = {m.key: m.movement - used.get(m.key, 0.0) for m in pace}
    prices: dict[str, list[StepPrice]] = {m.key: [] for m in pace}
    here = marker.cell
    for n, cell in enumerate(path, start=1):
        where = f"step {n} ({board.describe(here)} to {board.describe(cell)})"
        if not board.on_a_sheet(cell):
            raise Refusal(f"step {n} (from {board.describe(here)}): leaves the map")
        if not gm.grid.adjacent(here, cell):
            raise Refusal(f"{where}: the cells do not touch")
        for m in pace:
            price = gm.step_price(here, cell, m.movement_class, m.formation)
            if price is None:
                raise Refusal(f"{where}: the force cannot go that way")
            prices[m.key].append(price)
        here = cell
    reach = {m.key: _paid(start[m.key], prices[m.key]) for m in pace}
    k = min(reach.values())
    slowest = min(pace, key=lambda m: (reach[m.key],
                                       start[m.key] - sum(p.cost for p in prices[m.key][:k])))
    if k == 0:  # it could not move at all: an order to say so, not a move of no hexes
        first = prices[slowest.key][0]
        raise Refusal(f"step 1 ({board.describe(marker.cell)} to {board.describe(path[0])}): "
                      f"costs {first.cost:g} MP but the force's slowest unit has only "
                      f"{start[slowest.key]:g} of {slowest.movement:g} MP left")
    steps: list[PlannedStep] = []
    left = start[slowest.key]
    for n, (cell, price) in enumerate(zip(path, prices[slowest.key], strict=True)):
        if n < k:
            left -= price.cost
        before = path[n - 1] if n else marker.cell
        steps.append(PlannedStep(before, cell, price.cost, price.why, max(left, 0.0), n < k))
    costs = {key: [p.cost for p in found[:k]] for key, found in prices.items()}
    budget = start[slowest.key]
    if k == len(path):
        if _friend_at(state, side, marker, path[-1]):
            raise Refusal(f"{board.describe(path[-1])} holds other troops of yours: a "
                          "concealed force stacks with no unit but leaders and HQs")
        return OrderPlan(tuple(steps), budget, None), costs, slowest
    reached = path[:k]
    if all(_friend_at(state, side, marker, c) for c in reached):
        raise Refusal(f"its MPs run out at {board.describe(reached[-1])}, and that hex and "
                      "every one before it hold other troops of yours (a concealed force "
                      "stacks with no unit but leaders and HQs): give it a shorter route")
    return (OrderPlan(tuple(steps), budget, out_of_mp(board.describe(reached[-1]))), costs,
            slowest)


def _paid(left: float, prices: Sequence[StepPrice]) -> int:
    """How many of the steps, in order, ``left`` MPs pay for."""
    for n, price in enumerate(prices):
        left -= price.cost
        if left < -1e-9:
            return n
    return len(prices)


def _expected(state: GameState, side: str, marker: Marker, plan: OrderPlan) -> MoveResult:
    """Where the marker ends with nothing of the enemy's in the way: the last hex its MPs pay
    for, or, when that holds other troops of the side, the last free hex before it."""
    paid = [s for s in plan.steps if s.reached]
    k = len(paid)
    while k and _friend_at(state, side, marker, paid[k - 1].cell):
        k -= 1
    cells = tuple(s.cell for s in paid[:k])
    mp = plan.budget - paid[k - 1].left if k else 0.0
    stop = plan.end_stop
    if stop is not None and k < len(paid):
        board = state.loaded.board
        stop = stop.fell_back(f"{stop.words}, on other troops of yours, and fell back to "
                              f"{board.describe(cells[-1])}")
    return MoveResult(cells, mp, stop)


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
