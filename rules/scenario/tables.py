"""Dice tables: a die roll (plus named modifiers) picks a row, a column picks the result.

Every table of the series that the rule texts lean on (MP accumulation, stragglers, fire, close
combat, morale, initiative, order acceptance, the odds CRT, the victory chart) is one of these,
read from the ruleset. Results are short strings; the rule module that owns the table reads them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

DICE_RANGES: dict[str, tuple[int, int]] = {"1d6": (1, 6), "2d6": (2, 12), "1d10": (1, 10)}

_ROLL = re.compile(r"^\s*(-?\d+)\s*(?:-\s*(-?\d+)|\+)?\s*$")


def parse_roll_range(text: str, low: int, high: int) -> tuple[int, int]:
    """Read a row's roll: ``"4"``, ``"1-3"`` or ``"6+"`` (up to the top of the dice)."""
    m = _ROLL.match(text)
    if not m:
        raise ValueError(f"roll {text!r} is not a number, a range like '1-3' or an open '6+'")
    first = int(m.group(1))
    if text.strip().endswith("+"):
        return first, high
    last = int(m.group(2)) if m.group(2) is not None else first
    if last < first:
        raise ValueError(f"roll range {text!r} runs backwards")
    return first, last


class TableRow(BaseModel):
    """One row: the rolls that select it and one result per column."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    roll: str
    results: tuple[str, ...]


class Table(BaseModel):
    """A dice table.

    ``dice`` names the roll (``1d6``, ``2d6``, ``1d10``) or ``value`` for a chart indexed by a
    number the game computes (a victory-point margin); then ``range`` gives its bounds.
    ``columns`` label the result columns (turn numbers, strength columns, odds). ``modifiers``
    are named die-roll modifiers. ``shifts`` are named column shifts (odds tables).
    A modified roll beyond the table reads the nearest end row.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    title: str = ""
    dice: Literal["1d6", "2d6", "1d10", "value"] = "1d6"
    range: tuple[int, int] | None = None
    kind: Literal["plain", "odds", "differential"] = "plain"
    columns: tuple[str, ...]
    rows: tuple[TableRow, ...]
    modifiers: dict[str, int] = Field(default_factory=dict)
    shifts: dict[str, int] = Field(default_factory=dict)
    results: dict[str, str] = Field(default_factory=dict, description="meaning of each result")

    @field_validator("columns")
    @classmethod
    def _columns_not_empty(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        if not v:
            raise ValueError("a table needs at least one column")
        return v

    @property
    def bounds(self) -> tuple[int, int]:
        if self.dice == "value":
            return self.range or (0, 0)
        return DICE_RANGES[self.dice]

    @model_validator(mode="after")
    def _covers_dice(self) -> Table:
        if self.dice == "value" and self.range is None:
            raise ValueError("a 'value' table needs range = [low, high]")
        low, high = self.bounds
        seen: dict[int, str] = {}
        for row in self.rows:
            if len(row.results) != len(self.columns):
                raise ValueError(
                    f"row {row.roll!r} has {len(row.results)} results for "
                    f"{len(self.columns)} columns"
                )
            first, last = parse_roll_range(row.roll, low, high)
            for value in range(first, last + 1):
                if value < low or value > high:
                    raise ValueError(f"row {row.roll!r} lies outside the roll range {low}-{high}")
                if value in seen:
                    raise ValueError(
                        f"roll {value} appears in rows {seen[value]!r} and {row.roll!r}"
                    )
                seen[value] = row.roll
        missing = [v for v in range(low, high + 1) if v not in seen]
        if missing:
            raise ValueError(
                f"rolls {', '.join(map(str, missing))} have no row: a table covers {low}-{high}"
            )
        return self

    def row_for(self, roll: int) -> TableRow:
        """The row a (modified) roll selects; rolls past either end read the end row."""
        low, high = self.bounds
        roll = max(low, min(high, roll))
        for row in self.rows:
            first, last = parse_roll_range(row.roll, low, high)
            if first <= roll <= last:
                return row
        raise LookupError(f"no row for roll {roll}")  # unreachable after validation

    def column_index(self, column: str) -> int:
        try:
            return self.columns.index(column)
        except ValueError:
            known = ", ".join(self.columns)
            raise KeyError(f"table has no column {column!r}; columns: {known}") from None

    def lookup(self, roll: int, column: str | int) -> str:
        """The result for a modified roll in a column (by label or index)."""
        index = column if isinstance(column, int) else self.column_index(column)
        index = max(0, min(len(self.columns) - 1, index))
        return self.row_for(roll).results[index]


def result_meaning(tables: Mapping[str, Table], table: str, result: str) -> str:
    """What a result read in a table means (its ``results`` entry), or ``""`` when the table or
    the meaning is not there (a roll on no table, a result the table leaves unexplained)."""
    found = tables.get(table)
    return found.results.get(result, "") if found is not None else ""
