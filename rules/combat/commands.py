"""The combat orders: fire, assault (close combat) and rally."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from rules.commands import GameCommand, Name

#: One or more of the side's own units (a stack, or units firing together).
Units = Annotated[tuple[Name, ...], Field(min_length=1, max_length=8)]


class Fire(GameCommand):
    """Fire at an enemy the side sees: an identified unit by name, or a map label (a counter
    seen only as a marker). Several units fire together when they are listed together."""

    kind: Literal["fire"] = "fire"
    units: Units
    target: Name


class Assault(GameCommand):
    """Close combat: the listed units, each next to the target's cell, attack every enemy
    combat unit in it. ``advance``: the first attacker able to moves into the cell if the
    defenders leave it."""

    kind: Literal["assault"] = "assault"
    units: Units
    target: Name
    advance: bool = True


class Rally(GameCommand):
    """Try to rally a unit to a better morale state (a roll on the morale table)."""

    kind: Literal["rally"] = "rally"
    unit: Name
