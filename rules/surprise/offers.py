"""What Surprise Move lets a side do now (``RuleModule.offers``): in the Command Phase, send a
surprise-move order for units not already on one, or new orders to a force on one; in the side's
movement phase, rally the shammed units of its marches. Read from the side's own units and its
own marches only.

Orders that take effect no sooner when given in this step than in the next Command Phase
(setting a march off at the next movement phase, forced-march MPs) keep no step open by
themselves: the next Command Phase is played anyway (ruling FLOW-14).
"""

from __future__ import annotations

from rules.state import GameState
from rules.surprise import records as rec
from rules.turn.offers import Offer
from rules.turn.sequence import Step
from rules.view import SideView

#: What each offer says (the side's call for orders lists them).
ORDER_WORDS = "send a surprise-move order (/march order)"
CANCEL_WORDS = "send new orders to a surprise move (/march cancel)"
RALLY_WORDS = "rally the shammed units of a surprise move (/march rally)"


def surprise_offers(state: GameState, side: str, view: SideView, step: Step
                    ) -> tuple[Offer, ...]:
    out: list[Offer] = []
    if step.allows("order"):
        free = tuple(u.name for u in view.own_units() if u.ref in state.units
                     and state.units[u.ref].combat
                     and rec.march_of_unit(state, u.ref, rec.OPEN) is None)
        if free:
            out.append(Offer("order", ORDER_WORDS, free))
        marches = tuple(str(m["name"]) for m in rec.side_marches(
            state, side, {rec.SENT, rec.ACCUMULATING}) if not m.get("cancel"))
        if marches:
            out.append(Offer("order", CANCEL_WORDS, marches, under_way=True))
    if step.allows("move"):
        shammed = tuple(str(m["name"]) for m in rec.side_marches(state, side, rec.OPEN)
                        if m.get("shams"))
        if shammed:
            out.append(Offer("rally", RALLY_WORDS, shammed))
    return tuple(out)
