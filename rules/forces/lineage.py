"""Which units a set of unit records changed from the set it was made from.

A command replaces a few unit records at a time (``rules.state.with_units``), and what follows
the units from one state to the next (the game's live sighting) need only look at those. Each
new set is noted here with the set it was made from and the ids it replaced; a set made in any
other way is not, and is compared unit by unit instead. Only the last few sets are noted: the
sets are kept alive beside their notes, so that an id is never reused while noted.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from types import MappingProxyType

from rules.forces.units import Unit

Units = Mapping[str, Unit]

_MADE: dict[int, tuple[Units, Units, tuple[str, ...]]] = {}
_KEPT = 256
_LOCK = threading.Lock()


def replaced(parent: Units, changed: Units) -> Units:
    """A new, read-only set of records: ``parent`` with those of ``changed`` replaced or added,
    noted as made from it."""
    units = dict(parent)
    units.update(changed)
    made = MappingProxyType(units)
    with _LOCK:
        if len(_MADE) >= _KEPT:
            del _MADE[next(iter(_MADE))]
        _MADE[id(made)] = (made, parent, tuple(changed))
    return made


def made_from(units: Units) -> tuple[Units, tuple[str, ...]] | None:
    """The set ``units`` was made from and the ids it replaced or added, if it is noted."""
    with _LOCK:
        made = _MADE.get(id(units))
    if made is None or made[0] is not units:
        return None
    return made[1], made[2]


def changed_since(old: Units, new: Units, depth: int = 64) -> set[str] | None:
    """The ids whose records may differ between ``old`` and the set ``new`` was made from it
    by at most ``depth`` notes; ``None`` when the notes do not lead back to ``old``."""
    ids: set[str] = set()
    at = new
    with _LOCK:
        for _ in range(depth):
            if at is old:
                return ids
            made = _MADE.get(id(at))
            if made is None or made[0] is not at:
                return None
            _, at, changed = made
            ids.update(changed)
        return ids if at is old else None
