"""What Concealed Forces lets a side do now (``RuleModule.offers``), in its own movement phase:
move a concealed force (its marker), and, before any unit or marker of the side has moved in
the phase, the start-of-phase orders (``rules.concealed.timing``): turn a force back into its
units, breed a decoy, release scouts, put a division under concealment. Once anything of the
side has moved, those are no longer offered, as they would be refused (ruling FLOW-63).

Read from the side's own markers, units and commands only; whether its leader is seen by the
enemy (which would refuse the concealment) is not looked at, since the side cannot know it for
sure (ruling FLOW-12)."""

from __future__ import annotations

from rules.concealed.pool import decoys_available
from rules.concealed.records import (
    ForceKind,
    concealed_this_phase,
    force,
    kind_of,
    released_this_phase,
)
from rules.concealed.scouts import is_skirmisher
from rules.concealed.timing import BEFORE_ANY_MOVE, movement_begun
from rules.forces.words import Echelon, UnitKind
from rules.state import GameState
from rules.turn.offers import Offer
from rules.turn.sequence import Step
from rules.view import SideView


def concealed_offers(state: GameState, side: str, view: SideView, step: Step
                     ) -> tuple[Offer, ...]:
    if not step.allows("move"):
        return ()
    out: list[Offer] = []
    own = [m.id for m in view.markers if m.own and m.side == side
           and force(state, m.id) is not None]
    markers = tuple(f"marker {m}" for m in own)
    if markers:
        out.append(Offer("move", "move a concealed force (/move)", markers))
    if movement_begun(state, side):
        return tuple(out)
    if markers:
        out.append(Offer("reveal", f"reveal a concealed force (/conceal reveal), "
                                   f"{BEFORE_ANY_MOVE}", markers))
    breeders = tuple(f"marker {m}" for m in own if _may_breed(state, side, m))
    if breeders:
        out.append(Offer("breed", f"breed a decoy (/conceal breed), {BEFORE_ANY_MOVE}",
                         breeders))
    scouting = tuple(f"marker {m}" for m in own if _may_scout(state, m))
    if scouting:
        out.append(Offer("scout", f"release scouts (/conceal scout), {BEFORE_ANY_MOVE}",
                         scouting))
    leaders = {c.leader for c in state.commands.values()
               if c.side == side and c.echelon is Echelon.DIVISION}
    names = tuple(u.name for u in view.own_units() if u.ref in leaders)
    if names:
        out.append(Offer("conceal", f"conceal a division (/conceal force), {BEFORE_ANY_MOVE}",
                         names))
    return tuple(out)


def _may_breed(state: GameState, side: str, marker_id: str) -> bool:
    """As ``decide_breed`` would have it: a decoy left in the pool, no force concealed yet this
    phase, and the marker neither bred nor bred from this turn."""
    record = force(state, marker_id)
    return (record is not None and record.get("bred_turn") != state.turn
            and not concealed_this_phase(state, side) and decoys_available(state, side) > 0)


def _may_scout(state: GameState, marker_id: str) -> bool:
    """As ``decide_release`` would have it: a concealed division (no decoy, no lone cavalry
    brigade) with cavalry or skirmishers under it, that has not released scouts this phase."""
    record = force(state, marker_id)
    if record is None or kind_of(record) is not ForceKind.DIVISION:
        return False
    if released_this_phase(state, marker_id):
        return False
    inside = [state.units[u] for u in record["units"] if u in state.units]
    return any(is_skirmisher(u) or u.kind is UnitKind.CAVALRY for u in inside)
