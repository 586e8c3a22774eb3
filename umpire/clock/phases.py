"""Phase deadlines: the host sets them, the clock reminds the players and acts at the deadline.

Everything is stored (``storage.phase_deadlines``) and counted from stored times
(``umpire.clock.phase_clock``), so a restart changes nothing: whoever runs the game calls
``check_all`` now and then (the bot's outbox loop, on every pass). On each call, for each game
in play with a deadline:

- once three quarters of the phase's time have run, each seated player of a side still at the
  phase gets one private reminder with the time left (recorded with the reminders, in one
  transaction: sent once, whatever the number of passes or processes);
- each mark is written only while the game is at the seq it was read at: a pass that finds
  the game moved on by another process (the phase may be over) writes nothing and leaves the
  step to the next pass, which reads the game again;
- at the deadline, under ``deadline_action = "done"``, the host's ``DeadlinePassed`` command
  marks the sides still at it done: logged, so ``vedette verify`` decides it again, with a
  request id made of the game, turn and step so that it applies once; under ``"ping"`` the host
  gets one private message and the channel is told the host was told.

A paused game's clock stands still (ruling FLOW-23): nothing fires while it is paused, and the
time paused is added to the deadline.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from rules import commands as cmd
from rules.knowledge.public import waiting_for
from rules.state import GameState
from rules.turn.deadline import phase_name
from rules.turn.status import GameStatus
from storage.errors import ConcurrencyError
from storage.phase_deadlines import DeadlineSetting
from storage.records import GameRecord, NewDelivery, PlayerRecord
from umpire.answers import Reply, UmpireError
from umpire.clock.phase_clock import (
    DEADLINE_ACTION,
    PING,
    PhaseClock,
    duration_words,
    parse_duration,
    parse_length,
    step_clock,
)
from umpire.games.options import core_option
from umpire.games.repository import LiveGame
from umpire.games.retrying import Stale, stale_write
from umpire.games.routing import status_message
from umpire.words import replies as wording
from umpire.words.deadlines import timestamp

if TYPE_CHECKING:
    from umpire.service import Umpire

REMINDED = "reminded"
MARKED_DONE = "marked done"
HOST_PINGED = "host pinged"


# -- the host's tools --------------------------------------------------------------------------
async def set_length(umpire: Umpire, game_id: str, user_id: int, length: str, *,
                     is_admin: bool = False) -> Reply:
    """Set (or, with ``none``, take away) the deadline of every phase; announced in the game's
    channel. Bad words or a finished game: refused, nothing changes."""
    async with umpire.repository.lock(game_id):
        record = await _hosted(umpire, game_id, user_id, is_admin)
        state = await umpire.repository.state_for(game_id)
        if state.status == GameStatus.ENDED:
            raise UmpireError("the game is over")
        chosen = parse_length(length)
        seconds = None if chosen is None else int(chosen.total_seconds())
        setting = await umpire.store.deadline_setting(game_id)
        if setting is not None and setting.length_seconds == seconds:
            return Reply(f"The phase deadline is already {_length_words(seconds)}.")
        if chosen is None:
            text = "The host took the phase deadline away: phases wait for every side."
        else:
            text = f"The host set a deadline of {duration_words(chosen)} for each phase."
        now = umpire.store.now()
        clock = None
        if chosen is not None:
            clock = await _clock(umpire, game_id, state, now, length_seconds=seconds, set_at=now)
            text += _ends_words(clock, state, now)
        await umpire.store.set_deadline_length(
            record.id, seconds, [NewDelivery("public", "", text),
                                 *_status_edit(state, clock, now)])
        return Reply(f"Done: {text}")


async def extend(umpire: Umpire, game_id: str, user_id: int, by: str, *,
                 is_admin: bool = False) -> Reply:
    """Give the current phase more time; announced in the game's channel. The reminder goes
    out again if its new time is still to come, and the deadline acts again when it passes.
    Decided like a command: if another process moved the game on meanwhile (ended the phase,
    say), the extension is decided again on the game as it is now."""
    async def decide(game: LiveGame) -> Reply:
        await _hosted(umpire, game_id, user_id, is_admin)
        state = game.state
        more = parse_duration(by)
        now = umpire.store.now()
        if not state.status.in_play:
            raise UmpireError("only a game in play has a phase to extend")
        clock = await _clock(umpire, game_id, state, now)
        if clock is None:
            found = await umpire.store.game_and_last_seq(game_id)
            if found is not None and found[1] != state.seq:
                # The step's records were read after another process moved the game on, so
                # they are not this copy's: decide again on the game as it is now.
                raise Stale
            raise UmpireError("this game has no phase deadline: set one with "
                              "/host deadline length:")
        extended = replace(clock, length=clock.length + more)
        rearm = extended.reminder_at > now
        text = (f"The host gave the {phase_name(state)} (turn {state.turn}) "
                f"{duration_words(more)} more: it now ends at {timestamp(extended.deadline)}.")
        with stale_write():
            await umpire.store.extend_step_deadline(
                game_id, clock.turn, clock.step, int(more.total_seconds()),
                rearm_reminder=rearm, deliveries=[NewDelivery("public", "", text),
                                                  *_status_edit(state, extended, now)],
                at_seq=state.seq)
        return Reply(f"Done: {text}")

    return await umpire.repository.decided(game_id, decide)


async def describe(umpire: Umpire, game_id: str, user_id: int, *,
                   is_admin: bool = False) -> Reply:
    """The game's phase deadline and the current phase's, in words, for the host."""
    await _hosted(umpire, game_id, user_id, is_admin)
    state = await umpire.repository.state_for(game_id)
    setting = await umpire.store.deadline_setting(game_id)
    seconds = None if setting is None else setting.length_seconds
    now = umpire.store.now()
    text = f"Phase deadline: {_length_words(seconds)}."
    clock = await _clock(umpire, game_id, state, now)
    if clock is not None:
        text += _ends_words(clock, state, now)
    return Reply(text)


# -- the clock ---------------------------------------------------------------------------------
async def check_game(umpire: Umpire, game_id: str, now: datetime | None = None) -> list[str]:
    """Send the current phase's reminder and apply its deadline when their times have come,
    once each; returns what was done (``REMINDED``, ``MARKED_DONE``, ``HOST_PINGED``)."""
    did: list[str] = []
    setting = await umpire.store.deadline_setting(game_id)
    if setting is None or setting.length_seconds is None:
        return did  # most games: no deadline, and no need to wait for the game's lock
    async with umpire.repository.lock(game_id):
        now = now or umpire.store.now()
        state = await umpire.repository.state_for(game_id)
        if state.status != GameStatus.ACTIVE:
            return did  # a paused game's clock stands still; a finished one has none
        clock = await _clock(umpire, game_id, state, now)
        if clock is None or clock.step_record.passed_at is not None:
            return did
        record = await umpire.store.get_game(game_id)
        assert record is not None
        due = clock.reminder_at <= now < clock.deadline
        ping = core_option(state.loaded.scenario.scenario.options, DEADLINE_ACTION) == PING
        try:
            if due and clock.step_record.reminded_at is None \
                    and await _remind(umpire, record, state, clock, now):
                did.append(REMINDED)
            if now < clock.deadline:
                return did
            if ping:
                if await _ping(umpire, record, state, clock):
                    did.append(HOST_PINGED)
                return did
        except ConcurrencyError:
            # Another process moved the game on since it was read (it may have ended the
            # phase): nothing was written, and the next pass reads the game again.
            return did
    # Outside the lock: the host's command takes it. Naming the step makes a late command
    # (a player's /done came first) a refusal that changes nothing.
    try:
        reply = await umpire.handle(game_id, record.host_user_id,
                                    cmd.DeadlinePassed(turn=clock.turn, step=clock.step),
                                    is_admin=True, request_id=request_id(game_id, clock))
    except UmpireError:
        return did
    if not reply.repeated:
        did.append(MARKED_DONE)
    return did


async def check_all(umpire: Umpire, now: datetime | None = None) -> list[tuple[str, str]]:
    """``check_game`` for every game in play; (game id, what was done) for each action."""
    done: list[tuple[str, str]] = []
    for game in await umpire.store.list_games(status=GameStatus.ACTIVE):
        done += [(game.id, what) for what in await check_game(umpire, game.id, now)]
    return done


def request_id(game_id: str, clock: PhaseClock) -> str:
    """The deadline's request: one per game, turn and step, so it is applied once."""
    return f"phase-deadline:{game_id}:{clock.turn}:{clock.step}"


