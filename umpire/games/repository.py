"""The repository of games: loading a game (its latest snapshot plus the events after it), the
cache of loaded games, the per-game locks, and committing a decided outcome with the deliveries
it implies in one transaction (a snapshot every ``SNAPSHOT_EVERY`` events).

Other processes may commit to the same games (several bot processes on one database). The cache
is therefore only a copy: every command checks it against the log's last seq before using it,
and a commit that finds the log moved on is decided again from the log (``decided``,
``umpire.games.retrying``).

Nothing here decides a command or words a reply for a player: ``umpire.games.deciding`` decides,
``umpire.reads.reading`` reads for players, ``umpire.games.setting_up`` sets games up. The
``Umpire`` (``umpire.service``) holds one repository, ``self.repository``, which each of its
parts uses. A whole ``GameState`` is read here only (``state_for``, ``state_at``, ...), never
through a method of the ``Umpire``: it is for the umpire's own tools and tests.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TypeVar

from rules import events as ev
from rules.engine import Outcome
from rules.reading import event_from_json
from rules.scenario.loader import LoadedScenario
from rules.scenario.problems import FileProblems
from rules.state import GameState, from_snapshot, initial_state, replay, to_snapshot
from rules.view import project
from storage.errors import ConcurrencyError
from storage.records import (
    EventRecord,
    GameRecord,
    GameStatus,
    GameUpdate,
    NewDelivery,
    NewEvent,
    PlayerRecord,
)
from storage.store import Store
from umpire.answers import UmpireError
from umpire.clock.phase_clock import step_clock
from umpire.games import catalog, ready
from umpire.games.inbox import fold
from umpire.games.options import core_option
from umpire.games.retrying import RETRY, RetryPolicy, Stale
from umpire.games.routing import Message, Piece, call_for, messages_for
from umpire.games.standing import StandingNow, asked_again_text, standing_now, standing_text
from umpire.reads.drawn_maps import PICTURE_BYTES, DrawnMaps, picture_file, read_view
from umpire.reads.maps import MapMaker
from umpire.verify import record
from umpire.verify.record import LoggedEvent
from umpire.words import after_action
from umpire.words import replies as wording
from umpire.words.corrections import corrections, end_of_game_text
from umpire.words.deadlines import PhaseDeadline
from umpire.words.dossier import Section
from umpire.words.status_post import mention_line

SNAPSHOT_EVERY = 50

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Shown:
    """What the answer to a command shows the player who gave it: ``text``, followed by what
    the command caused for their side (``umpire.games.inbox``)."""

    user_id: int
    text: str


@dataclass(frozen=True, slots=True)
class Committed:
    """A commit's deliveries, and the words of the answer to the command it stored (``None``:
    nothing more than the ``Shown`` text it was given, or nobody to show it to)."""

    ids: tuple[int, ...]
    answer: str | None = None


#: States kept for the maps of a game's queued messages (``LiveGame.pictured``).
PICTURED_KEPT = 16


@dataclass
class LiveGame:
    """A loaded game: its record, its pinned scenario and its current state."""

    record: GameRecord
    loaded: LoadedScenario
    state: GameState
    #: How many secret rolls each side has been told (their numbers in the roll messages), as
    #: of ``state``: counted from the log when first needed, then kept up by this process's own
    #: commits. A copy another process has overtaken is dropped whole, counts and all.
    rolls_told: dict[str, int] | None = None
    #: The game's recent map pictures (``umpire.reads.drawn_maps``): each is kept under the digest
    #: of the view it shows, which no later commit changes, so they outlive the copy they were
    #: drawn from.
    pictures: DrawnMaps = field(default_factory=DrawnMaps)
    #: The seated players, in the order they joined, as read with the record when the command
    #: now being decided began (seats change without an event: they are read every time).
    players: tuple[PlayerRecord, ...] = ()

    #: The states this process's own commits reached that queued maps show, for each view the
    #: maps are of (a side id, or ``umpire``), by seq (the view's last ``PICTURED_KEPT``): a map
    #: drawn when its message is sent reads its state here, not rebuilt from the log. Each view
    #: has its own, so the enemy's maps never push out a side's.
    pictured: dict[str, OrderedDict[int, GameState]] = field(default_factory=dict)

    def state_kept(self, seq: int, view: str) -> GameState | None:
        """The state right after event ``seq``, if this copy has it at hand for ``view``."""
        if self.state.seq == seq:
            return self.state
        kept = self.pictured.get(view)
        return None if kept is None else kept.get(seq)

    def keep_pictured(self, before: GameState, states: Sequence[GameState],
                      deliveries: Sequence[NewDelivery]) -> None:
        """Keep the states of a commit (``states``: right after each of its events, the first
        following ``before``) that ``deliveries`` will draw maps of."""
        for d in deliveries:
            if d.image_view is None or d.image is not None or not states:
                continue
            index = len(states) - 1 if d.event_index is None else d.event_index % len(states)
            kept = self.pictured.setdefault(read_view(d.image_view)[0], OrderedDict())
            kept[before.seq + 1 + index] = states[index]
            while len(kept) > PICTURED_KEPT:
                kept.popitem(last=False)

    def player(self, user_id: int) -> PlayerRecord | None:
        """The user's seat, if they have one."""
        return next((p for p in self.players if p.user_id == user_id), None)

    def seated(self, side: str) -> list[int]:
        """The users seated on ``side``, first joined first."""
        return [p.user_id for p in self.players if p.side == side]


