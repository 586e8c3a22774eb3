"""Orders waiting for the player's confirmation, kept in the database so that their Confirm and
Cancel buttons work after a restart (the bot reaches them through ``Umpire.save_pending_move``,
``Umpire.pending_move`` and ``Umpire.settle_pending_move``). A button's custom id carries the game
id and the pending order's id; the order itself (unit and route) is stored under that id.

A confirmed order is committed through the umpire with a request id derived from the pending
order (``request_id``) *before* the pending order is settled: a crash between the two leaves it
open, and the next click sends it again, which the umpire applies if it was never committed and
answers "already accepted" if it was. An order is therefore never lost to a crash, and never
applied twice."""

from __future__ import annotations

import json
import secrets
from dataclasses import asdict, dataclass

from storage.store import Store

OPEN = "open"
CONFIRMED = "confirmed"
CANCELLED = "cancelled"
#: The umpire refused the confirmed order (the situation changed since the preview).
REFUSED = "refused"


@dataclass(frozen=True)
class PendingMove:
    id: str
    game_id: str
    user_id: int
    unit: str
    route: str
    status: str = OPEN


def _key(pending_id: str) -> str:
    return f"pending-move:{pending_id}"


def request_id(move: PendingMove) -> str:
    """The umpire request id of the move this pending order becomes when confirmed: the same for
    every click, so that the move is committed once whatever crashes and clicks came between."""
    return _key(move.id)


async def save(store: Store, game_id: str, user_id: int, unit: str, route: str) -> PendingMove:
    move = PendingMove(secrets.token_hex(6), game_id, user_id, unit, route)
    await store.set_state(_key(move.id), json.dumps(asdict(move)))
    return move


async def load(store: Store, pending_id: str) -> PendingMove | None:
    raw = await store.get_state(_key(pending_id))
    if not raw:
        return None
    data = json.loads(raw)
    return PendingMove(str(data["id"]), str(data["game_id"]), int(data["user_id"]),
                       str(data["unit"]), str(data["route"]), str(data["status"]))


async def settle(store: Store, move: PendingMove, status: str) -> None:
    data = asdict(move) | {"status": status}
    await store.set_state(_key(move.id), json.dumps(data))
