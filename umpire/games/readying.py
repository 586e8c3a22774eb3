"""The umpire's side of ready players (the rule is in ``umpire.games.ready``): ``/done`` on a shared
side, the Done button, the host's end of a phase, and a seat given up while the others wait.

Readiness is not a rules command: it is stored beside the game (``Store.mark_ready``), with the
side-mates' message in the same transaction, and the side's step ends only through the rules'
``Done``, given by the last player to be ready, so the log and ``vedette verify`` are the same
as with one player to a side.

Ready marks are not in the log, but a mark is written only while the game is at the seq it was
decided at: a Done decided on a step another process has since ended is decided again on the
game as it is now. The seq does not guard the marks from each other: two side-mates ready at
once in two processes may each find the other not yet ready. So after marking a player ready the
umpire reads the marks again, and if the side is now all ready it gives the side's ``Done`` with
a request id of the step's own, which applies once whichever process gives it first."""

from __future__ import annotations

from rules import commands as cmd
from rules.engine import Refusal, request_key
from rules.state import GameState
from rules.turn.opening import require_begun, waiting
from rules.turn.reaction import require_not_held
from rules.turn.status import GameStatus
from storage.records import NewDelivery, PlayerRecord, Recipient
from umpire.answers import Reply, UmpireError
from umpire.base import UmpireBase
from umpire.games import ready
from umpire.games.options import core_option
from umpire.games.repository import LiveGame
from umpire.games.retrying import stale_write
from umpire.games.standing import done_for_turn_text
from umpire.words import replies as wording

#: The front end's delivery option for a private thread per side (``bot.threads``).
THREADS = "threads"


