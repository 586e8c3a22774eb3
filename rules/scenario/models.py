"""The scenario file: map, order of battle, turn track, information model and rule modules.

These are the file's shapes as pydantic models, checked field by field. Checks that need the
whole picture (cells on the map, parents that exist, roads that join, tables the modules need)
live in ``rules.scenario_check``; ``rules.ground.gamemap`` turns a checked map into the queries the
game asks of it.
"""

from __future__ import annotations

import re
from string import Formatter
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from rules.forces.words import FORMATIONS_BY_KIND, Echelon, MovementClass, UnitKind
from rules.knowledge.information import InformationModel
from rules.scenario.bounds import (
    MAX_BOARD_SIDE,
    MAX_LABEL_FORMAT,
    MAX_LABEL_WIDTH,
    MAX_MOVEMENT,
    MAX_NAME,
    MAX_SHEET_POSITION,
    MAX_SHEET_SIDE,
    MAX_STRENGTH,
    MAX_VISIBILITY,
)
from rules.scenario.victory import VictoryConditions

#: The scenario option naming units taken out of play before the start (``rules.forces.location``).
WITHDRAWN_OPTION = "withdrawn"

Light = Literal["day", "twilight", "night"]

#: The information models a scenario may choose, as written in its file.
ScenarioModel = Literal["open", "concealed", "inverted", "hidden"]
_NOT_PLAIN = re.compile(r"[\\*_`~|\[\]<>#@\n\r]")


def _plain_name(v: str) -> str:
    if _NOT_PLAIN.search(v):
        raise ValueError("a name is plain text: it may not contain \\ * _ ` ~ | [ ] < > # @ or "
                         "a line break (Discord reads them as formatting, links or mentions)")
    return v


#: A name or title that players read in the bot's messages: one line of plain text. Discord would
#: read the characters left out as formatting, a link, a channel or a mention, so a name could
#: restyle the message around it, or call everyone in the channel.
PlainName = Annotated[str, Field(min_length=1, max_length=MAX_NAME), AfterValidator(_plain_name)]
OptionalPlainName = Annotated[str, Field(max_length=MAX_NAME), AfterValidator(_plain_name)]
#: A sheet's position across or down the board (negative ones get their own problem).
SheetPosition = Annotated[int, Field(le=MAX_SHEET_POSITION)]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SheetSpec(_Frozen):
    """One map sheet: its letter, where it sits on the board (sheet column, sheet row), and its
    terrain and elevation as text rows (one character a cell)."""

    letter: str = Field(min_length=1, max_length=2)
    at: tuple[SheetPosition, SheetPosition] = (0, 0)
    terrain: str
    elevation: str = ""


class RoadSpec(_Frozen):
    """A road, pike or trail: waypoints (labels or place names), each joined to the next by the
    straight run of cells between them."""

    kind: str = "road"
    name: OptionalPlainName = ""
    path: tuple[str, ...] = Field(min_length=2)


class HexsideSpec(_Frozen):
    """A hexside feature (stream, ford, impassable) on the edges between listed pairs of
    adjacent cells."""

    kind: str
    name: OptionalPlainName = ""
    pairs: tuple[tuple[str, str], ...] = Field(min_length=1)


class PlaceSpec(_Frozen):
    name: PlainName
    at: str
    kind: str = "place"


class MapSpec(_Frozen):
    grid: Literal["hex", "square"] = "hex"
    orientation: Literal["flat", "pointy"] = "flat"
    shifted: Literal["odd", "even"] = "odd"
    neighbours: Literal[4, 8] = 4
    sheet_width: int = Field(ge=1, le=MAX_SHEET_SIDE)
    sheet_height: int = Field(ge=1, le=MAX_SHEET_SIDE)
    label: str = Field("{sheet}{col:02}{row:02}", max_length=MAX_LABEL_FORMAT)
    legend: dict[str, str]
    sheets: tuple[SheetSpec, ...] = Field(min_length=1)
    roads: tuple[RoadSpec, ...] = ()
    hexsides: tuple[HexsideSpec, ...] = ()
    places: tuple[PlaceSpec, ...] = ()

    @field_validator("legend")
    @classmethod
    def _single_characters(cls, v: dict[str, str]) -> dict[str, str]:
        bad = [k for k in v if len(k) != 1]
        if bad:
            raise ValueError(f"legend keys must be single characters, not {bad!r}")
        return v

    @field_validator("label")
    @classmethod
    def _label_has_fields(cls, v: str) -> str:
        for part in ("{col", "{row"):
            if part not in v:
                raise ValueError("label format needs {col} and {row} (and {sheet} with sheets)")
        try:
            specs = [spec or "" for _, name, spec, _ in Formatter().parse(v) if name is not None]
        except ValueError as e:
            raise ValueError(f"label format cannot be used: {e}") from None
        # Every label is formatted once per cell: a huge padding width would fill the memory.
        if any(int(n) > MAX_LABEL_WIDTH for spec in specs for n in re.findall(r"\d+", spec)):
            raise ValueError(f"label fields are padded to at most {MAX_LABEL_WIDTH} characters")
        return v


