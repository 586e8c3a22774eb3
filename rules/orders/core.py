"""The core's orders: a move, a change of formation, and a side's word that it is done.

Each is refused, with words from the commanding side's own knowledge, when it is given outside
the side's own step for it (ruling ORD-4: the turn sequence is public), or while the reaction
window holds the side. A move is settled on what the side knows (``order_plan``, which previews
use too) and made as far as it goes: what stops it on its way is a ``Stop``, never a refusal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules import commands as cmd
from rules import events as ev
from rules.forces.lookup import own_unit
from rules.forces.markers import Marker, own_marker
from rules.forces.units import Unit
from rules.forces.words import STACKING_KINDS
from rules.ground.grid import Cell
from rules.modules.api import RuleModule
from rules.modules.registry import in_force
from rules.orders.hints import expand_for, read_route
from rules.orders.may import formation_refusal, move_refusal
from rules.orders.movement import (
    MoveError,
    MoveResult,
    OrderPlan,
    StopHook,
    follow,
    formation_change_cost,
    plan_order,
)
from rules.orders.positions import positions_changed
from rules.orders.route import Route
from rules.orders.stops import Stop
from rules.outcome import Outcome
from rules.refusal import Refusal
from rules.state import GameState
from rules.turn import reaction
from rules.turn.advance import advance, update_sighting
from rules.turn.sequence import Step


def require_action(state: GameState, side: str, action: str, verb: str) -> None:
    """Refuse an order given outside the side's own step for it, saying when that step comes
    (ruling ORD-4: from the turn sequence alone, which is public)."""
    step = state.current
    if not step.allows(action):
        raise Refusal(f"you cannot {verb} in the {step.title}{_yours_comes(state, side, action)}")
    if side not in step.acting(state.sides):
        raise Refusal(f"it is the {_step_name(state, step)}, not yours"
                      f"{_yours_comes(state, side, action)}")
    if side in state.done:
        raise Refusal("you have already finished this phase")


def _step_name(state: GameState, step: Step) -> str:
    """A step as the channel names it: "Union Movement Phase", "Command Phase"."""
    return f"{state.side_name(step.side)} {step.title}" if step.side else step.title


def _yours_comes(state: GameState, side: str, action: str) -> str:
    """When the side's next step for ``action`` comes (": your Movement Phase comes after
    it"), counted along the public turn sequence; empty if the side never has one."""
    steps = state.steps
    for ahead in range(1, len(steps) + 1):
        at = state.step + ahead
        step = steps[at % len(steps)]
        if not step.allows(action) or side not in step.acting(state.sides):
            continue
        if at >= len(steps) and state.turn >= state.last_turn:
            return f": this is the last turn, and the game ends before your next {step.title}"
        if ahead == 1:
            return f": your {step.title} comes after it"
        if at >= len(steps):
            return f": your {step.title} comes next turn"
        return (f": your {step.title} comes later this turn, after the "
                f"{_step_name(state, steps[at - 1])}")
    return ""


def move(out: Outcome, side: str, command: cmd.Move) -> None:
    state = out.state
    require_action(state, side, "move", "move")
    reaction.require_not_held(state, side)
    modules = in_force(state.modules)
    marker = _own_marker(state, side, command.unit)
    if marker is not None:
        if not any(module.move_marker(out, side, marker, command.route) for module in modules):
            raise Refusal(f"marker {marker.id} cannot be moved by an order")
        return
    order = order_plan(state, side, own_unit(state, side, command.unit), command.route)
    unit = order.unit
    enemy_cells = {u.cell for u in state.enemies_of(side) if u.cell is not None}
    for module in modules:
        enemy_cells |= module.closed_cells(state, side)
    # Whatever stops the unit on its way does not refuse: the move is made as far as it goes.
    result = follow(state.loaded.map, unit, order.plan, enemy_at=lambda c: c in enemy_cells,
                    friendly_count=order.friendly_count, stop=_stop_hook(state, modules))
    if not result.cells:
        # Contact with no cell to stand in on the way (the first step, or only full friendly
        # cells before it): the unit halts where it stands for the rest of the phase, so that
        # bumping into unseen enemies is never a free probe (ruling CORE-3).
        out.add(ev.UnitHalted(audience=ev.side_audience(side), unit=unit.id,
                              reason=result.stopped))
        return
    out.add(ev.UnitMoved(audience=ev.side_audience(side), unit=unit.id,
                         path=tuple((c.col, c.row) for c in result.cells), mp=result.mp,
                         stopped=result.stopped))
    assert unit.cell is not None  # a unit off the map is refused its move
    positions_changed(out, (unit.id,), {unit.id: (unit.cell, *result.cells)})
    for module in modules:
        module.after_move(out, unit.id)


