"""Sending what waits in the outbox: each delivery is marked sent only after the transport has
accepted it, so a failure or a restart leads to a retry, never to a loss.

A game's outbox is sent in **lanes**, one per audience (``storage.outbox_leases``): the channel,
each player, each side's inbox, the host. Each lane goes out in the order it was queued, and the
lanes of a game go out side by side, each in a task of its own: what one side is sent never
waits for a round trip to Discord made for another side, so the moment a side hears something
depends only on what that side (or everyone) was sent before it (DESIGN.md, "Timing tells
nothing").

Several processes may share one database: each lane is sent by one holder at a time, under a
lease that runs out if its holder dies (holder ids: ``umpire.outbox.holder``). A drain claims
the lanes before sending, renews a lane's lease before each of its sends and stops that lane as
soon as the lease turns out to be lost (another holder took it over after it ran out: that
holder sends the rest), and releases each lane at the end. A holder that stalls past its lease
while one send is under way may still have that one send repeated by the next holder; the
delivery's nonce (Discord's message nonce) makes Discord drop the second copy.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import weakref
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from storage import outbox_leases
from storage.json_codec import JsonObject
from storage.records import DeliveryRecord
from storage.records import Picture as Picture  # what a transport is given to show
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
                   mentions: tuple[int, ...] = (), pictures: Sequence[Picture] = ()) -> None:
        """Deliver one message, or raise ``DeliveryRejected``. ``key`` names the delivery, the
        same on every retry, so that a transport that can may refuse to post it twice.
        ``buttons`` are the delivery's buttons as the umpire records them (``umpire.games.ready``'s
        Done button); a transport without buttons leaves them out (the commands do the same).

        ``edit_key`` (not empty) on a public delivery names one message of the game: the first
        delivery with that key posts it, each later one replaces its text (a transport that
        cannot edit posts again; one whose message is gone posts it anew). Other kinds are
        never edits, whatever their key (on a host DM it marks the notice of requests to join,
        ``storage.seat_notices``). ``mentions`` are the only users the
        message may notify; without them it notifies nobody. ``pictures``: the message's
        gallery, its map first (``image`` is that map); a transport that cannot show several
        pictures shows ``image``."""


Painter = Callable[[DeliveryRecord], Awaitable[DeliveryRecord]]


def lane_of(kind: str, target: str) -> str:
    """The lane a delivery of ``kind`` to ``target`` goes out in."""
    return outbox_leases.lane_of(kind, target)


async def drain(store: Store, transport: Transport, game_id: str | None = None,
                limit: int = 100, *, holder: str, lease_seconds: float = DEFAULT_LEASE,
                secret: bytes | None = None, paint: Painter | None = None,
                resting: Collection[str] = ()) -> int:
    """Send pending deliveries, each lane in its order, of the game ``game_id`` (or of every
    game whose lanes ``holder`` can claim, up to ``limit`` games); return how many were sent. A
    lane another live holder holds is left to it, and so are the lanes named in ``resting``
    (waiting to be tried again after a failure). With the game's ``secret`` each delivery's
    key is its ``nonce``, which a transport may show (as Discord's message nonce) without
    giving the delivery number away. ``paint`` draws the map a delivery carries as a view
    (``umpire.reads.pictures``); without it such a delivery goes without its map."""
    sending = _Sending(store, transport, limit, holder, lease_seconds, secret, paint)
    if game_id is not None:
        return await sending.game(game_id, resting)
    sent = 0
    for claimed in await store.claim_outboxes(holder, lease_seconds, limit):
        sent += await sending.game(claimed, resting)
    return sent


async def release(store: Store, holder: str, game_id: str) -> None:
    """Give up ``holder``'s lanes of the game, but those it is sending right now (their drain
    releases them when it is done)."""
    await store.release_outbox(holder, game_id, keep=_busy_lanes(holder, game_id))


#: The lanes being sent in this process, by holder, game and lane: two drains under one holder
#: would both pass the lease's checks, so the second waits for the first.
_running: weakref.WeakValueDictionary[tuple[str, str, str], asyncio.Lock] = (
    weakref.WeakValueDictionary())


def _busy_lanes(holder: str, game_id: str) -> list[str]:
    return [lane for (who, game, lane), lock in list(_running.items())
            if who == holder and game == game_id and lock.locked()]


@dataclass(frozen=True)
class _Sending:
    """One drain: where it sends, as whom, and how."""

    store: Store
    transport: Transport
    limit: int
    holder: str
    lease_seconds: float
    secret: bytes | None
    paint: Painter | None

    async def game(self, game_id: str, resting: Collection[str]) -> int:
        """Claim the game's lanes and send each, side by side; the resting ones are left
        (released, unless this process is sending them right now)."""
        claimed = await self.store.claim_lanes(self.holder, self.lease_seconds, game_id)
        idle = [lane for lane in claimed if lane in resting]
        busy = _busy_lanes(self.holder, game_id)
        for lane in idle:
            if lane not in busy:
                await self.store.release_outbox(self.holder, game_id, lane)
        lanes = [lane for lane in claimed if lane not in resting]
        results = await asyncio.gather(*(self.lane(game_id, lane) for lane in lanes),
                                       return_exceptions=True)
        sent = 0
        for lane, result in zip(lanes, results, strict=True):
            if isinstance(result, BaseException):
                if not isinstance(result, Exception):
                    raise result  # cancelled: the caller is going away
                # One lane's trouble (its database write, say) is not the others': it is tried
                # again on the next pass.
                log.error("game %s: sending lane %s failed", game_id, lane, exc_info=result)
            else:
                sent += result
        return sent

    async def lane(self, game_id: str, lane: str) -> int:
        """Send one lane of the game: claim it, send what waits in it, release it.

        After releasing, one more look: a delivery queued while this holder held the lane had
        its drain refused (another process's kick, say) and would otherwise wait for the next
        pass."""
        key = (self.holder, game_id, lane)
        lock = _running.get(key)
        if lock is None:
            lock = _running[key] = asyncio.Lock()
        sent = 0
        async with lock:
            while True:
                # Claimed here even after a claim of the game: a drain that ran meanwhile
                # released it.
                if not await self.store.claim_lanes(self.holder, self.lease_seconds, game_id,
                                                    lane):
                    return sent  # another live holder's, or nothing waits
                try:
                    more, emptied = await self._held(game_id, lane)
                    sent += more
                finally:
                    await self.store.release_outbox(self.holder, game_id, lane)
                if not emptied or not await self.store.pending_deliveries(game_id, limit=1,
                                                                          lane=lane):
                    return sent

    async def _held(self, game_id: str, lane: str) -> tuple[int, bool]:
        """Send a claimed lane's pending deliveries while the holder holds it; how many were
        sent, and whether the lane was left empty (not: a failure to retry later, or the lease
        lost)."""
        sent = 0
        while True:
            batch = await self.store.pending_deliveries(game_id, limit=self.limit, lane=lane)
            if not batch:
                return sent, True
            progressed = False
            for d in batch:
                if self.paint is not None:
                    d = await self.paint(d)
                # Renewed right before each send (after the map, which may take a while): a
                # holder that was too slow and lost the lane sends nothing more of it.
                if not await self.store.renew_lane(self.holder, game_id, lane,
                                                   self.lease_seconds):
                    log.warning("game %s: the lease of lane %s was lost to another holder; %d"
                                " sent, the rest is theirs", game_id, lane, sent)
                    return sent, False
                try:
                    key = f"{d.game_id}:{d.id}"
                    await self.transport.send(
                        d.kind, d.target, d.text, d.image, d.image_name,
                        key=nonce(self.secret, key) if self.secret is not None else key,
                        buttons=d.buttons, edit_key=d.edit_key, mentions=d.mentions,
                        pictures=d.gallery)
                except DeliveryRejected as e:
                    await self.store.mark_failed(d.id, str(e), e.permanent)
                    continue
                await self.store.mark_sent(d.id)
                sent += 1
                progressed = True
            if not progressed:
                return sent, False
