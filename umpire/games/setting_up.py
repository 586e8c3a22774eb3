"""Setting games up: creating one from a scenario, seats (joining, leaving, the host seating
and unseating players), and messages to the host that no command caused.

A seat is decided from the seats and the game as they were read; a seat write that finds them
changed (another process seated or unseated the user meanwhile, or committed to the game: started
or ended it, say) is decided again from the game as it is now
(``umpire.games.retrying.seats_raced``), as if the command had come second in one process."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from rules.modules.built import require_playable
from rules.modules.catalog import RuleNotImplemented
from rules.scenario.markup import plain
from rules.scenario.problems import FileProblems
from rules.turn.status import GameStatus
from storage.errors import AlreadyExistsError
from storage.records import GameRecord, NewDelivery, PlayerRecord, SeatRequest
from storage.seat_notices import SeatNotice
from umpire.answers import Reply, UmpireError
from umpire.base import UmpireBase
from umpire.games import catalog, dice, seat_notice, seats
from umpire.games import ids as game_ids
from umpire.games import options as game_options
from umpire.games.repository import LiveGame
from umpire.games.retrying import seats_raced
from umpire.words import replies as wording
from umpire.words import whole_truth


class SettingUp(UmpireBase):
    """Creating games and managing their seats."""

    # -- setting up ------------------------------------------------------------------------------
    async def create_game(self, scenario: str, host_user_id: int, *, guild_id: int | None = None,
                          channel_id: int | None = None, game_id: str | None = None,
                          without: tuple[str, ...] = (), seed: bytes | None = None,
                          options: Mapping[str, str | int | bool] | None = None,
                          catalog_only: bool = False) -> Reply:
        """Create a game from a scenario. ``catalog_only`` takes a catalog name only, never a
        path (for requests from server members). ``without`` names rule modules the group chooses to
        play without (a game option); every other module in force must be playable. ``options``
        are rule options chosen for this game, laid over the scenario's own (such as
        ``surprise_collision``); an option of a module the game does not play is refused
        (``umpire.games.options``), and the reply announces them. ``seed`` is for replaying a
        known game in tests; games normally get a fresh secret seed."""
        try:
            path = (catalog.find_named if catalog_only else catalog.find)(scenario,
                                                                          self.scenarios)
            # The game is pinned to the texts read now; it never reads the files again.
            sources = catalog.read_sources(path)
            loaded = catalog.load_sources(sources)
            require_playable([m for m in loaded.scenario.scenario.modules if m not in without])
            game_options.check(loaded, without, options or {})
        except FileNotFoundError as e:
            raise UmpireError(str(e)) from None
        except FileProblems as e:
            raise UmpireError(f"the scenario has {len(e.problems)} problem(s); run "
                              f"`vedette scenario check` on it. First: "
                              f"{catalog.without_folders(e.problems[0])}") from None
        except RuleNotImplemented as e:
            raise UmpireError(str(e)) from None
        if channel_id is not None and await self.store.list_games(channel_id=channel_id,
                                                                  status=GameStatus.SETUP) + \
                await self.store.list_games(channel_id=channel_id, status=GameStatus.ACTIVE):
            raise UmpireError("this channel already has a game; end it first")
        seed = seed or dice.new_seed()
        # One numbering at a time in this process, so that games created at once for the same
        # scenario never race for a number; another process's race is met by counting again.
        async with self.repository.lock(f"numbering:{game_ids.stem(loaded.id)}"):
            for failures in range(1, self.repository.retry.tries + 1):
                gid = game_id or game_ids.next_game_id(
                    loaded.id, guild_id,
                    await self.store.games_named_like(game_ids.stem(loaded.id)))
                record = GameRecord(id=gid, scenario_id=loaded.id,
                                    scenario_path=str(path.resolve()),
                                    host_user_id=host_user_id, seed=seed, guild_id=guild_id,
                                    channel_id=channel_id,
                                    options={"without": list(without),
                                             "rules": game_options.stamped(loaded, options or {})})
                try:
                    await self.store.create_game(record, sources)
                    break
                except AlreadyExistsError:
                    if game_id:
                        raise UmpireError(f"there is already a game {game_id[:40]!r}") from None
                    # Another process's game took the number meanwhile: count again.
                    await asyncio.sleep(self.repository.retry.pause(failures))
            else:
                raise UmpireError(wording.BUSY)
        sides = ", ".join(f"{s.id} ({plain(s.name)})" for s in loaded.scenario.sides)
        said = game_options.announcement(loaded, without, options or {})
        return Reply(f"Game `{gid}` created: {plain(loaded.scenario.scenario.title)}. Sides: "
                     f"{sides}. " + (f"{said} " if said else "")
                     + "Players join with /game join; the host starts with /game start.")

    async def join(self, game_id: str, user_id: int, side: str, *,
                   in_server: bool = False) -> Reply:
        """Seat the user on ``side`` before the start; after it, ask the host for that seat
        (see ``umpire.games.seats``). ``in_server``: the user is a member of the game's server (the
        bot checks); a game made outside Discord has no server and needs no such check."""
        async def decide(game: LiveGame) -> Reply:
            state = game.state
            if side not in state.sides:
                raise UmpireError(f"no side {side[:30]!r}; sides: {', '.join(state.sides)}")
            player = await self.store.get_player(game_id, user_id)
            former = (await self.store.former_side(game_id, user_id)
                      if seats.started(state.status) else None)
            decision = seats.decide_join(
                state.status, side, seated=player.side if player else None,
                former=former, server_game=game.record.guild_id is not None,
                in_server=in_server,
                umpire=whole_truth.umpires(state, game.record.host_user_id, user_id))
            if decision.kind is None:
                held = state.side_name((player.side if player else former) or side)
                raise UmpireError(decision.refusal.format(held=held))
            name = state.side_name(side)
            if decision.kind is seats.JoinKind.REQUEST:
                return await self._request_seat(game, user_id, side, in_server=in_server,
                                                former=former is not None)
            with seats_raced():
                # Decided before the start: written only if the game has not moved on since.
                if player is None:
                    await self.store.add_player(game_id, user_id, side, dm_ok=True,
                                                at_seq=state.seq)
                elif player.side != side:
                    await self.store.set_side(game_id, user_id, side, at_seq=state.seq)
            return Reply(f"You command {name} in game `{game_id}`.")

        return await self.repository.decided(game_id, decide)

    async def _request_seat(self, game: LiveGame, user_id: int, side: str, *, in_server: bool,
                            former: bool) -> Reply:
        """Ask the host to seat the user on ``side`` of the started game (inside
        ``Repository.decided``): one open request per user, at most
        ``seats.MOST_OPEN_REQUESTS`` per game, and the host told in one notice while it waits
        (``umpire.games.seat_notice``). A request refused writes nothing."""
        game_id, state = game.record.id, game.state
        name = state.side_name(side)
        line = seats.request_to_host(game_id, user_id, side, name, in_server=in_server,
                                     former=former)
        notice = SeatNotice(str(game.record.host_user_id), lambda waiting, asking: (
            seat_notice.compose(game_id, waiting, user_id, line, asking)))
        with seats_raced():
            asked = await self.store.request_seat(game_id, user_id, side, notice,
                                                  most=seats.MOST_OPEN_REQUESTS,
                                                  at_seq=state.seq)
        if asked.open is not None:
            held = state.side_name(asked.open.side)
            if asked.open.side == side:
                return Reply(seats.ALREADY_ASKED.format(asked=held, game_id=game_id))
            raise UmpireError(seats.ALREADY_ASKED_OTHER.format(asked=held, game_id=game_id,
                                                               side_name=name))
        if not asked.asked:
            raise UmpireError(seats.TOO_MANY_ASKING.format(game_id=game_id,
                                                           most=seats.MOST_OPEN_REQUESTS))
        return Reply(f"The game has started, so the host decides: your request to command "
                     f"{name} in game `{game_id}` has been sent to the host. When you are "
                     "seated, it is announced in the game's channel.",
                     delivery_ids=asked.delivery_ids)

    async def _leave_seat(self, game_id: str, user_id: int) -> Reply:
        """Leave the game (or withdraw a request to join). Leaving a started game is announced
        in its channel, and the player may only ever come back to the side they held. (The
        umpire's ``leave``, in ``umpire.games.readying``, then looks at the side's readiness.)"""
        async def decide(game: LiveGame) -> Reply:
            state = game.state
            player = await self.store.get_player(game_id, user_id)
            if not seats.started(state.status) or player is None:
                with seats_raced():  # a leave before the start is never written after it
                    left = await self.store.remove_player(
                        game_id, user_id, at_seq=None if player is None else state.seq)
                if left:
                    return Reply("You have left the game.")
                if await self.store.seat_request(game_id, user_id) is not None:
                    with seats_raced():
                        await self.store.unseat_player(game_id, user_id, remember=False,
                                                       at_seq=state.seq)
                    return Reply("Your request to join has been withdrawn.")
                raise UmpireError("you are not in that game")
            text = seats.left_announcement(user_id, state.side_name(player.side))
            with seats_raced():
                ids = await self.store.unseat_player(game_id, user_id, remember=True,
                                                     deliveries=[NewDelivery("public", "", text)],
                                                     at_seq=state.seq)
            return Reply("You have left the game; it is announced in the game's channel. "
                         f"You may come back only to {state.side_name(player.side)}, if the "
                         "host seats you again.", delivery_ids=tuple(ids))

        return await self.repository.decided(game_id, decide)

    async def seat(self, game_id: str, actor_id: int, user_id: int, side: str, *,
                   is_admin: bool = False) -> Reply:
        """The host accepts a user's request to join the started game on ``side``; the seat is
        announced in the game's channel."""
        async def decide(game: LiveGame) -> Reply:
            self.repository.require_host(game, actor_id, is_admin)
            state = game.state
            if not seats.started(state.status):
                raise UmpireError(seats.OVER if state.status == GameStatus.ENDED else
                                  "before the start, players join with /game join themselves")
            if await self.store.get_player(game_id, user_id) is not None:
                raise UmpireError(f"{seats.mention(user_id)} is already playing; sides cannot "
                                  "be changed once the game has started")
            request = await self.store.seat_request(game_id, user_id)
            if request is None:
                raise UmpireError(f"{seats.mention(user_id)} has not asked for a seat; they ask "
                                  "with /game join")
            if request.side != side:
                raise UmpireError(f"{seats.mention(user_id)} asked to command "
                                  f"{state.side_name(request.side)} ({request.side}), not "
                                  f"{side[:30]!r}")
            former = await self.store.former_side(game_id, user_id)
            if former is not None and former != side:  # a request is checked when made too
                raise UmpireError(f"{seats.mention(user_id)} may only come back to "
                                  f"{state.side_name(former)}")
            name = state.side_name(side)
            with seats_raced():  # a seat decided in play is never written after the end
                ids = await self.store.seat_player(game_id, user_id, side, deliveries=[
                    NewDelivery("public", "", seats.seated_announcement(user_id, name,
                                                                         actor_id))],
                    at_seq=state.seq)
            return Reply(f"{seats.mention(user_id)} now commands {name}; it is announced in "
                         "the game's channel.", delivery_ids=tuple(ids))

        return await self.repository.decided(game_id, decide)

    async def _unseat_player(self, game_id: str, actor_id: int, user_id: int, reason: str = "",
                             *, is_admin: bool = False) -> Reply:
        """The host takes a player's seat away (announced in the game's channel), or refuses a
        request to join. After the start, the player may only come back to the same side. (The
        umpire's ``unseat``, in ``umpire.games.readying``, then looks at the side's
        readiness.)"""
        async def decide(game: LiveGame) -> Reply:
            self.repository.require_host(game, actor_id, is_admin)
            state = game.state
            if state.status == GameStatus.ENDED:
                raise UmpireError(seats.OVER)
            player = await self.store.get_player(game_id, user_id)
            if player is None:
                if await self.store.seat_request(game_id, user_id) is None:
                    raise UmpireError(f"{seats.mention(user_id)} is not in this game")
                with seats_raced():
                    await self.store.unseat_player(game_id, user_id, remember=False,
                                                   at_seq=state.seq)
                return Reply(f"{seats.mention(user_id)}'s request to join is refused.")
            name = state.side_name(player.side)
            text = seats.unseated_announcement(user_id, name, actor_id, reason)
            with seats_raced():
                ids = await self.store.unseat_player(
                    game_id, user_id, remember=seats.started(state.status),
                    deliveries=[NewDelivery("public", "", text)], at_seq=state.seq)
            return Reply(f"{seats.mention(user_id)} no longer commands {name}; it is announced "
                         "in the game's channel.", delivery_ids=tuple(ids))

        return await self.repository.decided(game_id, decide)

    async def seat_requests(self, game_id: str) -> list[SeatRequest]:
        return await self.store.seat_requests(game_id)

    async def notify_host(self, game_id: str, text: str) -> tuple[int, ...]:
        """Queue a message to the game's host that no command caused (a transport's report)."""
        record = await self.store.get_game(game_id)
        if record is None:
            raise UmpireError(wording.no_such_game(game_id))
        return tuple(await self.store.queue_deliveries(
            game_id, [NewDelivery("host", str(record.host_user_id), text)]))

    async def player(self, game_id: str, user_id: int) -> PlayerRecord | None:
        return await self.store.get_player(game_id, user_id)