class Repository:
    """Games loaded from the store, cached, and committed back to it."""

    def __init__(self, store: Store, *, maps: MapMaker | None = None,
                 retry: RetryPolicy = RETRY) -> None:
        self.store = store
        self.maps = maps or MapMaker()
        self.retry = retry
        # In this process, one command per game at a time; across processes the store's seq
        # check serializes commits (``decided``).
        self._locks: dict[str, asyncio.Lock] = {}
        self._games: dict[str, LiveGame] = {}
        #: Held while a game is loaded: readers arriving meanwhile (several players at once
        #: after a restart) wait for that load instead of each loading the game again.
        self._loading: dict[str, asyncio.Lock] = {}

    # -- loading ---------------------------------------------------------------------------------
    def lock(self, game_id: str) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def get(self, game_id: str) -> LiveGame:
        """The game's current state: cached, or the latest snapshot plus the events after it.

        The cached copy is used only while the log's last seq is still its own: once another
        process has committed, the game is loaded again (keeping its drawn pictures). The
        record and the seats are read afresh with the last seq, in one query."""
        found = await self.store.game_now(game_id)
        if found is None:
            raise UmpireError(wording.no_such_game(game_id))
        record = found.record
        cached = self._games.get(game_id)
        if cached is not None and cached.state.seq == found.last_seq:
            cached.record, cached.players = record, found.players
            return cached
        async with self._loading.setdefault(game_id, asyncio.Lock()):
            cached = self._games.get(game_id)
            if cached is not None and cached.state.seq == found.last_seq:
                cached.record, cached.players = record, found.players
                return cached  # loaded by the reader this one waited for
            loaded = await self._loaded(record)
            state = await self.load_state(game_id, loaded, _without(record))
            game = LiveGame(record, loaded, state, players=found.players,
                            pictures=DrawnMaps(self._picture_share(len(loaded.side_ids) + 1)))
            if cached is not None:
                game.pictures = cached.pictures
            self._games[game_id] = game
            every_view(state)
            return game

    def _picture_share(self, views: int) -> Callable[[], int]:
        """The bytes of pictures each of a game's ``views`` may keep: ``PICTURE_BYTES`` shared
        evenly between the games this process has loaded, then between the game's views."""
        return lambda: PICTURE_BYTES // max(1, len(self._games)) // views

    def cached(self, game_id: str) -> LiveGame | None:
        """The game as this process last loaded it, if it has (nothing is read)."""
        return self._games.get(game_id)

    async def decided(self, game_id: str, decide: Callable[[LiveGame], Awaitable[T]]) -> T:
        """``decide`` the game as it stands, holding its lock: the one way a command that
        writes to a game runs.

        When the write finds the game moved on (``Stale``: another process committed this
        game since it was loaded), the copy is dropped and ``decide`` runs again on the game
        loaded afresh, after a short random pause (``umpire.games.retrying``). ``decide`` therefore
        writes nothing before the write that may be stale, so running it again neither doubles
        nor loses anything; a command the game no longer allows gets the rules' refusal."""
        async with self.lock(game_id):
            for failures in range(1, self.retry.tries + 1):
                try:
                    return await decide(await self.get(game_id))
                except Stale:
                    self._games.pop(game_id, None)
                    await asyncio.sleep(self.retry.pause(failures))
        raise UmpireError(wording.BUSY)

    async def state_for(self, game_id: str) -> GameState:
        """The current state, for the umpire's own tools (never shown to a player as is)."""
        return (await self.get(game_id)).state

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

    async def state_at(self, game_id: str, seq: int) -> GameState:
        """The state right after event ``seq``: the nearest snapshot before it and the log."""
        record = await self.store.get_game(game_id)
        if record is None:
            raise UmpireError(wording.no_such_game(game_id))
        loaded = await self._loaded(record)
        snap = await self.store.snapshot_at_or_before(game_id, seq)
        state = (initial_state(loaded, _without(record)) if snap is None
                 else from_snapshot(loaded, snap.payload, _without(record)))
        records = await self.store.events(game_id, after_seq=state.seq, limit=seq - state.seq)
        return replay(state, (event_from_json(json.dumps(r.payload), r.audience)
                              for r in records))

    # -- committing ------------------------------------------------------------------------------
    async def commit(self, game: LiveGame, outcome: Outcome, status: GameStatus | None = None,
                      extra: Sequence[NewDelivery] = (), shown: Shown | None = None,
                      seats: Sequence[PlayerRecord] | None = None,
                      commanding: str | None = None, standing: str | None = None
                      ) -> Committed:
        """Store the outcome's events with their deliveries; ``extra`` are told right after the
        first of them (the start's own post, say). ``commanding``: the side whose player gave
        the command (what it causes for that side is told now, not held: ``umpire.games.inbox``).
        ``shown``: what the answer to the command shows the player who gave it (their copy of
        their side's message is stored as sent, its words in the answer). ``seats``: the
        players the outcome was decided with, when it depends on them (the start's roster);
        the commit is stale if they changed meanwhile. ``standing``: the side whose standing
        orders or Done for the turn the umpire gives (what it causes for the side is held for
        its next dossier, as for any side whose Done for the turn stands:
        ``umpire.games.standing``).

        Raises ``Stale`` when another process committed this game first: nothing is stored,
        and this copy's roll counts are untouched (``decided`` drops it)."""
        before, after = game.state, outcome.state
        if game.rolls_told is None:
            counts = await self.store.count_events(game.record.id, "die_rolled")
            game.rolls_told = {a.removeprefix("side:"): n for a, n in counts.items()
                               if a.startswith("side:")}
        new_events = [NewEvent(type=e.type, payload=json.loads(ev.event_to_json(e)),
                               audience=e.audience) for e in outcome.events]
        # The events are stamped with this instant, which a step they open counts from
        # (ruling FLOW-20): the deadline the words show is counted with it.
        now = self.store.now()
        deadline = await self._deadline(game.record.id, before.seq, after, new_events, now)
        messages = messages_for(before, outcome.events, after, game.record.id, game.rolls_told,
                                deadline, now, outcome.states)
        stands = await standing_now(
            self.store, game.record.id, {side: game.seated(side) for side in after.sides},
            after, before.seq, outcome.events,
            any_one=ready.rule_of(core_option(after.loaded.scenario.scenario.options,
                                              ready.READY_OPTION)) is ready.ReadyRule.ANY)
        messages += _asked_again(stands, messages, after, game.record.id, deadline)
        messages = [await self._with_standing(game.record.id, after, m) for m in messages]
        quiet = set(stands.quiet) | ({standing} if standing else set())
        # On a side whose others are still at it, a player whose Done for the turn stands is
        # not called (ruling FLOW-70).
        # (A side's private thread is read by all its players: nobody is left out of it.)
        resting = {} if game.record.options.get("delivery") == "threads" else {
            side: users for side, users in stands.standing.items()
            if users and side not in quiet}
        folded = fold(messages, await self.store.held_news(game.record.id),
                      commanding=commanding, acknowledged=shown.text if shown else None,
                      acting=_acting(before, outcome.events, after),
                      ending=status == GameStatus.ENDED, quiet=quiet, resting=resting)
        answer = folded.answer if shown is not None else None
        deliveries = await self._address(game, after, folded.messages,
                                         Shown(shown.user_id, answer) if shown and answer
                                         else None)
        deliveries[1:1] = extra
        if status == GameStatus.ENDED:
            deliveries += await self._end_deliveries(game, outcome)
        snapshot = None
        if after.seq // SNAPSHOT_EVERY > before.seq // SNAPSHOT_EVERY:
            snapshot = to_snapshot(after)
        updates = GameUpdate(status=status) if status else None
        try:
            ids = await self.store.commit(game.record.id, before.seq, new_events, deliveries,
                                          snapshot=snapshot, game_updates=updates,
                                          seats=None if seats is None else
                                          [(p.user_id, p.side) for p in seats], at=now,
                                          hold=folded.hold, release=folded.release)
        except ConcurrencyError:
            raise Stale from None  # decided again by ``decided``
        game.state = after
        game.keep_pictured(before, outcome.states, deliveries)
        every_view(after)
        for e in outcome.events:
            if isinstance(e, ev.DieRolled) and e.audience.startswith("side:"):
                side = e.audience.removeprefix("side:")
                game.rolls_told[side] = game.rolls_told.get(side, 0) + 1
        return Committed(tuple(ids), answer)

    async def _with_standing(self, game_id: str, after: GameState, message: Message
                             ) -> Message:
        """A side's call for orders ends with its standing orders, when it has any."""
        if message.piece is not Piece.CALL:
            return message
        rows = await self.store.standing_orders(game_id, message.target)
        if not rows:
            return message
        return replace(message, text=f"{message.text}\n\n{standing_text(after.units, rows)}")

    async def _deadline(self, game_id: str, seq: int, after: GameState,
                        new_events: Sequence[NewEvent], now: datetime) -> PhaseDeadline | None:
        """The deadline of the step open after the batch, counted as the clock counts it
        (``umpire.clock.phase_clock``) with the batch stamped ``now``."""
        batch = [EventRecord(game_id, seq + 1 + n, e.type, e.payload, e.audience, now)
                 for n, e in enumerate(new_events)]
        clock = await step_clock(self.store, game_id, after, now, batch=batch)
        return None if clock is None else clock.shown(now)

    async def _end_deliveries(self, game: LiveGame, outcome: Outcome) -> list[NewDelivery]:
        """The after-action report (``umpire.words.after_action``), then the game record (with the
        events that end the game) and the list of the host's corrections: posted publicly in the
        same transaction as the end."""
        first = game.state.seq + 1
        events = [LoggedEvent(e.seq, e.type, e.audience, e.payload)
                  for e in await self.store.events(game.record.id)]
        events += [LoggedEvent(first + n, e.type, e.audience, json.loads(ev.event_to_json(e)))
                   for n, e in enumerate(outcome.events)]
        log = record.build(game.record, await self.store.game_sources(game.record.id), events)
        text = end_of_game_text(outcome.state, game.record.id, log.seed_hex,
                                corrections(events))
        report = after_action.report_delivery(outcome.state, game.record.id,
                                              log.seed_hex or "", events)
        return [report, NewDelivery("public", "", text, record.to_json(log),
                                    record.file_name(game.record.id))]

    async def _address(self, game: LiveGame, state: GameState, messages: list[Message],
                       shown: Shown | None = None) -> list[NewDelivery]:
        """Address each message: public to the channel, a side's to each of its players (or,
        with none seated, to the side's inbox), the host's to the host.

        A public post calling sides (``Message.mentions``) names their seated players and may
        notify exactly them. The side message that is the answer to the command
        (``Message.answers``) is stored as sent for the player who gave it, in the words the
        answer showed them (``shown``), so that /inbox still has it; side-mates get theirs as
        usual."""
        players = game.players
        if game.record.options.get("delivery") == "threads":
            # A side's private thread posts one copy for the whole side, its first seated
            # player's: that copy must go out even when the answer showed it to that player.
            shown = None
        out: list[NewDelivery] = []
        for m in messages:
            # A map goes with the message as the view it shows, drawn when the message is sent
            # (``map_at``): the same picture for every player of the view.
            view = m.map_for if self.maps.enabled else None
            name = picture_file(m.map_for, state.turn) if view and m.map_for else None
            if m.kind == "side":
                seated = [p for p in players if p.side == m.target]
                if seated and (m.skip or m.only):
                    seated = [p for p in seated if p.user_id not in m.skip
                              and (not m.only or p.user_id in m.only)]
                    if not seated:
                        continue
                if not seated:
                    out.append(NewDelivery("side", m.target, m.text, None, name,
                                           list(m.buttons), image_view=view,
                                           edit_key=m.edit_key))
                for p in seated:
                    answered = (shown is not None and shown.user_id == p.user_id
                                and m.answers and view is None)
                    text = shown.text if answered and shown is not None else m.text
                    if answered:
                        shown = None  # the answer showed it once
                    out.append(NewDelivery("player", str(p.user_id), text, None, name,
                                           list(m.buttons), image_view=view, sent=answered,
                                           edit_key=m.edit_key))
            elif m.kind == "host":
                out.append(NewDelivery("host", str(game.record.host_user_id), m.text))
            else:
                called = tuple(sorted(p.user_id for p in players if p.side in m.mentions))
                text = f"{m.text}\n{mention_line(called)}" if called else m.text
                out.append(NewDelivery("public", "", text, None, name, image_view=view,
                                       edit_key=m.edit_key, mentions=called))
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
    def is_host(game: LiveGame, user_id: int, is_admin: bool) -> bool:
        return is_admin or game.record.host_user_id == user_id

    def require_host(self, game: LiveGame, user_id: int, is_admin: bool) -> None:
        if not self.is_host(game, user_id, is_admin):
            raise UmpireError(wording.HOST_ONLY)


