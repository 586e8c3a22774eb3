"""What Surprise Move lets a side do now (``RuleModule.offers``): in the Command Phase, send a
surprise-move order for units not already on one, or new orders to a force on one; in the side's
movement phase, rally the shammed units of its marches. Read from the side's own units and its
own marches only; a march is offered for a rally while some shammed unit of it may rally
(``rally_unit_refusal``, the order's own check).

Orders that take effect no sooner when given in this step than in the next Command Phase
(setting a march off at the next movement phase, forced-march MPs) keep no step open by
themselves: the next Command Phase is played anyway (ruling FLOW-14).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from rules.refusal import Refusal
from rules.state import GameState
from rules.surprise import force as frc
from rules.surprise import records as rec
from rules.surprise.cancellation import cancel_refusal
from rules.surprise.march.forced import forced_refusal
from rules.surprise.orders import require_command_phase
from rules.surprise.queueing import execute_refusal
from rules.surprise.rally import march_rally_refusal, rally_unit_refusal, shammed_units
from rules.turn.offers import Offer
from rules.turn.sequence import Step
from rules.view import SideView

#: What each offer says (the side's call for orders lists them).
ORDER_WORDS = "send a surprise-move order (/march order)"
CANCEL_WORDS = "send new orders to a surprise move (/march cancel)"
RALLY_WORDS = "rally the shammed units of a surprise move (/march rally)"


def surprise_offers(state: GameState, side: str, view: SideView, step: Step
                    ) -> tuple[Offer, ...]:
    out: list[Offer] = []
    if step.allows("order"):
        free = [state.units[u.ref] for u in view.own_units() if u.ref in state.units
                and state.units[u.ref].combat and may_march(state, side, u.ref)]
        if free:
            out.append(Offer("order", ORDER_WORDS, tuple(u.name for u in free),
                             tuple(u.id for u in free)))
        marches = tuple(str(m["name"]) for m in rec.side_marches(
            state, side, {rec.SENT, rec.ACCUMULATING}) if not m.get("cancel"))
        if marches:
            out.append(Offer("order", CANCEL_WORDS, marches, under_way=True))
    if step.allows("move"):
        shammed = tuple(str(m["name"]) for m in rec.side_marches(state, side, rec.OPEN)
                        if march_rally_refusal(state, side, str(m["id"])) is None)
        if shammed:
            out.append(Offer("rally", RALLY_WORDS, shammed))
    return tuple(out)


def may_march(state: GameState, side: str, ref: str) -> bool:
    """Whether a surprise-move order could name the side's unit or command ``ref`` (an id) as
    its force now, in the side's Command Phase: the order's own check of a force
    (``rules.surprise.force.force_refusal``: on the map, on no surprise move already)."""
    try:
        require_command_phase(state, side)
    except Refusal:
        return False
    return _free(state, side, ref)


def _free(state: GameState, side: str, ref: str) -> bool:
    if ref in state.commands:
        units = frc.units_of_command(state, side, ref)
    else:
        unit = state.units.get(ref)
        units = [unit] if unit is not None and unit.side == side and unit.cell is not None \
            else []
    return frc.force_refusal(state, units) is None


def marchers(state: GameState, side: str) -> list[tuple[str, str]]:
    """The side's commands, then its units, that a surprise-move order could name now, as
    (id, name) pairs in the order of their names."""
    try:
        require_command_phase(state, side)
    except Refusal:
        return []
    commands = sorted(((c.id, c.name) for c in state.commands.values() if c.side == side),
                      key=lambda c: c[1].lower())
    units = sorted(((u.id, u.name) for u in state.units_of(side) if u.cell is not None),
                   key=lambda u: u[1].lower())
    return [(ref, name) for ref, name in commands + units if _free(state, side, ref)]


def rallying(state: GameState, side: str, march: str) -> list[tuple[str, str]]:
    """The side's shammed units of its march named ``march`` (empty: the march the order
    would take, ruling ORD-59) that ``/march rally`` would take now, as (id, name) pairs by
    name: each asked of the order's own check (``rally_unit_refusal``, ruling ORD-60). Only the
    side's own marches and units are read; none for a march it does not have."""
    try:
        units = shammed_units(state, side, march)
    except Refusal:
        return []
    found = [(u.id, u.name) for u in units
             if rally_unit_refusal(state, side, march, u.id) is None]
    return sorted(found, key=lambda u: u[1].lower())


class MarchOrder(StrEnum):
    """The orders (and the one read) that name one of the side's surprise moves."""

    EXECUTE = "execute"  # set it off at the next movement phase
    CANCEL = "cancel"  # new orders
    FORCED = "forced"  # its forced-march MPs
    RALLY = "rally"  # its shammed units rally
    STATUS = "status"  # a read, not an order: every march under way


#: Each order's own check of a march (``None``: the order would take it).
MARCH_CHECKS: dict[MarchOrder, Callable[[GameState, str, str], Refusal | None]] = {
    MarchOrder.EXECUTE: execute_refusal,
    MarchOrder.CANCEL: cancel_refusal,
    MarchOrder.FORCED: forced_refusal,
    MarchOrder.RALLY: march_rally_refusal,
}


def open_marches(state: GameState, side: str, order: MarchOrder) -> list[str]:
    """The names of the side's surprise moves under way that ``order`` would take now, each
    asked of the order's own check (ruling ORD-58); for ``/march status``, which orders
    nothing, all of them."""
    mine = [str(m["name"]) for m in rec.side_marches(state, side, rec.OPEN)]
    check = MARCH_CHECKS.get(order)
    if check is None:
        return mine
    return [name for name in mine if check(state, side, name) is None]
