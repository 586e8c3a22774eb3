"""Finding one of a side's own units by the name a player gives, and reading a list of them.

A unit is named by its id, its name or its short name, in any case. Names may hold any
character, commas included ("Dilger's battery, 1st Ohio"), so a list separated by commas is read
against the side's own names: wherever several pieces together spell one of them exactly, they
name that one unit (ruling ORD-10). Only the side's own units are ever looked at, so an enemy's
name or id gets exactly the answer a name of no unit gets."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable

from rules.forces.units import Unit
from rules.refusal import Refusal
from rules.state import GameState

#: What separates the items of a list of units (or of a force): commas, semicolons, new lines.
SEPARATORS = re.compile(r"([,;\n])")
_AROUND = re.compile(r"\s*([,;])\s*")
_SPACES = re.compile(r"\s+")


def same_name(text: str) -> str:
    """``text`` as names are compared: any case, spaces around commas and runs of spaces
    not counted."""
    return _SPACES.sub(" ", _AROUND.sub(r"\1", text.strip().lower()))


def unit_keys(unit: Unit) -> tuple[str, ...]:
    """Everything that names ``unit`` exactly, as ``same_name`` writes it."""
    return tuple(same_name(k) for k in (unit.id, unit.name, unit.short) if k)


def own_unit(state: GameState, side: str, name: str) -> Unit:
    """Find one of ``side``'s units by id, name or short name (any case).

    Only the side's own units are searched, so a name that belongs to an enemy unit gets exactly
    the answer a name of no unit gets."""
    key = same_name(name)
    mine = state.units_of(side)
    for u in mine:
        if key in unit_keys(u):
            return u
    starts = [u for u in mine if same_name(u.name).startswith(key)]
    if len(starts) == 1:
        return starts[0]
    names = {u.name.lower(): u.name for u in mine}
    near = [names[n] for n in difflib.get_close_matches(key, list(names), n=3, cutoff=0.6)]
    hint = f" Did you mean: {', '.join(near)}?" if near else ""
    raise Refusal(f"You have no unit called {name.strip()[:60]!r}.{hint}")


def split_list(items: str | Iterable[str], known: Callable[[str], bool], most: int = 1
               ) -> list[str]:
    """The items of a list, read against the names ``known`` recognises (it is given an item as
    written, and says whether that is exactly a name or id it knows), none of which is cut
    into more than ``most`` pieces by its separators (``pieces_of``).

    ``items`` is the list as typed, or already cut at its commas (then the pieces are put back
    together with ", "). From the left, the longest run of pieces that ``known`` takes whole is
    one item; a piece no longer run takes is an item by itself, left for the caller to look up
    (and refuse as it would any name)."""
    text = items if isinstance(items, str) else ", ".join(items)
    parts = SEPARATORS.split(text)
    # parts alternates piece, separator, piece, ...: pieces at even places.
    pieces = parts[0::2]
    out: list[str] = []
    i = 0
    while i < len(pieces):
        end = i + 1
        for j in range(min(len(pieces), i + most), i + 1, -1):
            if known("".join(parts[2 * i:2 * j - 1])):
                end = j
                break
        item = "".join(parts[2 * i:2 * end - 1]).strip()
        if item:
            out.append(item)
        i = end
    return out


def pieces_of(names: Iterable[str]) -> int:
    """The most pieces the separators cut any of ``names`` into (``split_list``'s ``most``)."""
    return max((len(SEPARATORS.findall(n)) + 1 for n in names), default=1)


def own_keys(state: GameState, side: str) -> frozenset[str]:
    """Every id, name and short name of ``side``'s own units, as ``same_name`` writes them."""
    return frozenset(k for u in state.units_of(side) for k in unit_keys(u))


def own_unit_list(state: GameState, side: str, items: str | Iterable[str]) -> list[str]:
    """The items of a list of ``side``'s own units (``split_list`` against their names)."""
    keys = own_keys(state, side)
    return split_list(items, lambda text: same_name(text) in keys, pieces_of(keys))