def every_view(state: GameState) -> None:
    """Work out every side's view of the game as it now stands (``rules.view.project`` keeps
    them). A command works out the views of the sides it tells something; without this, a
    side's next read (its ``/units``, its map, an autocomplete) would find its view ready after
    a command that told it something and work it out afresh after one that told it nothing,
    answering a little slower just after the enemy did something hidden (ruling INFO-13)."""
    for side in state.sides:
        project(state, side)


def _acting(before: GameState, events: Sequence[ev.Event], after: GameState) -> set[str]:
    """The sides whose phase a batch ends or begins: those still acting before it, and those
    acting in a step it opens (public facts, and the side's own)."""
    acting = set(before.acting_sides())
    for e in events:
        if isinstance(e, ev.PhaseBegan):
            acting.update(after.steps[e.step].acting(after.sides))
    return acting


def _asked_again(stands: StandingNow, messages: Sequence[Message], after: GameState,
                 game_id: str, deadline: PhaseDeadline | None) -> list[Message]:
    """The line to each side whose Done for the turn the batch lifted, saying why; and its
    call for orders when it is acting in a step it was not called to (it was quiet)."""
    out: list[Message] = []
    for side, why in stands.lifted.items():
        out.append(Message("side", side, asked_again_text(why), section=Section.NOW))
        called = any(m.kind == "side" and m.target == side and m.piece is Piece.CALL
                     for m in messages)
        if (side in stands.was_quiet and side not in stands.quiet and not called
                and side in after.acting_sides() and side not in after.done):
            out.append(call_for(after, side, game_id, deadline))
    return out


def _options(record: GameRecord) -> dict[str, str | int | bool]:
    """The rule options chosen when the game was created."""
    rules = record.options.get("rules")
    return {str(k): v for k, v in rules.items() if isinstance(v, str | int | bool)} \
        if isinstance(rules, dict) else {}


def _without(record: GameRecord) -> tuple[str, ...]:
    """Rule modules the group chose to play without (a game option set at creation)."""
    return tuple(str(m) for m in record.options.get("without", []))


