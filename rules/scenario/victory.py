"""Victory conditions as a scenario's author writes them (``[victory]``): places held and losses.

Each scored place is worth its points to the side holding it at the end of the game; each side
also scores a point for every ``strength_per_point`` strength points its enemy lost for good.
The margin (``margin_for``'s points less the other side's) is read on one column of one of the
ruleset's ``value`` charts. ``source`` says where the conditions come from, and ``stand_in``
marks them as the project's own rather than a published game's; the end post repeats both
(rulings VIC-1 to VIC-4). How they are played is ``rules.turn.victory``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from rules.scenario.models import Scenario
    from rules.scenario.ruleset import Ruleset

#: Most points a place may be worth, and most strength points one point of losses may stand for.
MAX_POINTS = 100


class VictoryPlace(BaseModel):
    """A named place of the map worth ``points`` to the side holding it at the end. ``holder``
    is the side holding it before any side's combat units have stood in it (empty: nobody)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    place: str = Field(min_length=1)
    points: int = Field(ge=1, le=MAX_POINTS)
    holder: str = ""


class VictoryConditions(BaseModel):
    """A scenario's ``[victory]`` section."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    source: str = Field(min_length=1, description="where the conditions come from, in words")
    stand_in: bool = Field(description="true when the conditions are the project's own")
    chart: str = Field("victory", min_length=1, description="the ruleset's chart to read")
    column: str = Field(min_length=1, description="the chart's column to read")
    margin_for: str = Field(min_length=1, description="the side whose points count first")
    places: tuple[VictoryPlace, ...] = ()
    strength_per_point: int = Field(1, ge=1, le=MAX_POINTS)


def victory_problems(conditions: VictoryConditions, scenario: Scenario,
                     ruleset: Ruleset) -> list[tuple[str, str]]:
    """What is wrong with a scenario's victory conditions, as (field under ``victory``,
    message) pairs: every place and side named must exist, a place is scored once, the margin
    needs exactly two sides, and the chart must be a ``value`` chart with the column."""
    found: list[tuple[str, str]] = []
    sides = [s.id for s in scenario.sides]
    if len(sides) != 2:
        found.append(("margin_for", "a margin is one side's points less the other's: the "
                                    f"scenario has {len(sides)} sides, not 2"))
    if conditions.margin_for not in sides:
        found.append(("margin_for", f"{conditions.margin_for!r} is not one of the sides "
                                    f"({', '.join(sides)})"))
    names = {p.name for p in scenario.map.places}
    seen: set[str] = set()
    for i, value in enumerate(conditions.places):
        if value.place not in names:
            found.append((f"places[{i}].place", f"{value.place!r} is not one of the map's "
                                                "places"))
        elif value.place in seen:
            found.append((f"places[{i}].place", f"{value.place!r} is scored twice"))
        seen.add(value.place)
        if value.holder and value.holder not in sides:
            found.append((f"places[{i}].holder", f"{value.holder!r} is not one of the sides"))
    chart = ruleset.tables.get(conditions.chart)
    if chart is None:
        found.append(("chart", f"the ruleset has no table {conditions.chart!r}"))
    else:
        if chart.dice != "value":
            found.append(("chart", f"table {conditions.chart!r} is rolled; a victory chart is "
                                   "read by the margin: dice = 'value'"))
        if conditions.column not in chart.columns:
            found.append(("column", f"table {conditions.chart!r} has no column "
                                    f"{conditions.column!r}; columns: "
                                    f"{', '.join(chart.columns)}"))
    return found
