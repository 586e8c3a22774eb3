"""A marker's move as its side's own knowledge settles it: the marker's counterpart of
``rules.orders.core.MoveOrder``.

A marker stands for something under it (a concealed force, say), so the module that made it
prices its steps (``RuleModule.marker_order``); what comes out is read as a unit's order is: the
steps as an ``OrderPlan`` (each priced, the route cut at the last cell the MPs pay for, ruling
ORD-1), and where the marker ends if neither the enemy nor a rule stops it sooner. The move and
its preview use this one settlement, so that Confirm does what the preview said.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.forces.markers import Marker
from rules.orders.movement import MoveResult, OrderPlan
from rules.orders.route import Route


@dataclass(frozen=True)
class MarkerOrder:
    """``marker`` ordered along ``route``: each step priced for the pace the marker keeps
    (``plan``: its ``budget`` is the MPs that pace has left), ``expected``, where it ends
    with no enemy in the way (``mp``: what it spends getting there, out of ``plan.budget``),
    and ``pace``: whom the marker keeps pace with, in its side's own words (the unit under it
    whose MPs run out first, say). ``foreseen`` is where it halts instead, and ``halt`` why in
    the side's own words, when the enemy the side knows of is in the way (ruling CF-22)."""

    marker: Marker
    route: Route
    plan: OrderPlan
    expected: MoveResult
    pace: str = ""
    foreseen: MoveResult | None = None
    halt: str = ""
