"""Counter labels that never repeat on a map.

Every named counter of a view gets a short label, and no two named counters of the same view
carry the same one (ruling ORD-31): the leader Geary and Geary's battery are ``Geary`` and
``Knap`` (its commander), two brigades of one division are their own commanders, and so on.

The labels are a pure function of the view's counters (all of them, not only those in the
picture), so the window and the whole board of one moment label each counter alike. A counter
that shows no name (an enemy marker, an anonymous enemy: ``?``) is not labelled here: it has no
name to tell, and numbering them would invent an identity the side does not have.

A label must fit its card at the size the fitted window draws it (``fits``); a name that does
not is cut to a prefix ending in a full stop, and the cut names are kept distinct too.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable

from rules.view import ANONYMOUS, GHOST, MARKER, UnitView

#: The order in which units of one name claim it: the commander first, then his troops.
_CLAIM = {"leader": 0, "hq": 1, "infantry": 2, "cavalry": 3, "artillery": 4, "wagon": 5}
#: A word naming the arm, added to a name that is still not unique.
_ARM_TAG = {"leader": "", "hq": "HQ", "infantry": "inf", "cavalry": "cav",
            "artillery": "art", "wagon": "trn"}
_WORD = re.compile(r"[A-Za-z][A-Za-z'’.-]*")


def named(u: UnitView) -> bool:
    """Whether a counter shows a name of its own (and so takes part in the labelling)."""
    if u.level == MARKER or u.level == ANONYMOUS:
        return False
    return not (u.level == GHOST and not u.name and not u.short)


def unique_labels(units: Iterable[UnitView], base: Callable[[UnitView], str],
                  fits: Callable[[str], bool],
                  misleads: Callable[[UnitView, str], bool] = lambda u, label: False,
                  names_alone: Callable[[UnitView, str], bool] = lambda u, label: True
                  ) -> dict[str, str]:
    """Each named counter's label, by ``ref``: ``base`` (its usual short name) where that is
    nobody else's, else the first of its other candidates (``candidates``) that is free, else
    the base with a number. Whoever comes first in the claiming order (commanders before their
    troops, then by ref) keeps a shared base. A shared base or a candidate that, typed in an
    order, would name another of the side's own units (``misleads``, ruling ORD-51) is passed
    over for the next candidate, when there is one; so is one that would name it only among
    others (not ``names_alone``), when a candidate names it alone."""
    counters = sorted((u for u in units if named(u)),
                      key=lambda u: (_CLAIM.get(u.kind, 6), u.side, u.ref))
    bases = {u.ref: fitted(base(u), fits) for u in counters}
    taken: set[str] = set()
    out: dict[str, str] = {}
    # The next number to try for each shared base: the numbers already given are taken.
    next_number: dict[str, int] = {}
    shared = {b for b, n in Counter(bases.values()).items() if n > 1}
    # Unique bases are reserved first, so that no other counter's alternative takes them.
    for u in counters:
        if bases[u.ref] not in shared:
            out[u.ref] = bases[u.ref]
            taken.add(bases[u.ref])
    for u in counters:
        b = bases[u.ref]
        others = [c for c in (fitted(c, fits) for c in candidates(u, base(u)))
                  if c and c not in taken and not misleads(u, c)]
        if u.ref in out:
            if not names_alone(u, b):
                out[u.ref] = next((c for c in others if names_alone(u, c)), b)
                taken.add(out[u.ref])
            continue
        pick = b if b not in taken and not misleads(u, b) else ""
        if not pick or not names_alone(u, pick):
            if pick:
                # Given up for a better one, the shared base still goes to nobody after it.
                taken.add(pick)
            pick = next((c for c in others if names_alone(u, c)), pick or
                        next(iter(others), ""))
        if not pick and b not in taken:
            pick = b  # no candidate names it better
        n = next_number.get(b, 2)
        while not pick:
            pick = numbered(b, n, fits)
            n += 1
            if pick in taken:
                pick = ""
        next_number[b] = n
        out[u.ref] = pick
        taken.add(pick)
    return out


def candidates(u: UnitView, base: str) -> list[str]:
    """Other names a counter may go by, most telling first: the commander in brackets
    ("Geary's artillery (Knap)": Knap), the unit after a colon ("Gregg's division: Wyndham's
    brigade": Wyndham), the initials before the name ("W. H. F. Lee's brigade": WHF Lee), the
    name with its arm ("Lee cav")."""
    out: list[str] = []
    name = u.name
    _, _, rest = name.partition("(")
    if rest:
        inside = rest.split(")")[0].replace(",", " ").split()
        if inside and inside[0][:1].isupper():  # a commander's name, not "(detachment)"
            out.append(inside[0])
            if len(inside) > 1:
                out.append(inside[-1])
    if ":" in name:
        after = name.split(":", 1)[1]
        words = _WORD.findall(after)
        for w in words:
            if w.endswith("'s") or w.endswith("’s"):
                out.append(w[:-2])
                break
        else:
            if words:
                out.append(words[0])
    words = _WORD.findall(name.split("(")[0])
    head = [w for w in words if not w.startswith(base)]
    at = next((i for i, w in enumerate(words) if w.startswith(base)), None)
    if at:
        initials = "".join(w[0] for w in words[:at] if w[:1].isupper() and w.lower() not in
                           ("gen.", "gen", "maj.", "brig.", "lt.", "col.", "capt."))
        if initials:
            out.append(f"{initials} {base}")
    tag = _ARM_TAG.get(u.kind, "")
    if tag:
        out.append(f"{base} {tag}")
    if head and head[-1] != base:
        out.append(head[-1].rstrip("'’s"))
    return [c for c in out if c and c != base]


def fitted(label: str, fits: Callable[[str], bool]) -> str:
    """``label``, or its longest prefix that fits with a full stop after it."""
    if fits(label):
        return label
    cut = label.rstrip(".")
    while len(cut) > 1:
        cut = cut[:-1].rstrip(" .")
        if fits(cut + "."):
            return cut + "."
    return label[:1]


def numbered(base: str, n: int, fits: Callable[[str], bool]) -> str:
    """``base`` with the number ``n``, cut so that the number always shows."""
    tail = f" {n}"
    head = base
    while len(head) > 1 and not fits(head + tail):
        head = head[:-1]
    return head.rstrip(" .") + tail