def waiting_players(state: GameState, players: list[PlayerRecord],
                    ready: Collection[int] = ()) -> list[PlayerRecord]:
    """The seated players still to act in the current step: those of the sides not done who
    have not said they are ready (a side shared by several players waits for each of them)."""
    acting = state.acting_sides()
    return [p for p in players if p.side in acting and p.user_id not in ready]


async def _remind(umpire: Umpire, record: GameRecord, state: GameState, clock: PhaseClock,
                  now: datetime) -> bool:
    ping = core_option(state.loaded.scenario.scenario.options, DEADLINE_ACTION) == PING
    then = ("At the deadline the host is told." if ping
            else "At the deadline the umpire marks your side done.")
    text = (f"Reminder, game {record.id}: the {phase_name(state)} (turn {state.turn}) ends in "
            f"{duration_words(clock.left(now))}, at {timestamp(clock.deadline)}, and your "
            f"side has not finished it. {then} Say /done when your orders are in.")
    ready = await umpire.store.ready_players(record.id, clock.turn, clock.step)
    players = waiting_players(state, await umpire.store.players(record.id), ready)
    return await umpire.store.mark_step_deadline(
        record.id, clock.turn, clock.step, "reminded",
        [NewDelivery("player", str(p.user_id), text) for p in players], at_seq=state.seq)


