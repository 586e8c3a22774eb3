"""Naming a side's own units in autocomplete: who may fire or assault now, what they could aim
at, the forces a march may name, the formations a unit may take, and completing a list.

Every list here is read from the side's own view (``rules.view.project``) and its own units: an
enemy's id is never offered, and an enemy unit appears only as a target the side sees. A list of
units completes to their ids separated by commas (no unit id holds one: ``rules.scenario.models``),
shown by their names; the rules read ids and names alike (``rules.forces.lookup``, ruling ORD-10).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rules.combat.aiming import Action as Action  # re-exported
from rules.combat.aiming import aims
from rules.forces.lookup import (
    SEPARATORS,
    own_unit,
    own_unit_list,
    pieces_of,
    same_name,
    split_list,
)
from rules.forces.markers import Marker
from rules.forces.units import Unit
from rules.refusal import Refusal
from rules.state import GameState
from rules.turn.idle import side_options
from rules.view import project
from umpire.words import markers as marker_words

MAX_CHOICES = 25
#: Discord's limit on a choice's name and value.
MAX_VALUE = 100
#: The offer that says who may do each action (``rules.turn.idle``, ``rules.combat.offers``).
OFFER_OF: dict[Action, str] = {"fire": "fire", "assault": "close_combat"}
_WORD = re.compile(r"[\w']+")


@dataclass(frozen=True, slots=True)
class Named:
    """One of the side's own units or commands: the id an order reads, its name as shown, and
    every text that names it exactly (``same_name``)."""

    ref: str
    name: str
    keys: tuple[str, ...]


def named_unit(unit: Unit) -> Named:
    return Named(unit.id, unit.name,
                 tuple(same_name(k) for k in (unit.id, unit.name, unit.short) if k))


def rank(label: str, typed: str) -> int | None:
    """How well ``label`` matches what was typed: 0 when it starts with it, 1 when one of its
    words does ("Ward" in "Ward's brigade" before "Howard"), 2 when it holds it anywhere, else
    ``None``."""
    key = same_name(typed)
    low = same_name(label)
    if low.startswith(key):
        return 0
    if any(low[m.start():].startswith(key) for m in _WORD.finditer(low)):
        return 1
    return 2 if key in low else None


def ranked(labels: Sequence[str], typed: str) -> list[int]:
    """The positions of the labels that match ``typed``, best match first (``rank``), each
    group in its given order."""
    scored = [(r, i) for i, label in enumerate(labels) if (r := rank(label, typed)) is not None]
    return [i for _, i in sorted(scored)]


def own_units(state: GameState, side: str) -> list[Named]:
    """The side's own units (on the map or not), by name."""
    view = project(state, side)
    refs = [u.ref for u in view.own_units()] + [o.ref for o in view.off_map]
    units = [state.units[r] for r in refs if r in state.units]
    return sorted((named_unit(u) for u in units), key=lambda n: n.name.lower())


def fighters(state: GameState, side: str, action: Action) -> list[Named]:
    """The side's own units that may ``action`` now, as the rules offer it (phase, morale,
    formation, not yet used, an enemy the side sees within reach: ``rules.turn.idle.side_options``);
    none when the side does not act now."""
    return offered(state, side, OFFER_OF[action])


def offered(state: GameState, side: str, action: str) -> list[Named]:
    """The side's own units the rules offer it for ``action`` now (``move``, ``formation``,
    ``rally``, ``conceal``, ``order``: ``rules.turn.idle.side_options``, each list made by the
    order's own check), by name; none when the side does not act now."""
    offers = side_options(state, side).offers
    refs = [r for o in offers if o.action == action for r in o.refs]
    return [named_unit(state.units[r]) for r in dict.fromkeys(refs) if r in state.units]


def movers(state: GameState, side: str) -> list[Named]:
    """What ``/move`` may name now: the side's markers a move order would be accepted for
    (each labelled with what is under it), then its units that may move (never a unit inside
    a marker, nor one held in place or with no MPs left for a step)."""
    options = side_options(state, side)
    refs = [r for o in options.offers if o.action == "move" for r in o.refs]
    labels = dict(marker_words.own_marker_choices(project(state, side))) if state.markers else {}
    markers = [Named(r, labels.get(r, r), (same_name(r),)) for r in dict.fromkeys(refs)
               if r not in state.units]
    return markers + offered(state, side, "move")


