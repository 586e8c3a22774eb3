"""The flank-march story played as a play group would once orders can stand: the same orders as
``umpire.demo.main`` (Jackson's march, the scripted moves, the fighting from turn 6), but each
player hands the game on as few times as the rules allow.

- Each Union player sets a standing order (``hold``) on their corps commander before the start:
  the Union, with no march under way, then passes every Command Phase by itself.
- A player with nothing left to order this turn says Done for the turn; one with a move to give
  in a later phase says Done for this phase only, and Done for the turn once it is given.
- From turn 6 the fighting units stand under ``fire at the nearest enemy in range``, so the Fire
  Phases need nobody.
- A player asked again (a unit was fired on or assaulted) gives that phase's orders
  and says Done for the turn again.

How a player hands on (``HandOff``) is the caller's: the umpire's ``done``, or ``/done`` through
the bot. ``bench/handoffs.py`` counts them against the story as ``umpire.demo.main`` plays it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from rules.orders.standing import StandingOrder
from rules.turn.status import GameStatus
from umpire.demo.combat import FIGHTERS, FROM_TURN, fight
from umpire.demo.main import SCRIPT, Seats, _answer_detours, _jackson, _march
from umpire.service import Umpire

#: A player's hand-off: ``(user, rest_of_turn)``.
HandOff = Callable[[int, bool], Awaitable[None]]

#: The leader each Union player's standing order is given to (Howard's XI Corps, Sickles' III).
UNION_STANDING = ("howard", "sickles")
#: At most this many hand-offs a step (a player asked more often than that is a fault).
_MOST = 6


async def stand_at_start(umpire: Umpire, seats: Seats) -> None:
    """Each Union player's standing order, set before the start's first Command Phase."""
    for user, leader in zip(seats.players["union"], UNION_STANDING, strict=False):
        await umpire.set_standing(seats.game_id, user, leader, StandingOrder.HOLD.value)


async def play_turn(umpire: Umpire, turn: int, seats: Seats, hand_off: HandOff) -> None:
    """Play one turn: each acting side's scripted orders, then each of its players not yet
    counted ready hands on (Done for the turn when the side has nothing more to order)."""
    orders = SCRIPT.get(turn, [])
    if turn == FROM_TURN:
        for side, units in FIGHTERS.items():
            for unit in units:
                await umpire.set_standing(seats.game_id, seats.commander(side), unit,
                                          StandingOrder.FIRE.value)
    for _ in range(_MOST * 10):
        state = await umpire.repository.state_for(seats.game_id)
        if state.turn != turn or state.status != GameStatus.ACTIVE:
            return
        waiting = [s for s in state.acting_sides() if s not in state.done]
        if not waiting:
            return
        side = waiting[0]
        step = state.current
        if step.allows("order") and side == "confederate":
            await _jackson(umpire, turn, "success", seats)
        if step.allows("move"):
            await _answer_detours(umpire, side, seats)
            for order in orders:
                if order.side == side:
                    await _march(umpire, order, seats)
        await fight(umpire, seats.game_id, side, seats.commander(side), turn)
        # Orders still to give later this turn: a move in the side's Movement Phase to come.
        later = step.allows("order") and (
            any(o.side == side for o in orders) or turn >= FROM_TURN)
        ready = await umpire.store.ready_players(seats.game_id, state.turn, state.step)
        for player in seats.players[side]:
            now = await umpire.repository.state_for(seats.game_id)
            if (now.turn, now.step) != (state.turn, state.step) or side in now.done:
                break
            if player not in ready:
                await hand_off(player, not later)
