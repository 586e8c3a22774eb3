"""The cells a side can tell are blocked for its surprise marches, worked out from its own view.

The function takes the enemy counters of the side's view and the public ground, nothing else:
no game state reaches it, so the overlay cannot show where the enemy really is (ruling INFO-7).
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.ground.grid import Cell
from rules.knowledge.levels import MARKER, OWN, UnitView
from rules.knowledge.overlay import Ground
from rules.knowledge.sighted import bits_to_cells
from rules.sighting.sighting_pass import COMBAT_KINDS, OBSERVER_KINDS, Presence, full_pass


def blocked_as_known(ground: Ground, enemies: Iterable[UnitView]) -> frozenset[Cell]:
    """The cells ``ground.side`` can tell are blocked, from the enemy counters in its view only
    (ruling INFO-7): those at or within the blocked radius of a counter that may be a combat
    unit, and those a counter that may be an observer sees under the turn's visibility. A
    sighted unit or a ghost is what it was seen to be; a blank marker may be anything, so it
    counts as both; an anonymous counter is what its kind says. Under the open model this is the
    truth; under the others it is the side's best knowledge, and the umpire still stops a march
    where it really is blocked."""
    gm = ground.game_map
    known = [
        Presence(
            unit_id=f"{n}:{u.ref}", side=u.side or "enemy", cell=gm.idx(u.cell),
            combat=u.level == MARKER or u.kind in COMBAT_KINDS,
            observer=u.level == MARKER or u.kind in OBSERVER_KINDS,
        )
        for n, u in enumerate(enemies) if u.level != OWN and gm.grid.contains(u.cell)
    ]
    passed = full_pass(ground.rule, ground.visibility, known,
                       blocked_radius=ground.blocked_radius, sides=(ground.side,))
    return bits_to_cells(passed[ground.side].blocked_cells, gm.grid)
