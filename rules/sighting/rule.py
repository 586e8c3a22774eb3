"""What a sighting rule is: the two questions the sighting pass asks of it."""

from __future__ import annotations

from typing import Protocol

from rules.ground.gamemap import GameMap


class SightingRule(Protocol):
    """How a scenario decides who sees whom. Cells are board indices; a set of cells is an int
    bitset (bit ``i`` set for cell index ``i``).

    ``visible_from(cell, visibility)`` is the set of cells in which a unit would be seen by an
    observer in ``cell``, ``table(visibility)`` the same for every cell at once (a list by cell
    index), and ``sees`` tests one of them. The sighting pass only asks these questions, so a
    rule need not be symmetric. Under a visibility of 0 a rule sees nothing
    (ruling LOS-7): that night belongs to the pickets alone.
    """

    @property
    def name(self) -> str: ...

    @property
    def game_map(self) -> GameMap: ...

    def sees(self, observer: int, target: int, visibility: int) -> bool: ...

    def visible_from(self, observer: int, visibility: int) -> int: ...

    def table(self, visibility: int) -> list[int]: ...
