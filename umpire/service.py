"""The umpire service: games as a play group uses them, independent of Discord.

``Umpire.handle(game_id, user_id, command)`` takes the game's lock, loads its state, checks who
the user is in the game, asks the rules engine, and stores the events with the deliveries they
imply in one transaction. Only then does it answer, so an accepted command is durable before the
player hears that it was accepted. Deliveries wait in the outbox until a transport (the bot, or
the demo) sends them and marks them sent.

The work is split by concern: ``umpire.games.repository`` (loading, snapshots, the cache,
committing), ``umpire.games.setting_up`` (games and seats), ``umpire.games.deciding`` (commands),
``umpire.reads.reading`` (reading
for players), ``umpire.games.readying`` (ready players on a shared side), ``umpire.reads.replay``
(past
maps), ``umpire.reads.helping`` (``/help``), ``umpire.front`` (what the bot needs beside those,
without the seed). ``Umpire`` is the one class the rest of the program uses."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from os import PathLike
from pathlib import Path

from storage.store import Store
from umpire.answers import Reply, UmpireError
from umpire.front import Front
from umpire.games.correcting import Correcting
from umpire.games.readying import Readying
from umpire.games.repository import SNAPSHOT_EVERY
from umpire.reads.helping import Helping
from umpire.reads.maps import MapMaker
from umpire.reads.replay import Replaying

__all__ = ["SNAPSHOT_EVERY", "Reply", "Umpire", "UmpireError"]


class Umpire(Readying, Correcting, Replaying, Helping, Front):
    """The umpire of every game in one store: set up, decide (with ready players), read and
    replay, help (see the modules above), and the front end's door (``umpire.front``)."""

    @classmethod
    @asynccontextmanager
    async def opened(cls, db: str | PathLike[str], *, scenarios: Path | None = None,
                     maps: MapMaker | None = None) -> AsyncIterator[Umpire]:
        """The umpire of the database ``db`` (a SQLite file path or a ``postgresql://`` URL),
        opened (and checked) here and closed after."""
        async with Store.open(db) as store:
            yield cls(store, scenarios=scenarios, maps=maps)
