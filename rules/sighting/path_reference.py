"""A slow and plain reference for the ``clear_path`` rule and its sighting pass: the test oracle.

It applies the rule stated in ``rules.sighting.paths`` straight from its definitions and shares
none of that module's machinery: cells are ``Cell`` values, neighbours and distances come from
the grid one cell at a time, each observer-target pair is judged on its own by searching the
chains of adjacent cells between them, and each side's sets are built one cell and one unit at a
time by the plain pass the line-of-sight reference uses (``reference_pass``), which knows nothing
of the rule but its answer for one pair. The fast rule must give exactly the same answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell
from rules.sighting.paths import Cover
from rules.sighting.reference import reference_pass
from rules.sighting.sighting_pass import Presence, SideSighting


def _bordering(game_map: GameMap, cell: Cell) -> list[Cell]:
    """A hex's neighbours; on a square grid every square touching it at a side or a corner."""
    grid = game_map.grid
    if grid.kind == "hex":
        return list(grid.neighbours(cell))
    return [Cell(c, r) for c in range(cell.col - 1, cell.col + 2)
            for r in range(cell.row - 1, cell.row + 2)
            if Cell(c, r) != cell and grid.contains(Cell(c, r))]


def reference_cover(game_map: GameMap, cell: Cell) -> Cover:
    """Woods; a road cell, not woods, with four or more woods cells on the board bordering it;
    or open."""
    if game_map.is_woods(cell):
        return Cover.WOODS
    if game_map.has_road(cell):
        around = [n for n in _bordering(game_map, cell) if game_map.board.on_a_sheet(n)]
        if len([n for n in around if game_map.is_woods(n)]) >= 4:
            return Cover.WOODS_ROAD
    return Cover.OPEN


def _may_pass(game_map: GameMap, cell: Cell) -> bool:
    return (game_map.board.on_a_sheet(cell)
            and not game_map.is_woods(cell) and not game_map.is_hill(cell))


def shortest_paths(game_map: GameMap, a: Cell, b: Cell) -> Iterator[tuple[Cell, ...]]:
    """Every chain of adjacent board cells from ``a`` to ``b`` exactly as long as their grid
    distance, ends included. There can be very many: only for small boards."""
    grid = game_map.grid

    def walk(path: tuple[Cell, ...]) -> Iterator[tuple[Cell, ...]]:
        here = path[-1]
        if here == b:
            yield path
            return
        for n in grid.neighbours(here):
            if grid.distance(n, b) == grid.distance(here, b) - 1:
                yield from walk((*path, n))

    yield from walk((a,))


def clear_shortest_path(game_map: GameMap, a: Cell, b: Cell) -> bool:
    """Whether some shortest chain from ``a`` to ``b`` has only passable cells between its ends.

    The same as trying every chain of ``shortest_paths``, but a cell from which no clear chain
    was found is not tried again, so that long distances stay affordable."""
    grid = game_map.grid
    dead: set[Cell] = set()

    def search(here: Cell) -> bool:
        for n in grid.neighbours(here):
            if grid.distance(n, b) != grid.distance(here, b) - 1:
                continue
            if n == b:
                return True
            if n in dead or not _may_pass(game_map, n):
                continue
            if search(n):
                return True
            dead.add(n)
        return False

    return a == b or search(a)


def reference_path_sees(game_map: GameMap, a: int, b: int, visibility: int) -> bool:
    """Whether an observer in cell index ``a`` sees a unit in cell index ``b``."""
    grid = game_map.grid
    ca, cb = grid.cell(a), grid.cell(b)
    if visibility <= 0 or not game_map.board.on_a_sheet(cb):
        return False
    far = grid.distance(ca, cb)
    if far > visibility:
        return False
    cover = reference_cover(game_map, cb)
    if far <= 1:
        return True
    if cover is Cover.WOODS:
        return False
    if cover is Cover.WOODS_ROAD:
        if far != 2:
            return False
        middle = [n for n in grid.neighbours(ca) if n in grid.neighbours(cb)]
        return any(_may_pass(game_map, m) for m in middle)
    return clear_shortest_path(game_map, ca, cb)


def reference_path_sighting(
    game_map: GameMap,
    visibility: int,
    units: Iterable[Presence],
    *,
    blocked_radius: int | None = None,
    sides: Iterable[str] = (),
) -> dict[str, SideSighting]:
    """Every side's sighting under the ``clear_path`` rule, from the definitions."""
    return reference_pass(game_map, visibility, units, reference_path_sees,
                          blocked_radius=blocked_radius, sides=sides)
