"""The umpire service: games as a play group uses them, independent of Discord.

``Umpire.handle(game_id, user_id, command)`` takes the game's lock, loads its state, checks who
the user is in the game, asks the rules engine, and stores the events with the deliveries they
imply in one transaction. Only then does it answer, so an accepted command is durable before the
player hears that it was accepted. Deliveries wait in the outbox until a transport (the bot, or
the demo) sends them and marks them sent.

The ``Umpire`` is flat: it inherits its parts side by side, and no part inherits another. Each
part inherits only ``umpire.base.UmpireBase``, which declares what they share: the store, the
map maker, the scenarios folder, the repository and the few steps one part takes that another
owns. The parts each hold the repository via ``self.repository`` (not by inheriting it):

- ``umpire.games.repository``: ``Repository``, held as ``self.repository``: loading, snapshots,
  the cache, the locks, committing; and the whole state of a game (``state_for``, ``state_at``,
  ``replay_all``, ``load_state``) for the umpire's own tools, never a method of the ``Umpire``;
- ``umpire.games.deciding``: ``Deciding``, commands (the start, a command, the end);
- ``umpire.games.setting_up``: ``SettingUp``, games and seats;
- ``umpire.games.readying``: ``Readying``, ready players on a shared side, and so the umpire's
  ``handle``, ``leave`` and ``unseat``, which call the deciding and seat steps by name;
- ``umpire.games.standing_orders``: ``StandingOrders``, ``/standing`` and carrying out the
  turn's standing Done and standing orders after every command;
- ``umpire.games.correcting``: ``Correcting``, the host's corrections by unit name;
- ``umpire.reads.reading``: ``Reading``, reading for players;
- ``umpire.reads.replay``: ``Replaying``, past maps;
- ``umpire.reads.helping``: ``Helping``, ``/help``;
- ``umpire.reads.pictures``: ``Pictures``, drawing the maps;
- ``umpire.front``: ``Front``, what the bot needs beside those, without the seed.

``Umpire`` is the one class the rest of the program uses."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from os import PathLike
from pathlib import Path

from rules.sighting.built_tables import use_store
from storage.cache.tables import TableFiles
from storage.store import Store
from umpire.answers import Reply, UmpireError
from umpire.front import Front
from umpire.games.correcting import Correcting
from umpire.games.deciding import Deciding
from umpire.games.readying import Readying
from umpire.games.repository import SNAPSHOT_EVERY, Repository
from umpire.games.retrying import RETRY, RetryPolicy
from umpire.games.setting_up import SettingUp
from umpire.games.standing_orders import StandingOrders
from umpire.reads.helping import Helping
from umpire.reads.maps import MapMaker
from umpire.reads.pictures import Pictures
from umpire.reads.reading import Reading
from umpire.reads.replay import Replaying

__all__ = ["SNAPSHOT_EVERY", "Reply", "Umpire", "UmpireError"]


class Umpire(Deciding, SettingUp, Readying, StandingOrders, Correcting, Reading, Replaying,
             Helping, Pictures, Front):
    """The umpire of every game in one store: set up, decide (with ready players), read and
    replay, help (see the modules above), and the front end's door (``umpire.front``)."""

    def __init__(self, store: Store, *, scenarios: Path | None = None,
                 maps: MapMaker | None = None, retry: RetryPolicy = RETRY,
                 docs_url: str = "") -> None:
        self.store = store
        self.scenarios = scenarios
        self.docs_url = docs_url
        self.maps = maps or MapMaker()
        self.repository = Repository(store, maps=self.maps, retry=retry)

    @classmethod
    @asynccontextmanager
    async def opened(cls, db: str | PathLike[str], *, scenarios: Path | None = None,
                     maps: MapMaker | None = None, docs_url: str = "") -> AsyncIterator[Umpire]:
        """The umpire of the database ``db`` (a SQLite file path or a ``postgresql://`` URL),
        opened (and checked) here and closed after."""
        async with Store.open(db) as store:
            yield cls(store, scenarios=scenarios, maps=maps, docs_url=docs_url)


def keep_sighting_tables(folder: Path | None) -> None:
    """Keep every board's sighting tables in ``folder`` between runs, as well as in memory
    (``storage.cache.tables``; ``None``: in memory only)."""
    use_store(TableFiles(folder) if folder is not None else None)
