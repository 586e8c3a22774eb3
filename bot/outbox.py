"""The outbox loop: sending what the umpire queued, promptly and without loss or duplicates.

After each command the bot kicks a drain of that game's outbox; a background loop also drains
every game with pending deliveries every few seconds (and right after start-up, so that whatever a
crash or a Discord outage left behind goes out). A game's outbox goes out in lanes, one per
audience, side by side (``umpire.outbox.drain``): a kick never waits for a drain already sending
another lane, and one lane is sent by one drain at a time, so nothing goes out twice. A lane
whose deliveries keep failing for a passing reason is retried less and less often (up to every
five minutes), so as not to hammer Discord; the game's other lanes go on meanwhile.

Several bot processes may share one database (one per group of Discord's shards): each runs this
loop, and a lane is sent by whichever process holds its lease, so no delivery goes out twice and
none waits for a process that died longer than one lease (``VEDETTE_OUTBOX_LEASE``). The loop
claims a few games at a time, so that the other processes find the rest free.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from bot.transport import DiscordTransport
from bot.views import expire_previews
from umpire.clock.phases import check_all as check_phase_deadlines
from umpire.clock.questions import time_out_all
from umpire.settings import Settings

if TYPE_CHECKING:
    from bot.client import VedetteBot

log = logging.getLogger("vedette.outbox")

INTERVAL = 5.0
MAX_BACKOFF = 300.0
BATCH = 500
CLAIM = 20  # games claimed at once by the loop: drained one after another, then released


class Outbox:
    def __init__(self, bot: VedetteBot, interval: float = INTERVAL,
                 lease: float | None = None, pace: float | None = None) -> None:
        self.bot = bot
        self.interval = interval
        if lease is None or pace is None:
            settings = Settings()
            lease = settings.outbox_lease if lease is None else lease
            pace = settings.send_pace if pace is None else pace
        #: Seconds a lane of a game's outbox stays this process's without a renewal.
        self.lease: float = lease
        #: Seconds each message waits before it goes (``bot.transport``, ``VEDETTE_SEND_PACE``).
        self.pace: float = pace
        self._stop = asyncio.Event()
        self._wake = asyncio.Event()
        self._loop_task: asyncio.Task[None] | None = None
        self._kicks: set[asyncio.Task[int]] = set()
        #: (game, lane) -> (when to try again, backoff)
        self._retry_at: dict[tuple[str, str], tuple[float, float]] = {}

    # -- kicking and looping ---------------------------------------------------------------------
    def start(self) -> None:
        if self._loop_task is None:
            self._loop_task = asyncio.create_task(self._run(), name="vedette-outbox")

    def kick(self, game_id: str) -> None:
        """Drain one game's outbox now, in the background."""
        if self._stop.is_set():
            return
        # The moment the command was done: its messages are paced from it.
        since = asyncio.get_running_loop().time()
        task = asyncio.create_task(self.drain_game(game_id, force=True, since=since),
                                   name=f"vedette-drain-{game_id}")
        self._kicks.add(task)
        task.add_done_callback(self._kicks.discard)

    async def _run(self) -> None:
        ready = asyncio.create_task(self.bot.wait_until_ready())
        stopping = asyncio.create_task(self._stop.wait())
        await asyncio.wait({ready, stopping}, return_when=asyncio.FIRST_COMPLETED)
        for task in (ready, stopping):
            task.cancel()
        if self._stop.is_set():
            return
        warm = False
        while not self._stop.is_set():
            try:
                # The reaction window's clock: a question whose time is up gets its default
                # (and its reports are drained just below).
                await time_out_all(self.bot.umpire)
            except Exception:
                log.exception("applying the questions' deadlines failed; retrying")
            try:
                # The phases' deadlines: reminders at three quarters, the deadline's action.
                await check_phase_deadlines(self.bot.umpire)
            except Exception:
                log.exception("applying the phases' deadlines failed; retrying")
            try:
                await self.drain_all()
            except Exception:
                log.exception("the outbox pass failed; retrying in %.0f s", self.interval)
            if not warm:  # after the first pass: what waited goes out first
                warm = True
                await self.bot.warm_up()
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.interval)

    async def stop(self, timeout: float = 10.0) -> None:
        """Finish the drains in progress (so nothing is sent twice), then stop."""
        self._stop.set()
        self._wake.set()
        tasks = [t for t in (self._loop_task, *self._kicks) if t is not None]
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=timeout)
            for task in late:
                task.cancel()
            if late:
                await asyncio.wait(late)

    async def idle(self) -> None:
        """Wait until the drains started so far have finished, then drain everything once."""
        while self._kicks:
            await asyncio.wait(list(self._kicks))
        await self.drain_all(force=True)

    # -- draining --------------------------------------------------------------------------------
    async def drain_all(self, force: bool = False) -> int:
        """Drain every game whose outbox this process can claim, ``CLAIM`` games at a time in
        the order of their ids; the outboxes other processes hold are theirs to send."""
        sent = 0
        after = ""
        claimed_so_far = 0
        while claimed_so_far < BATCH:
            claimed = await self.bot.umpire.claim_outboxes(CLAIM, self.lease, after=after)
            if not claimed:
                break
            claimed_so_far += len(claimed)
            after = claimed[-1]
            for index, game_id in enumerate(claimed):
                if self._stop.is_set() and not force:
                    for left in claimed[index:]:  # free for another process at once
                        await self.bot.umpire.release_outbox(left)
                    return sent
                sent += await self.drain_game(game_id, force=force)
        return sent

    async def drain_game(self, game_id: str, force: bool = False,
                         since: float | None = None) -> int:
        """Send the game's outbox, lane by lane side by side, each message paced from
        ``since`` (the event loop's time of the command that kicked it; by default now); a
        lane waiting to be tried again after a passing failure is left for later (unless
        ``force``: a kick after a command tries it at once)."""
        if since is None:
            since = asyncio.get_running_loop().time()
        now = time.monotonic()
        resting = set() if force else {lane for (gid, lane), (when, _) in
                                       self._retry_at.items() if gid == game_id and now < when}
        game = await self.bot.umpire.game(game_id)
        if game is None:
            await self.bot.umpire.release_outbox(game_id)
            return 0
        transport = DiscordTransport(self.bot, game, since=since, pace=self.pace)
        try:
            sent = await self.bot.umpire.drain(game_id, transport, lease_seconds=self.lease,
                                               resting=resting)
        except Exception:
            log.exception("game %s: draining the outbox failed", game_id)
            sent = 0
        for key in [k for k in self._retry_at if k[0] == game_id]:
            if key[1] not in resting and key[1] not in transport.stalled:
                del self._retry_at[key]
        for lane in transport.stalled:
            _, backoff = self._retry_at.get((game_id, lane), (0.0, 0.0))
            backoff = min(MAX_BACKOFF, max(self.interval, backoff * 2))
            self._retry_at[(game_id, lane)] = (time.monotonic() + backoff, backoff)
        if sent:
            log.debug("game %s: %d deliveries sent", game_id, sent)
        await self._expire_previews(game_id)
        return sent

    async def _expire_previews(self, game_id: str) -> None:
        """A phase that ended takes its previews' buttons with it (ruling ORD-22)."""
        try:
            await expire_previews(self.bot, game_id)
        except Exception:
            log.exception("game %s: expiring previews failed", game_id)

