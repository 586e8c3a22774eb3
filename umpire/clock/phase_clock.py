"""A phase's deadline, worked out from what is stored: no clock is kept in memory.

The host sets one length for every phase (``/host deadline length:24h``). A phase's deadline is
the length after the phase began (the stored time of its ``phase_began`` event), plus the host's
extensions of that phase, plus the time the game spent paused since (the clock stops while the
game is paused: ruling FLOW-23). A length set while a phase is open counts, for that phase, from
the moment it was set (ruling FLOW-22). The reminder is due when three quarters of the time have
run. What happens at the deadline is the game option ``deadline_action``: ``done`` (the sides
still at it are marked done) or ``ping`` (the host is told).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from rules.state import GameState
from storage.phase_deadlines import DeadlineSetting, StepDeadline
from storage.records import EventRecord
from storage.store import Store
from umpire.answers import UmpireError
from umpire.words.deadlines import PhaseDeadline, duration_words

__all__ = ["DEADLINE_ACTION", "DEADLINE_ACTIONS", "DONE", "PING", "REMINDER_SHARE", "PhaseClock",
           "duration_words", "parse_duration", "parse_length", "phase_clock", "step_clock"]

#: The game option saying what the deadline does: mark the waiting sides done, or ping the host.
DEADLINE_ACTION = "deadline_action"
DONE = "done"
PING = "ping"
DEADLINE_ACTIONS: tuple[str, ...] = (DONE, PING)

#: The share of a phase's time after which the players still at it are reminded.
REMINDER_SHARE = 0.75
SHORTEST = timedelta(minutes=1)
LONGEST = timedelta(days=30)
#: Words that take the deadline away.
NO_DEADLINE = frozenset({"none", "off", "no"})

_UNITS = {"d": timedelta(days=1), "h": timedelta(hours=1), "m": timedelta(minutes=1)}
_PART = re.compile(r"(\d{1,5})\s*([dhm])")
_WHOLE = re.compile(r"(?:\s*\d{1,5}\s*[dhm])+\s*")


def parse_duration(text: str) -> timedelta:
    """``30m``, ``90m``, ``24h``, ``2d``, ``1d12h``: a length between a minute and 30 days.
    Anything else is refused with an example of what is understood."""
    words = text.strip().lower()
    if not _WHOLE.fullmatch(words):
        raise UmpireError(f"{text.strip()[:20]!r} is not a length of time: write it like 30m, "
                          "90m, 24h, 2d or 1d12h")
    total = sum((int(n) * _UNITS[unit] for n, unit in _PART.findall(words)), timedelta())
    if not SHORTEST <= total <= LONGEST:
        raise UmpireError("a deadline is between 1 minute and 30 days")
    return total


def parse_length(text: str) -> timedelta | None:
    """A phase length as the host writes it; ``None`` for ``none`` (no deadline)."""
    return None if text.strip().lower() in NO_DEADLINE else parse_duration(text)


@dataclass(frozen=True, slots=True)
class PhaseClock:
    """The running deadline of the current step."""

    turn: int
    step: int
    #: When the step's time began to count (its start, or when the length was set).
    starts: datetime
    #: The length with the step's extensions.
    length: timedelta
    #: Time spent paused since ``starts`` (up to now while still paused).
    paused: timedelta
    #: The game is paused now: the clock stands still.
    stopped: bool
    step_record: StepDeadline

    @property
    def deadline(self) -> datetime:
        return self.starts + self.length + self.paused

    @property
    def reminder_at(self) -> datetime:
        return self.starts + self.length * REMINDER_SHARE + self.paused

    def left(self, now: datetime) -> timedelta:
        return max(timedelta(), self.deadline - now)

    def shown(self, now: datetime) -> PhaseDeadline:
        """The deadline as the players are told it (``umpire.words.deadlines``)."""
        return PhaseDeadline(self.turn, self.step, self.deadline, self.stopped, self.left(now))


def phase_clock(step_events: Sequence[EventRecord], setting: DeadlineSetting | None,
                step_record: StepDeadline, now: datetime) -> PhaseClock | None:
    """The deadline of the step that ``step_events`` open (its ``phase_began`` event and every
    event after it), or ``None`` when the game has no deadline."""
    if setting is None or setting.length_seconds is None or not step_events:
        return None
    began = step_events[0]
    assert began.type == "phase_began"
    starts = max(began.created_at, setting.set_at)
    paused = timedelta()
    since: datetime | None = None  # a step begins only while the game runs
    for event in step_events[1:]:
        if event.type != "game_paused":
            continue
        if event.payload.get("paused") and since is None:
            since = event.created_at
        elif not event.payload.get("paused") and since is not None:
            paused += _after(since, event.created_at, starts)
            since = None
    if since is not None:
        paused += _after(since, now, starts)
    return PhaseClock(turn=int(began.payload["turn"]), step=int(began.payload["step"]),
                      starts=starts,
                      length=timedelta(seconds=setting.length_seconds + step_record.extra_seconds),
                      paused=paused, stopped=since is not None, step_record=step_record)


async def step_clock(store: Store, game_id: str, state: GameState, now: datetime, *,
                     setting: DeadlineSetting | None = None,
                     batch: Sequence[EventRecord] = ()) -> PhaseClock | None:
    """The deadline of the step ``state`` stands in (``None``: none, or no step is open), read
    from the store. ``setting``: the setting to count with instead of the stored one (as it
    would be once set). ``batch``: events about to be stored with ``state`` (stamped with
    ``now``): a ``phase_began`` among them opens the step then, and a pause among them counts.
    Every reader of a deadline counts it here, with ``phase_clock``."""
    if not state.status.in_play or not state.current.acting(state.sides):
        return None
    if setting is None:
        setting = await store.deadline_setting(game_id)
    if setting is None or setting.length_seconds is None:
        return None
    opened = [n for n, e in enumerate(batch) if e.type == "phase_began"]
    step_events = (list(batch[opened[-1]:]) if opened
                   else [*await store.step_clock_events(game_id), *batch])
    step_events = [e for e in step_events if e.type in ("phase_began", "game_paused")]
    if not step_events or (int(step_events[0].payload["turn"]),
                           int(step_events[0].payload["step"])) != (state.turn, state.step):
        return None
    record = await store.step_deadline(game_id, state.turn, state.step)
    return phase_clock(step_events, setting, record, now)


def _after(start: datetime, end: datetime, origin: datetime) -> timedelta:
    """The part of ``start``..``end`` after ``origin``."""
    return max(timedelta(), end - max(start, origin))
