"""Map pictures: drawn for whoever asks, once, and for the messages that carry them.

A message with a map is queued with the view its map shows and the event it follows, not with
the picture (ruling FLOW-60): the state right after that event, projected onto that view, is the
picture, drawn when the message is sent and again whenever ``/inbox`` shows it. Nothing else is
drawn: a reader only ever gets the deliveries that were addressed to them. Each game keeps its
last few pictures (``umpire.drawn_maps``), so that players asking for the same view at the same
moment share one drawing.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from storage.records import DeliveryRecord
from umpire.drawn_maps import MapKey, read_view
from umpire.repository import LiveGame, Repository

UMPIRE_VIEW = "umpire"

log = logging.getLogger("vedette.pictures")


class Pictures(Repository):
    """Drawing a game's maps."""

    async def with_picture(self, delivery: DeliveryRecord, *, sending: bool = False
                           ) -> DeliveryRecord:
        """``delivery`` with its map drawn (left without one if maps are off). ``sending``: by
        the outbox, which draws its maps one after another (``MapMaker.side_map``)."""
        if not delivery.picture_to_draw or not self.maps.enabled:
            return delivery
        view, fitted = read_view(delivery.image_view or "")
        try:
            image = await self._map_at(delivery.game_id, delivery.seq,
                                       None if view == UMPIRE_VIEW else view, queued=sending,
                                       fitted=fitted)
        except Exception:
            # The words matter more than the picture: they go (or are shown) without it.
            log.exception("game %s: the map of delivery %d could not be drawn",
                          delivery.game_id, delivery.id)
            image = None
        return replace(delivery, image=image)

    async def with_pictures(self, items: list[DeliveryRecord]) -> list[DeliveryRecord]:
        """``items``, each with its map drawn."""
        return [await self.with_picture(d) for d in items]

    async def _map_now(self, game: LiveGame, side: str | None, *, around: str | None = None,
                       radius: int | None = None, whole: bool = False) -> bytes | None:
        """The map of ``side`` (``None``: the umpire's) as the game stands, drawn once for
        everyone who asks for it (``ValueError`` if ``around`` cannot be read): the window
        fitted to what the side knows, the ``whole`` board, or a window ``around`` a cell."""
        if not self.maps.enabled:
            return None
        state = game.state
        fitted = not whole and around is None
        return await game.pictures.picture(
            MapKey(state.seq, side, around, radius, fitted=fitted),
            lambda: self.maps.side_map(state, side, around=around, radius=radius,
                                       fitted=fitted))

    async def _map_at(self, game_id: str, seq: int, side: str | None, *, queued: bool = False,
                      fitted: bool = False) -> bytes | None:
        """The map that a message following event ``seq`` carries: the view of ``side`` then,
        whole or its ``fitted`` window (``queued``: drawn for the outbox)."""
        if not self.maps.enabled:
            return None
        game = await self._game(game_id)

        async def draw() -> bytes | None:
            state = game.state if game.state.seq == seq else await self.state_at(game_id, seq)
            return await self.maps.side_map(state, side, queued=queued, fitted=fitted)

        return await game.pictures.picture(MapKey(seq, side, fitted=fitted), draw)
