"""Detaching a unit from its division, an order of its own (Cf 1.3, rulings CF-3, CF-25,
CF-26).

A brigade on a brigade goal stays on the map when its division conceals, and does not hold the
rest of the division back. The scenario may start a unit detached (the tag ``detached``); in
play, detaching a unit, or sending it back to its division, is an order: given only in the
side's Command Phase, kept in the game's log, and taking effect at the start of the side's next
movement phase, where it lasts until a later order ends it. Until then the unit counts as it did
for every Concealed Forces check (whether the division may conceal, what its marker holds), so
that marking a brigade and marking it back cannot dodge the conditions of concealing. A second
order reversing one still waiting takes it back. Only the owner is told (ruling CF-27).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import events as ev
from rules.concealed import events as cev
from rules.concealed.commands import MarkDetached
from rules.concealed.records import detach_order, detach_orders, is_detached
from rules.forces.lookup import own_unit
from rules.forces.units import Unit
from rules.forces.words import Echelon
from rules.orders.core import require_action
from rules.refusal import Refusal
from rules.state import GameState

if TYPE_CHECKING:
    from rules.outcome import Outcome

#: The ruleset's action a detachment order is given under: the Command Phase's orders.
ORDER = "order"


def detach_refusal(state: GameState, side: str, unit_text: str, detached: bool = True
                   ) -> Refusal | None:
    """Why the side's unit named may not be ordered ``detached`` (or back with its division)
    now (``None``: it may)."""
    try:
        _detachable(state, side, unit_text, detached)
    except Refusal as why:
        return why
    return None


def detach_timing(state: GameState, side: str) -> Refusal | None:
    """Why the side may give no detachment order now (``None``: it may): the turn sequence's
    words, the first check of the order."""
    try:
        require_action(state, side, ORDER, "give a detachment order")
    except Refusal as why:
        return why
    return None


def unit_refusal(state: GameState, unit: Unit, detached: bool) -> Refusal | None:
    """Why the side's own ``unit`` may not be ordered ``detached`` (or back), the turn sequence
    aside: the order's check once the unit is found (its offers ask it of each unit, which
    spares them reading every name: ``rules.concealed.offers.detachable``)."""
    division = state.commands.get(unit.command)
    if division is None or division.echelon is not Echelon.DIVISION or not unit.combat:
        return Refusal(f"{unit.name} is not a combat unit of a division")
    if unit.cell is None:
        return Refusal(f"{unit.name} is not on the map")
    waiting = detach_order(state, unit.id)
    # A waiting order the new one reverses is taken back, so that is always accepted.
    if waiting is None and is_detached(state, unit.id) == detached:
        return Refusal(f"{unit.name} is already "
                       f"{'detached' if detached else 'with its division'}")
    if waiting == detached:
        return Refusal(f"{unit.name} is already ordered "
                       f"{'detached' if detached else 'back to its division'}: it takes "
                       "effect at the start of your next movement phase")
    return None


def _detachable(state: GameState, side: str, unit_text: str, detached: bool) -> Unit:
    # The turn sequence first: it is public, and refuses before any name is read (ORD-4).
    timing = detach_timing(state, side)
    if timing is not None:
        raise timing
    unit = own_unit(state, side, unit_text)
    why = unit_refusal(state, unit, detached)
    if why is not None:
        raise why
    return unit


def decide_detach(out: Outcome, side: str, command: MarkDetached) -> None:
    unit = _detachable(out.state, side, command.unit, command.detached)
    waiting = detach_order(out.state, unit.id)
    out.add(cev.DetachmentOrdered(audience=ev.side_audience(side), unit=unit.id,
                                  detached=command.detached,
                                  withdrawn=waiting is not None))


def detachments_take_effect(out: Outcome, side: str) -> None:
    """The start of the side's movement phase: each of its waiting detachment orders takes
    effect, before any order of the phase (a concealment among them) is read. An order for a
    unit no longer on the map lapses (ruling CF-26)."""
    for uid, detached in detach_orders(out.state, side).items():
        unit = out.state.units[uid]
        if unit.cell is None:
            out.add(cev.DetachmentOrdered(audience=ev.side_audience(side), unit=uid,
                                          detached=detached,
                                          lapsed="it is no longer on the map"))
        else:
            out.add(cev.DetachmentMarked(audience=ev.side_audience(side), unit=uid,
                                         detached=detached))
