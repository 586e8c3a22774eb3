"""The units a host may name in ``/host correct``, finding one by what the host typed, and the
answer's words for what the correction changed (rulings ORD-40, ORD-42, ORD-43).

Who may name what, while the game is in play:

- the host of a game created with ``host_umpires`` (who takes no side) names any unit of any
  side, since that host reads the whole truth anyway;
- a host who plays a side names that side's own units only. An enemy unit's name or id gets
  exactly the answer a name of no unit gets, so a correction cannot be used to find out which
  enemy units exist or what they are called;
- anyone else with the host's tools (a host who neither plays nor umpires, a Manage Server
  moderator who does not play) names no unit at all: the refusal says so before any name is
  looked at, so it is the same whatever was typed.

A unit is found by its id or its name (or short name), in any case; a name several units carry
is refused with the list of them, each with the id that picks it (ids are shown only among the
units the host may name). The autocomplete offers the same units, each labelled with its kind
(and its side, for the umpire) and valued by its id, so that a choice cannot name the wrong one.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from rules.forces.lookup import same_name, unit_keys
from rules.forces.units import Unit
from rules.scenario.markup import plain
from rules.state import GameState
from rules.view import own_view
from umpire.answers import UmpireError
from umpire.reads.naming import rank
from umpire.words.events import correctable_fields

NOTHING_TO_NAME = ("you neither play a side in this game nor umpire it, so there is no unit "
                   "you may correct: a host who plays corrects their own side's units, and a "
                   "host who takes no side umpires a game created with host_umpires:true")
#: The fields a correction may change, in the order the answer lists them.
FIELDS = ("cell", "strength", "stragglers", "formation", "morale")
#: Autocomplete offers at most this many units, and refusals list at most this many.
MAX_LISTED = 25


def nameable(state: GameState, *, umpire: bool, side: str | None) -> list[Unit]:
    """The units the host may name: every unit for the umpire, the side's own for a host who
    plays ``side``, none otherwise; in the scenario's order."""
    if umpire:
        return list(state.units.values())
    if side:
        return state.units_of(side)
    return []


def label(state: GameState, unit: Unit, *, umpire: bool) -> str:
    """A unit as the autocomplete shows it: its name and kind, and its side for the umpire
    (who names units of every side)."""
    whose = f", {state.side_name(unit.side)}" if umpire else ""
    return f"{unit.name} ({unit.kind}{whose})"


def choices(state: GameState, units: Sequence[Unit], *, umpire: bool) -> list[tuple[str, str]]:
    """The autocomplete's (value, label) pairs: each unit's id and its label; a label that two
    units share carries the id too, so that the host can tell them apart."""
    labels = [label(state, u, umpire=umpire) for u in units]
    return [(u.id, text if labels.count(text) == 1 else f"{text} [{u.id}]")
            for u, text in zip(units, labels, strict=True)]


def find(state: GameState, units: Sequence[Unit], typed: str, *, umpire: bool) -> Unit:
    """The unit among ``units`` that ``typed`` names (an id, a name, a short name or an
    autocomplete label, in any case; else the one name that begins with it). Refused
    (``UmpireError``) for a name no unit among them has, and for a name several carry."""
    key = same_name(typed)
    for u in units:
        if same_name(u.id) == key:
            return u
    exact = [u for u in units if key in unit_keys(u)
             or key == same_name(label(state, u, umpire=umpire))]
    # Beyond exact names, autocomplete's own rule: a name that starts with what was typed, or
    # one of whose words does (``umpire.reads.naming.rank``).
    starts = exact or [u for u in units if rank(u.name, typed) in (0, 1)]
    if len(starts) == 1:
        return starts[0]
    if len(starts) > 1 and key:
        listed = "; ".join(f"{label(state, u, umpire=umpire)}: `{u.id}`"
                           for u in starts[:MAX_LISTED])
        raise UmpireError(f"several units answer to {typed.strip()[:60]!r}: {listed}. Pick one "
                          "from the list, or give its id")
    whose = "no unit" if umpire else "none of your units"
    names = {same_name(u.name): u.name for u in units}
    near = [names[n] for n in difflib.get_close_matches(key, list(names), n=3, cutoff=0.6)]
    hint = f" Did you mean: {', '.join(near)}?" if near else ""
    raise UmpireError(f"{whose} is called {typed.strip()[:60]!r}.{hint}")


def changed_words(before: GameState, after: GameState, unit: Unit) -> str:
    """What a correction changed, in words ("Geary's strength 6 → 5"; "Geary: cell A0504 →
    A0605, morale normal → shaken"), read from the unit's own side's view before and after (the
    host may see the unit: it is the host's own, or the host umpires)."""
    was = correctable_fields(own_view(before, unit.side), unit.id)
    now = correctable_fields(own_view(after, unit.side), unit.id)
    name = plain(unit.name)
    changed = [f"{key} {plain(was.get(key, '?'))} → {plain(now.get(key, '?'))}"
               for key in FIELDS if was.get(key) != now.get(key)]
    if not changed:
        return f"nothing changed: {name} already was so"
    if len(changed) == 1:
        return f"{name}'s {changed[0]}"
    return f"{name}: {', '.join(changed)}"
