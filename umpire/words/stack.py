"""``/map stack:``: what is in one cell, as the side knows it (ruling ORD-33).

A map shows a stack's top counter and how many are in it; this lists them all, top first, each
with the label it carries on the map. The side's own units are told in full (kind, strength,
formation, morale); an enemy only as the side's view shows it: an identified one by its name and
what was seen of it, an anonymous one by its arm, a marker as a marker. Nothing here comes from
anywhere but the view, so an empty cell and a cell holding unseen enemies read the same.
"""

from __future__ import annotations

from render.counters import by_cell, marker_counters
from render.draw import view_labels
from rules.ground.grid import Cell
from rules.scenario.markup import plain
from rules.view import ANONYMOUS, GHOST, MARKER, OWN, SideView, UnitView

#: Lines listed before the rest are only counted (a message has room for about this many).
MAX_LINES = 40


def stack_text(view: SideView, cell: Cell) -> str:
    """The counters the view holds at ``cell``, top first, one line each."""
    where = view.board.label(cell)
    counters = by_cell([*view.units, *marker_counters(view.markers, view.side)]).get(cell, [])
    if not counters:
        return f"{where}: nothing your side knows of."
    labels = view_labels(view)
    lines = [f"**{where}**: {len(counters)} counter{'s' if len(counters) != 1 else ''}, "
             "top first"]
    for u in counters[:MAX_LINES]:
        label = labels.get(u.ref)
        lines.append(f"- {plain(label) + ': ' if label else ''}{counter_words(view, u)}")
    if len(counters) > MAX_LINES:
        lines.append(f"... and {len(counters) - MAX_LINES} more")
    return "\n".join(lines)


def counter_words(view: SideView, u: UnitView) -> str:
    """One counter as the side knows it."""
    side = plain(view.name_of_side(u.side))
    if u.level == OWN:
        strength = f", {u.strength} SP" if u.strength is not None and u.strength > 0 else ""
        mood = f", {u.morale}" if u.morale and u.morale != "normal" else ""
        return f"{plain(u.name)} ({u.kind}{strength}, {u.formation}{mood})"
    if u.level == MARKER:
        if u.short:
            return f"{side} marker {plain(u.short)}" + (
                f" (yours: {plain(u.name)})" if u.name else "")
        return f"{side} unit, unidentified"
    if u.level == ANONYMOUS or not u.name:
        seen = "last seen" if u.level == GHOST else "seen"
        return f"{side} {u.kind or 'unit'}, identity unknown ({seen})"
    strength = f", {u.strength} SP" if u.strength is not None else ""
    formation = f", {u.formation}" if u.formation else ""
    when = f", last seen turn {u.last_seen_turn}" if u.level == GHOST else ""
    return f"{side}: {plain(u.name)} ({u.kind}{strength}{formation}{when})"
