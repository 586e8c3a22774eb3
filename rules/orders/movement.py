"""Movement: a unit following a path, paying for each cell, and where it must stop.

An order is first settled on what the moving side knows (``plan_order``): the cells touch, each can
be entered across that side, the unit has the MPs for its first step, and stacking holds where the
path ends; that alone may refuse it (``MoveError``). It prices every step and cuts a route longer
than the MPs where they run out (ruling ORD-1). Only then is it walked (``follow``), which cannot
refuse: no unit enters a cell an enemy holds, and a rule module may stop the unit after any cell it
enters (sighting, a blocked hex, an enemy within 2 hexes): that is the ``stop`` hook, which returns
a typed ``rules.orders.stops.Stop``. A move cut short ends where the unit may stand (ruling CORE-3).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rules.forces.units import Unit
from rules.forces.words import STACKING_KINDS
from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell
from rules.orders.stops import CONTACT, Stop, out_of_mp

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

    The order is settled first as if no enemy stood anywhere (``plan_order``): a path that
    cannot be followed as ordered (not adjacent, impassable, a first step the MPs do not pay
    for, overstacked at the end) raises ``MoveError`` whatever the enemy does, so that a
    refusal never tells the side where an unseen enemy is or is not, and a path longer than the
    MPs is cut where they run out. Then the unit walks (``follow``): a cell held by an enemy
    ends the move in the cell before it (the column has run into the enemy), and ``stop`` may
    end it sooner. A move cut short never breaks the stacking limit: the unit ends in the last
    cell it entered that has room for it, and with none it halts where it stood (no cells
    entered).
    """
    plan = plan_order(gm, unit, path, friendly_count)
    return follow(gm, unit, plan, enemy_at=enemy_at, friendly_count=friendly_count, stop=stop)


@dataclass(frozen=True, slots=True)
class PlannedStep:
    """One step of an order: the cells it joins, what it costs and why (``rules.ground.gamemap
    .StepPrice``), the MPs left after it, and whether the unit's MPs pay for it."""

    start: Cell
    cell: Cell
    cost: float
    why: str
    left: float
    reached: bool


@dataclass(frozen=True, slots=True)
class OrderPlan:
    """An order as the moving side's own knowledge settles it: every step of the route priced,
    the MPs the unit had, and the stop where its MPs run out (``None`` when they pay for the
    whole route)."""

    steps: tuple[PlannedStep, ...]
    budget: float
    end_stop: Stop | None

    @property
    def path(self) -> tuple[Cell, ...]:
        """The cells the MPs pay for, in order: the most the unit may enter."""
        return tuple(s.cell for s in self.steps if s.reached)

    @property
    def costs(self) -> tuple[float, ...]:
        return tuple(s.cost for s in self.steps if s.reached)


