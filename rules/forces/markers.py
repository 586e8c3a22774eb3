"""Markers: map objects that stand for something a side keeps hidden (a force under a
concealment marker, a decoy, a group of hidden units).

A marker is a value in its own right: an id, the side it belongs to, the cell it stands in, the
turn it was placed and the phase it last moved in. Nothing in it is derived from what is under
it: contents (which units, real or decoy) are the data of the rule module that made the marker,
so that a marker can be shown to the enemy as it is, and two markers with different contents
look the same.

Ids are drawn from the game's secret dice (``draw_marker_id``), never counted or built from the
contents, so an id says nothing about when, by whom or from what the marker was made. When a
marker splits, both halves get fresh ids: neither can be told for the original.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from rules.ground.grid import Cell

#: How many decimal digits a marker id has (10,000 ids: a side never has that many markers).
ID_DIGITS = 4
#: How many times a taken id is drawn again before giving up (a clash is a 1-in-10,000 event).
ID_ATTEMPTS = 64
#: The purpose under which marker ids are drawn from the dice.
ID_PURPOSE = "marker id"

#: A place in the turn sequence: (turn, step).
PhaseRef = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Marker:
    """A marker on the map. ``moved_phase`` is the (turn, step) in which it last moved, or
    ``None`` if it has not moved since it was placed."""

    id: str
    side: str
    cell: Cell
    created_turn: int
    moved_phase: PhaseRef | None = None

    def moved_during(self, turn: int, step: int) -> bool:
        """Whether the marker moved in the given phase (say, the current one)."""
        return self.moved_phase == (turn, step)

    def moved_to(self, cell: Cell, turn: int, step: int) -> Marker:
        return replace(self, cell=cell, moved_phase=(turn, step))


def sorted_markers(markers: Iterable[Marker]) -> tuple[Marker, ...]:
    """Markers in the one order they are ever listed in: by id (ids are random, so the order
    says nothing about which marker was made first)."""
    return tuple(sorted(markers, key=lambda m: m.id))


def markers_of(markers: Mapping[str, Marker], side: str) -> tuple[Marker, ...]:
    """A side's own markers, sorted by id."""
    return sorted_markers(m for m in markers.values() if m.side == side)


def markers_at(markers: Mapping[str, Marker], cell: Cell) -> tuple[Marker, ...]:
    """The markers standing in a cell, sorted by id."""
    return sorted_markers(m for m in markers.values() if m.cell == cell)


def own_marker(markers: Mapping[str, Marker], side: str, ref: str) -> Marker | None:
    """One of ``side``'s markers by the id a player gives (``4821``, ``marker 4821`` or
    ``#4821``); ``None`` if the side has none by that id (an enemy's marker included)."""
    key = ref.strip().lower().removeprefix("marker").strip().lstrip("#").strip()
    found = markers.get(key)
    return found if found is not None and found.side == side else None


#: Dice as the engine passes them: (key, purpose, dice) -> value.
IdDice = Callable[[int, str, str], int]


def draw_marker_id(dice: IdDice, side: str, ordinal: int, taken: Iterable[str]) -> str:
    """The id of a side's ``ordinal``-th marker (counting from 0 over the whole game), drawn
    from the game's secret dice.

    The draw is keyed by the side and its own ordinal, not by the event's place in the log, so
    a side's marker ids do not change with anything the enemy does out of its sight; without the
    seed they cannot be told apart from random, and with it (after the game) anyone can draw
    them again. An id already ``taken`` (by any marker on the map) is drawn again.
    """
    used = set(taken)
    candidate = ""
    for attempt in range(ID_ATTEMPTS):
        digits = (
            dice(0, f"{ID_PURPOSE}|{side}|{ordinal}|{attempt}|{k}", "1d10") - 1
            for k in range(ID_DIGITS)
        )
        candidate = "".join(str(d) for d in digits)
        if candidate not in used:
            return candidate
    # Only dice that are not random (a test's fixed dice) get here: take the next free id.
    space = 10**ID_DIGITS
    start = int(candidate)
    for step in range(1, space):
        nxt = f"{(start + step) % space:0{ID_DIGITS}d}"
        if nxt not in used:
            return nxt
    raise ValueError("every marker id is taken")
