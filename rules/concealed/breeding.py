"""Breeding decoys (Cf 1.5).

At the start of his movement phase, before he conceals any new force, a player may have each of
his concealed forces breed one decoy in its own hex, while the pool has decoys to spare. A
decoy bred this turn may move at once and breed from the next turn; a force that bred this turn
breeds no more until the next (ruling CF-6).

Nothing may tell the enemy which marker is the parent: the parent's marker splits into two
markers with fresh ids, listed by id, and a secret die (1d6: 1-3 the first id, 4-6 the second)
says which of them the force is under.
Both show the same turn of placing and the same last move (``rules.forces.markers``).

Markers never stack (Cf 1.4): one of the two must leave the hex in the Movement Phase they were
bred in. If both still stand there when it ends, the breeding is undone: the two markers become
one with a fresh id, over the force, and the decoy goes back to the pool (ruling CF-24). Nobody
learns from it which of the two was the decoy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import events as ev
from rules.concealed import events as cev
from rules.concealed.commands import BreedDecoy
from rules.concealed.pool import decoy_pool, decoys_available
from rules.concealed.records import (
    MODULE,
    ForceKind,
    concealed_this_phase,
    decoys_of,
    force,
    own_marker,
)
from rules.concealed.timing import require_phase_start
from rules.forces.markers import Marker
from rules.refusal import Refusal
from rules.state import GameState

if TYPE_CHECKING:
    from rules.outcome import Outcome


def breed_check(state: GameState, side: str, marker_text: str) -> Marker | Refusal:
    """The marker that would breed now, or the refusal with its reason: the one reading of the
    order that both the order and the side's offers use (the side's own records only)."""
    try:
        require_phase_start(state, side, "breed decoys")
        if concealed_this_phase(state, side):
            raise Refusal("decoys are bred before new forces are concealed: you have already "
                          "concealed a force this phase")
        marker = own_marker(state, side, marker_text)
        record = force(state, marker.id) if marker is not None else None
        if marker is None or record is None:
            raise Refusal(f"you have no concealment marker {marker_text.strip()[:40]!r}")
        if record.get("bred_turn") == state.turn:
            raise Refusal(f"marker {marker.id} has bred or was bred this turn: it may breed "
                          "from the next turn")
        if decoys_available(state, side) <= 0:
            raise Refusal(f"no decoy is left to breed: your pool is {decoy_pool(state, side)} "
                          f"(divisions and independent cavalry on the table), "
                          f"{len(decoys_of(state, side))} in play")
    except Refusal as why:
        return why
    return marker


def breed_refusal(state: GameState, side: str, marker_text: str) -> Refusal | None:
    """Why the marker may not breed a decoy now (``None``: it may)."""
    found = breed_check(state, side, marker_text)
    return found if isinstance(found, Refusal) else None


def decide_breed(out: Outcome, side: str, command: BreedDecoy) -> None:
    state = out.state
    marker = breed_check(state, side, command.marker)
    if isinstance(marker, Refusal):
        raise marker
    first, second = out.new_marker_id(side), out.new_marker_id(side)
    into = (first, second) if first < second else (second, first)
    audience = ev.side_audience(side)
    # The game's dice are d6s and d10s: 1-3 puts the force under the first id, 4-6 the second.
    roll, _ = out.roll(cev.breeding_purpose(*into), "1d6", audience)
    kept, decoy = (into[1], into[0]) if roll > 3 else into
    cell = (marker.cell.col, marker.cell.row)
    out.add(ev.MarkerSplit(audience="public", marker=marker.id, into=into, cells=(cell, cell)))
    out.add(cev.DecoyBred(audience=audience, parent=marker.id, kept=kept, decoy=decoy))


def undo_stacked_breedings(out: Outcome) -> None:
    """At the end of a phase, each force still sharing its hex with the decoy it bred this turn
    joins it again under a fresh marker (ruling CF-24)."""
    state = out.state
    forces = state.module_data.get(MODULE, {}).get("forces", {})
    for decoy, record in sorted(forces.items()):
        kept = record.get("twin")
        if (record.get("kind") != ForceKind.DECOY.value or record.get("bred_turn") != state.turn
                or kept not in forces or forces[kept].get("twin") != decoy):
            continue
        here, there = state.markers.get(kept), state.markers.get(decoy)
        if here is None or there is None or here.cell != there.cell:
            continue
        side = here.side
        into = out.new_marker_id(side)
        cell = (here.cell.col, here.cell.row)
        pair = (kept, decoy) if kept < decoy else (decoy, kept)
        out.add(ev.MarkersJoined(audience="public", markers=pair, into=into, cell=cell))
        out.add(cev.BreedingUndone(audience=ev.side_audience(side), kept=kept, decoy=decoy,
                                   into=into))
        state = out.state
        forces = state.module_data.get(MODULE, {}).get("forces", {})
