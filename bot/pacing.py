"""When each message of a game goes to Discord: a fixed pace, and a time slot for each audience.

The moment a message reaches Discord is stamped on it, for every player to read. It must not
show how much work the bot did meanwhile for other audiences (drawing the enemy's map, writing
its secret roll: ruling INFO-13). So a message does not go as soon as it is ready, but at its
lane's next *moment*:

- a lane's first message goes ``pace`` after ``since`` (the moment the command that queued it
  was done), and each later one no sooner than ``pace`` after Discord answered the one before;
- each audience of the game has a slot of its own within the pace (``SLOT`` apart: the channel
  first, then the host, then the seated players in the order they took their seats), and its
  messages go only at ``since + pace + slot`` plus a whole number of paces. The lanes of a game
  therefore never hand a message to Discord at the same instant: the little work of sending
  one (its words, its picture's bytes) is done before the next audience's moment comes, and the
  order of the slots is public (the seats).

The work of getting a message ready is done before its moment, so the moment does not depend on
it; a message whose own work takes longer (a large map on a slow, busy machine) goes when it is
ready, late: the pace is a floor, never a wait on top of the work. With ``pace`` 0 every message
goes as soon as it is ready.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

#: Seconds between two audiences' slots: more than handing one message to Discord takes.
SLOT = 0.02


class Pacer:
    """The moments of one pass over a game's outbox. ``order`` gives the game's lanes in slot
    order (asked once, when first needed)."""

    def __init__(self, since: float, pace: float,
                 order: Callable[[], Awaitable[Sequence[str]]]) -> None:
        self.since = since
        self.pace = pace
        self._order = order
        self._slots: asyncio.Task[dict[str, int]] | None = None  # asked once for every lane
        self._answered: dict[str, float] = {}  # lane -> when Discord answered its last message

    @contextlib.asynccontextmanager
    async def turn(self, lane: str) -> AsyncIterator[None]:
        """Wait for the lane's next moment, send (the block), and remember when Discord
        answered (or failed)."""
        if self.pace <= 0:
            yield
            return
        loop = asyncio.get_running_loop()
        wait = await self.moment(lane) - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        try:
            yield
        finally:
            self._answered[lane] = loop.time()

    async def moment(self, lane: str) -> float:
        """The event loop's time of the lane's next moment."""
        first = self.since + self.pace + await self._slot(lane) * SLOT
        answered = self._answered.get(lane)
        if answered is None or answered + self.pace <= first:
            return first
        return first + math.ceil((answered + self.pace - first) / self.pace) * self.pace

    async def _slot(self, lane: str) -> int:
        if self._slots is None:
            self._slots = asyncio.ensure_future(self._numbered())
        slots = await asyncio.shield(self._slots)
        found = slots.get(lane)
        if found is None:  # an audience not seated (a side's inbox): after the seats, stably
            found = len(slots) + zlib.crc32(lane.encode()) % 4
        # Slots that would run past the pace come round again (a game of many players).
        return found % max(1, int(self.pace / SLOT))

    async def _numbered(self) -> dict[str, int]:
        return {name: n for n, name in enumerate(await self._order())}
