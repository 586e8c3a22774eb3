"""Words the rule modules' reports share, read from the audience's view only.

A report (``GameEvent.report``) is written from a ``SideView``: the side's own counters, what it
sees of the enemy, the board. These helpers look a counter up in that view; a unit the view does
not hold (one just eliminated, say) is named by what the event itself carries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.grid import Cell

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
    return off or "a unit out of sight"


def describe(view: SideView, cell: Cell) -> str:
    """A cell as players speak of it: its printed label and the name of a place there."""
    return view.board.describe(cell)
