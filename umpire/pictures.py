"""Map pictures that were sent and are no longer stored, drawn again from the log.

The store drops a map picture once every delivery carrying it has been handed over (see
docs/hosting.md, "Pictures"). A delivery keeps the view its map was drawn from and the event it
followed, so the same picture can be drawn again: the state right after that event, projected
onto that view, is what the picture showed. Nothing else is drawn: a reader only ever redraws a
delivery that was addressed to them.
"""

from __future__ import annotations

from dataclasses import replace

from rules.state import GameState
from storage.records import DeliveryRecord
from umpire.repository import Repository

UMPIRE_VIEW = "umpire"


async def with_pictures(repo: Repository, game_id: str, items: list[DeliveryRecord]
                        ) -> list[DeliveryRecord]:
    """``items`` with each dropped map drawn again (and left without one if maps are off)."""
    states: dict[int, GameState] = {}
    out = []
    for d in items:
        if d.picture_dropped and repo.maps.enabled:
            if d.seq not in states:
                states[d.seq] = await repo.state_at(game_id, d.seq)
            view = d.image_view
            image = await repo.maps.side_map(states[d.seq],
                                             None if view == UMPIRE_VIEW else view)
            d = replace(d, image=image)
        out.append(d)
    return out
