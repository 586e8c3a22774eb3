"""What the sighting rules built on precomputed tables share: one bitset of visible cells per
observer cell, built once for the longest visibility asked for, and masked for shorter ones.

A rule says how its tables are built (``build``); the rebuild for a longer visibility and the
masking are here, and the tables are kept by the map's content (``rules.sighting.built_tables``),
so every copy of a board shares one build.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from rules.ground.gamemap import GameMap
from rules.sighting.built_tables import tables_for
from rules.sighting.disks import disks_for


class TabledRule(ABC):
    """A sighting rule answering from a table of visible cells per observer cell.

    Tables are built on first use for the largest visibility asked for so far (at least the
    ruleset's clear-weather visibility), or at once by ``prepare``. Shorter visibilities reuse
    them, masked to the cells within range: a rule built here must see, under a shorter
    visibility, exactly the cells it sees under the longer one that are within range.
    """

    name = ""

    def __init__(self, game_map: GameMap, max_range: int | None = None) -> None:
        self._map = game_map
        self.grid = game_map.grid
        self._want = max(1, max_range if max_range is not None else game_map.ruleset.visibility)
        # No two cells are farther apart than this, so a longer visibility sees no more.
        self._cap = self.grid.width + self.grid.height
        self._built = 0
        self._visible: list[int] = []
        self._limited: dict[int, list[int]] = {}
        self.disks = disks_for(self.grid)

    @abstractmethod
    def build(self, game_map: GameMap, rng: int) -> list[int]:
        """Every cell's visible cells under visibility ``rng``."""

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
        self._visible = tables_for(type(self), self._map, rng, self.build)
        self._built = rng
        self._want = want
        self._limited.clear()

    def visible_from(self, observer: int, visibility: int) -> int:
        """Cells in which an observer in cell ``observer`` sees a unit under ``visibility``;
        none at all under a visibility of 0 (ruling LOS-7)."""
        if visibility <= 0:
            return 0
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

    def table(self, visibility: int) -> list[int]:
        """``visible_from`` of every cell under ``visibility``, by cell index (worked out once
        for the whole board: a pass reads hundreds of them)."""
        if visibility <= 0:
            return [0] * self.grid.size
        if visibility > self._built and self._built < self._cap:
            self.prepare(visibility)
        if visibility >= self._built:
            return self._visible
        cache = self._limited.get(visibility)
        if cache is None or -1 in cache:
            for observer in range(self.grid.size):
                self.visible_from(observer, visibility)
            cache = self._limited[visibility]
        return cache

    def sees(self, observer: int, target: int, visibility: int) -> bool:
        """Whether an observer in cell ``observer`` sees a unit in cell ``target``."""
        return bool(self.visible_from(observer, visibility) >> target & 1)
