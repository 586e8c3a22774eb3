"""Where a move will stop, foreseen from what the moving side knows (ruling ORD-44).

The engine stops a moving unit before a cell an enemy unit holds, and a rule module may stop it
after a cell it enters (an enemy marker found, say). A preview walks the order the way the move
will be made (``rules.orders.movement.follow``) against the enemy of the side's own view
(``rules.orders.known``): a counter it sees stops the unit before its cell, a ghost (the enemy
where the side last saw it) is taken to be there still, and each module foresees its own stops
from the enemy markers the side sees (``RuleModule.foreseen_stop``), or by the rule itself where
every cause of the stop is in the side's sight (``RuleModule.seen_stop``). What the side does
not see may still stop the unit sooner; nothing here reads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.forces.units import Unit
from rules.ground.board import Board
from rules.ground.grid import Cell
from rules.knowledge.levels import ANONYMOUS, GHOST, MARKER, UnitView
from rules.modules.api import RuleModule
from rules.orders.known import KnownEnemy
from rules.orders.movement import MoveResult, OrderPlan, follow
from rules.orders.stops import Stop, StopKind
from rules.state import GameState


@dataclass(frozen=True)
class Foreseen:
    """A move as the side can foresee it: the walk (``result``) and, when something the side
    knows of stops it, why in the side's own terms (``why``, empty otherwise); ``sure`` is
    ``False`` when the stop rests on a ghost, which may have gone."""

    result: MoveResult
    why: str = ""
    sure: bool = True


def foresee(state: GameState, unit: Unit, plan: OrderPlan, friends: dict[Cell, int] | None,
            known: KnownEnemy, modules: Sequence[RuleModule]) -> Foreseen:
    """Walk ``plan`` as the move will be made, stopping for the enemy ``known`` holds: before a
    cell where the side sees (or last saw) an enemy counter, and where a module foresees a stop
    from the enemy markers the side sees."""
    gm = state.loaded.map
    counts = friends or {}
    met: list[Cell] = []

    def enemy_at(cell: Cell) -> bool:
        if known.at(cell):
            met.append(cell)
            return True
        return False

    def stop(moving: Unit, cell: Cell) -> Stop | None:
        for module in modules:
            found = module.foreseen_stop(moving, cell, known.markers, known.ground)
            if found is None:
                found = module.seen_stop(state, moving, cell)
            if found is not None:
                return found
        return None

    result = follow(gm, unit, plan, enemy_at=enemy_at, friendly_count=lambda c: counts.get(c, 0),
                    stop=stop)
    if result.stop is None or result.stop.kind is StopKind.OUT_OF_MP:
        return Foreseen(result)
    if result.stop.kind is not StopKind.CONTACT or not met:
        return Foreseen(result, _will(result.stop.words))  # a module's words, fall-back included
    board = gm.board
    counters = known.at(met[-1])
    words = in_the_way(board, counters)
    if len(result.cells) < list(plan.path).index(met[-1]):
        # Full friendly cells before the enemy: it stands in the last one with room.
        words += (f", and it falls back to {board.describe(result.cells[-1])} past full friendly "
                  "cells" if result.cells else ", and every cell before it is full of friends")
    return Foreseen(result, words, counters[0].level != GHOST)


def _will(words: str) -> str:
    """A stop's words as a preview says them, of a move not yet made."""
    return words.replace("and fell back", "and it falls back", 1)


def in_the_way(board: Board, counters: Sequence[UnitView]) -> str:
    """The enemy counters of one cell, as the side knows them, next on a unit's way: "von
    Gilsa's brigade, which your troops see at A2409, is next on its way"."""
    first = counters[0]
    where = board.describe(first.cell)
    seen = [u for u in counters if u.level != GHOST]
    if not seen:
        more = len(counters) - 1
        return (f"{enemy_called(first)}{_others(more)}, which your troops last saw at {where} "
                f"(turn {first.last_seen_turn}), may still be there, next on its way")
    more = len(seen) - 1
    verb = "are" if more else "is"
    if first.level == MARKER:
        return (f"an enemy counter{_others(more)}, which your troops see face down at {where}, "
                f"{verb} next on its way")
    return (f"{enemy_called(first)}{_others(more)}, which your troops see at {where}, {verb} "
            "next on its way")


def enemy_called(counter: UnitView) -> str:
    """An enemy counter as the side may name it."""
    if counter.level == ANONYMOUS or counter.anonymous or not counter.name:
        return f"an enemy {counter.kind} unit" if counter.kind else "an enemy unit"
    return counter.name


def _others(more: int) -> str:
    if more <= 0:
        return ""
    return f" and {more} other unit{'s' if more > 1 else ''}"
