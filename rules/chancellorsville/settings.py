"""The ``raid_victory`` module's settings: what the raid and the victory chart need to know
about the scenario (``[settings.raid_victory]``).

The article names the raid's units by what they are, not by counter: every Federal unit of
movement 8 except the headquarters, Pleasonton's division and Morris' regiment, and
W. H. F. Lee's brigade on the other side. The settings say which side is which, which commands
or units stay with the army, and which enemy units follow the raid; ``rules.chancellorsville.
raid`` works out the rest from the order of battle. The victory chart is read with a score the
settings define (``VictorySpec``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from rules.forces.words import LEADER_KINDS
from rules.modules.settings import ModuleSettings
from rules.scenario.bounds import MAX_MOVEMENT

if TYPE_CHECKING:
    from rules.scenario.loader import LoadedScenario

#: The victory chart's column after a raid that succeeded, and the one read otherwise.
SUCCESSFUL_RAID = "Successful Raid"
NO_RAID = "No Raid"
#: The raid outcome table's column, and its result for a raid that succeeded (the other: "N").
OUTCOME_COLUMN = "raid"
OUTCOME_SUCCESS = "S"
OUTCOME_FAILURE = "N"
#: Most points a place may be worth, and most points a strength point may be worth.
MAX_POINTS = 100


class PlaceValue(BaseModel):
    """A place on the map worth ``points`` to the side holding it at the end. ``holder`` is the
    side holding it before anyone has stood in it (empty: nobody)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    place: str = Field(min_length=1)
    points: int = Field(ge=1, le=MAX_POINTS)
    holder: str = ""


class VictorySpec(BaseModel):
    """How the victory chart's margin (Federal points minus Confederate points) is scored:
    the places held at the end, and ``per_strength`` points to a side for every strength point
    of the enemy's units eliminated (their strength in the order of battle). ``stand_in``: the
    score is the project's own, since the article prints none (a group that enters its own
    game's score sets it false); the end post says so (ruling VIC-1)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    places: tuple[PlaceValue, ...] = ()
    per_strength: int = Field(1, ge=0, le=MAX_POINTS)
    stand_in: bool = True


class RaidSettings(ModuleSettings):
    """``federal`` and ``confederate``: the two sides' ids. ``raid_movement``: the movement
    factor of the units that ride off. ``stays``: Federal commands (with every unit under
    them) or units that stay with the army. ``follows``: Confederate commands or units that
    ride after the raid. Neither names a headquarters or leader, which never ride (ruling
    CV-11). ``victory``: the score."""

    federal: str
    confederate: str
    raid_movement: int = Field(8, ge=1, le=MAX_MOVEMENT)
    stays: tuple[str, ...] = ()
    follows: tuple[str, ...] = ()
    victory: VictorySpec = VictorySpec()

    def problems(self, loaded: LoadedScenario) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        s = loaded.scenario
        sides = {side.id for side in s.sides}
        for key in ("federal", "confederate"):
            if getattr(self, key) not in sides:
                found.append((key, f"{getattr(self, key)!r} is not one of the sides "
                                   f"({', '.join(sorted(sides))})"))
        if self.federal == self.confederate:
            found.append(("confederate", "the two armies must be different sides"))
        owner = {c.id: c.side for c in s.commands} | {u.id: u.side for u in s.units}
        headquarters = {u.id for u in s.units if u.kind in LEADER_KINDS}
        for key, side in (("stays", self.federal), ("follows", self.confederate)):
            for i, ref in enumerate(getattr(self, key)):
                if ref not in owner:
                    found.append((f"{key}[{i}]", f"{ref!r} is neither a command nor a unit"))
                elif owner[ref] != side:
                    found.append((f"{key}[{i}]", f"{ref!r} belongs to {owner[ref]!r}, not "
                                                f"{side!r}"))
                elif ref in headquarters:
                    # Headquarters never ride off and never follow (ruling CV-11): an entry
                    # naming one would do nothing, and is most likely a slip for its command.
                    found.append((f"{key}[{i}]", f"{ref!r} is a headquarters or leader, which "
                                                "always stays with its army: name its command "
                                                "or its units instead"))
        places = {p.name for p in s.map.places}
        for i, value in enumerate(self.victory.places):
            if value.place not in places:
                found.append((f"victory.places[{i}].place",
                              f"{value.place!r} is not one of the map's places"))
            if value.holder and value.holder not in (self.federal, self.confederate):
                found.append((f"victory.places[{i}].holder",
                              f"{value.holder!r} is neither army's side"))
        seen: set[str] = set()
        for i, value in enumerate(self.victory.places):
            if value.place in seen:
                found.append((f"victory.places[{i}].place", f"{value.place!r} is scored twice"))
            seen.add(value.place)
        found += _table_problems(loaded)
        return found


def _table_problems(loaded: LoadedScenario) -> list[tuple[str, str]]:
    """The two tables must have the columns and results this module reads (their presence is
    checked with every module's tables)."""
    found: list[tuple[str, str]] = []
    tables = loaded.ruleset.tables
    chart = tables.get("victory")
    if chart is not None:
        missing = [c for c in (SUCCESSFUL_RAID, NO_RAID) if c not in chart.columns]
        if missing:
            found.append(("", f"the ruleset's victory table needs the column(s) "
                              f"{', '.join(repr(c) for c in missing)}"))
        if chart.dice != "value":
            found.append(("", "the ruleset's victory table is read by a margin: dice = 'value'"))
    outcome = tables.get("raid_outcome")
    if outcome is not None:
        codes = {r for row in outcome.rows for r in row.results}
        if OUTCOME_COLUMN not in outcome.columns or not codes <= {OUTCOME_SUCCESS,
                                                                  OUTCOME_FAILURE}:
            found.append(("", f"the ruleset's raid_outcome table needs a column "
                              f"{OUTCOME_COLUMN!r} with results {OUTCOME_SUCCESS!r} (the raid "
                              f"succeeds) and {OUTCOME_FAILURE!r} only"))
        if outcome.dice == "value":
            found.append(("", "the ruleset's raid_outcome table is rolled, not read by a value"))
    return found