def plan_order(gm: GameMap, unit: Unit, path: Sequence[Cell],
               friendly_count: Callable[[Cell], int] = lambda _cell: 0) -> OrderPlan:
    """Everything about a move that depends only on the moving side's own knowledge: each step
    of the route can be taken, what each costs and why, how far the MPs left pay for, and room
    where it ends. Raises ``MoveError`` naming the step and the reason.

    Every step of the route as written must be possible, paid for or not (ruling ORD-1): a
    route across water is a mistake, whatever the MPs. A route longer than the MPs is not
    refused: it ends at the last cell they pay for, with an ``out_of_mp`` stop (where the
    stacking fall-back of ``follow`` applies), and only a first step they cannot pay for is a
    refusal, since the unit could not move at all. Stacking is checked at the route's end only
    when the unit can reach it (ruling CORE-4)."""
    if unit.cell is None:
        raise MoveError(f"{unit.name} is not on the map")
    if not path:
        raise MoveError("the route does not leave the unit's cell")
    budget = unit.mp_left
    board = gm.board
    here = unit.cell
    left = budget
    paying = True
    steps: list[PlannedStep] = []
    mclass = unit.movement_class
    for n, cell in enumerate(path, start=1):
        if not board.on_a_sheet(cell):
            raise MoveError(f"step {n} (from {board.describe(here)}): leaves the map")
        where = f"step {n} ({board.describe(here)} to {board.describe(cell)})"
        if not gm.grid.adjacent(here, cell):
            raise MoveError(f"{where}: the cells do not touch")
        price = gm.step_price(here, cell, mclass, unit.formation)
        if price is None:
            why = (f"{gm.terrain_at(cell)} cannot be entered" if not gm.enterable(cell)
                   else f"the {gm.hexside_between(here, cell)} between them cannot be crossed")
            raise MoveError(f"{where}: {why}")
        paying = paying and price.cost <= left + 1e-9
        if paying:
            left -= price.cost
        steps.append(PlannedStep(here, cell, price.cost, price.why, max(left, 0.0), paying))
        here = cell
    first = steps[0]
    if not first.reached:
        step = (f"its first step ({board.describe(first.start)} to {board.describe(first.cell)}, "
                f"{first.why}) costs {first.cost:g} MP")
        if budget <= 1e-9:
            raise MoveError(f"{unit.name} has no MP left this phase: {step}")
        raise MoveError(f"{unit.name} has only {budget:g} MP left this phase and {step}: a "
                        "cheaper first step (along a road, in a road formation) may still be "
                        "open to it")
    if steps[-1].reached:
        end = path[-1]
        if stacks(unit) and not has_room(gm, end, friendly_count):
            raise MoveError(
                f"{board.describe(end)} already holds {friendly_count(end)} units: the "
                f"stacking limit is {gm.ruleset.stacking_limit}"
            )
        return OrderPlan(tuple(steps), budget, None)
    reached = [s.cell for s in steps if s.reached]
    if stacks(unit) and not any(has_room(gm, c, friendly_count) for c in reached):
        # Known now from the side's own units: refused before any enemy is looked for, never
        # after the walk (a late refusal would tell that nobody stood on the way).
        raise MoveError(
            f"its MPs run out at {board.describe(reached[-1])}, and that cell and every one "
            f"before it already hold {gm.ruleset.stacking_limit} units (the stacking limit): "
            "give it a shorter route, or move a unit out of the way first"
        )
    return OrderPlan(tuple(steps), budget, out_of_mp(board.describe(reached[-1])))


def follow(gm: GameMap, unit: Unit, plan: OrderPlan, *,
           enemy_at: EnemyAt = lambda _cell: False,
           friendly_count: Callable[[Cell], int] = lambda _cell: 0,
           stop: StopHook | None = None) -> MoveResult:
    """Carry out a planned order: walk the cells its MPs pay for, and stop where they run out
    (falling back past full friendly cells as any stop does). With no enemy and no stop hook
    this is exactly what the order's preview promises (``umpire.reads.preview``): one function, so
    that the preview and the move cannot disagree."""
    return walk(gm, unit, plan.path, plan.costs, enemy_at=enemy_at,
                friendly_count=friendly_count, stop=stop, end_stop=plan.end_stop)


def walk(gm: GameMap, unit: Unit, path: Sequence[Cell], costs: Sequence[float], *,
         enemy_at: EnemyAt = lambda _cell: False,
         friendly_count: Callable[[Cell], int] = lambda _cell: 0,
         stop: StopHook | None = None, end_stop: Stop | None = None) -> MoveResult:
    """Walk a path that ``plan_order`` (or ``check_order``) accepted (``costs`` are its steps'
    costs); ``end_stop`` is why the unit stops at the path's end, if it did not reach its
    destination (its MPs ran out). Whatever stops the unit on its way, the move is made as far
    as it goes: nothing here refuses."""
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
    if end_stop is not None:
        return _cut_short(gm, unit, path, costs, end_stop, None, friendly_count)
    return MoveResult(tuple(path), sum(costs))


def check_order(gm: GameMap, unit: Unit, path: Sequence[Cell],
                friendly_count: Callable[[Cell], int] = lambda _cell: 0) -> list[float]:
    """``plan_order`` for a walk that must be made whole or not at all (a sham rally's walk
    home): each step's cost, or ``MoveError`` when the MPs run out before the path's end."""
    plan = plan_order(gm, unit, path, friendly_count)
    if plan.end_stop is not None:
        short = next(s for s in plan.steps if not s.reached)
        raise MoveError(f"{plan.end_stop.words}: the step to {gm.board.describe(short.cell)} "
                        f"costs {short.cost:g} MP more than it had")
    return list(plan.costs)


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
