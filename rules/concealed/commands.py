"""The players' commands of the Concealed Forces module (``/conceal ...`` on Discord). A
concealed force is moved with the core's ``Move``, naming its marker."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from rules.commands import GameCommand, Name


class ConcealForce(GameCommand):
    """Put a concealment marker on a divisional commander (his division goes under it, with the
    corps units named in ``join``), or on a lone cavalry brigade (Cf 1.3)."""

    kind: Literal["conceal"] = "conceal"
    leader: Name
    join: tuple[Name, ...] = Field((), max_length=20)


class BreedDecoy(GameCommand):
    """A concealed force breeds a decoy in its own hex (Cf 1.5)."""

    kind: Literal["conceal_breed"] = "conceal_breed"
    marker: Name


class Unconceal(GameCommand):
    """A concealed force turns back into its units, which deploy (Cf 2.2)."""

    kind: Literal["conceal_reveal"] = "conceal_reveal"
    marker: Name


class MarkDetached(GameCommand):
    """Mark a unit as detached from its division (on a brigade goal), or back in it: a
    detached unit stays on the map when its division conceals (Cf 1.3)."""

    kind: Literal["conceal_detach"] = "conceal_detach"
    unit: Name
    detached: bool = True


class ReleaseScouts(GameCommand):
    """A concealed division releases up to one cavalry unit and any number of skirmishers,
    placed in its marker's hex; the rest of the force stays concealed (Cf 3.1)."""

    kind: Literal["conceal_scouts"] = "conceal_scouts"
    marker: Name
    units: tuple[Name, ...] = Field(min_length=1, max_length=20)


class ForceMarch(GameCommand):
    """Let a concealed force add up to ``mp`` forced-march MPs to each of its units' allowance
    for the rest of this movement phase (ruling CF-15); 0 takes it back before it is used.
    Checked by the rules (a clear refusal), not here, so that a bad number reads plainly."""

    kind: Literal["conceal_forced"] = "conceal_forced"
    marker: Name
    mp: int


class ConcealPlan(GameCommand):
    """File where one unit of a concealed force sets up when the force deploys (Cf 2.3):
    ``place`` is ``here`` (the marker's hex) or a direction from the marker's hex (N, NE, SE,
    S, SW, NW on flat-topped hexes); ``formation`` empty for the rule's. The plan is secret."""

    kind: Literal["conceal_plan"] = "conceal_plan"
    marker: Name
    unit: Name
    place: Annotated[str, Field(min_length=1, max_length=20)]
    formation: Annotated[str, Field(max_length=20)] = ""


class ClearConcealPlan(GameCommand):
    """Withdraw the deployment plan of one unit of a concealed force, or (``unit`` empty) the
    whole force's: those units deploy by the rule."""

    kind: Literal["conceal_plan_clear"] = "conceal_plan_clear"
    marker: Name
    unit: Annotated[str, Field(max_length=100)] = ""


COMMANDS: tuple[type[GameCommand], ...] = (ConcealForce, BreedDecoy, Unconceal, MarkDetached,
                                           ReleaseScouts, ForceMarch, ConcealPlan,
                                           ClearConcealPlan)
