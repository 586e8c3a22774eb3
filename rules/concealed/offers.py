"""What Concealed Forces lets a side do now (``RuleModule.offers``), in its own movement phase:
move a concealed force (its marker) or turn it back into its units, and, before anything of the
side has moved, put a division under concealment. Read from the side's own markers and
commands only; whether its leader is seen by the enemy (which would refuse the concealment) is
not looked at, since the side cannot know it for sure (ruling FLOW-12)."""

from __future__ import annotations

from rules.concealed.timing import movement_begun
from rules.forces.words import Echelon
from rules.state import GameState
from rules.turn.offers import Offer
from rules.turn.sequence import Step
from rules.view import SideView


def concealed_offers(state: GameState, side: str, view: SideView, step: Step
                     ) -> tuple[Offer, ...]:
    if not step.allows("move"):
        return ()
    out: list[Offer] = []
    markers = tuple(f"marker {m.id}" for m in view.markers if m.own and m.side == side)
    if markers:
        out.append(Offer("move", "move a concealed force (/move) or reveal it (/conceal reveal)",
                         markers))
    if not movement_begun(state, side):
        leaders = {c.leader for c in state.commands.values()
                   if c.side == side and c.echelon is Echelon.DIVISION}
        names = tuple(u.name for u in view.own_units() if u.ref in leaders)
        if names:
            out.append(Offer("conceal", "conceal a division (/conceal force)", names))
    return tuple(out)
