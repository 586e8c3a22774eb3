"""Finding one of a side's own units by the name a player gives, and reading a list of them.

A unit is named by its id, its name or its short name, in any case, or by any word of them or
of the label on its counter (``rules.forces.labels``), or by the first letters of such a word:
"Dieck" is "13th New York Battery (Dieckmann)", "13th NY" and "13th N." too, as its counter
reads. The closest kind of match wins (``Match``, ruling ORD-50); a text that the closest kind
fits in several units is refused with their names, never as a name of no unit. Names may hold
any character, commas included ("Dilger's battery, 1st Ohio"), so a list separated by commas is
read against the side's own names: wherever several pieces together spell one of them exactly,
they name that one unit (ruling ORD-10). Only the side's own units are ever looked at, so an
enemy's name or id, or a word only an enemy's name holds, gets exactly the answer a name of no
unit gets."""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TypeVar

from rules.forces.labels import counter_label
from rules.forces.units import Command, Unit
from rules.refusal import Refusal
from rules.state import GameState

#: What separates the items of a list of units (or of a force): commas, semicolons, new lines.
SEPARATORS = re.compile(r"([,;\n])")
_AROUND = re.compile(r"\s*([,;])\s*")
_SPACES = re.compile(r"\s+")
#: A word of a name: letters and digits, with an apostrophe inside ("O'Neal").
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_POSSESSIVE = re.compile(r"['’]s$")
#: Refusals list at most this many of the units a text could mean.
MOST_LISTED = 5
T = TypeVar("T")


class Match(IntEnum):
    """How closely a typed text names something, closest first (ruling ORD-50)."""

    ID = 0  #: its id, whole
    EXACT = 1  #: its name or short name, whole
    LABEL = 2  #: its counter's usual label, whole or cut short with a stop ("Colqui.")
    START = 3  #: the beginning of its name
    WORD = 4  #: whole words of its names or of its counter's label ("Hill")
    WORD_START = 5  #: the beginnings of such words ("Dieck"), or their initials ("RE Lee")


@dataclass(frozen=True, slots=True)
class Names:
    """Everything a unit (or a command) answers to: its id, its whole names (``same_name``)
    and the words of its names and label (``words``), one tuple a name."""

    id: str
    name: str
    whole: tuple[str, ...]
    words: tuple[tuple[str, ...], ...]
    label: str = ""
    #: The whole name as names are compared (``same_name``).
    name_key: str = ""
    #: Every word of ``words``, and their first letters: a text whose first word is none of
    #: them (or begins with none of them) names nothing here by its words.
    vocabulary: frozenset[str] = field(init=False)
    letters: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        every = frozenset(w for said in self.words for w in said)
        object.__setattr__(self, "vocabulary", every)
        object.__setattr__(self, "letters", frozenset(w[:1] for w in every))


@dataclass(frozen=True, slots=True)
class Typed:
    """A text as it is compared with names: whole (``same_name``) and by its words."""

    key: str
    words: tuple[str, ...]

    @classmethod
    def of(cls, text: str) -> Typed:
        key = same_name(text)
        return cls(key, words(text) if key else ())


def same_name(text: str) -> str:
    """``text`` as names are compared: any case, spaces around commas and runs of spaces
    not counted."""
    return _SPACES.sub(" ", _AROUND.sub(r"\1", text.strip().lower()))


def words(text: str) -> tuple[str, ...]:
    """The words of ``text`` as they are compared: in small letters, without a possessive
    ("Hill's": hill; "Rodes'": rodes) or stops ("A. P.": a, p)."""
    return tuple(_POSSESSIVE.sub("", w) for w in _WORD.findall(text.lower()))


def unit_keys(unit: Unit) -> tuple[str, ...]:
    """Everything that names ``unit`` exactly, as ``same_name`` writes it."""
    return _keys_of(unit.id, unit.name, unit.short)


@functools.lru_cache(maxsize=8192)
def _keys_of(ref: str, name: str, short: str) -> tuple[str, ...]:
    # (Worked out once for each unit: every list of a side's units reads all their names.)
    return tuple(same_name(k) for k in (ref, name, short) if k)


def unit_names(unit: Unit) -> Names:
    """What ``unit`` answers to (``names_of``)."""
    return names_of(unit.id, unit.name, unit.short)


@functools.lru_cache(maxsize=8192)
def names_of(ref: str, name: str, short: str) -> Names:
    """What the unit of id ``ref``, ``name`` and ``short`` name answers to: those whole, and
    the words of those and of its counter's label (a short name that is only its name cut off
    adds no word). Worked out once for each unit: every lookup reads all of a side's names."""
    label = counter_label(name, short)
    cut = name.startswith(short) and len(short) < len(name)
    texts = dict.fromkeys(t for t in (ref, name, "" if cut else short, label) if t)
    return Names(same_name(ref), name, tuple(same_name(k) for k in (ref, name, short) if k),
                 tuple(words(t) for t in texts), same_name(label), same_name(name))


