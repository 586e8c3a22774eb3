"""An offer: one thing a side could do now in the current step, with the units that could do it.

Offers are what ``rules.turn.idle`` gathers for a side from the core and the rule modules in force
(``RuleModule.offers``); a side with none has nothing to do in the step and may pass it by
itself (``auto_pass``). An offer names only the side's own units and markers, so it can be shown
to that side as it is.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Offer:
    """``action``: the ruleset's word for it (``move``, ``fire``, ``order``, ...); ``words``:
    what the side may do, with the command that does it; ``units``: the names of the side's
    own units (or markers) that could do it now, in the view's order (empty when the offer is
    not about particular units); ``refs``: the same units' ids, in the same order, where the
    offer knows them (for autocomplete, which completes to ids: ruling ORD-10); ``under_way``:
    the offer is about something the side already has in progress."""

    action: str
    words: str
    units: tuple[str, ...] = ()
    refs: tuple[str, ...] = ()
    #: About something the side has under way (a march, an order on its way, a detachment):
    #: a phase with such an offer never passes on standing orders alone (ruling FLOW-74).
    under_way: bool = False
