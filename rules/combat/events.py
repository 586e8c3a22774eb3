"""The combat module's events.

Each event carries its audience. Events that change units (losses, morale, retreats, stragglers)
go to the unit's own side; the reports that word a combat go to each side separately, each built
only from what that side may know (``FireResolved`` to the firer, ``FireReceived`` to the target's
side, ``CloseCombatResolved`` once for each side); ``AttackMade`` keeps the truth for the log
(audience ``umpire``). The events that only change units say nothing by themselves: the combat's
report to the unit's side already tells of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from rules.events import CellRef, GameEvent
from rules.ground.grid import Cell
from rules.knowledge.reporting import own_strength, unit_name

if TYPE_CHECKING:
    from rules.view import SideView


def _mods(modifiers: dict[str, int]) -> str:
    return ", ".join(f"{k.replace('_', ' ')} {v:+d}" for k, v in modifiers.items())


def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word}" + ("es" if word.endswith(("x", "s")) else "s")


def _sentence(parts: tuple[str, ...]) -> str:
    return "; ".join(parts) + "." if parts else ""


class AttackMade(GameEvent):
    """The umpire's record of an attack: who attacked which units (the truth, never shown to a
    side as such), at what distance, and whether a rule module shielded the target. Folding it
    marks the attackers as having fired or assaulted in this phase."""

    type: Literal["combat_attack"] = "combat_attack"
    kind: Literal["fire", "assault"]
    attackers: tuple[str, ...]
    targets: tuple[str, ...]
    cell: CellRef
    distance: int
    #: Each attacker's distance, in the order of ``attackers`` (empty in games recorded
    #: before it was kept: then ``distance``, the farthest, stands for each).
    distances: tuple[int, ...] = ()
    shield: str = ""


class FireResolved(GameEvent):
    """The firing side's report of its fire: what it aimed at, as it saw it, and what it could
    see of the result (everything on an identified target; on a counter seen only as a marker,
    no roll and no result)."""

    type: Literal["combat_fire"] = "combat_fire"
    firers: tuple[str, ...]
    target: str
    cell: CellRef
    distance: int
    band: str
    strength: int
    column: str
    roll: int | None = None
    modifiers: dict[str, int] = Field(default_factory=dict)
    result: str = ""
    meaning: str = ""
    seen: tuple[str, ...] = ()

    def report(self, view: SideView) -> str:
        names = " and ".join(unit_name(view, u) for u in self.firers)
        cell = Cell(*self.cell)
        where = view.board.describe(cell)
        at = "" if self.target.endswith(view.board.label(cell)) else f"{where}, "
        band = f", {self.band} range" if self.band else ""
        head = (f"**Fire**: {names} fired at {self.target} ({at}"
                f"{_plural(self.distance, 'hex')}{band}); fire strength {self.strength}, "
                f"column {self.column}.")
        if self.roll is None:
            if self.seen:
                return f"{head} {_sentence(self.seen).capitalize()}"
            return head + " From here the effect of the fire cannot be judged."
        mods = f" ({_mods(self.modifiers)})" if self.modifiers else ""
        text = f"{head} Roll {self.roll}{mods}: **{self.result}** ({self.meaning})."
        if self.seen:
            text += " Seen: " + _sentence(self.seen)
        return text


class FireReceived(GameEvent):
    """The target side's report of fire on one of its units: who fired, as that side saw it, the
    result, and what it did to the unit (losses, morale, retreat), or that the unit secretly
    ignored it (a sham result)."""

    type: Literal["combat_fire_received"] = "combat_fire_received"
    unit: str
    firers: str
    result: str = ""
    meaning: str = ""
    outcome: tuple[str, ...] = ()
    shield: str = ""
    #: The unit's name, which its side knows (the fire may have taken it off the map).
    name: str = ""

    def asks_again(self) -> str:
        return "one of your units was fired on"

    def report(self, view: SideView) -> str:
        name = unit_name(view, self.unit, self.name)
        if self.shield == "ignored":
            return f"**Under fire**: {name} was fired on by {self.firers}, and ignores it."
        head = (f"**Under fire**: {name} was fired on by {self.firers}: **{self.result}** "
                f"({self.meaning}).")
        if self.shield == "sham":
            shown = _sentence(self.outcome) or "no effect."
            return (f"{head} It secretly ignores the result (a sham result): its true strength "
                    f"and morale are unchanged. The enemy was shown: {shown}")
        return head + (" " + _sentence(self.outcome) if self.outcome else "")


class CloseCombatResolved(GameEvent):
    """One side's report of a close combat, built from what that side may know."""

    type: Literal["combat_close_combat"] = "combat_close_combat"
    viewpoint: Literal["attacker", "defender"]
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    cell: CellRef
    odds: str = ""
    column: str = ""
    shifts: dict[str, int] = Field(default_factory=dict)
    roll: int | None = None
    modifiers: dict[str, int] = Field(default_factory=dict)
    result: str = ""
    meaning: str = ""
    outcome: tuple[str, ...] = ()
    shield: str = ""

    def asks_again(self) -> str:
        return "one of your units was assaulted" if self.viewpoint == "defender" else ""

    def report(self, view: SideView) -> str:
        where = view.board.describe(Cell(*self.cell))
        attackers = " and ".join(self.attackers)
        defenders = " and ".join(self.defenders) or "nobody"
        if self.viewpoint == "attacker":
            head = f"**Assault** on {where}: {attackers} attacked {defenders}."
        else:
            head = f"**Assaulted** at {where}: {attackers} attacked {defenders}."
        if self.shield == "ignored":
            return head + " The attack has no effect."
        if self.roll is None:
            return head + (" " + _sentence(self.outcome) if self.outcome else "")
        odds = f"odds {self.odds}, " if self.odds else ""
        shifts = f" (shifts: {_mods(self.shifts)})" if self.shifts else ""
        mods = f" ({_mods(self.modifiers)})" if self.modifiers else ""
        text = (f"{head} {odds.capitalize()}column {self.column}{shifts}; roll {self.roll}{mods}: "
                f"**{self.result}** ({self.meaning}).")
        if self.shield == "sham":
            text += " Your units secretly ignore the result (a sham result)."
        if self.outcome:
            text += " " + _sentence(self.outcome)
        return text


