"""What an enemy concealment marker is to a surprise march (Surprise Move with Cf; ruling CF-16).

A surprise march is stopped by a *blocked hex*: at or within the blocked radius of an enemy
combat unit (its pickets), or seen by an enemy unit or leader. The troops of a concealed force
are off the map and are no sighting presences of their own (``rules.forces.counting``), yet a real
division in the field posts pickets and keeps watch, and a decoy must not be told from it. So
every enemy concealment marker, whatever is under it, counts for the blocked hexes as one
counter that both fights and observes, standing in the marker's hex: the cells within the
blocked radius of it, and those its hex sees under the turn's visibility. That is what the
marching side's own map already shows of a blank marker (ruling INFO-11), so the overlay and
the umpire agree.

A marker counts for nothing else here: its troops see nothing for their own side (a concealed
force never reveals another, Cf 2.1), and it triggers no surprise march, since it can never end
a move within two hexes of an enemy unit (Cf 1.4 keeps it three away).
"""

from __future__ import annotations

from rules.concealed.records import forces
from rules.ground.grid import Cell
from rules.knowledge.sighted import bits_to_cells, rule_for, turn_visibility
from rules.sighting.sighting_pass import Presence, full_pass
from rules.state import GameState


def blocked_by_markers(state: GameState, side: str) -> frozenset[Cell]:
    """The cells that the enemy concealment markers make blocked hexes for ``side``'s surprise
    marches: each marker as a counter that fights and observes, whatever is under it."""
    gm = state.loaded.map
    concealed = forces(state)
    markers = tuple(Presence(f"marker:{m.id}", m.side, gm.idx(m.cell), combat=True, observer=True)
                    for m in state.markers_list() if m.side != side and m.id in concealed)
    if not markers:
        return frozenset()
    passed = full_pass(rule_for(state), turn_visibility(state), markers,
                       blocked_radius=state.loaded.ruleset.blocked_radius, sides=(side,))
    return bits_to_cells(passed[side].blocked_cells, gm.grid)
