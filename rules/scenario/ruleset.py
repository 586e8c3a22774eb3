"""A ruleset: the numbers of the game system a scenario is played under.

Terrain effects, movement allowances, stacking, command ranges, the order delay rate, default
visibility, the turn sequence, and every table. The sample rulesets carry the project's own
stand-in numbers and say so (``stand_in = true``); a play group enters its own game's numbers.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.chancellorsville.cavalry import TABLE as CAVALRY_TABLE
from rules.chancellorsville.cavalry import CavalryRule, cavalry_problems
from rules.combat.config import CombatRules
from rules.forces.words import Formation, MovementClass
from rules.modules.catalog import tables_needed
from rules.scenario.bounds import MAX_BLOCKED_RADIUS, MAX_MOVEMENT, MAX_VISIBILITY
from rules.scenario.tables import Table


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TerrainType(_Frozen):
    """What a terrain type does: cost to enter by movement class (and in line, if different),
    height it adds to line of sight, and how grid sighting classes it."""

    name: str = ""
    cost: dict[MovementClass, float]
    line_cost: dict[MovementClass, float] = Field(default_factory=dict)
    enterable: bool = True
    los_height: int = 0
    woods: bool = False
    hill: bool = False
    fort: bool = False
    colour: str = ""

    @model_validator(mode="after")
    def _every_class_has_a_cost(self) -> TerrainType:
        if self.enterable:
            missing = [m for m in MovementClass if m not in self.cost]
            if missing:
                raise ValueError(f"cost is missing for movement classes: {', '.join(missing)}")
        return self

    def cost_for(self, movement_class: MovementClass, formation: Formation) -> float:
        if formation == Formation.LINE and movement_class in self.line_cost:
            return self.line_cost[movement_class]
        return self.cost[movement_class]


class RoadType(_Frozen):
    """Cost of a step along a road of this kind, for a unit in column (or limbered, or mounted).
    Units in line or unlimbered pay the terrain instead."""

    name: str = ""
    cost: float
    colour: str = ""


class HexsideType(_Frozen):
    """A feature on the edge between two cells: extra cost to cross it, or impassable."""

    name: str = ""
    extra_cost: float = 0.0
    impassable: bool = False
    road_crosses: bool = True
    colour: str = ""


class Phase(_Frozen):
    """One phase of the turn sequence. ``side`` is ``"each"`` for a phase every side plays in
    turn (the order of the scenario's sides), or ``"all"`` for one played together."""

    id: str
    name: str
    side: Literal["each", "all"] = "all"
    actions: tuple[str, ...] = ()


class Ruleset(_Frozen):
    id: str
    name: str
    stand_in: bool = Field(description="true when the numbers are the project's own, not a game's")
    note: str = ""
    terrain: dict[str, TerrainType]
    roads: dict[str, RoadType] = Field(default_factory=dict)
    hexsides: dict[str, HexsideType] = Field(default_factory=dict)
    movement_allowance: dict[MovementClass, Annotated[int, Field(ge=0, le=MAX_MOVEMENT)]]
    forced_march_max: int = 4
    stacking_limit: int = 3
    command_range: dict[str, int] = Field(default_factory=dict)
    order_delay_mp_per_turn: int = 10
    visibility: int = Field(20, ge=0, le=MAX_VISIBILITY)
    blocked_radius: int = Field(2, ge=0, le=MAX_BLOCKED_RADIUS)
    sequence: tuple[Phase, ...] = ()
    tables: dict[str, Table] = Field(default_factory=dict)
    #: What the combat tables' results mean and when their modifiers apply (rules.combat).
    combat: CombatRules = Field(default_factory=CombatRules)
    #: Cavalry combat rules by letter, and the close-combat shift (if any) each is played as
    #: (``rules.chancellorsville.cavalry``).
    cavalry_rules: dict[str, CavalryRule] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _sequence_ids_unique(self) -> Ruleset:
        ids = [p.id for p in self.sequence]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise ValueError(f"phase ids repeat in sequence: {', '.join(sorted(dup))}")
        return self

    @model_validator(mode="after")
    def _combat_explains_its_tables(self) -> Ruleset:
        problems = self.combat.table_problems(self.tables)
        if problems:
            raise ValueError("; ".join(problems))
        return self

    @model_validator(mode="after")
    def _cavalry_rules_play_real_shifts(self) -> Ruleset:
        table = self.tables.get(CAVALRY_TABLE)
        problems = cavalry_problems(self.cavalry_rules, table.shifts if table else None,
                                    self.combat.conditions.get(CAVALRY_TABLE, {}))
        if problems:
            raise ValueError("; ".join(problems))
        return self

    def missing_tables(self, modules: tuple[str, ...] | list[str]) -> dict[str, list[str]]:
        """For each module in force, the tables it needs that this ruleset lacks."""
        out: dict[str, list[str]] = {}
        for module in modules:
            need = tables_needed(module)
            lacking = [t for t in need if t not in self.tables]
            if lacking:
                out[module] = lacking
        return out
