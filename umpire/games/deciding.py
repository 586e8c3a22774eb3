"""Deciding commands: the start, a player's or the host's command, the host's end of the
game. Each takes the game's lock, asks the rules engine (off the event loop) and commits the
outcome before it answers, so an accepted command is durable before the player hears of it.
Each runs through ``Repository.decided``: decided again from the log when another process
committed the game first, so nothing here writes before its commit. A player's command reaches
``_decide_command`` through ``Umpire.handle`` (``umpire.games.readying``), which counts a
``Done`` as readiness first."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from rules import commands as cmd
from rules import engine
from rules.engine import Refusal, decide, request_key, start
from rules.refusal import WindowClosed
from rules.view import own_view, project
from storage.records import GameStatus, NewDelivery
from umpire.answers import Reply, UmpireError
from umpire.base import UmpireBase
from umpire.games import dice, seats
from umpire.games.repository import LiveGame, Shown
from umpire.reads.window import closed_by
from umpire.words import replies as wording


class Deciding(UmpireBase):
    """Commands decided by the rules engine and committed."""

    # -- playing ---------------------------------------------------------------------------------
    async def start(self, game_id: str, user_id: int, *, is_admin: bool = False) -> Reply:
        async def decide(game: LiveGame) -> Reply:
            self.repository.require_host(game, user_id, is_admin)
            players = game.players
            sides = {p.side for p in players}
            missing = [s for s in game.state.sides if s not in sides]
            if missing:
                raise UmpireError(f"no one has joined {', '.join(missing)} yet")
            try:
                sources = await self.store.game_sources(game_id)
                binding = "" if sources is None else dice.sources_commitment(
                    game.record.seed, sources.scenario_sha256, sources.ruleset_sha256)
                outcome = await asyncio.to_thread(
                    start, game.state, dice.commitment(game.record.seed),
                    dice.SeededDice(game.record.seed, game_id), user=user_id,
                    sources_commitment=binding)
            except Refusal as e:
                raise UmpireError(str(e)) from None
            roster = seats.roster_announcement([
                (game.state.side_name(side), sorted(p.user_id for p in players if p.side == side))
                for side in game.state.sides])
            done = await self.repository.commit(game, outcome, status=GameStatus.ACTIVE,
                                                extra=[NewDelivery("public", "", roster)],
                                                seats=players)
            return Reply("The game has started.", delivery_ids=done.ids)

        reply = await self.repository.decided(game_id, decide)
        await self._carry_on(game_id)  # standing orders set before the start may pass a phase
        return reply

    async def _decide_command(self, game_id: str, user_id: int, command: cmd.Command, *,
                              is_admin: bool = False, request_id: str | None = None) -> Reply:
        """Decide one command from a player (or the host) and store what follows.

        ``request_id`` (a Discord interaction id, a script's step) makes the command idempotent:
        a request already accepted is answered without being applied again."""
        return await self.repository.decided(game_id, lambda game: self._handle(
            game, user_id, command, is_admin=is_admin, request_id=request_id))

    async def _handle(self, game: LiveGame, user_id: int, command: cmd.Command, *,
                      is_admin: bool = False, request_id: str | None = None,
                      extra: Sequence[NewDelivery] = (), answered: bool = True,
                      standing: bool = False) -> Reply:
        """``_decide_command`` inside ``Repository.decided`` (the game's lock held and the game
        loaded); ``extra`` deliveries are committed with the command's. ``answered``: the reply
        is shown to the user, so that their copy of the message it repeats is not sent
        (``False`` for a command the umpire gives on a player's behalf, whose reply nobody
        reads). ``standing``: a standing order or a Done for the turn the umpire carries out
        for the player's side: what it causes for the side waits for its next dossier."""
        game_id = game.record.id
        if request_id is not None and request_key(request_id) in game.state.requests:
            return Reply(wording.ALREADY_ACCEPTED, repeated=True)
        host = self.repository.is_host(game, user_id, is_admin)
        if command.host_only and not host:
            raise UmpireError(wording.HOST_ONLY)
        player = game.player(user_id)
        if player is None and not (host and command.host_only):
            raise UmpireError(wording.NOT_PLAYING)
        side = player.side if player else ""
        try:
            # Deciding includes sighting: CPU work, kept off the event loop.
            outcome = await asyncio.to_thread(
                decide, game.state, side, command,
                dice.SeededDice(game.record.seed, game_id), host, request_id, user=user_id)
        except WindowClosed as e:  # say which of the side's own orders closed it (FLOW-64)
            phase = await self.store.events_from_last(game_id, "phase_began")
            closing = closed_by(phase, game.state, side, user_id)
            raise UmpireError(f"{e}: {closing} closed it" if closing else str(e)) from None
        except Refusal as e:
            raise UmpireError(str(e)) from None
        status: GameStatus | None = None
        # The end, and the seed, go into the same transaction as the command that played
        # the last phase: a crash cannot leave a finished game unended.
        if engine.end_if_over(outcome, game.record.seed.hex()):
            status = GameStatus.ENDED
        after = outcome.state
        own = own_view(after, side) if side else project(after, None)
        # The answer is worded before the commit so that the report it shows is not also sent
        # to the same player (``Repository.commit``).
        text = wording.acknowledgement(own, command, outcome.events,
                                       lambda: project(after, side or None))
        # A host's command (a clock's, given in the host's name) is no side's order, even
        # when the host plays a side: what it causes is told as the enemy's acts are.
        by = side if side and not command.host_only else None
        done = await self.repository.commit(
            game, outcome, status=status, extra=extra, commanding=None if standing else by,
            shown=Shown(user_id, text) if by and answered and not standing else None,
            standing=by if standing else None)
        return Reply(done.answer or text, delivery_ids=done.ids)

    async def end_game(self, game_id: str, user_id: int, *, is_admin: bool = False,
                       reason: str = "") -> Reply:
        async def decide(game: LiveGame) -> Reply:
            self.repository.require_host(game, user_id, is_admin)
            try:
                outcome = engine.end(game.state, game.record.seed.hex(),
                                     reason or "The host has ended the game.",
                                     dice.SeededDice(game.record.seed, game.record.id),
                                     user=user_id)
            except Refusal as e:
                raise UmpireError(str(e)) from None
            done = await self.repository.commit(game, outcome, status=GameStatus.ENDED)
            return Reply("The game is over; the after-action report, the seed and the full map "
                         "are posted.",
                         delivery_ids=done.ids)

        return await self.repository.decided(game_id, decide)
