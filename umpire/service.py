"""The umpire service: games as a play group uses them, independent of Discord.

``Umpire.handle(game_id, user_id, command)`` takes the game's lock, loads its state, checks who
the user is in the game, asks the rules engine, and stores the events with the deliveries they
imply in one transaction. Only then does it answer, so an accepted command is durable before the
player hears that it was accepted. Deliveries wait in the outbox until a transport (the bot, or
the demo) sends them and marks them sent.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from rules import commands as cmd
from rules import engine
from rules import events as ev
from rules.engine import Outcome, Refusal, decide, request_key, start
from rules.implementations import require_playable
from rules.loader import LoadedScenario
from rules.markup import plain
from rules.modules import RuleNotImplemented
from rules.problems import FileProblems
from rules.reading import event_from_json
from rules.scenario import COMBAT_KINDS
from rules.state import GameState, from_snapshot, initial_state, replay, to_snapshot
from rules.view import IDENTIFIED, project
from storage.errors import ConcurrencyError
from storage.records import (
    DeliveryRecord,
    GameRecord,
    GameStatus,
    GameUpdate,
    NewDelivery,
    NewEvent,
    PlayerRecord,
    Recipient,
    SeatRequest,
)
from storage.store import Store
from umpire import catalog, dice, record, seats
from umpire.corrections import corrections, end_of_game_text
from umpire.maps import MapMaker
from umpire.messages import Message, messages_for, turn_heading
from umpire.record import LoggedEvent

SNAPSHOT_EVERY = 50

class UmpireError(Exception):
    """A request the umpire refuses; the message is safe to show to the person who asked."""


@dataclass(frozen=True)
class Reply:
    """The answer to the person who gave a command (shown to them alone)."""

    text: str
    image: bytes | None = None
    delivery_ids: tuple[int, ...] = ()


@dataclass
class _Game:
    record: GameRecord
    loaded: LoadedScenario
    state: GameState
    #: How many secret rolls each side has been told (their numbers in the roll messages).
    rolls_told: dict[str, int] | None = None


class Umpire:
    def __init__(self, store: Store, *, scenarios: Path | None = None,
                 maps: MapMaker | None = None) -> None:
        self.store = store
        self.scenarios = scenarios
        self.maps = maps or MapMaker()
        self._locks: dict[str, asyncio.Lock] = {}
        self._games: dict[str, _Game] = {}

    # -- loading ---------------------------------------------------------------------------------
    def lock(self, game_id: str) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def _game(self, game_id: str) -> _Game:
        """The game's current state: cached, or the latest snapshot plus the events after it."""
        found = await self.store.game_and_last_seq(game_id)
        if found is None:
            raise UmpireError(f"there is no game {game_id[:40]!r}")
        record, last = found
        cached = self._games.get(game_id)
        if cached is not None and cached.state.seq == last:
            cached.record = record
            return cached
        loaded = await self._loaded(record)
        state = await self.load_state(game_id, loaded, _without(record))
        game = _Game(record, loaded, state)
        self._games[game_id] = game
        return game

    async def load_state(self, game_id: str, loaded: LoadedScenario,
                         without: tuple[str, ...] = ()) -> GameState:
        snap = await self.store.latest_snapshot(game_id)
        state = (initial_state(loaded, without) if snap is None
                 else from_snapshot(loaded, snap.payload, without))
        records = await self.store.events(game_id, after_seq=state.seq)
        return replay(state, (event_from_json(json.dumps(r.payload), r.audience)
                              for r in records))

    async def replay_all(self, game_id: str) -> GameState:
        """The state from every event since the start, ignoring snapshots (for checks)."""
        record = await self.store.get_game(game_id)
        assert record is not None
        loaded = await self._loaded(record)
        records = await self.store.events(game_id)
        return replay(initial_state(loaded, _without(record)),
                      (event_from_json(json.dumps(r.payload), r.audience) for r in records))

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
        ``surprise_collision``). ``seed`` is for replaying a known game in tests; games normally
        get a fresh secret seed."""
        try:
            path = (catalog.find_named if catalog_only else catalog.find)(scenario,
                                                                          self.scenarios)
            # The game is pinned to the texts read now; it never reads the files again.
            sources = catalog.read_sources(path)
            loaded = catalog.load_sources(sources)
            require_playable([m for m in loaded.scenario.scenario.modules if m not in without])
        except FileNotFoundError as e:
            raise UmpireError(str(e)) from None
        except FileProblems as e:
            raise UmpireError(f"the scenario has {len(e.problems)} problem(s); run "
                              f"`vedette scenario check` on it. First: "
                              f"{catalog.without_folders(e.problems[0])}") from None
        except RuleNotImplemented as e:
            raise UmpireError(str(e)) from None
        if channel_id is not None and await self.store.list_games(channel_id=channel_id,
                                                                  status="setup") + \
                await self.store.list_games(channel_id=channel_id, status="active"):
            raise UmpireError("this channel already has a game; end it first")
        gid = game_id or "g" + secrets.token_hex(3)
        record = GameRecord(id=gid, scenario_id=loaded.id, scenario_path=str(path.resolve()),
                            host_user_id=host_user_id, seed=seed or dice.new_seed(),
                            guild_id=guild_id,
                            channel_id=channel_id,
                            options={"without": list(without),
                                     **({"rules": dict(options)} if options else {})})
        await self.store.create_game(record, sources)
        sides = ", ".join(f"{s.id} ({plain(s.name)})" for s in loaded.scenario.sides)
        return Reply(f"Game `{gid}` created: {plain(loaded.scenario.scenario.title)}. Sides: "
                     f"{sides}. "
                     "Players join with /game join; the host starts with /game start.")

    async def join(self, game_id: str, user_id: int, side: str, *,
                   in_server: bool = False) -> Reply:
        """Seat the user on ``side`` before the start; after it, ask the host for that seat
        (see ``umpire.seats``). ``in_server``: the user is a member of the game's server (the
        bot checks); a game made outside Discord has no server and needs no such check."""
        async with self.lock(game_id):
            game = await self._game(game_id)
            state = game.state
            if side not in state.sides:
                raise UmpireError(f"no side {side[:30]!r}; sides: {', '.join(state.sides)}")
            player = await self.store.get_player(game_id, user_id)
            former = (await self.store.former_side(game_id, user_id)
                      if seats.started(state.status) else None)
            decision = seats.decide_join(
                state.status, side, seated=player.side if player else None,
                former=former, server_game=game.record.guild_id is not None,
                in_server=in_server)
            if decision.kind is None:
                held = state.side_name((player.side if player else former) or side)
                raise UmpireError(decision.refusal.format(held=held))
            name = state.side_name(side)
            if decision.kind is seats.JoinKind.REQUEST:
                text = seats.request_to_host(game_id, user_id, side, name, in_server=in_server,
                                             former=former is not None)
                ids = await self.store.request_seat(game_id, user_id, side, [
                    NewDelivery("host", str(game.record.host_user_id), text)])
                return Reply(f"The game has started, so the host decides: your request to "
                             f"command {name} in game `{game_id}` has been sent to the host. "
                             "When you are seated, it is announced in the game's channel.",
                             delivery_ids=tuple(ids))
            if player is None:
                await self.store.add_player(game_id, user_id, side, dm_ok=True)
            elif player.side != side:
                await self.store.set_side(game_id, user_id, side)
            return Reply(f"You command {name} in game `{game_id}`.")

    async def leave(self, game_id: str, user_id: int) -> Reply:
        """Leave the game (or withdraw a request to join). Leaving a started game is announced
        in its channel, and the player may only ever come back to the side they held."""
        async with self.lock(game_id):
            game = await self._game(game_id)
            state = game.state
            player = await self.store.get_player(game_id, user_id)
            if not seats.started(state.status) or player is None:
                if await self.store.remove_player(game_id, user_id):
                    return Reply("You have left the game.")
                if await self.store.seat_request(game_id, user_id) is not None:
                    await self.store.unseat_player(game_id, user_id, remember=False)
                    return Reply("Your request to join has been withdrawn.")
                raise UmpireError("you are not in that game")
            text = seats.left_announcement(user_id, state.side_name(player.side))
            ids = await self.store.unseat_player(game_id, user_id, remember=True,
                                                 deliveries=[NewDelivery("public", "", text)])
            return Reply("You have left the game; it is announced in the game's channel. "
                         f"You may come back only to {state.side_name(player.side)}, if the "
                         "host seats you again.", delivery_ids=tuple(ids))

    async def seat(self, game_id: str, actor_id: int, user_id: int, side: str, *,
                   is_admin: bool = False) -> Reply:
        """The host accepts a user's request to join the started game on ``side``; the seat is
        announced in the game's channel."""
        async with self.lock(game_id):
            game = await self._game(game_id)
            self._require_host(game, actor_id, is_admin)
            state = game.state
            if not seats.started(state.status):
                raise UmpireError(seats.OVER if state.status == "ended" else
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
            ids = await self.store.seat_player(game_id, user_id, side, deliveries=[
                NewDelivery("public", "", seats.seated_announcement(user_id, name, actor_id))])
            return Reply(f"{seats.mention(user_id)} now commands {name}; it is announced in "
                         "the game's channel.", delivery_ids=tuple(ids))

    async def unseat(self, game_id: str, actor_id: int, user_id: int, reason: str = "", *,
                     is_admin: bool = False) -> Reply:
        """The host takes a player's seat away (announced in the game's channel), or refuses a
        request to join. After the start, the player may only come back to the same side."""
        async with self.lock(game_id):
            game = await self._game(game_id)
            self._require_host(game, actor_id, is_admin)
            state = game.state
            if state.status == "ended":
                raise UmpireError(seats.OVER)
            player = await self.store.get_player(game_id, user_id)
            if player is None:
                if await self.store.seat_request(game_id, user_id) is None:
                    raise UmpireError(f"{seats.mention(user_id)} is not in this game")
                await self.store.unseat_player(game_id, user_id, remember=False)
                return Reply(f"{seats.mention(user_id)}'s request to join is refused.")
            name = state.side_name(player.side)
            text = seats.unseated_announcement(user_id, name, actor_id, reason)
            ids = await self.store.unseat_player(
                game_id, user_id, remember=seats.started(state.status),
                deliveries=[NewDelivery("public", "", text)])
            return Reply(f"{seats.mention(user_id)} no longer commands {name}; it is announced "
                         "in the game's channel.", delivery_ids=tuple(ids))

    async def seat_requests(self, game_id: str) -> list[SeatRequest]:
        return await self.store.seat_requests(game_id)

    async def notify_host(self, game_id: str, text: str) -> tuple[int, ...]:
        """Queue a message to the game's host that no command caused (a transport's report)."""
        record = await self.store.get_game(game_id)
        if record is None:
            raise UmpireError(f"there is no game {game_id[:40]!r}")
        return tuple(await self.store.queue_deliveries(
            game_id, [NewDelivery("host", str(record.host_user_id), text)]))

    async def player(self, game_id: str, user_id: int) -> PlayerRecord | None:
        return await self.store.get_player(game_id, user_id)

    # -- playing ---------------------------------------------------------------------------------
    async def start(self, game_id: str, user_id: int, *, is_admin: bool = False) -> Reply:
        async with self.lock(game_id):
            game = await self._game(game_id)
            self._require_host(game, user_id, is_admin)
            sides = {p.side for p in await self.store.players(game_id)}
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
            ids = await self._commit(game, outcome, status="active")
            return Reply("The game has started.", delivery_ids=ids)

    async def handle(self, game_id: str, user_id: int, command: cmd.Command, *,
                     is_admin: bool = False, request_id: str | None = None) -> Reply:
        """Decide one command from a player (or the host) and store what follows.

        ``request_id`` (a Discord interaction id, a script's step) makes the command idempotent:
        a request already accepted is answered without being applied again."""
        async with self.lock(game_id):
            game = await self._game(game_id)
            if request_id is not None and request_key(request_id) in game.state.requests:
                return Reply("That order was already accepted.")
            host = self._is_host(game, user_id, is_admin)
            if command.host_only and not host:
                raise UmpireError("only the game's host can do that")
            player = await self.store.get_player(game_id, user_id)
            if player is None and not (host and command.host_only):
                raise UmpireError("you are not playing in this game; join a side first")
            side = player.side if player else ""
            try:
                # Deciding includes sighting: CPU work, kept off the event loop.
                outcome = await asyncio.to_thread(
                    decide, game.state, side, command,
                    dice.SeededDice(game.record.seed, game_id), host, request_id, user=user_id)
            except Refusal as e:
                raise UmpireError(str(e)) from None
            status: GameStatus | None = None
            # The end, and the seed, go into the same transaction as the command that played
            # the last phase: a crash cannot leave a finished game unended.
            if engine.end_if_over(outcome, game.record.seed.hex()):
                status = "ended"
            ids = await self._commit(game, outcome, status=status)
            return Reply(_acknowledge(game.state, command, outcome, side),
                         delivery_ids=ids)

    async def end_game(self, game_id: str, user_id: int, *, is_admin: bool = False,
                       reason: str = "") -> Reply:
        async with self.lock(game_id):
            game = await self._game(game_id)
            self._require_host(game, user_id, is_admin)
            try:
                outcome = engine.end(game.state, game.record.seed.hex(),
                                     reason or "The host has ended the game.",
                                     dice.SeededDice(game.record.seed, game.record.id),
                                     user=user_id)
            except Refusal as e:
                raise UmpireError(str(e)) from None
            ids = await self._commit(game, outcome, status="ended")
            return Reply("The game is over; the seed and the full map are posted.",
                         delivery_ids=ids)

    # -- reading ---------------------------------------------------------------------------------
    async def state_for(self, game_id: str) -> GameState:
        """The current state, for the umpire's own tools (never shown to a player as is)."""
        return (await self._game(game_id)).state

    async def side_of(self, game_id: str, user_id: int) -> str:
        player = await self.store.get_player(game_id, user_id)
        if player is None:
            raise UmpireError("you are not playing in this game; join a side first")
        return player.side

    async def my_map(self, game_id: str, user_id: int, around: str | None = None,
                     radius: int | None = None) -> Reply:
        game = await self._game(game_id)
        side = await self.side_of(game_id, user_id)
        try:
            png = await self.maps.side_map(game.state, side, around=around, radius=radius)
        except ValueError as e:
            raise UmpireError(str(e)) from None
        return Reply(f"{game.state.side_name(side)}, turn {game.state.turn}.", image=png)

    async def status(self, game_id: str, user_id: int, *, in_server: bool = False,
                     is_admin: bool = False) -> Reply:
        """The game's status: scenario, turn, phase, who is still to act, players, requests to
        join. Told to its players and host, and to members of its server (``in_server``, which
        the bot checks); a game made outside Discord has no server."""
        game = await self._game(game_id)
        state = game.state
        players = await self.store.players(game_id)
        if (game.record.guild_id is not None and not in_server
                and not self._is_host(game, user_id, is_admin)
                and all(p.user_id != user_id for p in players)):
            raise UmpireError(seats.NOT_SEEN)
        seated = {s: [p.user_id for p in players if p.side == s] for s in state.sides}
        lines = [f"**{state.loaded.scenario.scenario.title}** (game `{game_id}`, {state.status})"]
        if state.status in ("active", "paused"):
            lines.append(f"{turn_heading(state, state.turn)}; {state.current.title}"
                         + (f" ({state.side_name(state.current.side)})"
                            if state.current.side else ""))
            waiting = ", ".join(state.side_name(s) for s in state.acting_sides())
            lines.append(f"Waiting for: {waiting or 'nobody'}")
        for side in state.sides:
            who = ", ".join(f"<@{u}>" for u in seated[side]) or "nobody yet"
            lines.append(f"{state.side_name(side)} ({side}): {who}")
        asking = await self.store.seat_requests(game_id)
        if asking:
            lines.append("Asking the host for a seat: " + ", ".join(
                f"{seats.mention(r.user_id)} ({r.side})" for r in asking))
        return Reply("\n".join(lines))

    async def units_text(self, game_id: str, user_id: int) -> Reply:
        """The player's own units: where they are, formation, strength (and stragglers), morale
        when not normal, and MPs left."""
        game = await self._game(game_id)
        side = await self.side_of(game_id, user_id)
        board = game.state.loaded.board
        lines = []
        for u in sorted(game.state.units_of(side), key=lambda u: u.name):
            where = board.describe(u.cell) if u.cell else (
                f"arrives turn {u.arrives_turn}" if u.arrives_turn else "off the map")
            strength = f", {u.strength} SP" if u.combat else ""
            if u.stragglers:
                strength += f" and {u.stragglers} straggling"
            morale = f", {u.morale}" if u.morale != "normal" else ""
            lines.append(f"{u.name} ({u.kind}{strength}, {u.formation}{morale}) at {where}; "
                         f"{u.mp_left:g} MP left")
        return Reply("\n".join(lines) or "You have no units.")

    async def unit_names(self, game_id: str, user_id: int) -> list[str]:
        """Names of the player's own units, for autocomplete (never an enemy's)."""
        game = self._games.get(game_id) or await self._game(game_id)
        player = await self.store.get_player(game_id, user_id)
        if player is None:
            return []
        return sorted(u.name for u in game.state.units_of(player.side))

    async def visible_enemy_names(self, game_id: str, user_id: int, *,
                                  troops_only: bool = True) -> list[str]:
        """Names of the enemy units (``troops_only``: combat units) the player's side sees
        identified now, for autocomplete; read through ``rules.view.project``, so never a unit
        the side does not see."""
        game = self._games.get(game_id) or await self._game(game_id)
        player = await self.store.get_player(game_id, user_id)
        if player is None or game.state.status not in ("active", "paused"):
            return []
        view = project(game.state, player.side)
        return sorted({u.name for u in view.enemy_units() if u.level == IDENTIFIED
                       and (u.kind in COMBAT_KINDS or not troops_only)})

    async def sides(self, game_id: str) -> list[tuple[str, str]]:
        """The game's sides, each as its id and its name (public: every player may join one),
        from the scenario the game was pinned to."""
        game = self._games.get(game_id) or await self._game(game_id)
        return [(s, game.state.side_name(s)) for s in game.state.sides]

    async def place_names(self, game_id: str) -> list[str]:
        """The scenario's named places: public, printed on every map."""
        game = self._games.get(game_id) or await self._game(game_id)
        return sorted(p.name for p in game.loaded.board.places)

    async def inbox(self, game_id: str, user_id: int, page: int = 0, per_page: int = 5
                    ) -> tuple[list[DeliveryRecord], int]:
        """Messages to this player and their side, newest first, a page at a time; and the
        number of pages."""
        side = await self.side_of(game_id, user_id)
        who = (Recipient("player", str(user_id)), Recipient("side", side))
        total = await self.store.count_deliveries_for(game_id, *who)
        pages = max(1, -(-total // per_page))
        page = max(0, min(page, pages - 1))
        offset = max(0, total - (page + 1) * per_page)
        limit = min(per_page, total - page * per_page)
        items = await self.store.deliveries_for(game_id, *who, offset=offset, limit=max(0, limit))
        return list(reversed(items)), pages

    async def log_text(self, game_id: str, user_id: int, last: int = 15) -> Reply:
        """The recent public announcements and this side's own reports, oldest first."""
        side = await self.side_of(game_id, user_id)
        who = (Recipient("public", ""), Recipient("player", str(user_id)),
               Recipient("side", side))
        total = await self.store.count_deliveries_for(game_id, *who)
        items = await self.store.deliveries_for(game_id, *who, offset=max(0, total - last),
                                                limit=last)
        return Reply("\n\n".join(d.text for d in items) or "Nothing has happened yet.")

    async def games_of(self, user_id: int) -> list[GameRecord]:
        """The games a user plays in or hosts that are not over."""
        games = await self.store.games_of_user(user_id)
        return [g for g in games if g.status != "ended"]

    # -- committing ------------------------------------------------------------------------------
    async def _commit(self, game: _Game, outcome: Outcome, status: GameStatus | None = None
                      ) -> tuple[int, ...]:
        before, after = game.state, outcome.state
        if game.rolls_told is None:
            counts = await self.store.count_events(game.record.id, "die_rolled")
            game.rolls_told = {a.removeprefix("side:"): n for a, n in counts.items()
                               if a.startswith("side:")}
        messages = messages_for(before, outcome.events, after, game.record.id, game.rolls_told)
        deliveries = await self._address(game, after, messages)
        if status == "ended":
            deliveries.append(await self._record_delivery(game, outcome))
        snapshot = None
        if after.seq // SNAPSHOT_EVERY > before.seq // SNAPSHOT_EVERY:
            snapshot = to_snapshot(after)
        new_events = [NewEvent(type=e.type, payload=json.loads(ev.event_to_json(e)),
                               audience=e.audience) for e in outcome.events]
        updates = GameUpdate(status=status) if status else None
        try:
            ids = await self.store.commit(game.record.id, before.seq, new_events, deliveries,
                                          snapshot=snapshot, game_updates=updates)
        except ConcurrencyError:
            self._games.pop(game.record.id, None)
            raise UmpireError("the game changed meanwhile; please try again") from None
        game.state = after
        for e in outcome.events:
            if isinstance(e, ev.DieRolled) and e.audience.startswith("side:"):
                side = e.audience.removeprefix("side:")
                game.rolls_told[side] = game.rolls_told.get(side, 0) + 1
        return tuple(ids)

    async def _record_delivery(self, game: _Game, outcome: Outcome) -> NewDelivery:
        """The game record (with the events that end the game) and the list of the host's
        corrections, posted publicly in the same transaction as the end."""
        first = game.state.seq + 1
        events = [LoggedEvent(e.seq, e.type, e.audience, e.payload)
                  for e in await self.store.events(game.record.id)]
        events += [LoggedEvent(first + n, e.type, e.audience, json.loads(ev.event_to_json(e)))
                   for n, e in enumerate(outcome.events)]
        log = record.build(game.record, await self.store.game_sources(game.record.id), events)
        text = end_of_game_text(outcome.state, game.record.id, log.seed_hex,
                                corrections(events))
        return NewDelivery("public", "", text, record.to_json(log),
                           record.file_name(game.record.id))

    async def _address(self, game: _Game, state: GameState, messages: list[Message]
                       ) -> list[NewDelivery]:
        """Address each message: public to the channel, a side's to each of its players (or,
        with none seated, to the side's inbox), the host's to the host."""
        players = await self.store.players(game.record.id)
        out: list[NewDelivery] = []
        images: dict[str, bytes | None] = {}
        for m in messages:
            image = None
            if m.map_for is not None:
                if m.map_for not in images:
                    images[m.map_for] = await self.maps.side_map(
                        state, None if m.map_for == "umpire" else m.map_for)
                image = images[m.map_for]
            name = f"{m.map_for}-turn-{state.turn:02d}.png" if image else None
            if m.kind == "side":
                seated = [p for p in players if p.side == m.target]
                if not seated:
                    out.append(NewDelivery("side", m.target, m.text, image, name))
                for p in seated:
                    out.append(NewDelivery("player", str(p.user_id), m.text, image, name))
            elif m.kind == "host":
                out.append(NewDelivery("host", str(game.record.host_user_id), m.text))
            else:
                out.append(NewDelivery("public", "", m.text, image, name))
        return out

    async def _loaded(self, record: GameRecord) -> LoadedScenario:
        """The game's scenario from the copy stored when it was created, with the rule options
        chosen then. Only a game created before copies were stored reads its file."""
        sources = await self.store.game_sources(record.id)
        try:
            loaded = (catalog.load_sources(sources) if sources is not None
                      else catalog.load_file(Path(record.scenario_path)))
        except (FileProblems, ValueError) as e:
            raise UmpireError(f"game {record.id}'s scenario cannot be loaded: {e}") from None
        return catalog.with_options(loaded, _options(record))

    # -- hosts -----------------------------------------------------------------------------------
    @staticmethod
    def _is_host(game: _Game, user_id: int, is_admin: bool) -> bool:
        return is_admin or game.record.host_user_id == user_id

    def _require_host(self, game: _Game, user_id: int, is_admin: bool) -> None:
        if not self._is_host(game, user_id, is_admin):
            raise UmpireError("only the game's host can do that")


def _options(record: GameRecord) -> dict[str, str | int | bool]:
    """The rule options chosen when the game was created."""
    rules = record.options.get("rules")
    return {str(k): v for k, v in rules.items() if isinstance(v, str | int | bool)} \
        if isinstance(rules, dict) else {}


def _without(record: GameRecord) -> tuple[str, ...]:
    """Rule modules the group chose to play without (a game option set at creation)."""
    return tuple(str(m) for m in record.options.get("without", []))


def _acknowledge(state: GameState, command: cmd.Command, outcome: Outcome,
                 side: str = "") -> str:
    """The reply to the commanding player, from their own side's events only."""
    board = state.loaded.board
    for e in outcome.events:
        if isinstance(e, ev.UnitMoved):
            unit = outcome.state.units[e.unit]
            end = board.describe(unit.cell) if unit.cell else "?"
            text = (f"{unit.name} moved {len(e.path)} cell(s) to {end}, spending {e.mp:g} MP "
                    f"({unit.mp_left:g} left).")
            return text + (f" It stopped: {e.stopped}." if e.stopped else "")
        if isinstance(e, ev.UnitHalted):
            return (f"{outcome.state.units[e.unit].name} {e.reason} and halts where it "
                    "stands for the rest of this phase.")
        if isinstance(e, ev.FormationChanged):
            return f"{outcome.state.units[e.unit].name} is now in {e.formation}."
    if isinstance(command, cmd.Done):
        return "Noted: your side has finished this phase."
    if isinstance(command, cmd.Correct):
        return ("Done: the correction is logged. The game's channel is told that you made one "
                "(not what), and the end of the game lists it in full.")
    for e in outcome.events:  # a rule module's order: the first report to the side
        if side and e.audience == ev.side_audience(side):
            text = e.report(outcome.state)
            if text:
                return text
    return "Done."
