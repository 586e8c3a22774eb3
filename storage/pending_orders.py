"""The stored side of orders waiting for their player's confirmation (``umpire.reads.pending``).

One row per previewed order: whose it is, what it orders (a JSON body the umpire reads), the
turn and step of play it was previewed in (it expires when they are over), its status, and where
its preview was shown (JSON, so that the front end can edit that message when it expires).
Changing a status is a check-and-set inside one write transaction, so that a Confirm and the
phase's end (or two clicks) racing each other settle the order once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storage.clock import from_text, to_text
from storage.json_codec import decode_object
from storage.sql import Conn

COLUMNS = "id, game_id, user_id, kind, body, turn, step, status, shown, created_at"


@dataclass(frozen=True, slots=True)
class PendingRow:
    id: str
    game_id: str
    user_id: int
    kind: str
    body: dict[str, Any]
    turn: int
    step: int
    status: str
    shown: dict[str, Any]
    created_at: datetime


def _row(found: Any) -> PendingRow:
    (pid, game_id, user_id, kind, body, turn, step, status, shown, created_at) = found
    return PendingRow(str(pid), str(game_id), int(user_id), str(kind),
                      decode_object(body, f"order of pending order {pid!r}"),
                      int(turn), int(step), str(status),
                      decode_object(shown, f"preview place of pending order {pid!r}"),
                      from_text(str(created_at)))


async def insert(conn: Conn, row: PendingRow) -> None:
    await conn.run(
        f"INSERT INTO pending_orders ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (row.id, row.game_id, row.user_id, row.kind, json.dumps(row.body, sort_keys=True),
         row.turn, row.step, row.status, json.dumps(row.shown, sort_keys=True),
         to_text(row.created_at)))


async def read(conn: Conn, pending_id: str) -> PendingRow | None:
    found = await conn.fetch(
        f"SELECT {COLUMNS} FROM pending_orders WHERE id = ?", (pending_id,))
    return _row(found[0]) if found else None


async def open_of_game(conn: Conn, game_id: str) -> list[PendingRow]:
    found = await conn.fetch(
        f"SELECT {COLUMNS} FROM pending_orders WHERE game_id = ? AND status = 'open'"
        " ORDER BY created_at, id", (game_id,))
    return [_row(r) for r in found]


async def set_status(conn: Conn, pending_id: str, status: str,
                     only_from: str | None = None) -> bool:
    """Set the order's status (only if it is ``only_from`` now, when given); whether it was
    set."""
    if only_from is None:
        changed = await conn.execute("UPDATE pending_orders SET status = ? WHERE id = ?",
                                     (status, pending_id))
    else:
        changed = await conn.execute(
            "UPDATE pending_orders SET status = ? WHERE id = ? AND status = ?",
            (status, pending_id, only_from))
    return changed > 0


async def set_shown(conn: Conn, pending_id: str, shown: dict[str, Any]) -> None:
    await conn.run("UPDATE pending_orders SET shown = ? WHERE id = ?",
                       (json.dumps(shown, sort_keys=True), pending_id))
