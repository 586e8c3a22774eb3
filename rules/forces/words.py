"""The words of the order of battle as types: a unit's kind, its echelon, its formation and its
movement class.

Each is a ``StrEnum`` whose members are exactly the words a scenario or ruleset file may use,
so pydantic checks a file against them with the same message as for a list of allowed words,
and a value read back from a snapshot is the same member again. Code compares with members,
never with the words themselves.
"""

from __future__ import annotations

from enum import StrEnum


class UnitKind(StrEnum):
    """What a counter is. Infantry, cavalry and artillery are combat units."""

    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"
    LEADER = "leader"
    HQ = "hq"
    WAGON = "wagon"


class Echelon(StrEnum):
    """The size of a command or counter in the chain of command."""

    ARMY = "army"
    CORPS = "corps"
    DIVISION = "division"
    BRIGADE = "brigade"
    REGIMENT = "regiment"
    BATTERY = "battery"
    OTHER = "other"


class Formation(StrEnum):
    """How a unit is drawn up; each kind of unit has its own pair (``FORMATIONS_BY_KIND``)."""

    LINE = "line"
    COLUMN = "column"
    LIMBERED = "limbered"
    UNLIMBERED = "unlimbered"
    MOUNTED = "mounted"
    DISMOUNTED = "dismounted"

    @property
    def said(self) -> str:
        """The formation as a sentence says it after "is" or a unit's name: a line or a column
        is something a unit is *in* ("in line"); limbered, mounted and the rest are what the
        unit *is* ("limbered")."""
        return f"in {self.value}" if self in FORMATIONS_SAID_WITH_IN else self.value


class MovementClass(StrEnum):
    """Which column of the terrain costs a unit pays."""

    FOOT = "foot"
    HORSE = "horse"
    WHEELED = "wheeled"
    LEADER = "leader"


#: Infantry, cavalry and artillery: the units that picket, fight and block.
COMBAT_KINDS: frozenset[UnitKind] = frozenset(
    {UnitKind.INFANTRY, UnitKind.CAVALRY, UnitKind.ARTILLERY})
#: Leaders and HQs (which carry their commander).
LEADER_KINDS: frozenset[UnitKind] = frozenset({UnitKind.LEADER, UnitKind.HQ})
#: Units that count where they stand for stacking and blocking (combat units and wagons).
STACKING_KINDS: frozenset[UnitKind] = COMBAT_KINDS | {UnitKind.WAGON}

#: Formations each kind of unit may take; the first is its default.
FORMATIONS_BY_KIND: dict[UnitKind, tuple[Formation, ...]] = {
    UnitKind.INFANTRY: (Formation.COLUMN, Formation.LINE),
    UnitKind.CAVALRY: (Formation.MOUNTED, Formation.DISMOUNTED),
    UnitKind.ARTILLERY: (Formation.LIMBERED, Formation.UNLIMBERED),
    UnitKind.LEADER: (Formation.MOUNTED,),
    UnitKind.HQ: (Formation.MOUNTED,),
    UnitKind.WAGON: (Formation.COLUMN,),
}

#: Formations named as a place the unit stands in ("in line"); the others read as adjectives.
FORMATIONS_SAID_WITH_IN: frozenset[Formation] = frozenset({Formation.LINE, Formation.COLUMN})

def formation_said(word: str) -> str:
    """A formation's word as a sentence says it (``Formation.said``); a word that names no
    formation (a ruleset's own) is said as a line is, after "in"."""
    try:
        return Formation(word).said
    except ValueError:
        return f"in {word}"


#: Formations that may use road movement (the series' "column" family).
ROAD_FORMATIONS: frozenset[Formation] = frozenset(
    {Formation.COLUMN, Formation.LIMBERED, Formation.MOUNTED})

#: The movement class a unit of each kind has unless the scenario says otherwise.
DEFAULT_MOVEMENT_CLASS: dict[UnitKind, MovementClass] = {
    UnitKind.INFANTRY: MovementClass.FOOT, UnitKind.CAVALRY: MovementClass.HORSE,
    UnitKind.ARTILLERY: MovementClass.WHEELED, UnitKind.LEADER: MovementClass.LEADER,
    UnitKind.HQ: MovementClass.LEADER, UnitKind.WAGON: MovementClass.WHEELED,
}
