"""Previewing the move of one of the side's own markers (a concealed force, a decoy), as a
unit's move is previewed (``umpire.reads.preview``): each step with its cost, where the marker
ends and why, and the map with the planned route, then Confirm.

The order is settled by the module that made the marker (``RuleModule.marker_order``), the same
reading its move is made with, so the marker goes where the preview says unless the enemy or a
rule stops it sooner (ruling CF-21), and halts it where the enemy the side knows of would (ruling
CF-22). Only the side's own knowledge is read: the marker, what is under it (its own view's
words), its own troops and the enemy its view shows. It never changes the game.
"""

from __future__ import annotations

from rules.forces.markers import Marker
from rules.modules.registry import in_force
from rules.orders.marker_order import MarkerOrder
from rules.orders.stops import StopKind
from rules.refusal import Refusal
from rules.scenario.markup import plain
from rules.state import GameState
from rules.view import project
from umpire.reads.foreseen import UNLESS, stop_words
from umpire.reads.planned import LONG_ROUTE, MovePlan, route_picture, step_lines
from umpire.reads.player_settings import Preview
from umpire.service import Umpire, UmpireError
from umpire.words.markers import marker_ref, under


def settle(state: GameState, side: str, marker: Marker, route: str) -> MarkerOrder | None:
    """The marker's order as its module settles it; ``None`` when no module in force moves it
    (the move is then answered as given). Raises ``UmpireError`` with the rules' own words for
    an order the move would refuse on what the side knows."""
    try:
        for module in in_force(state.modules):
            order = module.marker_order(state, side, marker, route)
            if order is not None:
                return order
    except Refusal as e:
        raise UmpireError(str(e)) from None
    return None


async def plan_marker_move(umpire: Umpire, state: GameState, side: str, user_id: int,
                           marker: Marker, route: str, *, long_route: int = LONG_ROUTE
                           ) -> MovePlan | None:
    """The plan of a marker's move worth confirming, by the player's preview setting as a
    unit's (ruling ORD-2); ``None`` for a move to give at once."""
    order = settle(state, side, marker, route)
    if order is None:
        return None
    by_road = any(leg.by_road for leg in order.route.legs)
    every = await umpire.preview_setting(user_id) == Preview.ON
    if not every and not by_road and len(order.plan.steps) <= long_route:
        return None
    gm = state.loaded.map
    board = gm.board
    expected = order.foreseen or order.expected
    end = expected.cells[-1] if expected.cells else marker.cell
    left = order.plan.budget - expected.mp
    ref = marker_ref(marker.id)
    view = project(state, side)
    own = next((m for m in view.markers if m.id == marker.id), None)
    what = under(view, own) if own is not None else ""
    pace = f", at the pace of {plain(order.pace)}" if order.pace else ""
    head = (f"**{ref.capitalize()}**{f' ({what})' if what else ''} at "
            f"{board.describe(marker.cell)}{pace}, {order.plan.budget:g} MP left, ordered "
            f"{route.strip()!r}{' (by road)' if by_road else ''}:")
    if order.halt and not expected.cells:
        ends = (f"It halts at {board.describe(marker.cell)}, where it stands: {order.halt}; "
                f"{UNLESS.replace('sooner', 'elsewhere')}.")
    elif order.halt:
        ends = (f"It stops at {board.describe(end)}: {order.halt}, with {left:g} MP left, "
                f"{UNLESS}.")
    elif expected.stop is not None:
        words = expected.stopped.replace(f" at {board.describe(end)}", "", 1)
        ends = (f"It stops at {board.describe(end)}: {stop_words(words)}, with {left:g} MP "
                f"left, {UNLESS}.")
    else:
        ends = f"It ends at {board.describe(end)} with {left:g} MP left, {UNLESS}."
    text = "\n".join([head, *step_lines(board, order.plan), ends, "Confirm to give the order."])
    path = expected.cells
    image = await route_picture(umpire, state, side, marker.cell, path, ref)
    out_of_mp = expected.stop is not None and expected.stop.kind is StopKind.OUT_OF_MP
    return MovePlan(ref, board.label(marker.cell), tuple(board.label(c) for c in path),
                    by_road, text, image, board.label(end), out_of_mp)
