"""A phase's deadline in words: a Discord timestamp, which every reader sees in their own time
zone, absolute and relative (``<t:UNIX:f> (<t:UNIX:R>)``).

Everything a deadline is made of is public: the length the host set and when, the moment the
phase began, the host's extensions and pauses (``umpire.clock.phase_clock`` counts it). So the
same words go to every side and the channel, whatever any side did in secret (ruling FLOW-27).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta


def duration_words(delta: timedelta) -> str:
    """``2 d 3 h``, ``5 h 20 min``, ``45 min``; ``less than a minute`` below one."""
    minutes = int(delta.total_seconds() // 60)
    if minutes < 1:
        return "less than a minute"
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [f"{days} d" if days else "", f"{hours} h" if hours else "",
             f"{minutes} min" if minutes and not days else ""]
    return " ".join(p for p in parts if p)


@dataclass(frozen=True, slots=True)
class PhaseDeadline:
    """The deadline of one step (``turn``, ``step``) as everyone may be told it."""

    turn: int
    step: int
    #: When the step's time runs out (while ``stopped``, if the game resumed now).
    at: datetime
    #: The game is paused: the clock stands still and ``at`` moves on with it.
    stopped: bool = False
    #: The time left (what a pause keeps).
    left: timedelta = timedelta()

    def of(self, turn: int, step: int) -> bool:
        """Whether this is the deadline of that step."""
        return (self.turn, self.step) == (turn, step)


def timestamp(at: datetime) -> str:
    """``<t:1777651200:f> (<t:1777651200:R>)``: the moment in the reader's own time zone, and
    how long from now, kept up to date by Discord."""
    unix = int(at.timestamp())
    return f"<t:{unix}:f> (<t:{unix}:R>)"


def deadline_words(deadline: PhaseDeadline) -> str:
    """When the phase ends: ``<t:…:f> (<t:…:R>)``, or while the game is paused, that the clock
    stands still and how much time is left."""
    if deadline.stopped:
        return (f"the clock stands still while the game is paused "
                f"({duration_words(deadline.left)} left)")
    return timestamp(deadline.at)


def deadline_line(deadline: PhaseDeadline | None) -> str:
    """The status post's and ``/game status``'s line (empty with no deadline)."""
    return "" if deadline is None else f"Deadline: {deadline_words(deadline)}"


def orders_due(deadline: PhaseDeadline | None) -> str:
    """The call for orders' and ``/help``'s line (empty with no deadline)."""
    if deadline is None:
        return ""
    if deadline.stopped:
        return f"Orders due: {deadline_words(deadline)}."
    return f"Orders due by {timestamp(deadline.at)}."


def answer_due(times_out: datetime | None, phase: PhaseDeadline | None) -> str:
    """A question's line saying when it times out (ruling CORE-14): ``times_out``, the moment
    the umpire's clock gives it its default (``None``: it waits for the step's end), unless the
    phase's deadline comes first (the phase's end settles it then); with neither, before the
    phase ends."""
    ends = phase if phase is not None and not phase.stopped else None
    if times_out is not None and (ends is None or times_out <= ends.at):
        return f"Answer by {timestamp(times_out)}."
    if ends is not None:
        return f"Answer by {timestamp(ends.at)}, when the phase ends."
    if phase is not None:
        return f"Answer before the phase ends ({deadline_words(phase)})."
    return "Answer before the phase ends."
