"""The ``los`` sighting rule: straight-line sight with elevation, blocking terrain and a
visibility limit, on hex and square grids (the reasons are in ``docs/rulings.md``, section "Line
of sight").

* Sight runs in a straight line from the centre of the observer's cell to the centre of the
  target's cell (``rules.sighting.geometry``). Both ends stand at ground level: the elevation of
  their cells. What grows in the observer's or the target's own cell never blocks.
* Every other cell the line passes through is judged at one point: where the line's path across
  the cell comes closest to the cell's centre. The line's height there is interpolated straight
  between the two ends. Bare ground blocks when it stands strictly above the line; an obstacle
  (terrain with a line-of-sight height, such as woods or a town) blocks when its top reaches the
  line or stands above it (``rules.sighting.height``). So woods between two clear cells on level
  ground block, a ridge blocks, and woods well below both ends do not.
* A line running exactly along the side shared by two cells (a hexspine) is blocked there only
  when both of those cells block. On a square grid, a line passing exactly through a corner is
  blocked there only when both cells that meet the line at that corner alone block. A hex that the
  line touches at one corner only never blocks (the line passes through the other two hexes at
  that corner, which are judged in full).
* Under any visibility of 1 or more, cells next to each other always see each other. Otherwise
  the target must be within the turn's visibility, counted in cells (hex distance). A
  visibility of 0 (a night without light, thick fog) sees nothing at all, next door included:
  only the pickets' radius then stops a surprise march (rulings LOS-7, LOS-10).

Line of sight is symmetric: whoever can see a cell can be seen from it.

The rule answers from tables precomputed for every cell (``rules.sighting.tables``), as one
integer bitset a cell (bit ``i`` is cell index ``i``).
"""

from __future__ import annotations

from rules.ground.gamemap import GameMap
from rules.sighting.tabled import TabledRule
from rules.sighting.tables import build_visibility


class LineOfSight(TabledRule):
    """Straight-line sight with elevation, blocking terrain and a visibility limit (the rule
    stated at the top of this module), on a hex or square grid, from tables
    (``rules.sighting.tabled``). Whether a line is blocked does not depend on how far
    visibility reaches, so shorter visibilities reuse the tables."""

    name = "los"

    def build(self, game_map: GameMap, rng: int) -> list[int]:
        return build_visibility(game_map, rng)

    def visible_from(self, observer: int, visibility: int) -> int:
        """Cells that an observer in cell ``observer`` sees under ``visibility``: its own cell,
        the adjacent cells, and the cells within range to which the line is clear; none at all
        under a visibility of 0 (ruling LOS-7)."""
        if visibility == 1:
            return self.disks.mask(observer, 1)
        return super().visible_from(observer, visibility)

    def table(self, visibility: int) -> list[int]:
        if visibility == 1:
            return self.disks.table(1)
        return super().table(visibility)