class SideSpec(_Frozen):
    id: str = Field(pattern=r"^[a-z][a-z0-9_-]*$")
    name: PlainName
    short: OptionalPlainName = ""
    colour: str = "#444444"
    information: ScenarioModel | None = None


class CommandSpec(_Frozen):
    """A command echelon (army, corps, division): its parent command and its leader's unit id."""

    id: str
    side: str
    name: PlainName
    echelon: Echelon
    parent: str = ""
    leader: str = ""


class ArrivalSpec(_Frozen):
    turn: int = Field(ge=1)
    at: str


class UnitSpec(_Frozen):
    """A counter on the map: a brigade, regiment, battery, leader, HQ or wagon."""

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    side: str
    name: PlainName
    short: OptionalPlainName = ""
    kind: UnitKind
    echelon: Echelon = Echelon.BRIGADE
    command: str = Field("", description="id of the command (division, corps) it belongs to")
    strength: int = Field(0, ge=0, le=MAX_STRENGTH)
    movement_class: MovementClass | None = None
    movement: int | None = Field(None, ge=0, le=MAX_MOVEMENT)
    at: str = ""
    arrives: ArrivalSpec | None = None
    formation: str = ""
    initiative: int | None = Field(None, ge=0, le=12)
    command_range: int | None = Field(None, ge=0, le=MAX_BOARD_SIDE)
    tags: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _placed_or_arriving(self) -> UnitSpec:
        if not self.at and self.arrives is None:
            raise ValueError("a unit needs a start cell ('at') or an arrival ('arrives')")
        if self.at and self.arrives is not None:
            raise ValueError("a unit has either a start cell ('at') or an arrival, not both")
        if self.formation and self.formation not in FORMATIONS_BY_KIND[self.kind]:
            allowed = ", ".join(FORMATIONS_BY_KIND[self.kind])
            raise ValueError(f"a {self.kind} unit's formation is one of: {allowed}")
        return self


class TurnSpec(_Frozen):
    """One turn of the track: its clock time, light and visibility (hexes)."""

    turn: int = Field(ge=1)
    time: str = Field(pattern=r"^\d{1,2}:\d{2}$")
    day: int = 1
    light: Light = "day"
    visibility: int | None = Field(None, ge=0, le=MAX_VISIBILITY)
    #: How far the ``clear_path`` sighting rule sees in this turn (a night or weather limit set
    #: for that rule); left out, it sees as far as its clear paths run (ruling CV-6). Other
    #: sighting rules do not read it, and ``clear_path`` does not read ``visibility``.
    clear_path_limit: int | None = Field(None, ge=0, le=MAX_VISIBILITY)
    weather: str = ""


class ScenarioHeader(_Frozen):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    title: PlainName
    description: str = ""
    ruleset: str
    information: ScenarioModel = "open"
    modules: tuple[str, ...] = ()
    options: dict[str, str | int | bool] = Field(default_factory=dict)


class Scenario(_Frozen):
    scenario: ScenarioHeader
    map: MapSpec
    sides: tuple[SideSpec, ...] = Field(min_length=2)
    commands: tuple[CommandSpec, ...] = ()
    units: tuple[UnitSpec, ...] = Field(min_length=1)
    turns: tuple[TurnSpec, ...] = Field(min_length=1)
    #: Each rule module's own settings (``[settings.<module>]``), checked against the shape its
    #: spec declares when the scenario is loaded (``rules.modules.settings``).
    settings: dict[str, dict[str, Any]] = Field(default_factory=dict)
    #: How the game is won (``[victory]``), checked against the map and the ruleset's charts
    #: when the scenario is loaded; none when the scenario defines no victory conditions.
    victory: VictoryConditions | None = None

    def withdrawn_units(self) -> tuple[str, ...]:
        """The units the option ``withdrawn`` takes out of play (ids separated by commas or
        spaces; the loader checks that each is a unit)."""
        option = self.scenario.options.get(WITHDRAWN_OPTION, "")
        if not isinstance(option, str):
            return ()
        return tuple(dict.fromkeys(option.replace(",", " ").split()))

    def information_for(self, side: str) -> InformationModel:
        """The model the scenario chooses for ``side``; during play the model in force comes
        from ``rules.knowledge.sighted.information_model``, which rule modules may change."""
        for s in self.sides:
            if s.id == side and s.information:
                return InformationModel(s.information)
        return InformationModel(self.scenario.information)
