"""The host's ``/host correct``: a unit named as the host may name it
(``umpire.words.correctable``),
corrected through the rules engine like any command, and answered with what changed in words.

``Umpire.handle`` with a ``Correct`` command still takes a unit's id as it is (scripts and the
umpire's own tools use it); a host at the table corrects through ``correct``, which never lets a
host who plays find out anything about the enemy's units."""

from __future__ import annotations

from collections.abc import Mapping

import pydantic

from rules import commands as cmd
from rules.forces.units import Unit
from umpire.answers import Reply, UmpireError
from umpire.base import UmpireBase
from umpire.games.repository import LiveGame
from umpire.words import correctable, whole_truth
from umpire.words import replies as wording

NOT_IN_PLAY = "corrections can only be made while the game is in play"


class Correcting(UmpireBase):
    """Corrections by the host, by unit name."""

    async def correctable_units(self, game_id: str, user_id: int, *,
                                is_admin: bool = False) -> list[tuple[str, str]]:
        """The units the host may correct now, for autocomplete: (id, label) pairs; none for
        anyone who is not the host, or while the game is not in play."""
        game = await self.repository.get(game_id)
        if not self.repository.is_host(game, user_id, is_admin) or not game.state.status.in_play:
            return []
        umpire, units = await self._nameable(game, user_id)
        return correctable.choices(game.state, units, umpire=umpire)

    async def correct(self, game_id: str, user_id: int, unit: str,
                      changes: Mapping[str, str | int], reason: str, *, is_admin: bool = False,
                      request_id: str | None = None) -> Reply:
        """Correct the unit the host names (``umpire.words.correctable``) and answer with what
        changed ("Geary's strength 6 → 5"); the channel and the end of the game hear of it as
        of every correction (ruling CORE-9)."""
        async def decide(game: LiveGame) -> Reply:
            if not self.repository.is_host(game, user_id, is_admin):
                raise UmpireError(wording.HOST_ONLY)
            if not game.state.status.in_play:
                raise UmpireError(NOT_IN_PLAY)
            umpire, units = await self._nameable(game, user_id)
            if not units:
                raise UmpireError(correctable.NOTHING_TO_NAME)
            found = correctable.find(game.state, units, unit, umpire=umpire)
            try:
                command = cmd.Correct(unit=found.id, changes=dict(changes), reason=reason)
            except pydantic.ValidationError:
                raise UmpireError("that correction is too long or empty") from None
            before = game.state
            reply = await self._handle(game, user_id, command, is_admin=is_admin,
                                       request_id=request_id)
            if reply.repeated:
                return reply
            words = correctable.changed_words(before, game.state, found)
            return Reply(f"Done: {words}. The game's channel is told that you made a "
                         "correction (not what), and the end of the game lists it in full.",
                         delivery_ids=reply.delivery_ids)

        return await self.repository.decided(game_id, decide)

    async def _nameable(self, game: LiveGame, user_id: int) -> tuple[bool, list[Unit]]:
        """Whether the user umpires, and the units they may name (``umpire.words.correctable``)."""
        umpire = whole_truth.umpires(game.state, game.record.host_user_id, user_id)
        player = None if umpire else await self.store.get_player(game.record.id, user_id)
        side = player.side if player is not None else None
        return umpire, correctable.nameable(game.state, umpire=umpire, side=side)
