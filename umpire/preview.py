"""Previewing a move before it is given: the cells a route expands to, for the player to confirm.

A march along roads, or across many cells, is costly to undo, so the bot shows where it goes and
asks for a confirmation before it calls ``Umpire.handle``. The preview reads the player's own
side only: it names the unit through the same lookup the engine uses (an enemy unit's name gets the
same answer as a name of no unit) and draws that side's map. It never changes the game; the move is
validated again, in full, when it is given.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.board import LabelError
from rules.engine import Refusal, own_unit
from rules.markers import own_marker
from rules.overlay import Route
from rules.route import RouteError, expand, parse_route
from rules.status import GameStatus
from umpire.service import Umpire, UmpireError

#: Routes entering more cells than this are shown before they are given.
LONG_ROUTE = 6


@dataclass(frozen=True)
class MovePlan:
    """What a move would try: the unit's name, the cells entered (labels) and whether any leg
    follows a road."""

    unit: str
    start: str
    cells: tuple[str, ...]
    by_road: bool
    text: str
    image: bytes | None = None


async def plan_move(umpire: Umpire, game_id: str, user_id: int, unit: str, route: str, *,
                    long_route: int = LONG_ROUTE) -> MovePlan | None:
    """The plan of a move worth confirming (by road, or longer than ``long_route`` cells);
    ``None`` for a short move, or one the umpire would refuse for a reason the preview does not
    look at (not this side's phase, a unit off the map): give it directly, and ``handle``
    answers. Raises ``UmpireError`` with the engine's own words for an unknown unit or a route
    that cannot be read."""
    state = await umpire.state_for(game_id)
    side = await umpire.side_of(game_id, user_id)
    step = state.current
    if (state.status != GameStatus.ACTIVE or not step.allows("move")
            or side not in step.acting(state.sides) or side in state.done):
        return None
    try:
        mine = own_unit(state, side, unit)
    except Refusal as e:
        if own_marker(state.markers, side, unit) is not None:
            return None  # a concealed force's marker: its module moves it and answers
        raise UmpireError(str(e)) from None
    if mine.cell is None:
        return None
    gm = state.loaded.map
    try:
        parsed = parse_route(gm, route)
        path = expand(gm, parsed, mine.cell)
    except (RouteError, LabelError) as e:
        raise UmpireError(str(e)) from None
    by_road = any(leg.by_road for leg in parsed.legs)
    if not by_road and len(path) <= long_route:
        return None
    board = gm.board
    labels = tuple(board.label(c) for c in path)
    shown = ", ".join(board.describe(c) for c in path) or "(it is already there)"
    text = (f"**{mine.name}** at {board.describe(mine.cell)}, {mine.mp_left:g} MP left, would go "
            f"{len(path)} cell(s){' by road' if by_road else ''}: {shown}.\n"
            "The umpire stops it sooner if its MPs run out or the rules stop it on the way. "
            "Confirm to give the order.")
    image = None
    if path:
        middle = path[len(path) // 2]
        radius = max(3, max(gm.grid.distance(middle, c) for c in (mine.cell, *path)) + 2)
        try:
            planned = Route((mine.cell, *path), f"{mine.name}: planned move")
            image = await umpire.maps.side_map(state, side, around=board.label(middle),
                                               radius=radius, routes=(planned,))
        except ValueError:
            image = None
    return MovePlan(mine.name, board.label(mine.cell), labels, by_road, text, image)
