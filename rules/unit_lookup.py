"""Finding one of a side's own units by the name a player gives."""

from __future__ import annotations

import difflib

from rules.refusal import Refusal
from rules.state import GameState
from rules.units import Unit


def own_unit(state: GameState, side: str, name: str) -> Unit:
    """Find one of ``side``'s units by id, name or short name (any case).

    Only the side's own units are searched, so a name that belongs to an enemy unit gets exactly
    the answer a name of no unit gets."""
    key = name.strip().lower()
    mine = state.units_of(side)
    for u in mine:
        if key in (u.id.lower(), u.name.lower(), u.short.lower()):
            return u
    starts = [u for u in mine if u.name.lower().startswith(key)]
    if len(starts) == 1:
        return starts[0]
    names = {u.name.lower(): u.name for u in mine}
    near = [names[n] for n in difflib.get_close_matches(key, list(names), n=3, cutoff=0.6)]
    hint = f" Did you mean: {', '.join(near)}?" if near else ""
    raise Refusal(f"You have no unit called {name.strip()[:60]!r}.{hint}")
