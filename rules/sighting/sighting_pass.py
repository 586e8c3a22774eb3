"""The sighting pass: what each side sees, and the surprise-move blocked cells it must respect.

For each side:

* ``seen_cells``: every cell that one of its observers sees under the turn's visibility
  (combat units and leaders observe; wagons do not);
* ``seen_units``: the units of other sides standing in those cells;
* ``near_enemy_cells``: cells at or within the blocked radius (2 in the Surprise Move article)
  of a combat unit of another side: that unit's pickets;
* ``enemy_watched_cells``: cells that an observer of another side sees;
* ``blocked_cells``: the two together, the cells where a surprise march of this side is
  stopped (Surprise Move, "Concealed Movement").

With more than two sides, "enemy" means any other side.

``Sighting`` keeps the result and updates it when a unit moves, arrives or leaves, touching only
what the change can affect; it always equals a fresh pass (``full_pass``) over the same units.
Cells and sets of cells are board indices and int bitsets, as in ``rules.sighting.tables``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from rules.ground.gamemap import GameMap
from rules.sighting.disks import disks_for
from rules.sighting.or_tree import OrTree
from rules.sighting.registry import DEFAULT_RULE, rule_named
from rules.sighting.rule import SightingRule

#: Kinds of unit that fight (their pickets block surprise moves).
COMBAT_KINDS = frozenset({"infantry", "cavalry", "artillery"})
#: Kinds of unit that observe.
OBSERVER_KINDS = COMBAT_KINDS | {"leader", "hq"}


@dataclass(frozen=True, slots=True)
class Presence:
    """A unit on the map as sighting sees it: where it is, whether it fights (infantry,
    cavalry, artillery) and whether it observes (combat units and leaders do, wagons do not)."""

    unit_id: str
    side: str
    cell: int
    combat: bool
    observer: bool

    @classmethod
    def of_kind(cls, unit_id: str, side: str, cell: int, kind: str) -> Presence:
        """The presence of a unit of a scenario unit kind (infantry, leader, wagon...)."""
        return cls(unit_id, side, cell, kind in COMBAT_KINDS, kind in OBSERVER_KINDS)


@dataclass(frozen=True, slots=True)
class SideSighting:
    """What one side sees and where its surprise marches are stopped (cell sets are bitsets)."""

    side: str
    seen_cells: int
    seen_units: frozenset[str]
    near_enemy_cells: int
    enemy_watched_cells: int

    @property
    def blocked_cells(self) -> int:
        """Cells near an enemy combat unit or watched by an enemy observer."""
        return self.near_enemy_cells | self.enemy_watched_cells

    def sees_cell(self, cell: int) -> bool:
        return bool(self.seen_cells >> cell & 1)

    def blocked(self, cell: int) -> bool:
        return bool(self.blocked_cells >> cell & 1)


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _count(counts: dict[int, int], cell: int, by: int) -> int:
    """Add ``by`` to a cell's count (dropping a count that falls to 0); the new count."""
    n = counts.get(cell, 0) + by
    if n:
        counts[cell] = n
    else:
        del counts[cell]
    return n


