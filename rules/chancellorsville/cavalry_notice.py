"""The public notice, at game start, of which cavalry rules the umpire plays (ruling CV-26).

Everything it says comes from the ruleset, which both sides know: the rules' letters, titles,
the column shift each is played as, the tag that limits one, and whether it is a stand-in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict

from rules.chancellorsville.cavalry import CavalryRule
from rules.events import GameEvent

if TYPE_CHECKING:
    from rules.view import SideView


class RuleLine(BaseModel):
    """One cavalry rule as the notice tells it: ``columns`` is the shift's size (right is
    better for the attacker), 0 when the umpire plays nothing for it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    letter: str
    title: str
    stand_in: bool
    shift: str = ""
    columns: int = 0
    only_tagged: str = ""

    def words(self) -> str:
        if not self.shift:
            effect = "no effect on the combat table"
        else:
            n = abs(self.columns)
            way = "attacker" if self.columns > 0 else "defender"
            effect = (f"played as the {self.shift} shift, {n} column{'s' if n != 1 else ''} "
                      f"in the {way}'s favour")
        limit = f"; only units tagged {self.only_tagged}" if self.only_tagged else ""
        return f"{self.letter}. {self.title}: {effect}{limit}."


class CavalryRulesAnnounced(GameEvent):
    """Which cavalry rules are played in combats involving cavalry, and which are stand-ins."""

    type: Literal["cv_cavalry_rules"] = "cv_cavalry_rules"
    rules: tuple[RuleLine, ...]

    def report(self, view: SideView) -> str:
        lines = ["Cavalry rules, played in any combat involving cavalry:"]
        lines += [line.words() for line in self.rules]
        stand_ins = [line.letter for line in self.rules if line.stand_in]
        if stand_ins:
            lines.append(f"Stand-ins: {', '.join(stand_ins)}. Their wording and effect are the "
                         "umpire's own, not the game's; a group may enter its own rules in the "
                         "ruleset.")
        return "\n".join(lines)


def announcement(rules: Mapping[str, CavalryRule], shifts: Mapping[str, int]
                 ) -> CavalryRulesAnnounced:
    """The notice for a ruleset's cavalry rules, in letter order."""
    return CavalryRulesAnnounced(rules=tuple(
        RuleLine(letter=letter, title=r.title, stand_in=r.stand_in, shift=r.shift,
                 columns=shifts.get(r.shift, 0) if r.shift else 0, only_tagged=r.only_tagged)
        for letter, r in sorted(rules.items())))


#: The events of the cavalry rules.
CAVALRY_EVENTS: tuple[type[GameEvent], ...] = (CavalryRulesAnnounced,)
