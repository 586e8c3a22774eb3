"""A network in lockstep: every send to Discord takes exactly one tick, and the test turns the
clock. With it the moment each audience hears something is a number of round trips, the same on
every run, so two worlds can be compared on *when* a side is told things, not only on what.

``LockstepTransport`` is an outbox transport (``umpire.outbox.drain.Transport``) whose every send
waits for the next tick. ``run_in_lockstep`` drains while it turns the clock: it waits until
every lane of the outbox with deliveries waiting has a send in flight (nothing can go on without
a tick), then answers them all at once. A lane that has deliveries waiting but nothing in
flight while the others wait for their answers is waiting behind another lane: that is the
timing leak these tests exist to catch, and it fails at once with the lanes named.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass

from storage.json_codec import JsonObject
from storage.records import Picture
from storage.store import Store
from tests.fakediscord import FakeDiscord, Hold, buttons_of, component_texts, gallery_items
from umpire.outbox.drain import lane_of, nonce

#: How long the outbox may take to reach its next state before the test fails (a bound on a
#: stall, not a measurement: a healthy drain gets there in milliseconds).
STALL = 60.0
POLL = 0.002


@dataclass(frozen=True)
class Sent:
    """One message as its audience got it: in which tick (round trips since the drain began),
    in which lane, saying what."""

    tick: int
    lane: str
    text: str


class LockstepTransport:
    """Sends that each wait for the clock's next tick."""

    def __init__(self) -> None:
        self.in_flight: dict[str, tuple[asyncio.Future[None], str]] = {}
        self.sent: list[Sent] = []

    async def send(self, kind: str, target: str, text: str, image: bytes | None,
                   image_name: str | None, *, key: str = "",
                   buttons: Sequence[JsonObject] = (), edit_key: str = "",
                   mentions: tuple[int, ...] = (), pictures: Sequence[Picture] = ()) -> None:
        lane = lane_of(kind, target)
        assert lane not in self.in_flight, f"two sends at once in lane {lane}"
        answered = asyncio.get_running_loop().create_future()
        self.in_flight[lane] = (answered, text)
        await answered

    def tick(self, tick: int) -> None:
        """Answer every send in flight, as sent in ``tick``."""
        for lane, (answered, text) in sorted(self.in_flight.items()):
            self.sent.append(Sent(tick, lane, text))
            answered.set_result(None)
        self.in_flight.clear()


async def run_in_lockstep(store: Store, game_id: str, transport: LockstepTransport,
                          drain: Callable[[], Awaitable[int]]) -> list[Sent]:
    """Run ``drain`` (a drain of the game's outbox through ``transport``) to its end, one tick
    at a time; what it sent, tick by tick."""
    transport.sent = []
    draining = asyncio.ensure_future(drain())
    tick = 0
    try:
        while True:
            await _settled(store, game_id, transport, draining)
            if not transport.in_flight:
                break
            transport.tick(tick)
            tick += 1
        await draining
    finally:
        draining.cancel()
    return transport.sent


