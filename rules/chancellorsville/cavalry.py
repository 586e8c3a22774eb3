"""The cavalry combat rules a ruleset lists by letter (``[cavalry_rules.A]`` ... ``[.H]``).

Rule text 002 says to play cavalry rules A to G in any combat involving cavalry, and rule H for
Buford's division only, but does not print them. A ruleset gives each a title and a text (the
sample's are stand-ins, ``stand_in = true``) and says how the umpire plays it: the close-combat
column shift it maps to (``shift``), or none (the umpire plays nothing for it). A rule limited
to some units (H) names their tag in ``only_tagged``.

How the umpire plays a mapped shift (rulings CV-22 to CV-25): the shift's own condition in
``[combat.conditions.close_combat]`` must hold, *and*

* some unit in the combat, attacking or defending, is cavalry (a cavalry rule is played only in
  a combat involving cavalry);
* for a rule with ``only_tagged``: every cavalry unit on the side the shift helps (the attackers
  for a shift to the right, the defenders for one to the left) carries the tag, and there is at
  least one; other arms fighting beside them do not matter.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from pydantic import BaseModel, ConfigDict, Field

from rules.forces.units import Unit
from rules.forces.words import UnitKind

#: The table whose column shifts cavalry rules map to.
TABLE = "close_combat"

#: A rule's letter as the article names them.
LETTER = re.compile(r"^[A-Z]$")

_TAG = re.compile(r"^[A-Za-z0-9_.-]+$")


class CavalryRule(BaseModel):
    """One cavalry combat rule: what it is called and says, and how the umpire plays it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str = Field(min_length=1, max_length=80)
    text: str = ""
    stand_in: bool = Field(description="true when the text is the project's own, not a game's")
    #: The close-combat column shift the umpire plays for it ("" for none).
    shift: str = ""
    #: Only units carrying this tag may use the rule ("" for every cavalry unit).
    only_tagged: str = ""


def cavalry_problems(rules: Mapping[str, CavalryRule], shifts: Mapping[str, int] | None,
                     conditions: Collection[str]) -> list[str]:
    """What is wrong with a ruleset's cavalry rules, given its close-combat table's shifts
    (``None``: it has no such table) and the shifts that have a condition."""
    out: list[str] = []
    mapped: dict[str, str] = {}
    for letter, rule in sorted(rules.items()):
        where = f"cavalry_rules.{letter}"
        if not LETTER.match(letter):
            out.append(f"{where}: a cavalry rule is named by one capital letter (A, B, ...)")
        if rule.only_tagged and not _TAG.match(rule.only_tagged):
            out.append(f"{where}.only_tagged: {rule.only_tagged!r} is not a tag "
                       "(letters, digits, _ . -)")
        if not rule.shift:
            continue
        if shifts is None:
            out.append(f"{where}.shift: the ruleset has no {TABLE} table to shift")
        elif rule.shift not in shifts:
            known = ", ".join(sorted(shifts)) or "none"
            out.append(f"{where}.shift: {rule.shift!r} is not a column shift of the {TABLE} "
                       f"table (its shifts: {known})")
        elif rule.shift not in conditions:
            out.append(f"{where}.shift: {rule.shift!r} has no condition in "
                       f"combat.conditions.{TABLE}, so it would never apply")
        if rule.shift in mapped:
            out.append(f"{where}.shift: {rule.shift!r} is already rule {mapped[rule.shift]}'s")
        mapped.setdefault(rule.shift, letter)
    return out


def rule_of_shift(rules: Mapping[str, CavalryRule], shift: str) -> CavalryRule | None:
    """The cavalry rule that plays ``shift``, if one does."""
    return next((r for _, r in sorted(rules.items()) if r.shift == shift), None)


def plays(rule: CavalryRule, value: int, attackers: tuple[Unit, ...],
          defenders: tuple[Unit, ...]) -> bool:
    """Whether the umpire may play ``rule``'s shift (of ``value`` columns) in this combat, its
    condition aside: the combat involves cavalry, and a rule limited to tagged units is used by
    them alone among the cavalry of the side it helps."""
    if not any(u.kind == UnitKind.CAVALRY for u in (*attackers, *defenders)):
        return False
    if not rule.only_tagged:
        return True
    if value == 0:
        return False
    helped = attackers if value > 0 else defenders
    horse = [u for u in helped if u.kind == UnitKind.CAVALRY]
    return bool(horse) and all(rule.only_tagged in u.tags for u in horse)
