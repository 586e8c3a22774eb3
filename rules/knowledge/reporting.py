"""Words the rule modules' reports share, read from the audience's view only.

A report (``GameEvent.report``) is written from a ``SideView``: the side's own counters, what it
sees of the enemy, the board. These helpers look a counter up in that view; a unit the view does
not hold (one just eliminated, say) is named by what the event itself carries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.ground.grid import Cell
from rules.knowledge.levels import OWN

if TYPE_CHECKING:  # a report reads a view; the view module builds on the events
    from rules.view import SideView


def unit_name(view: SideView, ref: str, given: str = "") -> str:
    """The name the event gives (``given``), else the name of the counter ``ref`` in the view or
    of the side's own unit off the map, else words that name nothing: a unit the view does not
    show is never looked up anywhere else, and its internal id is never printed."""
    if given:
        return given
    found = view.unit(ref)
    if found is not None and found.name:
        return found.name
    off = next((o.name for o in view.off_map if o.ref == ref), "")
    under = next((u.name for m in view.markers for u in m.contents or () if u.ref == ref), "")
    return off or under or "a unit out of sight"


def own_strength(view: SideView, ref: str) -> tuple[int, int]:
    """Strength present and straggling of one of the side's own units, on the map or off it
    (under one of its markers, say); ``(0, 0)`` for a unit the view does not hold."""
    found = view.unit(ref)
    if found is not None and found.level == OWN:
        return found.strength or 0, found.stragglers
    off = next((o for o in view.off_map if o.ref == ref), None)
    return (off.strength, off.stragglers) if off is not None else (0, 0)


def describe(view: SideView, cell: Cell) -> str:
    """A cell as players speak of it: its printed label and the name of a place there."""
    return view.board.describe(cell)
