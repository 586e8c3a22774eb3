"""The host's notice of requests to join a started game: one DM at a time, rewritten while it
waits.

A request to join after the start is told to the host in a 'host' delivery marked with the key
``NOTICE_KEY`` (``edit_key``; transports edit only public messages, so on a DM the key is a mark
and nothing more). While such a notice waits unsent in the outbox, a new request queues no
other DM: the waiting notice's text is rewritten to tell the new request too. Once it has been
sent, the next request starts a new notice. A flood of requests thus queues one DM, not one
each.

A waiting notice is rewritten only while nobody holds the host's lane of the game's outbox
(``outbox_leases``): a holder may already have read it and be sending its old text, and marks
it sent afterwards, so a rewrite then would never reach the host. The new request gets a
notice of its own instead. On PostgreSQL the lane's lease row is locked for the rest of the
transaction, so that no holder claims the lane between the look and the rewrite (a claim skips
a locked row); on SQLite the write already holds the whole file.

Every function here runs inside a write transaction (``Conn`` from ``Database.write``) that
holds the game's lock.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from storage.outbox_leases import NOBODY, lane_of
from storage.sql import Backend, Conn

#: The ``edit_key`` that marks a host delivery as the game's notice of requests to join.
NOTICE_KEY = "seat-requests"


@dataclass(frozen=True)
class SeatNotice:
    """How to tell the host of a request: ``target`` is the host delivery's target, and
    ``compose(waiting, asking)`` the notice's text, given the text of the notice still waiting
    to be rewritten (``None``: a new notice is queued) and the users whose requests are open,
    the new one included. ``compose`` must not await: it runs inside the transaction."""

    target: str
    compose: Callable[[str | None, Collection[int]], str]


@dataclass(frozen=True)
class Waiting:
    """The game's notice waiting unsent, which may be rewritten."""

    delivery_id: int
    text: str


async def waiting(conn: Conn, game_id: str) -> Waiting | None:
    """The game's newest notice still waiting to be sent, if it may be rewritten: ``None``
    when there is none, or when a holder holds the host's lane of the game's outbox (it may
    be sending it)."""
    found = await conn.fetch(
        "SELECT id, text, target FROM deliveries WHERE game_id = ? AND kind = 'host'"
        " AND edit_key = ? AND status = 'pending' ORDER BY id DESC LIMIT 1",
        (game_id, NOTICE_KEY))
    if not found:
        return None
    lock = " FOR UPDATE" if conn.backend is Backend.POSTGRESQL else ""
    leases = await conn.fetch(
        "SELECT holder FROM outbox_lanes WHERE game_id = ? AND lane = ?" + lock,
        (game_id, lane_of("host", str(found[0][2]))))
    # A holder whose lease ran out may still be sending (its renewal does not look at the
    # time): any holder at all rules a rewrite out.
    if any(str(row[0]) != NOBODY for row in leases):
        return None
    return Waiting(int(found[0][0]), str(found[0][1]))


async def rewrite(conn: Conn, notice: Waiting, text: str) -> None:
    """Replace the waiting notice's text (it keeps its place in the outbox)."""
    await conn.run(
        "UPDATE deliveries SET text = ? WHERE id = ? AND status = 'pending'",
        (text, notice.delivery_id))
