"""``GameRef``: a game as a front end (the bot) sees it: everything it needs to route messages
and check who may do what, and never the game's secret dice seed.

A front end gets games only as ``GameRef``s; the stored record (with the seed) stays inside the
umpire, so no mistake in the bot can print, log or send the seed before the game ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from storage.records import DeliveryRecord, GameRecord, PlayerRecord, SeatRequest

__all__ = ["DeliveryRecord", "GameRef", "PlayerRecord", "SeatRequest", "ref_of"]


@dataclass(frozen=True)
class GameRef:
    """A game without its seed: id, scenario, host, server and channel, options, status."""

    id: str
    scenario_id: str
    host_user_id: int
    guild_id: int | None
    channel_id: int | None
    status: str
    options: Mapping[str, Any] = field(default_factory=dict)


def ref_of(record: GameRecord) -> GameRef:
    """The front end's reference to a stored game (its seed left behind)."""
    return GameRef(id=record.id, scenario_id=record.scenario_id,
                   host_user_id=record.host_user_id, guild_id=record.guild_id,
                   channel_id=record.channel_id, status=record.status,
                   options=dict(record.options))
