"""What the parts of the ``Umpire`` share: the one base each part inherits, and nothing else.

Each part (``umpire.games.deciding``, ``umpire.games.setting_up``, ``umpire.games.readying``,
``umpire.games.correcting``, ``umpire.reads.reading``, ``umpire.reads.replay``,
``umpire.reads.helping``, ``umpire.reads.pictures``, ``umpire.front``) inherits ``UmpireBase``
only: no part inherits another part, and none is a repository. ``umpire.service.Umpire``
inherits them all side by side, sets the attributes declared here, and is where the parts meet.

The attributes are the umpire's store, its map maker, its scenarios folder, the guides' address
and its repository of games (``umpire.games.repository.Repository``), which loads, caches, locks
and commits games: every part reaches a game through ``self.repository``. The abstract methods
are the few steps one part takes that another part owns; each is called by its name, never
through ``super()``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path

from rules import commands as cmd
from rules.state import GameState
from storage.records import DeliveryRecord, NewDelivery, PlayerRecord
from storage.store import Store
from umpire.answers import Reply
from umpire.games import seats
from umpire.games.repository import LiveGame, Repository
from umpire.reads.maps import MapMaker


class UmpireBase(ABC):
    """The attributes and cross-part steps the parts of the ``Umpire`` share."""

    #: The store every game is kept in.
    store: Store
    #: The games of ``store``: loaded, cached, locked and committed (``umpire.games.repository``).
    repository: Repository
    #: Draws the maps (off when pictures are not wanted).
    maps: MapMaker
    #: A folder of scenarios beside the catalog's (``umpire.games.catalog``), if any.
    scenarios: Path | None
    #: The folder the guides are published in (``VEDETTE_DOCS_URL``; empty: not published).
    docs_url: str

    # -- deciding (``umpire.games.deciding``) --------------------------------------------------
    @abstractmethod
    async def _decide_command(self, game_id: str, user_id: int, command: cmd.Command, *,
                              is_admin: bool = False, request_id: str | None = None) -> Reply:
        """Decide one command as it comes, holding the game's lock."""

    @abstractmethod
    async def _handle(self, game: LiveGame, user_id: int, command: cmd.Command, *,
                      is_admin: bool = False, request_id: str | None = None,
                      extra: Sequence[NewDelivery] = (), answered: bool = True,
                      standing: bool = False) -> Reply:
        """Decide one command inside ``Repository.decided`` (the lock held, the game loaded)."""

    # -- orders that stand (``umpire.games.standing_orders``) ----------------------------------
    @abstractmethod
    async def _carry_on(self, game_id: str) -> None:
        """Carry out what the turn's standing Done and standing orders call for now."""

    @abstractmethod
    async def _finish_if_all_ready(self, game_id: str, side: str, turn: int | None = None,
                                   step: int | None = None, *, giver: int | None = None
                                   ) -> Reply | None:
        """Give the side's Done when every player still seated on it is ready."""

    @abstractmethod
    async def _told_ready(self, game_id: str, user_id: int, side: str, state: GameState,
                          note: str, threads: bool) -> NewDelivery:
        """How a side-mate hears of a player's readiness (``umpire.games.readying``)."""

    # -- seats (``umpire.games.setting_up``) ---------------------------------------------------
    @abstractmethod
    async def _leave_seat(self, game_id: str, user_id: int) -> Reply:
        """The user leaves the game (or withdraws a request to join)."""

    @abstractmethod
    async def _unseat_player(self, game_id: str, actor_id: int, user_id: int, reason: str = "",
                             *, is_admin: bool = False) -> Reply:
        """The host takes a player's seat away, or refuses a request to join."""

    # -- pictures (``umpire.reads.pictures``) --------------------------------------------------
    @abstractmethod
    async def with_picture(self, delivery: DeliveryRecord, *, sending: bool = False
                           ) -> DeliveryRecord:
        """``delivery`` with its map drawn."""

    @abstractmethod
    async def with_pictures(self, items: list[DeliveryRecord]) -> list[DeliveryRecord]:
        """``items``, each with its map drawn."""

    @abstractmethod
    async def _map_now(self, game: LiveGame, side: str | None, digest: str, *,
                       around: str | None = None, radius: int | None = None,
                       whole: bool = False) -> bytes | None:
        """The map of ``side`` as the game stands, drawn once for everyone who asks."""

    # -- reading (``umpire.reads.reading``) ----------------------------------------------------
    @abstractmethod
    def _require_onlooker(self, game: LiveGame, user_id: int, players: Sequence[PlayerRecord],
                          *, in_server: bool, is_admin: bool,
                          refusal: str = seats.NOT_SEEN) -> None:
        """Refuse anyone who may not read the game's public side."""