@dataclass(frozen=True)
class MoveOrder:
    """A move as the moving side's own knowledge settles it: the unit, the route read and
    expanded, each step priced and cut where the MPs run out (``rules.orders.movement.OrderPlan``),
    and the side's other units that count for stacking in each cell."""

    unit: Unit
    route: Route
    plan: OrderPlan
    friends: Mapping[Cell, int]

    def friendly_count(self, cell: Cell) -> int:
        return self.friends.get(cell, 0)

    def expected(self, state: GameState) -> MoveResult:
        """Where the unit ends if neither the enemy nor a rule stops it sooner: what a preview
        promises, by the very function the move is made with."""
        return follow(state.loaded.map, self.unit, self.plan, friendly_count=self.friendly_count)


def order_plan(state: GameState, side: str, unit: Unit, route_text: str) -> MoveOrder:
    """Settle an ordinary move of the side's own ``unit`` along ``route_text`` on what the side
    knows (never an enemy): the one reading of an order that both the move and its preview
    use. Raises ``Refusal`` for a unit that may not move, a route that cannot be read, a step
    that cannot be taken, or a module's limit on the unit's own route."""
    refused = move_refusal(state, unit)
    if refused is not None:
        raise refused
    assert unit.cell is not None  # refused above when off the map
    modules = in_force(state.modules)
    gm = state.loaded.map
    route = read_route(gm, route_text)
    # The way forward keeps clear of the enemy the side knows of (ruling ORD-46).
    path = expand_for(state, side, route, unit.cell)
    friends: dict[Cell, int] = {}
    for u in state.units_of(side):
        if u.cell is not None and u.id != unit.id and u.kind in STACKING_KINDS:
            friends[u.cell] = friends.get(u.cell, 0) + 1
    try:  # only what the side itself knows can refuse the order
        plan = plan_order(gm, unit, path, lambda c: friends.get(c, 0))
    except MoveError as e:
        raise Refusal(str(e)) from None
    for module in modules:
        why = module.route_refusal(state, unit, plan.path)
        if why:
            raise Refusal(why)
    return MoveOrder(unit, route, plan, friends)


def _own_marker(state: GameState, side: str, ref: str) -> Marker | None:
    """One of the side's markers named by its id (``4821``, ``marker 4821``, ``#4821``), when
    no unit of the side has that name; ``None`` otherwise (an enemy marker's id included)."""
    found = own_marker(state.markers, side, ref)
    key = ref.strip().lower()
    if found is None or any(key in (u.id.lower(), u.name.lower(), u.short.lower())
                            for u in state.units_of(side)):
        return None
    return found


def _stop_hook(state: GameState, modules: list[RuleModule]) -> StopHook | None:
    """The modules' reasons to stop a moving unit, asked in turn."""
    if not modules:
        return None

    def stop(unit: Unit, cell: Cell) -> Stop | None:
        for module in modules:
            reason = module.stop_reason(state, unit, cell)
            if reason is not None:
                return reason
        return None

    return stop


def formation(out: Outcome, side: str, command: cmd.SetFormation) -> None:
    state = out.state
    require_action(state, side, "formation", "change formation")
    reaction.require_not_held(state, side)
    unit = own_unit(state, side, command.unit)
    wanted = command.formation.strip().lower()
    refused = formation_refusal(state, unit, wanted)
    if refused is not None:
        raise refused
    cost = formation_change_cost(unit)
    out.add(ev.FormationChanged(audience=ev.side_audience(side), unit=unit.id, formation=wanted,
                                mp=cost))
    update_sighting(out)


def done(out: Outcome, side: str) -> None:
    state = out.state
    if side not in state.acting_sides():
        if side in state.done:
            raise Refusal("you have already finished this phase")
        raise Refusal(f"nothing is waiting for you in the {state.current.title}")
    reaction.require_not_held(state, side)
    out.add(ev.SideDone(audience="public", side=side))
    if not out.state.acting_sides():
        advance(out)