async def _ping(umpire: Umpire, record: GameRecord, state: GameState, clock: PhaseClock
                ) -> bool:
    name = f"the {phase_name(state)} (turn {state.turn})"
    seated = await umpire.store.get_player(record.id, record.host_user_id)
    # A host who also plays learns no more than the channel: in a phase played at once, who is
    # still at it is the other side's information (ruling FLOW-25).
    named = state.acting_sides() if seated is None else waiting_for(state)
    who = (", ".join(state.side_name(s) for s in named) if named
           else "the sides still at their orders")
    host_text = (f"Game {record.id}: the deadline of {name} has passed; waiting for {who}. "
                 "End the phase with /host endphase, or give more time with "
                 "/host deadline extend:.")
    public = f"The deadline of {name} has passed; the host has been told."
    return await umpire.store.mark_step_deadline(
        record.id, clock.turn, clock.step, "passed",
        [NewDelivery("host", str(record.host_user_id), host_text),
         NewDelivery("public", "", public)], at_seq=state.seq)


async def _clock(umpire: Umpire, game_id: str, state: GameState, now: datetime, *,
                 length_seconds: int | None = None, set_at: datetime | None = None
                 ) -> PhaseClock | None:
    """The current step's deadline (``None``: none); ``length_seconds``/``set_at`` as they
    would be after setting them now."""
    setting = None if set_at is None else DeadlineSetting(length_seconds, set_at)
    return await step_clock(umpire.store, game_id, state, now, setting=setting)


def _status_edit(state: GameState, clock: PhaseClock | None, now: datetime
                 ) -> list[NewDelivery]:
    """The edit of the turn's status post that shows the current step's deadline as it now is
    (none while no step is open: the game has not started, or is over)."""
    if not state.status.in_play or not state.current.acting(state.sides):
        return []
    post = status_message(state, None if clock is None else clock.shown(now))
    return [NewDelivery("public", "", post.text, edit_key=post.edit_key)]


def _ends_words(clock: PhaseClock | None, state: GameState, now: datetime) -> str:
    if clock is None:
        return ""
    if clock.stopped:
        return (f" The {phase_name(state)} (turn {state.turn}) has "
                f"{duration_words(clock.left(now))} left; the clock stands still while the game "
                "is paused.")
    return (f" The {phase_name(state)} (turn {state.turn}) ends at "
            f"{timestamp(clock.deadline)}.")


def _length_words(seconds: int | None) -> str:
    return "none" if seconds is None else duration_words(timedelta(seconds=seconds))


async def _hosted(umpire: Umpire, game_id: str, user_id: int, is_admin: bool) -> GameRecord:
    record = await umpire.store.get_game(game_id)
    if record is None:
        raise UmpireError(wording.no_such_game(game_id))
    if not is_admin and record.host_user_id != user_id:
        raise UmpireError(wording.HOST_ONLY)
    return record
