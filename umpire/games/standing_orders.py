"""The umpire's side of orders that stand: ``/standing`` (set, clear, list), a player's Done for
the turn, and carrying them out as the turn goes on.

After every command the umpire looks at the step now open (``_carry_on``). For an acting side
that is quiet (``umpire.games.standing``), it gives the side's standing orders for the step,
each as the ordinary command it becomes and decided by the same engine (a refusal means the
order is not given), then the side's ``Done``; each of them its own batch, as a player's typed
commands would be, so that the enemy hears exactly what it would have heard (ruling FLOW-75).
A player whose Done for the turn stands on a side whose others are still at it is counted
ready in the step, as if they had said ``/done``.
"""

from __future__ import annotations

from rules import commands as cmd
from rules.engine import Refusal
from rules.forces.lookup import own_unit
from rules.orders.march_on import last_move_route
from rules.orders.route import RouteError, parse_route
from rules.orders.standing import Standing, StandingOrder, commands_now, orders_by_unit
from rules.turn.status import GameStatus
from rules.view import project
from umpire.answers import Reply, UmpireError
from umpire.base import UmpireBase
from umpire.games import ready
from umpire.games.options import core_option
from umpire.games.readying import THREADS, phase_called
from umpire.games.repository import LiveGame
from umpire.games.retrying import stale_write
from umpire.games.standing import order_words, standing_now, standing_text, stored
from umpire.words import replies as wording

#: The logged event that holds each accepted command in full (``rules.events.CommandAccepted``).
COMMAND_ACCEPTED = "command_accepted"
#: At most this many steps are carried on from one command (a turn has fewer).
_MOST_STEPS = 50

NO_SUCH_ORDER = ("there is no standing order {order!r}; choose hold, fire, rally or march; "
                 "nothing was changed")
NO_MOVE_TO_GO_ON = ("{unit} has no move to go on with: give route: (as /move takes it); "
                    "nothing was changed")


