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
from rules.forces.words import Echelon
from rules.refusal import Refusal

if TYPE_CHECKING:
    from rules.outcome import Outcome


def decide_detach(out: Outcome, side: str, command: MarkDetached) -> None:
    state = out.state
    unit = own_unit(state, side, command.unit)
    division = state.commands.get(unit.command)
    if division is None or division.echelon is not Echelon.DIVISION or not unit.combat:
        raise Refusal(f"{unit.name} is not a combat unit of a division")
    if unit.cell is None:
        raise Refusal(f"{unit.name} is not on the map")
    if is_detached(state, unit.id) == command.detached:
        raise Refusal(f"{unit.name} is already "
                      f"{'detached' if command.detached else 'with its division'}")
    out.add(cev.DetachmentMarked(audience=ev.side_audience(side), unit=unit.id,
                                 detached=command.detached))
