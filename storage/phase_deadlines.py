"""The stored side of phase deadlines: what the host set, and what the clock did in each step.

A game's setting is one row (``length_seconds`` NULL: no deadline), written with the time it was
set. A step's row is made when something happens to its deadline: the host extends it, the
reminder goes out, the deadline passes. Marking a step is a check-and-set inside the write
transaction that also queues the deliveries it causes, so that two passes of the clock (or two
processes, or a pass repeated after a crash) send a reminder or a ping once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from storage.clock import from_text, to_text
from storage.sql import Conn

#: What the clock records of a step: its reminder went out, its deadline passed.
StepMark = Literal["reminded", "passed"]


@dataclass(frozen=True, slots=True)
class DeadlineSetting:
    """The game's phase deadline as the host set it, and when."""

    length_seconds: int | None
    set_at: datetime


@dataclass(frozen=True, slots=True)
class StepDeadline:
    """What happened to one step's deadline (all zero or ``None`` until something did)."""

    turn: int
    step: int
    extra_seconds: int = 0
    reminded_at: datetime | None = None
    passed_at: datetime | None = None


async def read_setting(conn: Conn, game_id: str) -> DeadlineSetting | None:
    found = await conn.fetch(
        "SELECT length_seconds, set_at FROM phase_deadline_settings WHERE game_id = ?",
        (game_id,))
    if not found:
        return None
    length, set_at = found[0]
    return DeadlineSetting(None if length is None else int(length), from_text(str(set_at)))


async def write_setting(conn: Conn, game_id: str, length_seconds: int | None,
                        now: datetime) -> None:
    await conn.run(
        "INSERT INTO phase_deadline_settings (game_id, length_seconds, set_at) VALUES (?, ?, ?)"
        " ON CONFLICT (game_id) DO UPDATE SET length_seconds = excluded.length_seconds,"
        " set_at = excluded.set_at",
        (game_id, length_seconds, to_text(now)))


async def read_step(conn: Conn, game_id: str, turn: int, step: int
                    ) -> StepDeadline:
    found = await conn.fetch(
        "SELECT extra_seconds, reminded_at, passed_at FROM phase_deadline_steps"
        " WHERE game_id = ? AND turn = ? AND step = ?", (game_id, turn, step))
    if not found:
        return StepDeadline(turn, step)
    extra, reminded, passed = found[0]
    return StepDeadline(turn, step, int(extra),
                        None if reminded is None else from_text(str(reminded)),
                        None if passed is None else from_text(str(passed)))


async def _ensure_step(conn: Conn, game_id: str, turn: int, step: int) -> None:
    await conn.run(
        "INSERT INTO phase_deadline_steps (game_id, turn, step) VALUES (?, ?, ?)"
        " ON CONFLICT (game_id, turn, step) DO NOTHING",
        (game_id, turn, step))


async def extend_step(conn: Conn, game_id: str, turn: int, step: int,
                      seconds: int, rearm_reminder: bool) -> None:
    """Add ``seconds`` to the step's deadline; the deadline may pass again (a ping goes again),
    and with ``rearm_reminder`` so may the reminder."""
    await _ensure_step(conn, game_id, turn, step)
    await conn.run(
        "UPDATE phase_deadline_steps SET extra_seconds = extra_seconds + ?, passed_at = NULL"
        + (", reminded_at = NULL" if rearm_reminder else "")
        + " WHERE game_id = ? AND turn = ? AND step = ?", (seconds, game_id, turn, step))


async def mark_step(conn: Conn, game_id: str, turn: int, step: int,
                    mark: StepMark, now: datetime) -> bool:
    """Record ``mark`` for the step unless it is recorded already; whether this call did."""
    column = {"reminded": "reminded_at", "passed": "passed_at"}[mark]
    await _ensure_step(conn, game_id, turn, step)
    changed = await conn.execute(
        f"UPDATE phase_deadline_steps SET {column} = ?"
        f" WHERE game_id = ? AND turn = ? AND step = ? AND {column} IS NULL",
        (to_text(now), game_id, turn, step))
    return changed == 1