def command_names(command: Command) -> Names:
    """What a command answers to: its id and name, whole and by their words."""
    return Names(same_name(command.id), command.name,
                 tuple(same_name(k) for k in (command.id, command.name)),
                 tuple(words(t) for t in (command.id, command.name)),
                 name_key=same_name(command.name))


def match(names: Names, typed: str | Typed) -> Match | None:
    """How closely ``typed`` names what ``names`` belongs to, or ``None`` when it does not."""
    text = typed if isinstance(typed, Typed) else Typed.of(typed)
    key = text.key
    if not key:
        return None
    if key == names.id:
        return Match.ID
    if key in names.whole:
        return Match.EXACT
    if names.label and (key == names.label or (
            key.endswith(".") and names.label.startswith(key.rstrip(". ")))):
        return Match.LABEL
    if names.name_key.startswith(key):
        return Match.START
    asked = text.words
    if not asked or asked[0][:1] not in names.letters:
        return None
    if asked[0] in names.vocabulary and any(
            _run(asked, said, i, whole=True) for said in names.words for i in range(len(said))):
        return Match.WORD
    if any(_run(asked, said, i, whole=False) for said in names.words for i in range(len(said))):
        return Match.WORD_START
    return None


def _run(asked: Sequence[str], said: Sequence[str], at: int, *, whole: bool) -> bool:
    """Whether the words ``asked`` are, in order, the words of ``said`` from ``at`` on: each
    the word itself (``whole``), or else its beginning or the initials of as many words as it
    has letters ("RE" for "Robert E.", "NY" for "New York")."""
    if not asked:
        return True
    if at >= len(said):
        return False
    first, rest = asked[0], asked[1:]
    if ((said[at] == first or (not whole and said[at].startswith(first)))
            and _run(rest, said, at + 1, whole=whole)):
        return True
    n = len(first)
    if (not whole and n > 1 and first.isalpha() and at + n <= len(said)
            and "".join(w[:1] for w in said[at:at + n]) == first):
        return _run(rest, said, at + n, whole=whole)
    return False


def closest(named: Iterable[tuple[T, Names]], typed: str) -> list[T]:
    """What ``typed`` names among ``named``: everything that matches it as closely as anything
    does (``Match``), in the given order; nothing when nothing matches."""
    text = Typed.of(typed)
    found = [(m, thing) for thing, names in named if (m := match(names, text)) is not None]
    if not found:
        return []
    best = min(m for m, _ in found)
    return [thing for m, thing in found if m == best]


def several(typed: str, names: Sequence[str]) -> Refusal:
    """The refusal of a text that names several of the side's own units (or commands): it lists
    them by name, at most ``MOST_LISTED``."""
    shown = list(names[:MOST_LISTED])
    more = len(names) - len(shown)
    if more:
        listed = f"{', '.join(shown)} or {more} more"
    else:
        listed = f"{', '.join(shown[:-1])} or {shown[-1]}"
    return Refusal(f"{typed.strip()[:60]!r} could be {len(names)} of yours. "
                   f"Did you mean: {listed}?")


def own_unit(state: GameState, side: str, name: str,
             wanted: Callable[[Unit], bool] | None = None) -> Unit:
    """Find one of ``side``'s units by id, name or short name (any case), or by words of them
    or of its counter's label (``match``). Where the order asks for a certain kind of unit
    (``wanted``: a leader, say), the units of that kind are searched first, and the others only
    when none of them answers to the name.

    Only the side's own units are searched, so a name that belongs to an enemy unit gets exactly
    the answer a name of no unit gets."""
    mine = state.units_of(side)
    pools = ([u for u in mine if wanted(u)], mine) if wanted is not None else (mine,)
    for pool in pools:
        found = closest(((u, unit_names(u)) for u in pool), name)
        if len(found) == 1:
            return found[0]
        if found:
            raise several(name, [u.name for u in found])
    names = {u.name.lower(): u.name for u in mine}
    near = [names[n] for n in difflib.get_close_matches(same_name(name), list(names), n=3,
                                                        cutoff=0.6)]
    hint = f" Did you mean: {', '.join(near)}?" if near else ""
    raise Refusal(f"You have no unit called {name.strip()[:60]!r}.{hint}")


def own_command(state: GameState, side: str, name: str, *, closely: bool = False) -> str | None:
    """The id of the side's own command ``name`` names (``match``), or ``None``. With
    ``closely``, only its id or whole name counts; otherwise words of them do too, and a text
    several commands answer to equally is refused with their names."""
    mine = [c for c in state.commands.values() if c.side == side]
    named = [(c, command_names(c)) for c in mine]
    if closely:
        named = [(c, n) for c, n in named if match(n, name) in (Match.ID, Match.EXACT)]
    found = closest(named, name)
    if len(found) > 1:
        raise several(name, [c.name for c in found])
    return found[0].id if found else None


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
