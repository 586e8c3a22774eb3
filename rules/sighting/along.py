"""Sighting along a move: who sees whom at every step, not only where the move ends.

Troops watch a unit as it passes, so a move is sighted cell by cell. Every unit that moves
enters the cells of its path one step at a time, all together (a column's units each take
their next cell at once); a unit whose path is shorter stands at its end while the others go
on. After each step, each side sees what the sighting rule says it sees from where its
observers stand then: a moving observer sees as it goes, and a moving unit is seen as it goes.

The steps are worked out on one ``Sighting`` kept up to date unit by unit (the game's live one,
``rules.knowledge.live_sighting``, which already stands where the move ends), so a move's cost
grows with the cells it passes, not with the board.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rules.sighting.rule import SightingRule
from rules.sighting.sighting_pass import Presence, Sighting

#: What each side sees at one step: the ids of the enemy units in its sight, by side.
StepSighting = Mapping[str, frozenset[str]]


def steps_of(paths: Mapping[str, Sequence[int]]) -> int:
    """How many steps a move along these paths takes: the most cells a unit enters."""
    return max((len(p) - 1 for p in paths.values()), default=0)


def cell_at_step(path: Sequence[int], step: int) -> int:
    """Where a unit moving along ``path`` (from its first cell, where it starts) stands after
    ``step`` steps: the cell it has entered last, or its path's end once the path is walked."""
    return path[min(step, len(path) - 1)]


def sighting_along(rule: SightingRule, visibility: int, units: Iterable[Presence],
                   paths: Mapping[str, Sequence[int]], *, blocked_radius: int | None = None,
                   sides: Iterable[str] = ()) -> list[StepSighting]:
    """What every side sees at each step of a move: before the first step (every unit where it
    starts), after each step, and after the last (every path walked).

    ``units``: every unit on the map (a moving unit's own cell does not matter); ``paths``:
    each moving unit's cells in order, from where it starts (board indices).
    """
    sighting = Sighting(rule, visibility, units, blocked_radius=blocked_radius, sides=sides)
    return walk_along(sighting, paths)


def walk_along(sighting: Sighting, paths: Mapping[str, Sequence[int]]) -> list[StepSighting]:
    """``sighting_along`` on a sighting of every unit on the map: the moving units are put back
    where their paths start, then walked step by step, and left at their paths' ends."""
    moving = {uid: list(p) for uid, p in paths.items() if p}
    for uid, path in moving.items():
        sighting.move(uid, path[0])
    out: list[StepSighting] = [{side: sighting.seen_by(side) for side in sighting.sides}]
    for step in range(1, steps_of(moving) + 1):
        for uid, path in moving.items():
            if step < len(path):
                sighting.move(uid, path[step])
        out.append({side: sighting.seen_by(side) for side in sighting.sides})
    return out
