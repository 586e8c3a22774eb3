"""Previewing a move before it is given: each step, its cost and where the unit will end.

The bot shows a player's move and asks for a confirmation before it calls ``Umpire.handle``:
every move, or only those by road or longer than ``LONG_ROUTE`` cells, as the player chose
(``umpire.reads.player_settings``, ruling ORD-2). The preview reads the player's own side only: it
names the unit through the same lookup the engine uses (an enemy unit's name gets the same
answer as a name of no unit), settles the order with the engine's own function
(``rules.orders.core.order_plan``: each step priced, the route cut where the MPs run out) and says
where the unit ends by the very function the move is made with, walked against the enemy the
side's view shows (``umpire.reads.foreseen``, ruling ORD-44), so that Confirm does what the
preview said unless an enemy the side does not see or a rule stops the unit sooner. It never
changes the game; the move is validated again, in full, when it is given.
"""

from __future__ import annotations

from rules.engine import Refusal
from rules.forces.lookup import own_unit
from rules.forces.markers import own_marker
from rules.forces.words import formation_said
from rules.orders.core import order_plan
from rules.turn.status import GameStatus
from umpire.reads.foreseen import ends_line, foreseen, is_out_of_mp
from umpire.reads.marker_preview import plan_marker_move
from umpire.reads.planned import LONG_ROUTE, MovePlan, route_picture, step_lines
from umpire.reads.player_settings import Preview
from umpire.service import Umpire, UmpireError


async def plan_move(umpire: Umpire, game_id: str, user_id: int, unit: str, route: str, *,
                    long_route: int = LONG_ROUTE) -> MovePlan | None:
    """The plan of a move worth confirming: by road, longer than ``long_route`` cells, or any
    move when the player's preview setting is on; ``None`` for a move to give at once, or one
    the umpire answers without a preview (not this side's phase): give it directly, and
    ``handle`` answers. One of the side's markers is previewed as a unit is
    (``umpire.reads.marker_preview``). Raises ``UmpireError`` with the engine's own words for an
    order it would refuse on what the side knows (an unknown unit, a route that cannot be read
    or followed)."""
    state = await umpire.repository.state_for(game_id)
    side = await umpire.side_of(game_id, user_id)
    step = state.current
    if (state.status != GameStatus.ACTIVE or not step.allows("move")
            or side not in step.acting(state.sides) or side in state.done):
        return None
    try:
        mine = own_unit(state, side, unit)
    except Refusal as e:
        marker = own_marker(state.markers, side, unit)
        if marker is not None:  # one of the side's markers: previewed as its module settles it
            return await plan_marker_move(umpire, state, side, user_id, marker, route,
                                          long_route=long_route)
        raise UmpireError(str(e)) from None
    if mine.cell is None:
        return None
    try:
        order = order_plan(state, side, mine, route)
    except Refusal as e:
        raise UmpireError(str(e)) from None
    by_road = any(leg.by_road for leg in order.route.legs)
    every = await umpire.preview_setting(user_id) == Preview.ON
    if not every and not by_road and len(order.plan.steps) <= long_route:
        return None
    gm = state.loaded.map
    board = gm.board
    seen = foreseen(state, side, order)
    end = seen.result.cells[-1] if seen.result.cells else mine.cell
    head = (f"**{mine.name}** at {board.describe(mine.cell)}, {formation_said(mine.formation)}, "
            f"{mine.mp_left:g} MP left, ordered {route.strip()!r}"
            f"{' (by road)' if by_road else ''}:")
    ends = ends_line(state, mine, seen)
    text = "\n".join([head, *step_lines(board, order.plan), ends, "Confirm to give the order."])
    path = seen.result.cells
    image = await route_picture(umpire, state, side, mine.cell, path, mine.name)
    return MovePlan(mine.name, board.label(mine.cell), tuple(board.label(c) for c in path),
                    by_road, text, image, board.label(end), is_out_of_mp(seen))

__all__ = ["LONG_ROUTE", "MovePlan", "plan_move", "step_lines"]
