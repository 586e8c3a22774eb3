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

from rules.gamemap import GameMap
from rules.sighting.disks import CellDisks
from rules.sighting.tables import build_visibility


class LineOfSight:
    """Straight-line sight with elevation, blocking terrain and a visibility limit (the rule
    stated at the top of this module), on a hex or square grid.

    Tables are built on first use for the largest visibility asked for so far (at least the
    ruleset's clear-weather visibility), or at once by ``prepare``. Shorter visibilities reuse
    them: whether a line is blocked does not depend on how far visibility reaches.
    """

    name = "los"

    def __init__(self, game_map: GameMap, max_range: int | None = None) -> None:
        self._map = game_map
        self.grid = game_map.grid
        self._want = max(1, max_range if max_range is not None else game_map.ruleset.visibility)
        # No two cells are farther apart than this, so a longer visibility sees no more.
        self._cap = self.grid.width + self.grid.height
        self._built = 0
        self._visible: list[int] = []
        self._limited: dict[int, list[int]] = {}
        self.disks = CellDisks(self.grid)

    @property
    def game_map(self) -> GameMap:
        return self._map

    @property
    def built_range(self) -> int:
        """The visibility the tables cover (0 before they are built)."""
        return self._built

    def prepare(self, max_range: int | None = None) -> None:
        """Build the tables now, for visibilities up to ``max_range`` at least."""
        want = max(self._want, max_range or 0)
        rng = min(want, self._cap)
        if self._built >= rng:
            return
        self._visible = build_visibility(self._map, rng)
        self._built = rng
        self._want = want
        self._limited.clear()

    def visible_from(self, observer: int, visibility: int) -> int:
        """Cells that an observer in cell ``observer`` sees under ``visibility``: its own cell,
        the adjacent cells, and the cells within range to which the line is clear; none at all
        under a visibility of 0 (ruling LOS-7)."""
        if visibility <= 0:
            return 0
        if visibility == 1:
            return self.disks.mask(observer, 1)
        if visibility > self._built and self._built < self._cap:
            self.prepare(visibility)
        if visibility >= self._built:
            return self._visible[observer]
        cache = self._limited.get(visibility)
        if cache is None:
            cache = self._limited[visibility] = [-1] * self.grid.size
        out = cache[observer]
        if out < 0:
            out = cache[observer] = (
                self._visible[observer] & self.disks.mask(observer, visibility)
            )
        return out

    def sees(self, observer: int, target: int, visibility: int) -> bool:
        """Whether an observer in cell ``observer`` sees cell ``target`` under ``visibility``."""
        return bool(self.visible_from(observer, visibility) >> target & 1)

