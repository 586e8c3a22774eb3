"""Why a surprise march stopped, as its owner is told (rulings SM-25 to SM-28).

The umpire records the facts when they happen, from the truth: the first blocked hex the head
entered and the MPs it had spent then (``BlockedHex``), the enemy counters that made it blocked
(``Blocker``: within the blocked radius, or in sight of it), why the column did not go round it
(``NoDetour``), the MPs it could still spend after it, and the enemy-held cell it ran into.

The words are the owner's own: a counter that blocked the hex or held the cell is named only
where the owner's view shows an enemy counter there now, able to do what is said of it (fight,
for a hex within the radius; observe, for a hex in its sight); a ghost or a counter the side
does not see names nothing, and the hex is then just "a blocked hex". What the owner is told
thus varies only with what it sees and with what the march itself did, never with enemy units
it does not see.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from rules.forces.words import COMBAT_KINDS, UnitKind
from rules.ground.grid import Cell
from rules.knowledge.levels import GHOST, MARKER, OWN, UnitView
from rules.knowledge.reporting import unit_name

if TYPE_CHECKING:
    from rules.view import SideView

Ref = list[int]

#: MPs a march may still spend once its head has entered a blocked hex (ruling SM-10).
AFTER_BLOCKED_MP = 6.0


def _cell(ref: Sequence[int]) -> Cell:
    return Cell(int(ref[0]), int(ref[1]))


def _mp(value: float) -> str:
    return f"{value:g} MP"


class NoDetour(StrEnum):
    """Why the column entered its first blocked hex rather than go round it (ruling SM-11)."""

    #: The owner chose to march on.
    DECLINED = "declined"
    #: The ranking leader's initiative roll failed.
    FAILED = "failed"
    #: The phase ended before the owner chose: the column marched on.
    UNANSWERED = "unanswered"
    #: The order says never to try.
    NEVER = "never"
    #: No leader of the force stands on the map to roll.
    NO_LEADER = "no_leader"
    #: No way round: every way back to the route crosses a blocked or enemy-held hex.
    NO_WAY = "no_way"
    #: Not asked again this phase: an earlier question went unanswered.
    NOT_ASKED = "not_asked"
    #: The columns of a collision march in turns and ask nothing (ruling SM-17).
    COLLISION = "collision"


#: The owner's words for each reason.
NO_DETOUR_WORDS: dict[NoDetour, str] = {
    NoDetour.DECLINED: "you chose to march on",
    NoDetour.FAILED: "the leader's initiative roll failed",
    NoDetour.UNANSWERED: "the phase ended before you chose, so it marched on",
    NoDetour.NEVER: "your order says never to try one",
    NoDetour.NO_LEADER: "no leader of the force is on the map to try one",
    NoDetour.NO_WAY: "no way round leads back to the route without crossing a blocked or "
                     "enemy-held hex",
    NoDetour.NOT_ASKED: "after a question went unanswered this phase none is asked again",
    NoDetour.COLLISION: "columns marching in turns after a collision do not stop to ask",
}


class Blocker(BaseModel):
    """An enemy counter that made a hex blocked: one that fights within the blocked radius of
    it (``near``), or one that observes and sees it."""

    cell: Ref
    near: bool


class BlockedHex(BaseModel):
    """The first blocked hex the head of the column entered."""

    cell: Ref
    #: The head's MPs spent on entering it.
    at_mp: float
    #: The MPs the column could still spend after it: 6, or what was left if less; none in a
    #: triggered march, whose movement ends there (ruling SM-12).
    allowed: float
    radius: int
    blockers: list[Blocker] = Field(default_factory=list)
    #: Why it did not go round (``None`` in a run recorded before the reasons were kept).
    no_detour: NoDetour | None = None
    #: The force's ranking leader (his unit id), for the words of a failed roll.
    leader: str = ""
    #: Its place in the head's trail (the cells entered), to tell the cells entered after it.
    step: int = 0


class MarchStop(BaseModel):
    """What the owner is told of the end of a march's run: the first blocked hex, the cells its
    head entered after it, and the enemy-held cell it ran into (if that is what stopped it)."""

    blocked: BlockedHex | None = None
    #: The cells the head entered after the blocked hex, and the MPs they cost.
    after: list[Ref] = Field(default_factory=list)
    after_mp: float = 0.0
    #: The cell held by the enemy that the head did not enter.
    contact: Ref | None = None

    # -- words ---------------------------------------------------------------------------------
    def contact_words(self, view: SideView) -> str:
        """The stop at an enemy-held cell, naming the counter there if the view shows one."""
        if self.contact is None:
            return ""
        cell = _cell(self.contact)
        seen = next(_seen_counters(view, cell), None)
        who = f", where your troops see {seen}" if seen else ""
        return f"it ran into the enemy at {view.board.describe(cell)}{who}"

    def blocked_words(self, view: SideView) -> str:
        """The first blocked hex, what blocked it in the side's terms, the detour, and the MPs
        spent after it."""
        b = self.blocked
        if b is None:
            return ""
        where = view.board.describe(_cell(b.cell))
        text = f"Its head entered {where} after {_mp(b.at_mp)}: {_cause(view, b)}."
        if b.no_detour is not None:
            why = NO_DETOUR_WORDS[b.no_detour]
            if b.no_detour is NoDetour.FAILED and b.leader:
                why = f"{unit_name(view, b.leader)}'s initiative roll failed"
            text += f" No detour: {why}."
        if b.allowed <= 0:
            return text + " A triggered march's movement ends at its first blocked hex."
        cells = [view.board.label(_cell(c)) for c in self.after]
        can = f"After it the column could spend {b.allowed:g} more MP"
        if b.allowed < AFTER_BLOCKED_MP:
            can += ", all it had left"
        if not cells:
            return f"{text} {can}; its head spent none of them."
        return f"{text} {can}; its head spent {self.after_mp:g} of them, on {_listed(cells)}."


def _listed(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _cause(view: SideView, b: BlockedHex) -> str:
    """What made the hex blocked, as far as the side's view shows it."""
    for blocker in b.blockers:
        seen = next(_seen_counters(view, _cell(blocker.cell),
                                   fights=blocker.near, observes=not blocker.near), None)
        if seen is None:
            continue
        at = view.board.label(_cell(blocker.cell))
        if blocker.near:
            return f"a hex within {b.radius} of {seen} at {at}"
        return f"a hex in sight of {seen} at {at}"
    return "a blocked hex"


def _seen_counters(view: SideView, cell: Cell, *, fights: bool = False,
                   observes: bool = False) -> Iterator[str]:
    """The enemy counters the view shows at ``cell`` now (no ghost), in the side's words; with
    ``fights`` or ``observes``, only those that may do so as the side knows them (a blank
    counter may be anything: ruling INFO-7)."""
    for u in view.units:
        if u.cell != cell or u.level in (OWN, GHOST) or u.side == view.side:
            continue
        if fights and not (u.level == MARKER or u.kind in COMBAT_KINDS):
            continue
        if observes and not (u.level == MARKER or (u.kind and u.kind != UnitKind.WAGON)):
            continue
        yield _counter(u)
    for m in view.markers:
        if m.cell == cell and not m.own:
            yield f"marker {m.id}"


def _counter(u: UnitView) -> str:
    if u.level == MARKER or not u.name:
        return f"an enemy {u.kind}" if u.kind else "an enemy counter"
    return u.name
