"""Sending what waits in the outbox: each delivery is marked sent only after the transport has
accepted it, so a failure or a restart leads to a retry, never to a loss.

Several processes may share one database: a game's outbox is sent by one holder at a time,
under a lease that runs out if its holder dies (``storage.outbox_leases``; holder ids:
``umpire.outbox_holder``). A drain claims the game's outbox before sending, renews the lease
before each send and stops as soon as the lease turns out to be lost (another holder took it
over after it ran out: that holder sends the rest), and releases it at the end. A holder that
stalls past its lease while one send is under way may still have that one send repeated by the
next holder; the delivery's nonce (Discord's message nonce) makes Discord drop the second copy.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from storage.json_codec import JsonObject
from storage.records import DeliveryRecord
from storage.store import Store

NONCE_LENGTH = 25  # Discord's limit on a message nonce

#: How long a claimed outbox stays held without a renewal (``VEDETTE_OUTBOX_LEASE``).
DEFAULT_LEASE = 60.0

log = logging.getLogger("vedette.outbox")


def nonce(secret: bytes, key: str) -> str:
    """The key a delivery is sent with when the game's secret is given: the same on every retry,
    keyed with the game's secret seed. The plain key holds the outbox's delivery number, which
    counts every delivery of every game, the other side's private messages included; a plain
    hash of it could be undone by trying each number, and the gaps between a player's own
    messages would count the enemy's."""
    digest = hmac.new(secret, f"vedette-nonce:{key}".encode(), hashlib.sha256).hexdigest()
    return digest[:NONCE_LENGTH]


class DeliveryRejected(Exception):
    """The transport cannot send this delivery, now (``permanent=False``) or ever."""

    def __init__(self, reason: str, permanent: bool = False) -> None:
        super().__init__(reason)
        self.permanent = permanent


class Transport(Protocol):
    async def send(self, kind: str, target: str, text: str, image: bytes | None,
                   image_name: str | None, *, key: str = "",
                   buttons: Sequence[JsonObject] = (), edit_key: str = "",
                   mentions: tuple[int, ...] = ()) -> None:
        """Deliver one message, or raise ``DeliveryRejected``. ``key`` names the delivery, the
        same on every retry, so that a transport that can may refuse to post it twice.
        ``buttons`` are the delivery's buttons as the umpire records them (``umpire.ready``'s
        Done button); a transport without buttons leaves them out (the commands do the same).

        ``edit_key`` (not empty) on a public delivery names one message of the game: the first
        delivery with that key posts it, each later one replaces its text (a transport that
        cannot edit posts again; one whose message is gone posts it anew). Other kinds are
        never edits, whatever their key (on a host DM it marks the notice of requests to join,
        ``storage.seat_notices``). ``mentions`` are the only users the
        message may notify; without them it notifies nobody."""


Painter = Callable[[DeliveryRecord], Awaitable[DeliveryRecord]]


async def drain(store: Store, transport: Transport, game_id: str | None = None,
                limit: int = 100, *, holder: str, lease_seconds: float = DEFAULT_LEASE,
                secret: bytes | None = None, paint: Painter | None = None) -> int:
    """Send pending deliveries in order, of the game ``game_id`` (or of every game whose outbox
    ``holder`` can claim, up to ``limit`` games); return how many were sent. A game whose
    outbox another live holder holds is left to it. With the game's ``secret`` each delivery's
    key is its ``nonce``, which a transport may show (as Discord's message nonce) without
    giving the delivery number away. ``paint`` draws the map a delivery carries as a view
    (``umpire.pictures``); without it such a delivery goes without its map."""
    if game_id is not None:
        return await _drain_game(store, transport, game_id, limit, holder, lease_seconds,
                                 secret, paint)
    sent = 0
    for claimed in await store.claim_outboxes(holder, lease_seconds, limit):
        sent += await _drain_game(store, transport, claimed, limit, holder, lease_seconds,
                                  secret, paint)
    return sent


#: The drains running in this process, by holder and game: two drains under one holder would
#: both pass the lease's checks, so the second waits for the first.
_running: weakref.WeakValueDictionary[tuple[str, str], asyncio.Lock] = (
    weakref.WeakValueDictionary())


async def _drain_game(store: Store, transport: Transport, game_id: str, limit: int,
                      holder: str, lease_seconds: float, secret: bytes | None,
                      paint: Painter | None) -> int:
    """Claim one game's outbox, send what waits in it, and release it.

    After releasing, one more look: a delivery queued while this holder held the outbox had
    its drain refused (another process's kick, say) and would otherwise wait for the next
    pass."""
    lock = _running.get((holder, game_id))
    if lock is None:
        lock = _running[(holder, game_id)] = asyncio.Lock()
    sent = 0
    async with lock:
        while True:
            # Claimed here even after a claim of many: a drain that ran meanwhile released it.
            if not await store.claim_outboxes(holder, lease_seconds, 1, game_id=game_id):
                return sent  # another live holder's, or nothing waits
            try:
                more, emptied = await _drain_held(store, transport, game_id, limit, holder,
                                                  lease_seconds, secret, paint)
                sent += more
            finally:
                await store.release_outbox(holder, game_id)
            if not emptied or not await store.pending_deliveries(game_id, limit=1):
                return sent


async def _drain_held(store: Store, transport: Transport, game_id: str, limit: int,
                      holder: str, lease_seconds: float, secret: bytes | None,
                      paint: Painter | None) -> tuple[int, bool]:
    """Send one claimed game's pending deliveries while ``holder`` holds its outbox; how many
    were sent, and whether the outbox was left empty (not: a failure to retry later, or the
    lease lost)."""
    sent = 0
    while True:
        batch = await store.pending_deliveries(game_id, limit=limit)
        if not batch:
            return sent, True
        progressed = False
        for d in batch:
            if paint is not None:
                d = await paint(d)
            # Renewed right before each send (after the map, which may take a while): a holder
            # that was too slow and lost the outbox sends nothing more.
            if not await store.renew_outbox(holder, game_id, lease_seconds):
                log.warning("game %s: the outbox's lease was lost to another holder; %d sent,"
                            " the rest is theirs", game_id, sent)
                return sent, False
            try:
                key = f"{d.game_id}:{d.id}"
                await transport.send(d.kind, d.target, d.text, d.image, d.image_name,
                                     key=nonce(secret, key) if secret is not None else key,
                                     buttons=d.buttons, edit_key=d.edit_key,
                                     mentions=d.mentions)
            except DeliveryRejected as e:
                await store.mark_failed(d.id, str(e), e.permanent)
                continue
            await store.mark_sent(d.id)
            sent += 1
            progressed = True
        if not progressed:
            return sent, False