class Sighting:
    """The sighting of every side for one set of units, kept up to date as units move.

    ``rule`` decides who sees what (``rules.sighting.los.LineOfSight`` or another
    ``SightingRule``); ``blocked_radius`` defaults to the ruleset's. ``sides`` names sides that
    should have a result even while they have no unit on the map.

    Each side's seen cells and pickets are unions over its cells (``OrTree``), so a unit that
    moves costs a few unions, not one for every cell of its side.
    """

    def __init__(
        self,
        rule: SightingRule,
        visibility: int,
        units: Iterable[Presence] = (),
        *,
        blocked_radius: int | None = None,
        sides: Iterable[str] = (),
    ) -> None:
        self.rule = rule
        self.visibility = visibility
        game_map = rule.game_map
        self.blocked_radius = (
            game_map.ruleset.blocked_radius if blocked_radius is None else blocked_radius
        )
        # Every cell's sight and pickets, read from whole-board tables.
        self._visible_table = rule.table(visibility)
        self._picket_table = disks_for(game_map.grid).table(self.blocked_radius)
        self._units: dict[str, Presence] = {}
        self._sides: list[str] = []
        # Per side: how many of its observers / combat units / units stand in each cell, and
        # the cells its units stand in as a bitset.
        self._observers: dict[str, dict[int, int]] = {}
        self._combat: dict[str, dict[int, int]] = {}
        self._occupied: dict[str, dict[int, int]] = {}
        self._occupied_bits: dict[str, int] = {}
        self._occupants: dict[int, set[str]] = {}
        # Per side: what each of its observer cells sees, what each of its combat cells
        # pickets, and the enemy units in the cells it sees.
        self._seen: dict[str, OrTree] = {}
        self._pickets: dict[str, OrTree] = {}
        self._seen_units: dict[str, set[str]] = {}
        self._result: dict[str, SideSighting] | None = None
        for side in sides:
            self._add_side(side)
        for p in units:
            self._place(p)
        for side in self._sides:
            self._seen[side] = OrTree({c: self._visible(c) for c in self._observers[side]})
            self._pickets[side] = OrTree({c: self._picket(c) for c in self._combat[side]})
        for side in self._sides:
            self._seen_units[side] = self._units_seen_by(side)

    @classmethod
    def for_map(
        cls,
        game_map: GameMap,
        visibility: int,
        units: Iterable[Presence] = (),
        *,
        rule: str = DEFAULT_RULE,
        blocked_radius: int | None = None,
        sides: Iterable[str] = (),
    ) -> Sighting:
        """A sighting under the rule of that name (see ``rules.sighting.registry``)."""
        return cls(rule_named(rule)(game_map), visibility, units,
                   blocked_radius=blocked_radius, sides=sides)

    # -- queries ---------------------------------------------------------------------------------
    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(self._sides)

    @property
    def units(self) -> Mapping[str, Presence]:
        return self._units

    def result(self) -> dict[str, SideSighting]:
        """Every side's sighting."""
        if self._result is None:
            self._result = {side: self._side_result(side) for side in self._sides}
        return dict(self._result)

    def side(self, side: str) -> SideSighting:
        return self.result()[side]

    def seen_by(self, side: str) -> frozenset[str]:
        """The enemy units ``side`` sees now (no other part of the result worked out)."""
        return frozenset(self._seen_units.get(side, ()))

    def _side_result(self, side: str) -> SideSighting:
        watched = pickets = 0
        for other in self._sides:
            if other != side:
                watched |= self._seen[other].total
                pickets |= self._pickets[other].total
        return SideSighting(
            side, self._seen[side].total, frozenset(self._seen_units[side]), pickets, watched
        )

    # -- changes ---------------------------------------------------------------------------------
    def move(self, unit_id: str, cell: int) -> None:
        """A unit is now in ``cell``."""
        p = self._units[unit_id]
        if p.cell != cell:
            self.remove(unit_id)
            self.add(Presence(unit_id, p.side, cell, p.combat, p.observer))

    def add(self, p: Presence) -> None:
        """A unit arrives on the map."""
        if p.unit_id in self._units:
            raise ValueError(f"unit {p.unit_id!r} is already on the map")
        self._result = None
        side, cell = p.side, p.cell
        if side not in self._seen:
            self._add_side(side)
            self._seen[side] = OrTree()
            self._pickets[side] = OrTree()
            self._seen_units[side] = set()
        self._place(p)
        if p.observer and self._observers[side][cell] == 1:
            seen = self._seen[side]
            old = seen.total
            seen.put(cell, self._visible(cell))
            self._update_seen_units(side, old)
        if p.combat and self._combat[side][cell] == 1:
            self._pickets[side].put(cell, self._picket(cell))
        self._update_as_target(p, present=True)

    def remove(self, unit_id: str) -> None:
        """A unit leaves the map."""
        p = self._units.pop(unit_id)
        self._result = None
        side, cell = p.side, p.cell
        if not _count(self._occupied[side], cell, -1):
            self._occupied_bits[side] ^= 1 << cell
        occupants = self._occupants[cell]
        occupants.discard(unit_id)
        if not occupants:
            del self._occupants[cell]
        if p.observer and not _count(self._observers[side], cell, -1):
            seen = self._seen[side]
            old = seen.total
            seen.drop(cell)
            self._update_seen_units(side, old)
        if p.combat and not _count(self._combat[side], cell, -1):
            self._pickets[side].drop(cell)
        self._update_as_target(p, present=False)

    def set_visibility(self, visibility: int) -> None:
        """A new turn's visibility: everything seen is worked out again."""
        if visibility == self.visibility:
            return
        self.visibility = visibility
        self._visible_table = self.rule.table(visibility)
        self._result = None
        for side in self._sides:
            self._seen[side] = OrTree({c: self._visible(c) for c in self._observers[side]})
        for side in self._sides:
            self._seen_units[side] = self._units_seen_by(side)

    # -- internals -------------------------------------------------------------------------------
    def _add_side(self, side: str) -> None:
        if side not in self._sides:
            self._sides.append(side)
            self._observers[side] = {}
            self._combat[side] = {}
            self._occupied[side] = {}
            self._occupied_bits[side] = 0

    def _place(self, p: Presence) -> None:
        if p.unit_id in self._units:
            raise ValueError(f"unit {p.unit_id!r} is listed twice")
        side, cell = p.side, p.cell
        if side not in self._occupied:
            self._add_side(side)
        self._units[p.unit_id] = p
        if _count(self._occupied[side], cell, 1) == 1:
            self._occupied_bits[side] |= 1 << cell
        occupants = self._occupants.get(cell)
        if occupants is None:
            self._occupants[cell] = {p.unit_id}
        else:
            occupants.add(p.unit_id)
        if p.observer:
            _count(self._observers[side], cell, 1)
        if p.combat:
            _count(self._combat[side], cell, 1)

    def _visible(self, cell: int) -> int:
        return self._visible_table[cell]

    def _picket(self, cell: int) -> int:
        return self._picket_table[cell]

    def _enemy_occupied(self, side: str) -> int:
        out = 0
        for other, bits in self._occupied_bits.items():
            if other != side:
                out |= bits
        return out

    def _enemies_in(self, side: str, cells: int) -> Iterator[str]:
        """The units of other sides standing in ``cells``."""
        units = self._units
        for cell in _bits(cells & self._enemy_occupied(side)):
            for uid in self._occupants[cell]:
                if units[uid].side != side:
                    yield uid

    def _units_seen_by(self, side: str) -> set[str]:
        return set(self._enemies_in(side, self._seen[side].total))

    def _update_seen_units(self, side: str, old: int) -> None:
        """After ``side``'s seen cells changed from ``old``: adjust the enemy units it sees,
        looking only at the cells that changed."""
        new = self._seen[side].total
        changed = old ^ new
        if not changed:
            return
        seen_units = self._seen_units[side]
        seen_units.difference_update(self._enemies_in(side, changed & old))
        seen_units.update(self._enemies_in(side, changed & new))

    def _update_as_target(self, p: Presence, present: bool) -> None:
        """The unit appeared in or left its cell: other sides see it there or not."""
        for side in self._sides:
            if side == p.side:
                continue
            if present and self._seen[side].total >> p.cell & 1:
                self._seen_units[side].add(p.unit_id)
            else:
                self._seen_units[side].discard(p.unit_id)


