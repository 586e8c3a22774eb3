"""The words for markers on the map: what is under each of a side's own markers (for its own
autocomplete and map), and the news of an enemy marker (it appeared, moved, split, was removed).

What is under a marker is worded from the owner's own view only (``MarkerView.contents`` and
the Concealed Forces module's note), so it never reaches another side. The news of an enemy
marker is worded from the marker's public event and the public board alone: it reads the same
whatever is under the marker.
"""

from __future__ import annotations

from rules import events as ev
from rules.concealed.notes import ConcealedNote
from rules.concealed.records import MODULE
from rules.forces.words import UnitKind
from rules.ground.board import Board
from rules.ground.grid import Cell
from rules.scenario.markup import plain
from rules.view import MarkerView, SideView

#: What a player calls one of his markers in an order (``rules.forces.markers.own_marker`` reads
#: it).
MARKER_WORD = "marker"


def marker_ref(marker_id: str) -> str:
    """The name an order gives a marker by: ``marker 4821``."""
    return f"{MARKER_WORD} {marker_id}"


def under(view: SideView, marker: MarkerView) -> str:
    """What is under one of the side's own markers: ``Colston's Division (6 units)``, or
    ``decoy``. Empty for an enemy marker (the side does not know)."""
    if marker.contents is None:
        return ""
    if not marker.contents:
        return "decoy"
    count = len(marker.contents)
    units = f"{count} unit" + ("" if count == 1 else "s")
    note = view.notes.get(MODULE)
    named = note.force(marker.id) if isinstance(note, ConcealedNote) else None
    name = named.name if named is not None and named.name else _commander(marker)
    return f"{plain(name)} ({units})" if name else units


def _commander(marker: MarkerView) -> str:
    """The name of the force's commander (or its one unit), when the module names no force."""
    contents = marker.contents or ()
    leader = next((u for u in contents if u.kind == UnitKind.LEADER), None)
    return (leader or contents[0]).name if contents else ""


def detachment_words(view: SideView, unit: str) -> str:
    """How one of the side's own units stands with its division, from the Concealed Forces
    module's note on the side's own units (ruling CF-27): ``detached``, an order waiting for
    the side's next movement phase, or empty."""
    note = view.notes.get(MODULE)
    return note.detachment(unit) if isinstance(note, ConcealedNote) else ""


def own_marker_choices(view: SideView) -> list[tuple[str, str]]:
    """The side's own markers as autocomplete choices: the value an order reads
    (``marker 4821``) and the label, which says what is under it
    (``marker 4821: Colston's Division (6 units)``, ``marker 0377: decoy``). Never an enemy
    marker."""
    return [(marker_ref(m.id), f"{marker_ref(m.id)}: {under(view, m)}")
            for m in view.markers if m.side == view.side and m.own]


# -- news of a marker, for the other sides ---------------------------------------------------------
def marker_news(view: SideView, event: ev.GameEvent, owner: str) -> str:
    """What the other sides read of a marker event: from the event (public) and ``view`` (the
    public view: the board and the sides' names), never from what is under the marker."""
    board = view.board
    whose = plain(view.name_of_side(owner))
    match event:
        case ev.MarkerPlaced(marker=mid, cell=cell):
            return (f"A concealment marker of the {whose} appeared at "
                    f"{_at(board, Cell(*cell))}: {marker_ref(mid)}.")
        case ev.MarkerMoved(marker=mid, path=path) if path:
            return f"Enemy {marker_ref(mid)} ({whose}) moved to {_at(board, Cell(*path[-1]))}."
        case ev.MarkerSplit(marker=mid, into=(a, b), cells=(cell, _)):
            return (f"Enemy {marker_ref(mid)} ({whose}) split in two at "
                    f"{_at(board, Cell(*cell))}: now markers {a} and {b}.")
        case ev.MarkersJoined(markers=(a, b), into=mid, cell=cell):
            return (f"Enemy markers {a} and {b} ({whose}) at {_at(board, Cell(*cell))} are "
                    f"one again: now {marker_ref(mid)}.")
        case ev.MarkerRemoved(marker=mid, reason=reason):
            why = f" ({plain(reason)})" if reason else ""
            return f"Enemy {marker_ref(mid)} ({whose}) was removed{why}."
    return ""


def _at(board: Board, cell: Cell) -> str:
    place = board.place_at(cell)
    return f"{board.label(cell)} ({plain(place.name)})" if place else board.label(cell)
