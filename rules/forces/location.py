"""Where a unit is: on the map, on its way in, inside a marker, eliminated or withdrawn.

Every unit has exactly one location, and the kind of location says what the unit can do: only a
unit on the map moves, sees and is seen; one inside a marker counts as standing where the marker
stands (``rules.forces.counting.counts_at``) but is shown to nobody but its owner; an arriving unit
enters at its cell in its turn; an eliminated or withdrawn unit is out of play for good.

*Eliminated* is a unit destroyed in play: no strength left, by losses or by straggling (its
stragglers stay on its record). *Withdrawn* is a unit taken out of play by the scenario or a
rule (the scenario option ``withdrawn``, or a module at the start): it never fought here, and
counts as neither lost nor present.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.ground.grid import Cell


@dataclass(frozen=True, slots=True)
class OnMap:
    """Standing in a cell of the map."""

    cell: Cell


@dataclass(frozen=True, slots=True)
class Arriving:
    """Not on the map yet: enters at ``cell`` at the start of turn ``turn``."""

    turn: int
    cell: Cell


@dataclass(frozen=True, slots=True)
class InMarker:
    """Off the map, under a marker (the marker's module knows which)."""

    marker_id: str


@dataclass(frozen=True, slots=True)
class Eliminated:
    """Destroyed in play (no strength left)."""


@dataclass(frozen=True, slots=True)
class Withdrawn:
    """Taken out of play by the scenario or a rule, not by the enemy."""


#: A unit's location: exactly one of these.
Location = OnMap | Arriving | InMarker | Eliminated | Withdrawn


def location_words(location: Location, describe: Callable[[Cell], str]) -> str:
    """Where a unit is, in words for its own side (``describe`` names a cell)."""
    match location:
        case OnMap(cell=cell):
            return describe(cell)
        case Arriving(turn=turn):
            return f"arrives turn {turn}"
        case InMarker(marker_id=mid):
            return f"under marker {mid}"
        case Eliminated():
            return "eliminated"
        case Withdrawn():
            return "withdrawn"


def location_json(location: Location) -> dict[str, Any]:
    """A location as JSON-ready data (for snapshots)."""
    match location:
        case OnMap(cell=cell):
            return {"at": "map", "cell": [cell.col, cell.row]}
        case Arriving(turn=turn, cell=cell):
            return {"at": "arriving", "turn": turn, "cell": [cell.col, cell.row]}
        case InMarker(marker_id=mid):
            return {"at": "marker", "marker": mid}
        case Eliminated():
            return {"at": "eliminated"}
        case Withdrawn():
            return {"at": "withdrawn"}


def location_from_json(data: Mapping[str, Any]) -> Location:
    """A location read back from ``location_json``; anything else is refused."""
    match data.get("at"):
        case "map":
            return OnMap(Cell(*data["cell"]))
        case "arriving":
            return Arriving(int(data["turn"]), Cell(*data["cell"]))
        case "marker":
            return InMarker(str(data["marker"]))
        case "eliminated":
            return Eliminated()
        case "withdrawn":
            return Withdrawn()
    raise ValueError(f"not a unit location: {dict(data)!r}")


def legacy_location(cell: Any, arrives_turn: Any, arrives_at: Any) -> Location:
    """The location of a unit in a snapshot written before units had one: on the map at its
    cell, arriving, or (with neither) off the map, which then only happened by losing all its
    strength."""
    if cell is not None:
        return OnMap(Cell(*cell))
    if arrives_turn is not None and arrives_at is not None:
        return Arriving(int(arrives_turn), Cell(*arrives_at))
    return Eliminated()