def full_pass(
    rule: SightingRule,
    visibility: int,
    units: Iterable[Presence],
    *,
    blocked_radius: int | None = None,
    sides: Iterable[str] = (),
) -> dict[str, SideSighting]:
    """Every side's sighting, worked out from scratch: what ``Sighting(...).result()`` gives,
    without building what a ``Sighting`` keeps to follow later changes."""
    units = list(units)
    game_map = rule.game_map
    radius = game_map.ruleset.blocked_radius if blocked_radius is None else blocked_radius
    disks = disks_for(game_map.grid)
    order = list(dict.fromkeys([*sides, *(p.side for p in units)]))
    observers: dict[str, set[int]] = {side: set() for side in order}
    combat: dict[str, set[int]] = {side: set() for side in order}
    for p in units:
        if p.observer:
            observers[p.side].add(p.cell)
            if p.combat:
                combat[p.side].add(p.cell)
        elif p.combat:
            combat[p.side].add(p.cell)
    visible = rule.table(visibility)
    disk = disks.table(radius)
    seen: dict[str, int] = {}
    pickets: dict[str, int] = {}
    for side in order:
        bits = 0
        for cell in observers[side]:
            bits |= visible[cell]
        seen[side] = bits
        bits = 0
        for cell in combat[side]:
            bits |= disk[cell]
        pickets[side] = bits
    out: dict[str, SideSighting] = {}
    for side in order:
        watched = near = 0
        for other in order:
            if other != side:
                watched |= seen[other]
                near |= pickets[other]
        # Test a cell against the side's sight by its byte, not by shifting the whole board.
        sight = seen[side].to_bytes(game_map.grid.size // 8 + 1, "little")
        seen_units = frozenset(p.unit_id for p in units if p.side != side
                               and sight[p.cell >> 3] >> (p.cell & 7) & 1)
        out[side] = SideSighting(side, seen[side], seen_units, near, watched)
    return out
