"""Units (the counters on the map) and the chain of command they belong to.

A unit is an immutable value; a change to it (a move, a new formation, losses) makes a new one.
Combat units are infantry, cavalry and artillery; combat units and leaders are observers, and
wagons see nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rules.forces.location import Location, OnMap
from rules.forces.words import (
    COMBAT_KINDS,
    FORMATIONS_BY_KIND,
    LEADER_KINDS,
    Echelon,
    Formation,
    MovementClass,
    UnitKind,
)
from rules.ground.grid import Cell
from rules.scenario.models import CommandSpec


@dataclass(frozen=True, slots=True)
class Unit:
    """One counter: who it is, where it is, in what formation and strength.

    ``location`` says where the unit is (``rules.forces.location``): on the map, arriving, inside a
    marker, eliminated or withdrawn. ``mp_spent`` counts the movement points used in the
    current phase.
    """

    id: str
    side: str
    name: str
    short: str
    kind: UnitKind
    echelon: Echelon
    command: str
    strength: int
    movement_class: MovementClass
    movement: int
    formation: Formation
    location: Location
    stragglers: int = 0
    morale: str = "normal"
    initiative: int | None = None
    command_range: int | None = None
    tags: tuple[str, ...] = ()
    mp_spent: float = 0.0
    #: The cell the unit stands in when it is on the map, else ``None`` (a unit inside a marker
    #: counts where the marker stands: ``rules.forces.counting.counts_at``). Worked out from
    #: ``location`` and never given: sighting reads it for every unit many times a command.
    cell: Cell | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cell",
                           self.location.cell if isinstance(self.location, OnMap) else None)

    @property
    def combat(self) -> bool:
        """Infantry, cavalry and artillery are combat units (they picket, fight and block)."""
        return self.kind in COMBAT_KINDS

    @property
    def observer(self) -> bool:
        """Combat units and leaders (and HQs, which carry their commander) can see."""
        return self.kind != UnitKind.WAGON

    @property
    def on_map(self) -> bool:
        return isinstance(self.location, OnMap)

    @property
    def is_leader(self) -> bool:
        return self.kind in LEADER_KINDS

    @property
    def formations(self) -> tuple[Formation, ...]:
        """The formations this kind of unit may take."""
        return FORMATIONS_BY_KIND[self.kind]

    @property
    def mp_left(self) -> float:
        return self.movement - self.mp_spent

    def placed(self, cell: Cell) -> Unit:
        """The unit standing in ``cell`` (on the map, wherever it was before)."""
        return replace(self, location=OnMap(cell))

    def moved_to(self, cell: Cell, mp: float) -> Unit:
        return replace(self, location=OnMap(cell), mp_spent=self.mp_spent + mp)

    def with_formation(self, formation: Formation, mp: float = 0.0) -> Unit:
        return replace(self, formation=formation, mp_spent=self.mp_spent + mp)

    def fresh(self) -> Unit:
        """The unit at the start of a new phase: no MPs spent."""
        return replace(self, mp_spent=0.0) if self.mp_spent else self


@dataclass(frozen=True, slots=True)
class Command:
    """A command echelon: army, corps or division, with its parent and its leader's unit id."""

    id: str
    side: str
    name: str
    echelon: Echelon
    parent: str
    leader: str

    @classmethod
    def from_spec(cls, spec: CommandSpec) -> Command:
        return cls(spec.id, spec.side, spec.name, spec.echelon, spec.parent, spec.leader)


def subordinates(commands: dict[str, Command], root: str) -> set[str]:
    """The command ``root`` and every command beneath it."""
    out = {root}
    changed = True
    while changed:
        changed = False
        for c in commands.values():
            if c.parent in out and c.id not in out:
                out.add(c.id)
                changed = True
    return out