class StandingOrders(UmpireBase):
    """Standing orders and the turn's Done, kept and carried out."""

    # -- /standing -------------------------------------------------------------------------------
    async def set_standing(self, game_id: str, user_id: int, unit: str, order: str,
                           route: str = "") -> Reply:
        """Give one of the player's side's units (or a leader, for his command) a standing
        order, in place of the one it had. A march order given no route takes the route of the
        last move the side gave the unit, kept with the order (ruling FLOW-76). A name of an
        enemy unit gets the answer a name of no unit gets; a bad order or route, or a march
        order with no route for a unit never moved, changes nothing."""
        game = await self.repository.get(game_id)
        side = _side(game, user_id)
        try:
            found = own_unit(game.state, side, unit)
        except Refusal as e:
            raise UmpireError(str(e)) from None
        if order not in {o.value for o in StandingOrder}:
            raise UmpireError(NO_SUCH_ORDER.format(order=order[:40]))
        standing = StandingOrder(order)
        route = route.strip() if standing is StandingOrder.MARCH else ""
        if standing is StandingOrder.MARCH:
            if not route:
                route = await self._last_route(game, side, found.id)
            if not route:
                raise UmpireError(NO_MOVE_TO_GO_ON.format(unit=found.name))
            try:
                parse_route(game.state.loaded.map, route)
            except RouteError as e:
                raise UmpireError(f"{e}; nothing was changed") from None
        await self.store.set_standing_order(game_id, side, found.id, standing.value, route,
                                            user_id)
        await self._carry_on(game_id)
        listed = await self.standing_list(game_id, user_id)
        given = order_words(Standing(found.id, standing, route), found.name)
        return Reply(f"Standing order set: {given}.\n{listed.text}")

    async def _last_route(self, game: LiveGame, side: str, unit_id: str) -> str:
        """The route of the last move the side gave the unit ("" for none), read from the side's
        own accepted orders in the log (ruling FLOW-76)."""
        logged = await self.store.events_of_type(game.record.id, COMMAND_ACCEPTED)
        return last_move_route(game.state, side, unit_id, (r.payload for r in logged))

    async def clear_standing(self, game_id: str, user_id: int, unit: str) -> Reply:
        """Take a standing order away from one of the side's units or leaders."""
        game = await self.repository.get(game_id)
        side = _side(game, user_id)
        try:
            found = own_unit(game.state, side, unit)
        except Refusal as e:
            raise UmpireError(str(e)) from None
        if not await self.store.clear_standing_order(game_id, side, found.id):
            raise UmpireError(f"{found.name} has no standing order; nothing was changed")
        listed = await self.standing_list(game_id, user_id)
        return Reply(f"Standing order of {found.name} cleared.\n{listed.text}")

    async def standing_list(self, game_id: str, user_id: int) -> Reply:
        """The side's standing orders, as its dossier shows them."""
        game = await self.repository.get(game_id)
        side = _side(game, user_id)
        return Reply(standing_text(game.state.units,
                                   await self.store.standing_orders(game_id, side)))

    # -- carrying on -----------------------------------------------------------------------------
    async def _carry_on(self, game_id: str) -> None:
        """Carry out, step after step, what the turn's standing Done and standing orders call
        for in the step now open; stop at the first step where a player is to be asked."""
        for _ in range(_MOST_STEPS):
            marked: list[str] = []

            async def once(game: LiveGame, marked: list[str] = marked) -> bool:
                marked.clear()  # (decided again after a stale write)
                return await self._carry_on_once(game, marked)

            if not await self.repository.decided(game_id, once):
                return
            # Outside the game's lock, which giving the side's Done takes again.
            for side in marked:
                await self._finish_if_all_ready(game_id, side)

    async def _carry_on_once(self, game: LiveGame, marked: list[str]) -> bool:
        """One side's standing work in the step now open; whether anything was done.
        ``marked``: the sides whose standing players were just counted ready, which may now
        have finished."""
        state = game.state
        if state.status != GameStatus.ACTIVE:
            return False
        any_one = ready.rule_of(core_option(state.loaded.scenario.scenario.options,
                                            ready.READY_OPTION)) is ready.ReadyRule.ANY
        seated = {side: game.seated(side) for side in state.sides}
        stands = await standing_now(self.store, game.record.id, seated, state, state.seq,
                                    any_one=any_one)
        for side in state.acting_sides():
            if side in state.done or not seated[side]:
                continue
            if side in stands.quiet:
                return await self._finish_standing(game, side, stands.standing[side],
                                                   carry_out=side not in stands.passes)
            mine = [u for u in stands.standing.get(side, ()) if u in seated[side]]
            recorded = await self.store.ready_players(game.record.id, state.turn, state.step)
            new = [u for u in mine if u not in recorded]
            if new:
                # The side-mates still at it read who is ready, as when a player types /done;
                # the players whose Done stands were not called, and are told nothing.
                now = ready.readiness(seated[side], [*recorded, *new])
                note = ready.mates_text(phase_called(state), state.turn, now)
                threads = game.record.options.get("delivery") == THREADS
                told = [await self._told_ready(game.record.id, u, side, state, note, threads)
                        for u in seated[side] if u not in mine][:1 if threads else None]
                with stale_write():
                    for n, user in enumerate(new):
                        await self.store.mark_ready(game.record.id, user, state.turn,
                                                    state.step, told if n == 0 else (),
                                                    at_seq=state.seq)
                marked.append(side)
                return True
        return False

    async def _finish_standing(self, game: LiveGame, side: str, standing: tuple[int, ...],
                               *, carry_out: bool) -> bool:
        """The quiet side's standing orders for the step, then its Done: each its own batch,
        given in the name of the first player whose Done stands (or the first seated)."""
        state = game.state
        by = standing[0] if standing else game.seated(side)[0]
        turn, step = state.turn, state.step
        if carry_out:
            rows = await self.store.standing_orders(game.record.id, side)
            orders = orders_by_unit(state, side, stored(rows))
            for n, command in enumerate(commands_now(state, side, project(state, side), orders)):
                try:
                    await self._handle(game, by, command, answered=False, standing=True,
                                       request_id=f"standing:{turn}:{step}:{side}:{n}")
                except UmpireError:
                    continue  # an order the rules refuse now is not given (ruling FLOW-72)
                # What the order caused may have given the side something new to decide.
                again = await standing_now(self.store, game.record.id,
                                           {s: game.seated(s) for s in game.state.sides},
                                           game.state, game.state.seq)
                if side not in again.quiet or game.state.step != step:
                    return True
        try:
            await self._handle(game, by, cmd.Done(), answered=False, standing=True,
                               request_id=f"standing:{turn}:{step}:{side}")
        except UmpireError:
            return False  # a question held: the side waits, and is asked
        return True


def _side(game: LiveGame, user_id: int) -> str:
    player = game.player(user_id)
    if player is None:
        raise UmpireError(wording.NOT_PLAYING)
    return player.side
