"""Movement: a unit following a path, paying for each cell, and where it must stop.

An order is first checked on what the moving side knows (``check_order``): the cells touch, each
can be entered across that side, the unit has the MPs for the whole path, and stacking holds
where the path ends; that alone may refuse it (``MoveError``). Only then is it walked (``walk``),
which cannot refuse: no unit enters a cell an enemy holds, and a rule module may stop the unit
after any cell it enters (sighting, a blocked hex, an enemy within 2 hexes): that is the ``stop``
hook, which returns a typed ``rules.stops.Stop``. A move cut short ends where the unit may stand
(ruling CORE-3).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rules.gamemap import GameMap
from rules.grid import Cell
from rules.stops import CONTACT, Stop
from rules.units import Unit
from rules.words import STACKING_KINDS

#: After the unit enters a cell: a reason to stop there, or ``None`` to go on.
StopHook = Callable[[Unit, Cell], Stop | None]

#: Whether a cell holds an enemy unit the moving side must stop short of.
EnemyAt = Callable[[Cell], bool]


class MoveError(ValueError):
    """A move that breaks a rule; the message names the step and the reason."""


@dataclass(frozen=True, slots=True)
class MoveResult:
    """The cells entered, the MPs spent, and why the unit stopped early (``None`` if it did
    not)."""

    cells: tuple[Cell, ...]
    mp: float
    stop: Stop | None = None

    @property
    def stopped(self) -> str:
        """The words of the stop (empty if the unit went the whole way)."""
        return self.stop.words if self.stop is not None else ""


def move_along(
    gm: GameMap,
    unit: Unit,
    path: Sequence[Cell],
    *,
    enemy_at: EnemyAt = lambda _cell: False,
    friendly_count: Callable[[Cell], int] = lambda _cell: 0,
    stop: StopHook | None = None,
) -> MoveResult:
    """Follow ``path`` (cells to enter, in order) from the unit's cell.

    The order is checked first as if no enemy stood anywhere (``check_order``): a path that
    cannot be followed as ordered (not adjacent, impassable, too far for the MPs left,
    overstacked at the end) raises ``MoveError`` whatever the enemy does, so that a refusal
    never tells the side where an unseen enemy is or is not. Then the unit walks: a cell held
    by an enemy ends the move in the cell before it (the column has run into the enemy), and
    ``stop`` may end it sooner. A move cut short never breaks the stacking limit: the unit
    ends in the last cell it entered that has room for it, and with none it halts where it
    stood (no cells entered).
    """
    costs = check_order(gm, unit, path, friendly_count)
    return walk(gm, unit, path, costs, enemy_at=enemy_at, friendly_count=friendly_count,
                stop=stop)


def walk(gm: GameMap, unit: Unit, path: Sequence[Cell], costs: Sequence[float], *,
         enemy_at: EnemyAt = lambda _cell: False,
         friendly_count: Callable[[Cell], int] = lambda _cell: 0,
         stop: StopHook | None = None) -> MoveResult:
    """Walk a path that ``check_order`` accepted (``costs`` are its steps' costs). Whatever
    stops the unit on its way, the move is made as far as it goes: nothing here refuses."""
    for n, cell in enumerate(path):
        if enemy_at(cell):
            return _cut_short(gm, unit, path[:n], costs[:n], CONTACT, cell, friendly_count)
        if stop is not None:
            reason = stop(unit, cell)
            if reason is not None:
                if not isinstance(reason, Stop):
                    raise TypeError(f"a stop hook returns a Stop or None, not {reason!r}")
                return _cut_short(gm, unit, path[:n + 1], costs[:n + 1], reason, None,
                                  friendly_count)
    return MoveResult(tuple(path), sum(costs))


def check_order(gm: GameMap, unit: Unit, path: Sequence[Cell],
                friendly_count: Callable[[Cell], int] = lambda _cell: 0) -> list[float]:
    """Everything about a move that depends only on the moving side's own knowledge: each step
    can be taken, the MPs left pay for the whole path, and the cell where it ends has room.
    Returns each step's cost; raises ``MoveError`` naming the step and the reason."""
    if unit.cell is None:
        raise MoveError(f"{unit.name} is not on the map")
    if not path:
        raise MoveError("the route does not leave the unit's cell")
    budget = unit.mp_left
    board = gm.board
    here = unit.cell
    spent = 0.0
    costs: list[float] = []
    mclass = unit.movement_class
    for n, cell in enumerate(path, start=1):
        if not board.on_a_sheet(cell):
            raise MoveError(f"step {n} (from {board.describe(here)}): leaves the map")
        where = f"step {n} ({board.describe(here)} to {board.describe(cell)})"
        if not gm.grid.adjacent(here, cell):
            raise MoveError(f"{where}: the cells do not touch")
        cost = gm.step_cost(here, cell, mclass, unit.formation)
        if cost is None:
            why = (f"{gm.terrain_at(cell)} cannot be entered" if not gm.enterable(cell)
                   else f"the {gm.hexside_between(here, cell)} between them cannot be crossed")
            raise MoveError(f"{where}: {why}")
        if spent + cost > budget + 1e-9:
            raise MoveError(
                f"{where}: costs {cost:g} MP but only {budget - spent:g} of "
                f"{budget:g} MP remain"
            )
        spent += cost
        costs.append(cost)
        here = cell
    end = path[-1]
    if stacks(unit) and not has_room(gm, end, friendly_count):
        raise MoveError(
            f"{board.describe(end)} already holds {friendly_count(end)} units: the "
            f"stacking limit is {gm.ruleset.stacking_limit}"
        )
    return costs


def stacks(unit: Unit) -> bool:
    """Whether the unit counts towards the stacking limit (combat units and wagons do, leaders
    and HQs do not: ruling CORE-4)."""
    return unit.kind in STACKING_KINDS


def formation_change_cost(unit: Unit) -> float:
    """The MPs a change of formation costs the unit: one for a combat unit, none for a leader
    (ruling CORE-7, a stand-in until a ruleset names its own cost). A surprise column forming up
    when its march begins pays the same (ruling SM-9)."""
    return 1.0 if unit.combat else 0.0


def has_room(gm: GameMap, cell: Cell, friendly_count: Callable[[Cell], int]) -> bool:
    return friendly_count(cell) + 1 <= gm.ruleset.stacking_limit


def _cut_short(gm: GameMap, unit: Unit, entered: Sequence[Cell], costs: Sequence[float],
               stop: Stop, contact: Cell | None, friendly_count: Callable[[Cell], int]
               ) -> MoveResult:
    """End a move that contact or a rule stopped early in the last cell entered with room for
    the unit (ruling CORE-3): it falls back along its way past full friendly cells."""
    k = len(entered)
    reason = stop.words
    while k and stacks(unit) and not has_room(gm, entered[k - 1], friendly_count):
        k -= 1
    if k == len(entered):
        if not entered and contact is not None:
            return MoveResult((), 0.0, stop.fell_back(f"{reason} at its first step"))
        return MoveResult(tuple(entered), sum(costs), stop)
    board = gm.board
    if contact is not None:
        reason = f"{reason} at {board.describe(contact)} past full friendly cells"
    else:
        reason = f"{reason}, in a full friendly cell"
    if not k:
        return MoveResult((), 0.0, stop.fell_back(reason))
    return MoveResult(tuple(entered[:k]), sum(costs[:k]),
                      stop.fell_back(f"{reason}, and fell back to "
                                     f"{board.describe(entered[k - 1])}"))


def path_cost(gm: GameMap, unit: Unit, start: Cell, path: Sequence[Cell]) -> float | None:
    """MPs the whole path would cost, or ``None`` if a step cannot be taken at all."""
    total = 0.0
    here = start
    mclass = unit.movement_class
    for cell in path:
        if not gm.grid.adjacent(here, cell):
            return None
        cost = gm.step_cost(here, cell, mclass, unit.formation)
        if cost is None:
            return None
        total += cost
        here = cell
    return total
