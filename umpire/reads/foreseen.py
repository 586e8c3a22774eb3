"""Where a previewed move will end, and why, in the moving side's own terms: the line a preview
ends with and the word its Confirm keeps (rulings ORD-44, ORD-47).

Read from the side's own units and its view of the enemy only (``rules.orders.foresight``), so
that the line, and whether a Confirm finds it changed, never vary with what the side cannot see.
"""

from __future__ import annotations

from rules.forces.lookup import own_unit
from rules.forces.units import Unit
from rules.modules.registry import in_force
from rules.orders.core import MoveOrder, order_plan
from rules.orders.foresight import Foreseen, foresee
from rules.orders.known import known_enemy
from rules.orders.stops import StopKind
from rules.refusal import Refusal
from rules.state import GameState

#: What no preview can know: the enemy it cannot see, and the rules' stops on the way.
UNLESS = "unless the enemy or the rules stop it sooner"


def foreseen(state: GameState, side: str, order: MoveOrder) -> Foreseen:
    """The order walked against the enemy ``side`` knows of."""
    return foresee(state, order.unit, order.plan, dict(order.friends), known_enemy(state, side),
                   in_force(state.modules))


def ends_line(state: GameState, mine: Unit, seen: Foreseen) -> str:
    """The preview's last word on the move: "It stops at A2309: von Gilsa's brigade, which your
    troops see at A2409, is next on its way, with 4 MP left, unless ..."."""
    board = state.loaded.board
    result = seen.result
    assert mine.cell is not None
    left = f"{mine.mp_left - result.mp:g} MP left"
    if seen.why and not result.cells:
        return (f"It halts at {board.describe(mine.cell)}, where it stands: {seen.why}; "
                f"{UNLESS.replace('sooner', 'elsewhere')}.")
    end = result.cells[-1] if result.cells else mine.cell
    if seen.why:
        return f"It stops at {board.describe(end)}: {seen.why}, with {left}, {UNLESS}."
    if result.stop is not None:
        words = result.stopped.replace(f" at {board.describe(end)}", "", 1)
        return f"It stops at {board.describe(end)}: {stop_words(words)}, with {left}, {UNLESS}."
    return f"It ends at {board.describe(end)} with {left}, {UNLESS}."


def is_out_of_mp(seen: Foreseen) -> bool:
    stop = seen.result.stop
    return stop is not None and stop.kind is StopKind.OUT_OF_MP


def stop_words(stopped: str) -> str:
    """A stop's words as the preview says them, of a move not yet made ("its MPs run out")."""
    return stopped.replace("its MPs ran out", "its MPs run out", 1).replace(
        "and fell back", "and it falls back", 1)


def word_of(state: GameState, side: str, unit: str, route: str) -> str:
    """What a preview of ``unit`` along ``route`` promises now (its ``ends_line``), or the
    refusal it would meet: the word a Confirm keeps (ruling ORD-47)."""
    try:
        mine = own_unit(state, side, unit)
        order = order_plan(state, side, mine, route)
    except Refusal as e:
        return f"Refused: {e}"
    if mine.cell is None:
        return ""
    return ends_line(state, mine, foreseen(state, side, order))
