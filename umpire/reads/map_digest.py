"""What a map picture is drawn from, and its digest: the key a picture is kept under.

A picture shows a ``SideView`` and nothing beside it, so a side's picture is kept under a
digest of the view it is drawn from (``umpire.reads.drawn_maps``), never under the log's length: the
log grows with the enemy's secret orders too, and a picture drawn again because of them would
answer slower, telling the side that the enemy did something (DESIGN.md, "Timing tells
nothing").

The picture is drawn from ``drawn_part(view)``: the view with the fields the renderer has no
use for left empty (the side's reports, module notes, memory, off-map units, chain of command,
who is still to act). What the renderer is given is therefore exactly what the digest covers,
whatever it comes to draw later; and a field that only the words use (``waiting_for`` changes
when the enemy is done) does not make the side's picture be drawn again. The board itself
(``game_map``) is left out of the digest: it is the game's pinned scenario map, the same for
every picture of the game, and the pictures are kept per game.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Mapping
from dataclasses import fields, is_dataclass, replace
from enum import Enum
from itertools import chain
from operator import attrgetter
from typing import TYPE_CHECKING

from rules.ground.grid import Cell
from rules.knowledge.information import InformationModel
from rules.knowledge.overlay import Route, Trail
from rules.view import CommandView, MarkerView, SideView, UnitView, ViewLevel

if TYPE_CHECKING:
    from hashlib import _Hash as Hash


def drawn_part(view: SideView) -> SideView:
    """``view`` with only what a map picture shows of it: the rest left empty."""
    return replace(view, phasing=None, side_names={}, reports=(), notes={}, memory=(),
                   off_map=(), waiting_for=(), commands=(), day=0)


def view_digest(view: SideView) -> str:
    """A SHA-256 of everything in ``view`` but its board, in a canonical form: equal views give
    equal digests whatever the order of their sets and mappings, and no object's id counts."""
    h = hashlib.sha256()
    for f in fields(view):
        if f.name != "game_map":
            h.update(f.name.encode() + b"=")
            _canonical(getattr(view, f.name), h)
    return h.hexdigest()


#: The types whose ``repr`` is already canonical: frozen dataclasses whose fields are strings,
#: numbers, enums, cells and tuples of these (their own ``repr`` is generated from the fields,
#: in order; no set, mapping or object id in it). Far quicker than a walk of their fields.
_REPR_SAFE: frozenset[type] = frozenset({
    str, int, float, bool, type(None), Cell, ViewLevel, InformationModel, UnitView,
    MarkerView, CommandView, Route, Trail})
#: How to read the fields of the dataclasses a view holds many of, as a tuple, in field order:
#: their ``repr`` is then the tuple's, twice as quick as the dataclass's own.
_FIELDS_OF: dict[type, attrgetter[tuple[object, ...]]] = {
    t: attrgetter(*(f.name for f in fields(t))) for t in (UnitView, CommandView, Route)}
#: The field names of each other dataclass met, so that a walk does not ask ``fields`` again.
_FIELDS: dict[type, tuple[str, ...]] = {}


def _canonical(x: object, h: Hash) -> None:
    """Feed ``x`` to ``h`` in a canonical form. A type not known here is refused: its ``repr``
    could hold an object's id, or depend on the order a set or mapping was filled in."""
    if type(x) in _REPR_SAFE:
        h.update(repr(x).encode() + b"\x1f")
    elif isinstance(x, tuple | list):
        kinds = {type(e) for e in x}
        if len(kinds) == 1 and (kind := next(iter(kinds))) in _FIELDS_OF:
            read = _FIELDS_OF[kind]
            h.update(f"{kind.__name__}{[read(e) for e in x]!r}\x1f".encode())
        elif kinds <= _REPR_SAFE:
            h.update(repr(tuple(x)).encode() + b"\x1f")
        else:
            h.update(b"[")
            for e in x:
                _canonical(e, h)
            h.update(b"]")
    elif isinstance(x, frozenset | set):
        if all(type(e) is Cell for e in x):
            # A set of cells (what the side sees, say): sorted, packed as numbers.
            packed = array("q", chain.from_iterable(sorted(x)))
            h.update(b"{%d:" % len(packed) + packed.tobytes() + b"}")
        else:
            h.update(b"{" + b"\x1e".join(sorted(_one(e) for e in x)) + b"}")
    elif isinstance(x, Mapping):
        items = sorted((_one(k), _one(v)) for k, v in x.items())
        h.update(b"<" + b"\x1e".join(k + b":" + v for k, v in items) + b">")
    elif isinstance(x, Enum):
        h.update(f"{type(x).__name__}.{x.name}\x1f".encode())
    elif is_dataclass(x) and not isinstance(x, type):
        names = _FIELDS.get(type(x))
        if names is None:
            names = _FIELDS[type(x)] = tuple(f.name for f in fields(x))
        h.update(type(x).__name__.encode() + b"(")
        for name in names:
            _canonical(getattr(x, name), h)
        h.update(b")")
    else:
        raise TypeError(f"no canonical form for {type(x).__name__}")


def _one(x: object) -> bytes:
    """The digest of ``x`` alone: what a set or mapping sorts its members by."""
    h = hashlib.sha256()
    _canonical(x, h)
    return h.digest()
