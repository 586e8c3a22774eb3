"""Reading a game for its players: maps, status, units, names for autocomplete, inbox and log.
Every read for a player starts from what their side may know."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from rules.ground.board import LabelError
from rules.state import GameState
from rules.turn.status import GameStatus
from rules.view import own_view, project, public_view
from storage.records import DeliveryRecord, PlayerRecord, Recipient
from umpire.answers import Reply, UmpireError
from umpire.base import UmpireBase
from umpire.clock.phase_clock import step_clock
from umpire.gameref import GameRef, ref_of
from umpire.games import seats
from umpire.games.repository import LiveGame
from umpire.reads import naming
from umpire.reads.naming import Action, Named
from umpire.verify import check as verify
from umpire.verify import record
from umpire.verify.record import LoggedEvent
from umpire.words import after_action, whole_truth
from umpire.words import markers as marker_words
from umpire.words import replies as wording
from umpire.words import units as units_list
from umpire.words import verdict as verdict_words
from umpire.words.stack import stack_text
from umpire.words.units import UnitsPage


class Reading(UmpireBase):
    """What players (and the umpire's own tools) read of a game."""

    # -- reading ---------------------------------------------------------------------------------
    async def side_of(self, game_id: str, user_id: int) -> str:
        player = await self.store.get_player(game_id, user_id)
        if player is None:
            raise UmpireError(wording.NOT_PLAYING)
        return player.side

    async def my_map(self, game_id: str, user_id: int, around: str | None = None,
                     radius: int | None = None, *, whole: bool = False,
                     stack: str | None = None) -> Reply:
        """The player's map: the window fitted to what their side knows, the ``whole`` board,
        or a window ``around`` a cell; with ``stack``, the list of what is in that cell."""
        game = await self.repository.get(game_id)
        side = await self._reader_side(game, user_id)
        # Worked out off the event loop, with the digest its picture is kept under.
        view, digest = await self.maps.looked_at(game.state, side)
        listed = ""
        if stack is not None:
            try:
                listed = "\n" + stack_text(view, view.board.parse(stack))
            except LabelError as e:
                raise UmpireError(str(e)) from None
            if around is None and not whole:
                around = stack  # the stack in the middle of its window
        try:
            png = await self._map_now(game, side, digest, around=around, radius=radius,
                                      whole=whole)
        except ValueError as e:
            raise UmpireError(str(e)) from None
        caption = wording.map_caption(view)
        return Reply(caption + (whole_truth.map_note(game.state) if side is None else "")
                     + listed, image=png)

    async def _reader_side(self, game: LiveGame, user_id: int) -> str | None:
        """The side whose view a read of ``user_id``'s shows, or ``None`` for the whole truth:
        the umpiring host's during play, everyone's once the game is over
        (``umpire.words.whole_truth``); anyone else who is not playing is refused."""
        if whole_truth.umpires(game.state, game.record.host_user_id, user_id):
            return None
        return whole_truth.shown_side(game.state, await self.side_of(game.record.id, user_id))

    async def status(self, game_id: str, user_id: int, *, in_server: bool = False,
                     is_admin: bool = False) -> Reply:
        """The game's status: scenario, turn, phase, who is still to act, players, requests to
        join. Told to its players and host, and to members of its server (``in_server``, which
        the bot checks); a game made outside Discord has no server."""
        game = await self.repository.get(game_id)
        state = game.state
        players = await self.store.players(game_id)
        self._require_onlooker(game, user_id, players, in_server=in_server, is_admin=is_admin)
        seated = {s: [p.user_id for p in players if p.side == s] for s in state.sides}
        asking = await self.store.seat_requests(game_id)
        now = self.store.now()
        clock = await step_clock(self.store, game_id, state, now)
        text = wording.status_text(public_view(state), game_id, state.status, seated,
                                   [(r.user_id, r.side) for r in asking],
                                   None if clock is None else clock.shown(now))
        if state.status == GameStatus.ENDED:
            # The result is public once the game is over, and is said again with how it was
            # reached (ruling VIC-4); before the end there is none to tell.
            text += "\n" + after_action.victory_text(state, await self._results(game_id))
        return Reply(text)

    async def _results(self, game_id: str) -> list[LoggedEvent]:
        """The game's victory results in the log, in order."""
        found = [e for kind in after_action.VICTORY_EVENTS
                 for e in await self.store.events_of_type(game_id, kind)]
        return [LoggedEvent(e.seq, e.type, e.audience, e.payload)
                for e in sorted(found, key=lambda e: e.seq)]

    async def units_text(self, game_id: str, user_id: int) -> Reply:
        """The player's own units: where they are, formation, strength (and stragglers), morale
        when not normal, and MPs left (every page of ``units_page``)."""
        game = await self.repository.get(game_id)
        side = await self._reader_side(game, user_id)
        if side is None:
            return Reply(whole_truth.units_text(game.state))
        return Reply(wording.units_text(project(game.state, side)))

    async def units_page(self, game_id: str, user_id: int, page: int = 0,
                         filter_text: str = "") -> UnitsPage:
        """One page of the player's own units as ``/units`` shows them
        (``umpire.words.units``), from their side's view; the page is brought within the
        list."""
        game = await self.repository.get(game_id)
        side = await self._reader_side(game, user_id)
        if side is None:
            return units_list.sides_page([own_view(game.state, s) for s in game.state.sides],
                                         page, filter_text)
        return units_list.units_page(project(game.state, side), page, filter_text)

    async def unit_names(self, game_id: str, user_id: int) -> list[str]:
        """Names of the player's own units, for autocomplete (never an enemy's)."""
        game = await self.repository.get(game_id)
        player = await self.store.get_player(game_id, user_id)
        if player is None:
            return []
        return wording.own_unit_names(project(game.state, player.side))

    async def marker_choices(self, game_id: str, user_id: int) -> list[tuple[str, str]]:
        """The player's own markers for autocomplete, each as the value an order reads and a
        label saying what is under it (``umpire.words.markers``); never an enemy marker."""
        game = await self.repository.get(game_id)
        player = await self.store.get_player(game_id, user_id)
        if player is None or not game.state.markers:
            return []
        return marker_words.own_marker_choices(project(game.state, player.side))

    async def visible_enemy_names(self, game_id: str, user_id: int, *,
                                  troops_only: bool = True) -> list[str]:
        """Names of the enemy units (``troops_only``: combat units) the player's side sees
        identified now, for autocomplete; read through ``rules.view.project``, so never a unit
        the side does not see."""
        game = await self.repository.get(game_id)
        player = await self.store.get_player(game_id, user_id)
        if player is None or not game.state.status.in_play:
            return []
        return wording.visible_enemy_names(project(game.state, player.side),
                                           troops_only=troops_only)

    async def _asking_side(self, game_id: str, user_id: int, *, in_play: bool = False
                           ) -> tuple[GameState, str] | None:
        """The game's state and the asking player's side, for autocomplete (``None`` when he
        plays no side in it, or, with ``in_play``, when the game is not under way)."""
        game = await self.repository.get(game_id)
        player = await self.store.get_player(game_id, user_id)
        if player is None or (in_play and not game.state.status.in_play):
            return None
        return game.state, player.side

    async def own_unit_choices(self, game_id: str, user_id: int) -> list[Named]:
        """The player's own units, each with its id, for autocomplete (never an enemy's)."""
        found = await self._asking_side(game_id, user_id)
        return naming.own_units(*found) if found else []

    async def fighter_choices(self, game_id: str, user_id: int, action: Action) -> list[Named]:
        """The player's own units that may fire (``action`` ``"fire"``) or assault now, as the
        rules offer it from the side's own view (``umpire.reads.naming.fighters``)."""
        found = await self._asking_side(game_id, user_id, in_play=True)
        return naming.fighters(*found, action) if found else []

    async def target_choices(self, game_id: str, user_id: int, action: Action,
                             units_text: str) -> list[tuple[str, str]]:
        """The targets the player's side sees, as (value, words), those the named units could
        strike now first, with distance and sight (``umpire.reads.naming.targets``)."""
        found = await self._asking_side(game_id, user_id, in_play=True)
        return naming.targets(*found, action, units_text) if found else []

    async def offer_choices(self, game_id: str, user_id: int, action: str) -> list[Named]:
        """The player's own units the rules offer for ``action`` now (``formation``,
        ``rally``, ...: ``umpire.reads.naming.offered``), each list made by the order's own
        check, so that what is offered is never refused for the unit itself."""
        found = await self._asking_side(game_id, user_id, in_play=True)
        return naming.offered(*found, action) if found else []

    async def mover_choices(self, game_id: str, user_id: int) -> list[Named]:
        """What ``/move`` may name now: the player's markers that may move, then his units
        that may (``umpire.reads.naming.movers``)."""
        found = await self._asking_side(game_id, user_id, in_play=True)
        return naming.movers(*found) if found else []

    async def force_choices(self, game_id: str, user_id: int) -> list[Named]:
        """The player's own commands and units on the map, for a march's ``force:``."""
        found = await self._asking_side(game_id, user_id)
        return naming.forces(*found) if found else []

    async def formation_choices(self, game_id: str, user_id: int, unit_text: str
                                ) -> list[str] | None:
        """The formations the player's unit named in ``unit_text`` could change to; ``None``
        when it names none of his units."""
        found = await self._asking_side(game_id, user_id)
        return naming.formations(*found, unit_text) if found else None

    async def sides(self, game_id: str) -> list[tuple[str, str]]:
        """The game's sides, each as its id and its name (public: every player may join one),
        from the scenario the game was pinned to."""
        game = await self.repository.get(game_id)
        return [(s, game.state.side_name(s)) for s in game.state.sides]

    async def place_names(self, game_id: str) -> list[str]:
        """The scenario's named places: public, printed on every map."""
        game = await self.repository.get(game_id)
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
        return await self.with_pictures(list(reversed(items))), pages

    async def log_text(self, game_id: str, user_id: int, last: int = 15) -> Reply:
        """The recent public announcements and this side's own reports, oldest first; once
        the game is over (or to the host who umpires it), every side's reports
        (``umpire.words.whole_truth``)."""
        game = await self.repository.get(game_id)
        side = await self._reader_side(game, user_id)
        if side is None:
            return Reply(wording.log_text(await self._whole_log(game_id, game.state, last)))
        who = (Recipient("public", ""), Recipient("player", str(user_id)),
               Recipient("side", side))
        total = await self.store.count_deliveries_for(game_id, *who)
        items = await self.store.deliveries_for(game_id, *who, offset=max(0, total - last),
                                                limit=last)
        return Reply(wording.log_text(d.text for d in items))

    async def _whole_log(self, game_id: str, state: GameState, last: int) -> list[str]:
        """The last messages of a finished game, public and to every side."""
        players = await self.store.players(game_id)
        side_of = {str(p.user_id): p.side for p in players}
        who = (Recipient("public", ""), *(Recipient("side", s) for s in state.sides),
               *(Recipient("player", u) for u in side_of))
        total = await self.store.count_deliveries_for(game_id, *who)
        # Each message may be stored once per player of its side: read enough of them.
        many = last * (1 + len(players))
        items = await self.store.deliveries_for(game_id, *who, offset=max(0, total - many),
                                                limit=many)
        return whole_truth.log_entries(state, items, side_of)[-last:]

    def _require_onlooker(self, game: LiveGame, user_id: int, players: Sequence[PlayerRecord],
                          *, in_server: bool, is_admin: bool,
                          refusal: str = seats.NOT_SEEN) -> None:
        """Who may read a game's public side (its status, a finished game's check and replay):
        its players and host, and members of its server (``in_server``, which the bot checks);
        a game made outside Discord has no server. Anyone else gets ``refusal``, which says
        what they can do instead for the reading they asked for."""
        if (game.record.guild_id is not None and not in_server
                and not self.repository.is_host(game, user_id, is_admin)
                and all(p.user_id != user_id for p in players)):
            raise UmpireError(refusal)

    async def verify_game(self, game_id: str, user_id: int, *, in_server: bool = False,
                          is_admin: bool = False) -> Reply:
        """Check a finished game as ``vedette verify`` does: every roll derived again from the
        published seed, every command decided again (off the event loop). Refused while the
        game is not over, since its seed is still secret."""
        game = await self.repository.get(game_id)
        self._require_onlooker(game, user_id, await self.store.players(game_id),
                               in_server=in_server, is_admin=is_admin,
                               refusal=seats.NOT_SEEN_VERIFY)
        if not whole_truth.over(game.state):
            raise UmpireError(verdict_words.NOT_OVER)
        log = await record.from_store(self.store, game.record)
        verdict = await asyncio.to_thread(verify.check, log)
        return Reply(verdict_words.verdict_text(verdict))

    async def games_of(self, user_id: int) -> list[GameRef]:
        """The games a user plays in or hosts that are not over."""
        games = await self.store.games_of_user(user_id)
        return [ref_of(g) for g in games if g.status != GameStatus.ENDED]
