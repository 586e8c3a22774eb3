"""The players' commands of the Surprise Move module (``/march ...`` on Discord)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from rules.commands import GameCommand

#: The longest text an order's field holds (a force's list of units, a route).
TEXT_LIMIT = 500
Text = Annotated[str, Field(min_length=1, max_length=TEXT_LIMIT)]
MarchRef = Annotated[str, Field(max_length=100)]

#: What the umpire does when the column is about to enter a blocked hex (SM, "Initiative Use"):
#: ask the owner, always try the ranking leader's initiative, or never.
DetourPolicy = Literal["ask", "always", "never"]


class OrderSurpriseMove(GameCommand):
    """Send a surprise-move order (Command Phase): the force (units, or commands "plus
    attached", separated by commas) and its detailed route (waypoints, ``road`` legs)."""

    kind: Literal["surprise_order"] = "surprise_order"
    force: Text
    route: Text
    forced: int = Field(0, ge=0, le=12)
    detour: DetourPolicy = "ask"
    by_initiative: bool = False
    #: What to call the march in messages (default: from its commands or its leader).
    name: Annotated[str, Field(max_length=60)] = ""


class ExecuteSurpriseMove(GameCommand):
    """Set the march off at the start of the side's next movement phase instead of rolling."""

    kind: Literal["surprise_execute"] = "surprise_execute"
    march: MarchRef = ""


class CancelSurpriseMove(GameCommand):
    """Send new orders to a force on a surprise move (Command Phase). Once they are accepted the
    force either ``execute``s the march as it stands, or ``reverse``s it."""

    kind: Literal["surprise_cancel"] = "surprise_cancel"
    march: MarchRef = ""
    mode: Literal["execute", "reverse"]
    by_initiative: bool = False


class ChooseDetour(GameCommand):
    """Answer the umpire's question before a blocked hex: try the ranking leader's initiative to
    go round it (``attempt``), or march into it."""

    kind: Literal["surprise_detour"] = "surprise_detour"
    march: MarchRef = ""
    attempt: bool


# sham rallies
class RallyShammed(GameCommand):
    """The owner's movement phase: the named units of the march (all its shammed units if none
    are named, separated by commas) each roll a rally for their sham marker, as a real unit
    showing it would, or, once it is gone, walk back to where they stood (ruling SM-23)."""

    kind: Literal["surprise_rally"] = "surprise_rally"
    march: MarchRef = ""
    units: Annotated[str, Field(max_length=500)] = ""
# forced marches
class SetForcedMarch(GameCommand):
    """Choose the forced-march MPs a force adds each turn from now on (up to the ruleset's
    ``forced_march_max``), for a march sent, accumulating or reversing (ruling SM-24). The
    choice stands until changed; the order's ``forced`` is the first choice."""

    kind: Literal["surprise_forced"] = "surprise_forced"
    march: MarchRef = ""
    #: Checked by the rules (a clear refusal), not here, so that a bad number reads plainly.
    mp: int


COMMANDS: tuple[type[GameCommand], ...] = (
    OrderSurpriseMove, ExecuteSurpriseMove, CancelSurpriseMove, ChooseDetour,
    RallyShammed,
    SetForcedMarch,
)