class Readying(UmpireBase):
    """Ready players: the umpire's ``handle``, ``leave`` and ``unseat``, each the step of
    deciding (``_decide_command``) or of seats (``_leave_seat``, ``_unseat_player``) with the
    side's readiness around it."""

    async def handle(self, game_id: str, user_id: int, command: cmd.Command, *,
                     is_admin: bool = False, request_id: str | None = None) -> Reply:
        """Decide one command from a player (or the host) and store what follows.

        ``request_id`` (a Discord interaction id, a script's step) makes the command idempotent:
        a request already accepted is answered without being applied again.

        A player's ``Done`` counts their readiness first (``done``); the host's end of a
        phase tells those it cut short; any other command is decided as it comes
        (``_decide_command``)."""
        if isinstance(command, cmd.Done):
            return await self.done(game_id, user_id, request_id=request_id)
        if isinstance(command, cmd.ForceEndPhase):
            async def force(game: LiveGame) -> Reply:
                told = await self._cut_short(game) if self.repository.is_host(
                    game, user_id, is_admin) else []
                return await self._handle(game, user_id, command, is_admin=is_admin,
                                          request_id=request_id, extra=told)

            reply = await self.repository.decided(game_id, force)
        else:
            reply = await self._decide_command(game_id, user_id, command, is_admin=is_admin,
                                               request_id=request_id)
        # A step the command opened may be one the turn's standing Done finishes.
        await self._carry_on(game_id)
        return reply

    async def done(self, game_id: str, user_id: int, *, request_id: str | None = None,
                   side: str | None = None, turn: int | None = None,
                   step: int | None = None, until_turn: bool = False) -> Reply:
        """The player says they have finished the current step. ``side``, ``turn`` and
        ``step`` come from a Done button: a button of another side changes nothing, nor does
        one of a step that is over. ``until_turn``: done for the rest of the turn too
        (``/done until:next-turn``, the Done for the turn button: ruling FLOW-70)."""
        reply = await self._done(game_id, user_id, request_id=request_id, side=side,
                                 turn=turn, step=step, until_turn=until_turn)
        await self._carry_on(game_id)
        return reply

    async def _done(self, game_id: str, user_id: int, *, request_id: str | None,
                    side: str | None, turn: int | None, step: int | None,
                    until_turn: bool) -> Reply:
        marked: tuple[str, int, int] | None = None  # the side and step marked ready in
        whole = ""  # the words of a Done for the turn

        async def decide(game: LiveGame) -> Reply:
            nonlocal marked, whole
            marked = None
            state = game.state
            if request_id is not None and request_key(request_id) in state.requests:
                return Reply(wording.ALREADY_ACCEPTED, repeated=True)
            player = game.player(user_id)
            if player is None:
                raise UmpireError(wording.NOT_PLAYING)
            # The side first, so that a forged button learns nothing of another side's step.
            if side is not None and side != player.side:
                raise UmpireError(ready.NOT_YOUR_SIDE)
            if turn is not None and (state.status == GameStatus.ENDED
                                     or (state.turn, state.step) != (turn, step)):
                raise UmpireError(ready.PHASE_OVER)
            try:  # before the first turn nobody is ready for anything (ruling CV-39)
                require_begun(state)
            except Refusal as e:
                raise UmpireError(str(e)) from None
            if until_turn and state.status == GameStatus.ACTIVE:
                await self.store.mark_turn_done(game_id, user_id, state.turn, state.seq)
                whole = done_for_turn_text(state.turn)
                if player.side not in state.acting_sides():
                    return Reply(whole)  # nothing of the side's is open now
            rule = ready.rule_of(core_option(state.loaded.scenario.scenario.options,
                                             ready.READY_OPTION))
            if rule is ready.ReadyRule.ANY or player.side not in state.acting_sides():
                # One player's word is the side's, or the rules have the answer (not the
                # side's phase, already finished, the game paused).
                return await self._handle(game, user_id, cmd.Done(), request_id=request_id)
            try:
                require_not_held(state, player.side)
            except Refusal as e:
                raise UmpireError(str(e)) from None
            seated = game.seated(player.side)
            recorded = await self.store.ready_players(game_id, state.turn, state.step)
            if ready.side_finishes(rule, seated, recorded, user_id):
                return await self._handle(game, user_id, cmd.Done(), request_id=request_id)
            now = ready.readiness(seated, [*recorded, user_id])
            if user_id in recorded:
                marked = (player.side, state.turn, state.step)  # (and look again below)
                return Reply(ready.you_are_ready(now.waiting, already=True))
            text = ready.mates_text(phase_called(state), state.turn, now)
            # With a private thread per side, the thread gets one copy of a side's message (the
            # first seated player's), and every player of the side reads it there: the note is
            # addressed to the whole side, so that the thread has it whoever is first.
            threads = game.record.options.get("delivery") == THREADS
            # The mark is this decision's last write: a retry never comes after it. It is
            # written only if the game is still where it was read (another process may have
            # ended the step meanwhile); if not, the Done is decided again on the game as it is.
            told = [await self._told_ready(game_id, u, player.side, state, text, threads)
                    for u in seated if u != user_id or threads]
            with stale_write():
                ids = await self.store.mark_ready(game_id, user_id, state.turn, state.step,
                                                  told, at_seq=state.seq)
            marked = (player.side, state.turn, state.step)
            return Reply(ready.you_are_ready(now.waiting), delivery_ids=tuple(ids))

        reply = await self.repository.decided(game_id, decide)
        if marked is not None:
            # A side-mate may have been marked ready meanwhile by another process, each of the
            # two finding the other still giving orders: whoever looks now finishes the side.
            finished = await self._finish_if_all_ready(game_id, *marked, giver=user_id)
            reply = reply if finished is None else finished
        if whole and whole not in reply.text:
            reply = Reply(f"{reply.text}\n\n{whole}", delivery_ids=reply.delivery_ids,
                          repeated=reply.repeated)
        return reply

    async def _told_ready(self, game_id: str, user_id: int, side: str, state: GameState,
                          note: str, threads: bool) -> NewDelivery:
        """How a side-mate hears of a player's readiness: their copy of the side's orders
        message for the step, edited to end with the note (its header of who is still to act;
        an edit, not a new message: ruling FLOW-3); a message of its own where there is no
        such copy to edit (a side's private thread, an orders message from before)."""
        key = ready.orders_key(side, state.turn, state.step)
        orders = None if threads else await self.store.last_delivery_with_key(
            game_id, Recipient("player", str(user_id)), key)
        if orders is None:
            return NewDelivery("player", str(user_id), note)
        # The edit shows the message's pictures again (an edit replaces what the message
        # shows): those of the moment the orders message followed, drawn once for both.
        return NewDelivery("player", str(user_id), ready.with_readiness(orders.text, note),
                           buttons=orders.buttons, edit_key=key, image_name=orders.image_name,
                           image_view=orders.image_view, seq=orders.seq)

    # -- seats given up while the others wait ------------------------------------------------------
    async def leave(self, game_id: str, user_id: int) -> Reply:
        """Leave the game (or withdraw a request to join): ``_leave_seat``. Leaving a started
        game is announced in its channel, and the player may only ever come back to the side
        they held. The side may then have finished (``_after_seat_lost``)."""
        side = await self._side_of(game_id, user_id)
        reply = await self._leave_seat(game_id, user_id)
        return await self._after_seat_lost(game_id, side, reply)

    async def unseat(self, game_id: str, actor_id: int, user_id: int, reason: str = "", *,
                     is_admin: bool = False) -> Reply:
        """The host takes a player's seat away (announced in the game's channel), or refuses a
        request to join: ``_unseat_player``. After the start, the player may only come back to
        the same side. The side may then have finished (``_after_seat_lost``)."""
        side = await self._side_of(game_id, user_id)
        reply = await self._unseat_player(game_id, actor_id, user_id, reason,
                                          is_admin=is_admin)
        return await self._after_seat_lost(game_id, side, reply)

    async def _after_seat_lost(self, game_id: str, side: str | None, reply: Reply) -> Reply:
        """With one player fewer, the side may have finished: everyone left is ready. The
        side's ``Done`` then goes to the rules, given by the last of them to be ready, with a
        request id of the step's, so that it applies once."""
        if side is None:
            return reply
        await self._finish_if_all_ready(game_id, side)
        return reply

    async def _finish_if_all_ready(self, game_id: str, side: str, turn: int | None = None,
                                   step: int | None = None, *, giver: int | None = None
                                   ) -> Reply | None:
        """When every player still seated on ``side`` is ready in the current step (``turn``'s
        ``step``, when given: nothing once that step is over), give the side's ``Done`` to the
        rules, with a request id of the step's, so that it applies once whoever gives it.

        ``giver``: the ready player whose answer this is (the reply is theirs); by default the
        last player to be ready gives it, on everyone's behalf (nobody reads the reply). The
        reply, or ``None`` when the side is not finished, the Done was given already, or the
        rules refuse it now (a question held: the side waits)."""
        async def decide(game: LiveGame) -> Reply | None:
            state = game.state
            if side not in state.acting_sides() or (
                    turn is not None and (state.turn, state.step) != (turn, step)):
                return None
            recorded = await self.store.ready_players(game_id, state.turn, state.step)
            now = ready.readiness(game.seated(side), recorded)
            if not now.finished:
                return None
            by = giver if giver in now.ready else now.ready[-1]
            try:
                reply = await self._handle(
                    game, by, cmd.Done(), request_id=f"ready:{state.turn}:{state.step}:{side}",
                    answered=by == giver)
            except UmpireError:
                return None
            return None if reply.repeated else reply

        return await self.repository.decided(game_id, decide)

    # -- the host's end of a phase -------------------------------------------------------------
    async def _cut_short(self, game: LiveGame) -> list[NewDelivery]:
        """A DM to each player of a side still in the step who had not said they were ready."""
        state: GameState = game.state
        if state.status != GameStatus.ACTIVE or waiting(state) is not None:
            return []  # (before the first turn no phase is open to cut short)
        recorded = set(await self.store.ready_players(game.record.id, state.turn, state.step))
        text = ready.cut_short_text(phase_called(state), state.turn)
        return [NewDelivery("player", str(u), text)
                for side in state.acting_sides()
                for u in game.seated(side) if u not in recorded]

    # -- reading seats -------------------------------------------------------------------------
    async def _side_of(self, game_id: str, user_id: int) -> str | None:
        player: PlayerRecord | None = await self.store.get_player(game_id, user_id)
        return None if player is None else player.side


def phase_called(state: GameState) -> str:
    """The current step as players call it: its phase, with the phasing side's name when it
    is one side's (as the channel announces it)."""
    step = state.current
    return f"{state.side_name(step.side)} {step.title}" if step.side else step.title
