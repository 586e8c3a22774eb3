"""When the owner's concealment orders may be given: at the start of his movement phase, before
any of his units or markers has moved in it (Cf 1.3, 1.5, 2.2, 3.1).

On a side shared by several players the window is the side's: one player's move closes it for
all. The refusal is a ``WindowClosed``, so that the umpire can add which of the side's own orders
closed it (ruling FLOW-64)."""

from __future__ import annotations

from rules.concealed.records import data
from rules.refusal import Refusal, WindowClosed
from rules.state import GameState, remembered

#: How the calls for orders and the refusals say when the start-of-phase orders may be given.
BEFORE_ANY_MOVE = "before any unit of your side moves"


@remembered()  # (asked for each of the side's units when its offers are listed)
def movement_begun(state: GameState, side: str) -> bool:
    """Whether any of the side's units or markers has moved (or changed formation) in the
    current phase."""
    if any(u.mp_spent > 0 for u in state.units_of(side)):
        return True
    if any(m.side == side and m.moved_during(state.turn, state.step)
           for m in state.markers.values()):
        return True
    s = data(state).get("spent", {})
    return list(s.get("phase", ())) == [state.turn, state.step] and any(
        state.markers.get(mid) is not None and state.markers[mid].side == side
        for mid in s.get("mp", {}))


def require_phase_start(state: GameState, side: str, doing: str) -> None:
    """Refuse ``doing`` unless it is the start of the side's own movement phase."""
    step = state.current
    if not step.allows("move") or side not in step.acting(state.sides):
        raise Refusal(f"you can {doing} only at the start of your own movement phase")
    if side in state.done:
        raise Refusal("you have already finished this phase")
    if movement_begun(state, side):
        raise WindowClosed(f"you can {doing} only at the start of your movement phase, "
                           f"{BEFORE_ANY_MOVE}, and your side has already moved this phase")
