"""Marking a unit detached from its division (ruling CF-3).

The scenario may start a unit detached (the tag ``detached``), and its owner may mark one
detached or back with his division at any time he may give orders, while the unit is on the
map: a detached unit stays on the map when its division conceals, and does not hold the rest of
the division back. Only the owner is told.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import events as ev
from rules.concealed import events as cev
from rules.concealed.commands import MarkDetached
from rules.concealed.records import is_detached
from rules.forces.lookup import own_unit
from rules.forces.units import Unit
from rules.forces.words import Echelon
from rules.refusal import Refusal
from rules.state import GameState

if TYPE_CHECKING:
    from rules.outcome import Outcome


def detach_refusal(state: GameState, side: str, unit_text: str, detached: bool = True
                   ) -> Refusal | None:
    """Why the side's unit named may not be marked ``detached`` (or back with its division)
    now (``None``: it may)."""
    try:
        _detachable(state, side, unit_text, detached)
    except Refusal as why:
        return why
    return None


def _detachable(state: GameState, side: str, unit_text: str, detached: bool) -> Unit:
    unit = own_unit(state, side, unit_text)
    division = state.commands.get(unit.command)
    if division is None or division.echelon is not Echelon.DIVISION or not unit.combat:
        raise Refusal(f"{unit.name} is not a combat unit of a division")
    if unit.cell is None:
        raise Refusal(f"{unit.name} is not on the map")
    if is_detached(state, unit.id) == detached:
        raise Refusal(f"{unit.name} is already "
                      f"{'detached' if detached else 'with its division'}")
    return unit


def decide_detach(out: Outcome, side: str, command: MarkDetached) -> None:
    unit = _detachable(out.state, side, command.unit, command.detached)
    out.add(cev.DetachmentMarked(audience=ev.side_audience(side), unit=unit.id,
                                 detached=command.detached))
