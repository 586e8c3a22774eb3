"""The name a counter carries on the map, made from the unit's own names.

A counter is labelled with the unit's short name when the scenario gives a real one, and else
with a label made from its full name (``abbreviate``): a leader's surname, a brigade's
commander, a numbered unit's number and state. Both the map and the reading of a typed name use
this one function, so that a unit can always be named by the word on its counter (ruling
ORD-51)."""

from __future__ import annotations

import re

_RANKS = frozenset({"gen.", "gen", "maj.", "brig.", "lt.", "col.", "capt.", "general", "major",
                    "colonel", "captain", "lieut.", "hon.", "lt.-gen.", "maj.-gen."})
_ARMS = frozenset({"cavalry", "infantry", "battery", "artillery", "battalion", "regiment",
                   "brigade", "division", "corps", "sharpshooters", "detachment", "wagons",
                   "train", "light", "horse", "volunteers", "militia", "legion", "zouaves"})
_STATES = {
    "alabama": "Ala", "arkansas": "Ark", "connecticut": "Conn", "delaware": "Del",
    "florida": "Fla", "georgia": "Ga", "illinois": "Ill", "indiana": "Ind", "iowa": "Ia",
    "kentucky": "Ky", "louisiana": "La", "maine": "Me", "maryland": "Md",
    "massachusetts": "Mass", "michigan": "Mich", "minnesota": "Minn", "mississippi": "Miss",
    "missouri": "Mo", "ohio": "O", "pennsylvania": "Pa", "tennessee": "Tenn", "texas": "Tex",
    "vermont": "Vt", "virginia": "Va", "wisconsin": "Wis", "new york": "NY",
    "new jersey": "NJ", "new hampshire": "NH", "north carolina": "NC", "south carolina": "SC",
    "rhode island": "RI", "west virginia": "WVa", "united states": "US",
}
_DIVISION = re.compile(r"^(\d+)\w*\s+division,?\s+([ivxl]+)\s+corps", re.IGNORECASE)


def abbreviate(name: str) -> str:
    """A counter's label made from a full name when the view has no short one: a leader's
    surname ("Maj. Gen. Oliver O. Howard": Howard), a brigade's commander ("Mott's brigade":
    Mott), a division of a corps ("2nd Division, XI Corps": 2/XI), a numbered unit's number and
    state ("13th New York Battery": 13th NY; the symbol shows the arm), else the commander named
    in brackets ("Battery I, 1st Ohio (Dilger)": Dilger)."""
    main, _, rest = name.partition("(")
    paren = rest.split(")")[0].strip()
    main = main.strip()
    words = main.replace(",", " ").split()
    if not words:
        return paren.split()[-1] if paren else ""
    if words[0].lower() in _RANKS:
        names = [w for w in words if w.lower() not in _RANKS]
        return names[-1] if names else words[-1]
    m = _DIVISION.match(main)
    if m:
        return f"{m.group(1)}/{m.group(2).upper()}"
    for w in words:
        if w.endswith("'s") or w.endswith("'"):
            return w[:-2] if w.endswith("'s") else w[:-1]
    if words[0][:1].isdigit():
        numbers = [w for w in words if w[:1].isdigit()]
        place = " ".join(w for w in words if not w[:1].isdigit()
                         and w.lower() not in _ARMS and w.lower() not in ("and", "&"))
        state = _STATES.get(place.lower(), "".join(w[:1] for w in place.split()))
        if len(place.split()) == 1 and place.lower() not in _STATES:
            state = place[:4]
        return f"{'/'.join(numbers)} {state}".strip()
    if paren:
        return paren.split()[-1]
    return words[0]



def counter_label(name: str, short: str) -> str:
    """A counter's usual label: its short name, or one made from its full name when the short
    one is only the name cut off (or missing)."""
    if not short or (name.startswith(short) and len(short) < len(name)):
        return abbreviate(name) or short
    return short
