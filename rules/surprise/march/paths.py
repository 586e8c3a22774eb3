"""Cheapest paths over the map, for couriers (order delay), detours and columns forming up.

One search serves them all: the least MP cost for a movement class and formation, through cells
it may enter and that ``avoid`` does not rule out, to the first of the goal cells reached. Ties go
to fewer steps, then to the lower cell index, so that the same question always gets the same path.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection

from rules.forces.words import Formation, MovementClass
from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell


def cheapest_path(gm: GameMap, start: Cell, goals: Collection[Cell] | Callable[[Cell], bool],
                  movement_class: MovementClass, formation: Formation, *,
                  avoid: Callable[[Cell], bool] | None = None,
                  max_cost: float | None = None) -> tuple[list[Cell], float] | None:
    """The cells entered (``start`` excluded) and their cost, or ``None`` if no goal is
    reachable (within ``max_cost``). ``start`` itself counts when it is a goal."""
    is_goal = goals if callable(goals) else (lambda c, g=frozenset(goals): c in g)
    if is_goal(start):
        return [], 0.0
    mclass = movement_class
    best: dict[Cell, tuple[float, int]] = {start: (0.0, 0)}
    came: dict[Cell, Cell] = {}
    heap: list[tuple[float, int, int, Cell]] = [(0.0, 0, gm.idx(start), start)]
    while heap:
        cost, steps, _, cell = heapq.heappop(heap)
        if (cost, steps) > best.get(cell, (float("inf"), 0)):
            continue
        if cell != start and is_goal(cell):
            path = [cell]
            while came[path[-1]] != start:
                path.append(came[path[-1]])
            return path[::-1], cost
        for nxt in gm.grid.neighbours(cell):
            if avoid is not None and avoid(nxt):
                continue
            step = gm.step_cost(cell, nxt, mclass, formation)
            if step is None:
                continue
            key = (cost + step, steps + 1)
            if max_cost is not None and key[0] > max_cost + 1e-9:
                continue
            if key < best.get(nxt, (float("inf"), 0)):
                best[nxt] = key
                came[nxt] = cell
                heapq.heappush(heap, (key[0], key[1], gm.idx(nxt), nxt))
    return None


def mp_distance(gm: GameMap, a: Cell, b: Cell, movement_class: MovementClass,
                formation: Formation,
                max_cost: float | None = None) -> float | None:
    """The least MPs to go from ``a`` to ``b`` (``None``: not within ``max_cost``)."""
    found = cheapest_path(gm, a, (b,), movement_class, formation, max_cost=max_cost)
    return None if found is None else found[1]
