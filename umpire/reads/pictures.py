"""Map pictures: drawn for whoever asks, once, and for the messages that carry them.

A message with a map is queued with the view its map shows and the event it follows, not with
the picture (ruling FLOW-60): the state right after that event, projected onto that view, is the
picture, drawn when the message is sent and again whenever ``/inbox`` shows it. Nothing else is
drawn: a reader only ever gets the deliveries that were addressed to them. Each game keeps its
last few pictures of each view (``umpire.reads.drawn_maps``), so that players asking for the same
view at the same moment share one drawing.

A call for orders shows the side's **gallery** when it is sent: the phase map (the window fitted
to its hot spots, ``render.focus``), then a close-up of each hot spot out of that window's
reach, each with its alt text (``umpire.words.focus``). The close-ups, like the map, are a
function of the side's view alone.

A picture is looked up by the digest of the view it shows (``umpire.reads.map_digest``), worked out
first, never by the seq it follows: a side asking twice with nothing new for it gets the picture
kept, however much the enemy did meanwhile, and a queued map and a ``/map`` of the same view
share one picture.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from functools import partial

from rules.state import GameState
from rules.view import SideView
from storage.records import DeliveryRecord, Picture
from umpire.base import UmpireBase
from umpire.games.repository import LiveGame
from umpire.reads.drawn_maps import Counts, MapKey, read_view
from umpire.words.focus import CloseUpWords, gallery, map_alt

#: The most close-ups a gallery shows besides the phase map.
CLOSE_UPS = 3

UMPIRE_VIEW = "umpire"

log = logging.getLogger("vedette.pictures")


class Pictures(UmpireBase):
    """Drawing a game's maps."""

    async def with_picture(self, delivery: DeliveryRecord, *, sending: bool = False
                           ) -> DeliveryRecord:
        """``delivery`` with its map drawn (left without one if maps are off). ``sending``: by
        the outbox, which draws its maps one after another (``MapMaker.side_map``)."""
        if not delivery.picture_to_draw or not self.maps.enabled:
            return delivery
        name, fitted = read_view(delivery.image_view or "")
        side = None if name == UMPIRE_VIEW else name
        try:
            game = await self.repository.get(delivery.game_id)
            state = game.state_kept(delivery.seq, name)
            if state is None:
                state = await self.repository.state_at(delivery.game_id, delivery.seq)
            # Looked at once for the message, its map and its close-ups; nothing of it is kept
            # for the next request, whose cost must not depend on who committed meanwhile.
            view, digest = await self.maps.looked_at(state, side)
            image = await game.pictures.picture(
                side, MapKey(digest, fitted=fitted),
                lambda: self.maps.side_map(state, side, queued=sending, fitted=fitted))
            shown = (await self._gallery(delivery, game, state, view, digest, side, image)
                     if sending and fitted and image is not None and side is not None else ())
        except Exception:
            # The words matter more than the picture: they go (or are shown) without it.
            log.exception("game %s: the map of delivery %d could not be drawn",
                          delivery.game_id, delivery.id)
            image, shown = None, ()
        return replace(delivery, image=image, gallery=shown)

    async def _gallery(self, delivery: DeliveryRecord, game: LiveGame, state: GameState,
                       view: SideView, digest: str, side: str, image: bytes
                       ) -> tuple[Picture, ...]:
        """The phase map of a call for orders, with its alt text, and a close-up of each of the
        side's hot spots out of the map's reach (``view`` of ``state``, whose pictures are kept
        under ``digest``)."""
        name = delivery.image_name or "map.png"
        # Worked out off the event loop: finding the hot spots scans the board.
        spots = await asyncio.to_thread(_close_ups, view)
        shown = [Picture(image, name, map_alt(view))]
        for spot in spots:
            png = await game.pictures.picture(
                side, MapKey(digest, spot.around, spot.radius),
                partial(self.maps.side_map, state, side, around=spot.around,
                        radius=spot.radius, queued=True))
            if png is not None:
                shown.append(Picture(png, name.removesuffix(".png") + f"-{spot.around}.png",
                                     spot.alt, spot.around, spot.radius))
        return tuple(shown)

    async def with_pictures(self, items: list[DeliveryRecord]) -> list[DeliveryRecord]:
        """``items``, each with its map drawn."""
        return [await self.with_picture(d) for d in items]

    def picture_counts(self, game_id: str, side: str | None) -> Counts:
        """How often this process found ``side``'s pictures of the game (``None``: the
        umpire's) kept, and how often it drew them (nothing yet, for a game not loaded)."""
        game = self.repository.cached(game_id)
        return game.pictures.counts(side) if game is not None else Counts()

    async def _map_now(self, game: LiveGame, side: str | None, digest: str, *,
                       around: str | None = None, radius: int | None = None,
                       whole: bool = False) -> bytes | None:
        """The map of ``side`` (``None``: the umpire's) as the game stands, whose view has the
        ``digest`` (``MapMaker.looked_at``), drawn once for everyone who asks for it
        (``ValueError`` if ``around`` cannot be read): the window fitted to what the side
        knows, the ``whole`` board, or a window ``around`` a cell."""
        if not self.maps.enabled:
            return None
        state = game.state
        fitted = not whole and around is None
        return await game.pictures.picture(
            side, MapKey(digest, around, radius, fitted=fitted),
            lambda: self.maps.side_map(state, side, around=around, radius=radius,
                                       fitted=fitted))


def _close_ups(view: SideView) -> tuple[CloseUpWords, ...]:
    """The close-ups of the side's hot spots out of its phase map's reach."""
    return gallery(view, CLOSE_UPS, beside_map=True)