class AttackIgnored(GameEvent):
    """An assault that a rule module says the defenders ignore, told to the defenders' side."""

    type: Literal["combat_ignored"] = "combat_ignored"
    units: tuple[str, ...]
    attackers: str

    def report(self, view: SideView) -> str:
        names = " and ".join(unit_name(view, u) for u in self.units)
        return f"**Assaulted**: {names} ignore the attack by {self.attackers}."


class ShamResult(GameEvent):
    """A result one unit secretly ignores (a sham result), recorded so that a rule module can
    show the attacking side what it believes it saw: the strength lost and the morale state.
    ``retreat_to`` is where the unit fell back (the retreat itself is a ``UnitRetreated``,
    made for real)."""

    type: Literal["combat_sham"] = "combat_sham"
    unit: str
    by_side: str
    strength_lost: int = 0
    #: How many of ``strength_lost`` the attacker saw straggle (they may seem to come back);
    #: 0 in games recorded before they were kept apart.
    stragglers: int = 0
    morale: str = ""
    retreat_to: CellRef | None = None
    eliminated: bool = False


class LossesTaken(GameEvent):
    """A unit loses strength points: ``casualties`` for good, ``stragglers`` straggle off (they
    may come back). A unit left with no strength is eliminated (taken off the map)."""

    type: Literal["combat_losses"] = "combat_losses"
    unit: str
    casualties: int = 0
    stragglers: int = 0


class MoraleChanged(GameEvent):
    """A unit's morale state (its marker) changes."""

    type: Literal["combat_morale"] = "combat_morale"
    unit: str
    morale: str


class UnitRetreated(GameEvent):
    """A unit falls back along ``path`` after combat (no MPs spent), a sham result's retreat
    too (ruling COMBAT-16)."""

    type: Literal["combat_retreat"] = "combat_retreat"
    unit: str
    path: tuple[CellRef, ...]


class UnitAdvanced(GameEvent):
    """A unit advances after combat into the cell its defenders left."""

    type: Literal["combat_advance"] = "combat_advance"
    unit: str
    path: tuple[CellRef, ...]


class StragglersChecked(GameEvent):
    """A straggler check (after close combat, or a forced march): ``points`` strength points of
    the unit straggle. Told to the unit's side only: the roll is secret."""

    type: Literal["combat_stragglers_checked"] = "combat_stragglers_checked"
    unit: str
    points: int
    reason: str = ""
    #: The unit as its side knows it after the check (it may have left the map).
    name: str = ""
    present: int = 0
    straggling: int = 0

    def report(self, view: SideView) -> str:
        why = f" after {self.reason}" if self.reason else ""
        if not self.points:
            return ""  # the secret roll's own message says so
        verb = "straggles" if self.points == 1 else "straggle"
        return (f"Straggler check{why}: {_plural(self.points, 'strength point')} of "
                f"{unit_name(view, self.unit, self.name)} {verb} ({self.present} present, "
                f"{self.straggling} straggling).")


class StragglersRecovered(GameEvent):
    """A unit gets back ``points`` of its stragglers."""

    type: Literal["combat_stragglers_recovered"] = "combat_stragglers_recovered"
    unit: str
    points: int

    def report(self, view: SideView) -> str:
        present, straggling = own_strength(view, self.unit)
        return (f"{unit_name(view, self.unit)} recovers {_plural(self.points, 'straggler')} "
                f"({present} present, {straggling} still straggling).")


class ShamStragglersRecovered(GameEvent):
    """The attacking side ``by_side`` sees ``points`` of the stragglers a sham result showed it
    come back to the unit, as a real unit's would (ruling COMBAT-15); the unit's true strength
    does not change. Told to the unit's side; the attacker sees it only on its picture of the
    unit."""

    type: Literal["combat_sham_stragglers_recovered"] = "combat_sham_stragglers_recovered"
    unit: str
    by_side: str
    points: int

    def report(self, view: SideView) -> str:
        return (f"{unit_name(view, self.unit)}: {view.name_of_side(self.by_side)} now sees "
                f"{_plural(self.points, 'straggler')} of the sham result it was shown come "
                "back (its true strength is unchanged).")


class RallyAttempted(GameEvent):
    """A rally roll: the unit's morale state before and after. Rallying takes the unit's
    movement for the phase."""

    type: Literal["combat_rally"] = "combat_rally"
    unit: str
    before: str
    after: str

    def report(self, view: SideView) -> str:
        name = unit_name(view, self.unit)
        if self.after == self.before:
            return f"**Rally**: {name} fails to rally and stays {self.before}."
        return f"**Rally**: {name} rallies from {self.before} to {self.after}."


EVENTS: tuple[type[GameEvent], ...] = (
    AttackMade, FireResolved, FireReceived, CloseCombatResolved, AttackIgnored, ShamResult,
    LossesTaken, MoraleChanged, UnitRetreated, UnitAdvanced, StragglersChecked,
    StragglersRecovered, ShamStragglersRecovered, RallyAttempted,
)
