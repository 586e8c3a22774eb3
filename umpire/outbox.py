"""Sending what waits in the outbox: each delivery is marked sent only after the transport has
accepted it, so a failure or a restart leads to a retry, never to a loss."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from storage.json_codec import JsonObject
from storage.records import DeliveryRecord
from storage.store import Store

NONCE_LENGTH = 25  # Discord's limit on a message nonce


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

        ``edit_key`` (not empty) names one message of the game: the first delivery with that
        key posts it, each later one replaces its text (a transport that cannot edit posts
        again; one whose message is gone posts it anew). ``mentions`` are the only users the
        message may notify; without them it notifies nobody."""


Painter = Callable[[DeliveryRecord], Awaitable[DeliveryRecord]]


async def drain(store: Store, transport: Transport, game_id: str | None = None,
                limit: int = 100, *, secret: bytes | None = None,
                paint: Painter | None = None) -> int:
    """Send pending deliveries in order; return how many were sent. With the game's ``secret``
    each delivery's key is its ``nonce``, which a transport may show (as Discord's message
    nonce) without giving the delivery number away. ``paint`` draws the map a delivery
    carries as a view (``umpire.pictures``); without it such a delivery goes without its map."""
    sent = 0
    while True:
        batch = await store.pending_deliveries(game_id, limit=limit)
        if not batch:
            return sent
        progressed = False
        for d in batch:
            if paint is not None:
                d = await paint(d)
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
            return sent