async def _settled(store: Store, game_id: str, transport: LockstepTransport,
                   draining: asyncio.Future[int]) -> None:
    """Until every lane with deliveries waiting has a send in flight (or the drain is over)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + STALL
    while True:
        if draining.done():
            draining.result()  # its error, if it failed
            return
        waiting = {lane_of(d.kind, d.target)
                   for d in await store.pending_deliveries(game_id, limit=10_000)}
        if waiting and waiting <= set(transport.in_flight):
            return
        if loop.time() > deadline:
            stuck = sorted(waiting - set(transport.in_flight))
            raise AssertionError(
                f"lanes {stuck} have deliveries waiting and nothing in flight while "
                f"{sorted(transport.in_flight)} wait for Discord: they wait behind another "
                "audience's messages")
        await asyncio.sleep(POLL)


def heard_by(sent: Sequence[Sent], lanes: Collection[str]) -> list[Sent]:
    """What the audience listening to ``lanes`` got of ``sent``, with its ticks."""
    return [s for s in sent if s.lane in lanes]


class DiscordLockstep:
    """The fake Discord in lockstep: every message the bot posts or edits is held on its way in
    and let through at the clock's next tick. Each held request is put in the outbox lane of
    the delivery it carries (found by its nonce, which the test can work out from the game's
    seed; an edit is the channel's status post), so that the same rule as ``run_in_lockstep``
    says when nothing can go on without a tick."""

    POSTS = ("POST", "/channels/*/messages")
    EDITS = ("PATCH", "/channels/*/messages/*")

    def __init__(self, fake: FakeDiscord, store: Store, game_id: str, seed: bytes) -> None:
        self.fake = fake
        self.store = store
        self.game_id = game_id
        self.seed = seed
        self._armed: list[Hold] = []

    def arm(self, spare: int = 12) -> None:
        """Enough holds waiting for the next requests."""
        for method, path in (self.POSTS, self.EDITS):
            unused = sum(1 for h in self._armed if h.request is None and h.method == method)
            self._armed += [self.fake.hold_next(method, path, acted=False)
                            for _ in range(spare - unused)]

    async def run(self, tick_zero: Callable[[], Awaitable[object]]) -> list[Sent]:
        """Do ``tick_zero`` (a command, and the kick of the outbox that follows it), then let
        the held messages through a tick at a time until the outbox is empty; what was sent."""
        self.arm()
        await tick_zero()
        sent: list[Sent] = []
        tick = 0
        while True:
            held = await self._settled()
            if not held:
                return sent
            # Within one tick, by lane: which of two requests in flight together reached
            # Discord first is the network's business, not the bot's.
            for hold, lane in sorted(held, key=lambda one: one[1]):
                assert hold.request is not None
                sent.append(Sent(tick, lane, _words(hold.request.json)))
                self._armed.remove(hold)
            self.arm()
            for hold, _ in held:
                hold.release()
            tick += 1

    async def _settled(self) -> list[tuple[Hold, str]]:
        """The held requests (with their lanes), once every lane with deliveries waiting has
        one; none once nothing waits."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STALL
        while True:
            pending = await self.store.pending_deliveries(self.game_id, limit=10_000)
            by_nonce = {nonce(self.seed, f"{d.game_id}:{d.id}"): lane_of(d.kind, d.target)
                        for d in pending}
            held = [(h, self._lane(h, by_nonce)) for h in self._armed
                    if h.request is not None]
            waiting = set(by_nonce.values())
            if not waiting and not held:
                return []
            if waiting and waiting <= {lane for _, lane in held}:
                return held
            if loop.time() > deadline:
                stuck = sorted(waiting - {lane for _, lane in held})
                raise AssertionError(
                    f"lanes {stuck} have deliveries waiting and nothing in flight while "
                    f"{sorted(lane for _, lane in held)} wait for Discord: they wait behind "
                    "another audience's messages")
            await asyncio.sleep(POLL)

    def _lane(self, hold: Hold, by_nonce: dict[str, str]) -> str:
        assert hold.request is not None
        body = hold.request.json if isinstance(hold.request.json, dict) else {}
        if hold.request.method == "PATCH":
            return "public:"  # the status post, edited
        return by_nonce.get(str(body.get("nonce")), f"other:{hold.request.path}")


def _words(body: object) -> str:
    """What a posted or edited message shows: its content and its embeds' text, and for a
    component message its text displays, its pictures' alt text and its buttons."""
    if not isinstance(body, dict):
        return ""
    parts = [str(body.get("content") or "")]
    parts += [str(e.get("description") or "") for e in body.get("embeds") or []]
    parts += component_texts(body.get("components") or [])
    parts += [f"[picture: {item.get('description') or ''}]" for item in gallery_items(body)]
    parts += [f"[button: {b.get('label')} {b.get('custom_id')}]" for b in buttons_of(body)]
    return "\n".join(p for p in parts if p)
