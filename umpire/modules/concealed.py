"""The umpire's side of Concealed Forces: the lists its orders complete from, each made by the
order's own check (``rules.concealed.offers``, ruling ORD-55), from the side's own records and
view."""

from __future__ import annotations

from enum import StrEnum

from rules.concealed import offers as cof
from rules.concealed.records import MODULE
from rules.forces.lookup import own_unit
from rules.refusal import Refusal
from rules.state import GameState
from rules.view import project
from umpire.reads.naming import Named, marker_choice, named_unit
from umpire.service import Umpire


class Concealing(StrEnum):
    """The Concealed Forces lists an order may complete from (``concealed_choices``)."""

    LEADER = "leader"  # who may conceal his force
    JOIN = "join"  # who may join a leader's concealment
    SCOUTS = "scouts"  # who a marker may release as scouts
    SCOUTING = "scouting"  # the markers that may release scouts
    BREEDING = "breeding"  # the markers that may breed a decoy
    REVEALING = "revealing"  # the markers that may turn back into their units
    FORCING = "forcing"  # the markers that may force-march
    PLANNING = "planning"  # the markers with units that may be given a deployment plan
    PLAN_UNITS = "plan_units"  # the units under a marker that may be given one
    UNPLANNING = "unplanning"  # the markers with a deployment plan to withdraw
    PLANNED = "planned"  # the units under a marker whose plan may be withdrawn
    DETACHING = "detaching"  # the units that may be marked detached (or back)


def concealed_choices(state: GameState, side: str, what: Concealing, context: str = ""
                      ) -> list[Named]:
    """What a Concealed Forces order may name now (``rules.concealed.offers``, each list made
    by the order's own check): ``context`` is the leader a ``join`` list joins, or the marker
    whose scouts are listed, or whose units may be planned; for ``detaching``, the order's
    ``detached`` field ("False" for back with the division, else detached)."""
    if MODULE not in state.modules:
        return []
    match what:
        case Concealing.LEADER:
            return [named_unit(u) for u in cof.concealers(state, side, project(state, side))]
        case Concealing.JOIN:
            try:
                leader = own_unit(state, side, context)
            except Refusal:
                return []
            return [named_unit(u) for u in cof.joiners(state, side, leader)]
        case Concealing.SCOUTS:
            return [named_unit(u) for u in cof.scouts_under(state, side, context)]
        case Concealing.SCOUTING:
            return marker_choice(state, side, cof.scouting(state, side))
        case Concealing.BREEDING:
            return marker_choice(state, side, cof.breeding(state, side))
        case Concealing.REVEALING:
            return marker_choice(state, side, cof.revealing(state, side))
        case Concealing.FORCING:
            return marker_choice(state, side, cof.forcing(state, side))
        case Concealing.PLANNING:
            return marker_choice(state, side, cof.planning(state, side))
        case Concealing.PLAN_UNITS:
            return [named_unit(u) for u in cof.plan_units(state, side, context)]
        case Concealing.UNPLANNING:
            return marker_choice(state, side, cof.unplanning(state, side))
        case Concealing.PLANNED:
            return [named_unit(u) for u in cof.planned_units(state, side, context)]
        case Concealing.DETACHING:
            detached = context.strip().lower() not in ("false", "no", "0")
            return [named_unit(u) for u in cof.detachable(state, side, detached)]


async def concealed_choices_for(umpire: Umpire, game_id: str, user_id: int, what: Concealing,
                                context: str = "") -> list[Named]:
    """What a Concealed Forces order of the player's may name now (``concealed_choices``);
    nothing for someone who plays no side in the game, or before or after play."""
    state = await umpire.repository.state_for(game_id)
    player = await umpire.player(game_id, user_id)
    if player is None or not state.status.in_play:
        return []
    return concealed_choices(state, player.side, what, context)
