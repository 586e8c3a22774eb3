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

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace

from rules.ground.gamemap import GameMap
from rules.sighting.disks import CellDisks
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


class Sighting:
    """The sighting of every side for one set of units, kept up to date as units move.

    ``rule`` decides who sees what (``rules.sighting.los.LineOfSight`` or another
    ``SightingRule``); ``blocked_radius`` defaults to the ruleset's. ``sides`` names sides that
    should have a result even while they have no unit on the map.
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
        self._disks = CellDisks(game_map.grid)
        self._units: dict[str, Presence] = {}
        self._sides: list[str] = []
        # Per side: how many of its observers / combat units / units stand in each cell.
        self._observers: dict[str, Counter[int]] = {}
        self._combat: dict[str, Counter[int]] = {}
        self._occupied: dict[str, Counter[int]] = {}
        self._occupants: dict[int, set[str]] = {}
        # Per side: cells it sees, cells within the blocked radius of its combat units, and the
        # enemy units in the cells it sees.
        self._seen: dict[str, int] = {}
        self._pickets: dict[str, int] = {}
        self._seen_units: dict[str, set[str]] = {}
        self._result: dict[str, SideSighting] | None = None
        for side in sides:
            self._add_side(side)
        for p in units:
            self._place(p)
        for side in self._sides:
            self._seen[side] = self._union_seen(side)
            self._pickets[side] = self._union_pickets(side)
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
                watched |= self._seen[other]
                pickets |= self._pickets[other]
        return SideSighting(
            side, self._seen[side], frozenset(self._seen_units[side]), pickets, watched
        )

    # -- changes ---------------------------------------------------------------------------------
    def move(self, unit_id: str, cell: int) -> None:
        """A unit is now in ``cell``."""
        p = self._units[unit_id]
        if p.cell != cell:
            self.remove(unit_id)
            self.add(replace(p, cell=cell))

    def add(self, p: Presence) -> None:
        """A unit arrives on the map."""
        if p.unit_id in self._units:
            raise ValueError(f"unit {p.unit_id!r} is already on the map")
        new_side = p.side not in self._sides
        first_observer = p.observer and not self._observers.get(p.side, Counter())[p.cell]
        first_combat = p.combat and not self._combat.get(p.side, Counter())[p.cell]
        self._place(p)
        self._result = None
        if new_side:
            self._seen[p.side] = 0
            self._pickets[p.side] = 0
            self._seen_units[p.side] = set()
        if first_observer:
            old = self._seen[p.side]
            self._seen[p.side] = old | self._visible(p.cell)
            self._update_seen_units(p.side, old)
        if first_combat:
            self._pickets[p.side] |= self._disks.mask(p.cell, self.blocked_radius)
        self._update_as_target(p, present=True)

    def remove(self, unit_id: str) -> None:
        """A unit leaves the map."""
        p = self._units.pop(unit_id)
        self._result = None
        side, cell = p.side, p.cell
        self._occupied[side][cell] -= 1
        if not self._occupied[side][cell]:
            del self._occupied[side][cell]
        self._occupants[cell].discard(unit_id)
        if not self._occupants[cell]:
            del self._occupants[cell]
        if p.observer:
            self._observers[side][cell] -= 1
            if not self._observers[side][cell]:
                del self._observers[side][cell]
                old = self._seen[side]
                self._seen[side] = self._union_seen(side)
                self._update_seen_units(side, old)
        if p.combat:
            self._combat[side][cell] -= 1
            if not self._combat[side][cell]:
                del self._combat[side][cell]
                self._pickets[side] = self._union_pickets(side)
        self._update_as_target(p, present=False)

    def set_visibility(self, visibility: int) -> None:
        """A new turn's visibility: everything seen is worked out again."""
        if visibility == self.visibility:
            return
        self.visibility = visibility
        self._result = None
        for side in self._sides:
            self._seen[side] = self._union_seen(side)
        for side in self._sides:
            self._seen_units[side] = self._units_seen_by(side)

    # -- internals -------------------------------------------------------------------------------
    def _add_side(self, side: str) -> None:
        if side not in self._sides:
            self._sides.append(side)
            self._observers[side] = Counter()
            self._combat[side] = Counter()
            self._occupied[side] = Counter()
            self._seen.setdefault(side, 0)
            self._pickets.setdefault(side, 0)
            self._seen_units.setdefault(side, set())

    def _place(self, p: Presence) -> None:
        if p.unit_id in self._units:
            raise ValueError(f"unit {p.unit_id!r} is listed twice")
        self._add_side(p.side)
        self._units[p.unit_id] = p
        self._occupied[p.side][p.cell] += 1
        self._occupants.setdefault(p.cell, set()).add(p.unit_id)
        if p.observer:
            self._observers[p.side][p.cell] += 1
        if p.combat:
            self._combat[p.side][p.cell] += 1

    def _visible(self, cell: int) -> int:
        return self.rule.visible_from(cell, self.visibility)

    def _union_seen(self, side: str) -> int:
        seen = 0
        for cell in self._observers[side]:
            seen |= self._visible(cell)
        return seen

    def _union_pickets(self, side: str) -> int:
        out = 0
        for cell in self._combat[side]:
            out |= self._disks.mask(cell, self.blocked_radius)
        return out

    def _units_seen_by(self, side: str) -> set[str]:
        seen = self._seen[side]
        return {
            u.unit_id for u in self._units.values() if u.side != side and seen >> u.cell & 1
        }

    def _enemy_occupied(self, side: str) -> int:
        out = 0
        for other, cells in self._occupied.items():
            if other != side:
                for cell in cells:
                    out |= 1 << cell
        return out

    def _update_seen_units(self, side: str, old: int) -> None:
        """After ``side``'s seen cells changed from ``old``: adjust the enemy units it sees,
        looking only at the cells that changed."""
        new = self._seen[side]
        changed = old ^ new
        if not changed:
            return
        seen_units = self._seen_units[side]
        for cell in _bits(changed & self._enemy_occupied(side)):
            now = bool(new >> cell & 1)
            for uid in self._occupants[cell]:
                if self._units[uid].side != side:
                    if now:
                        seen_units.add(uid)
                    else:
                        seen_units.discard(uid)

    def _update_as_target(self, p: Presence, present: bool) -> None:
        """The unit appeared in or left its cell: other sides see it there or not."""
        for side in self._sides:
            if side == p.side:
                continue
            if present and self._seen[side] >> p.cell & 1:
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
    """Every side's sighting, worked out from scratch."""
    return Sighting(rule, visibility, units, blocked_radius=blocked_radius, sides=sides).result()