def marker_choice(state: GameState, side: str, markers: Sequence[Marker]) -> list[Named]:
    """The side's ``markers`` as choices, each labelled with what is under it."""
    if not markers:
        return []
    labels = dict(marker_words.own_marker_choices(project(state, side)))
    refs = [marker_words.marker_ref(m.id) for m in markers]
    return [Named(r, labels.get(r, r), (same_name(r),)) for r in refs]


def chosen_units(state: GameState, side: str, text: str) -> list[Unit]:
    """The side's own units a (possibly half-typed) list names; what names none is left out."""
    out: list[Unit] = []
    for item in own_unit_list(state, side, text):
        try:
            unit = own_unit(state, side, item)
        except Refusal:
            continue
        if unit not in out:
            out.append(unit)
    return out


def targets(state: GameState, side: str, action: Action, units_text: str
            ) -> list[tuple[str, str]]:
    """What the side could name as ``action``'s target, as (value, words) pairs: first what
    the units named in ``units_text`` could all strike now, with distance and sight, then the
    rest it sees (``rules.combat.aiming``). Only the side's view and its own units are read."""
    view = project(state, side)
    chosen_refs = {u.id for u in chosen_units(state, side, units_text)}
    chosen = [u for u in view.own_units() if u.ref in chosen_refs]
    found = aims(view, state.loaded.map, state.loaded.ruleset.combat, chosen, action)
    return [(a.value, a.words(action)) for a in found]


def forces(state: GameState, side: str) -> list[Named]:
    """The side's own commands (a command means it plus attached), then its units on the map,
    each by name, for a march's ``force:``."""
    commands = sorted((Named(c.id, c.name, (same_name(c.id), same_name(c.name)))
                       for c in state.commands.values() if c.side == side),
                      key=lambda n: n.name.lower())
    units = sorted((named_unit(u) for u in state.units_of(side) if u.cell is not None),
                   key=lambda n: n.name.lower())
    return commands + units


def formations(state: GameState, side: str, unit_text: str) -> list[str] | None:
    """The formations the named unit of the side's own could change to (its kind's, less the
    one it is in); ``None`` when the text names none of its units."""
    try:
        unit = own_unit(state, side, unit_text)
    except Refusal:
        return None
    return [str(f) for f in unit.formations if f != unit.formation]


def complete_list(current: str, known: Sequence[Named], offered: Sequence[Named]
                  ) -> list[tuple[str, str]]:
    """Completions of the last item of a list of units (or commands), as (value, name) pairs.

    The item being typed is the longest end of the text that begins one of the ``offered``
    names (it may hold commas of its own: "1st Division, XI"), after items that each name one
    of ``known`` (ids and names alike); failing that, what follows the last separator. Each item
    before it becomes its id in the value and its name in the shown name (an item that names
    nothing is kept as typed, for the rules to refuse); the last is completed from ``offered``
    (best match first, ``rank``), leaving out what the list already holds."""
    if len(current) > 500:
        return []
    by_key = {k: n for n in known for k in n.keys}
    head, tail = _last_item(current, by_key, offered)
    values: list[str] = []
    names: list[str] = []
    have: set[str] = set()
    for item in split_list(head, lambda text: same_name(text) in by_key, pieces_of(by_key)):
        found = by_key.get(same_name(item))
        values.append(found.ref if found else item)
        names.append(found.name if found else item)
        if found:
            have.add(found.ref)
    out: list[tuple[str, str]] = []
    fresh = [n for n in offered if n.ref not in have]
    for i in ranked([n.name for n in fresh], tail):
        value = ",".join([*values, fresh[i].ref])
        name = ", ".join([*names, fresh[i].name])
        if len(value) <= MAX_VALUE:
            out.append((value, name[:MAX_VALUE]))
        if len(out) == MAX_CHOICES:
            break
    return out


def _last_item(current: str, by_key: dict[str, Named], offered: Sequence[Named]
               ) -> tuple[str, str]:
    """``current`` cut into the finished items and the one being typed (``complete_list``)."""
    parts = SEPARATORS.split(current)
    count = len(parts[0::2])
    starts = [same_name(n.name) for n in offered]
    for k in range(count):
        head, tail = "".join(parts[:max(0, 2 * k - 1)]), "".join(parts[2 * k:])
        key = same_name(tail)
        if not any(s.startswith(key) for s in starts):
            continue
        items = split_list(head, lambda text: same_name(text) in by_key, pieces_of(by_key))
        if all(same_name(item) in by_key for item in items):
            return head, tail
    return "".join(parts[:max(0, 2 * count - 3)]), parts[-1]
