"""Where the fighting is, as a side knows it: the hot spots a phase map is fitted to.

``hot_spots(view)`` ranks the places a side should look at first, from its ``SideView`` alone:

1. **contact**: enemy counters it knows of (units in sight, markers, ghosts of units lost from
   sight) within ``REACH`` cells of its own units, with those units; a contact with enemies in
   sight before one with ghosts only, then the more counters first;
2. **fight**: its own units that show they were in a fight (a morale state past the ruleset's
   first, or stragglers);
3. **march**: the head of each of its own routes (a surprise march, a planned move), with the
   first cells the route goes on through;
4. **moved**: its own markers that moved this phase;
5. **units**: the densest cluster of its own units, the one spot when nothing else happens.

A spot is read only from what the picture itself is drawn from (the counters, the markers, the
routes: ``umpire.reads.map_digest.drawn_part`` keeps them), so the window a picture is cut to
is a function of the same part of the view its digest covers, and a picture kept under that
digest is the right one. The umpire's view has only the last kind: every counter is its own.

``close_ups(view, limit)`` gives up to ``limit`` windows, one for each hot spot far enough from
the ones before it: what a gallery of close-ups shows.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, replace

from render.fit import Window, counters_of, densest_window, fit_size, most, running_sums
from rules.ground.grid import Cell, HexGrid, SquareGrid
from rules.view import GHOST, OWN, SideView

#: An enemy this many cells or fewer from one of the side's units is in contact with it.
REACH = 5
#: Own units that show a fight, this near one another, are one fight.
FIGHT_LINK = 3
#: Cells of a route framed with its head.
ROUTE_AHEAD = 4
#: The reasons a spot is hot, first to last.
REASONS = ("contact", "fight", "march", "moved", "units")
#: The hot spots the phase map's window tries to frame, the first before all.
FRAMED = 3
#: A close-up's radius, the same for every close-up: close-ups of one size are cut from pieces
#: of ground of one size (``render.ground``), which the kept pieces then hold more of.
CLOSE_UP_RADIUS = 5


@dataclass(frozen=True, slots=True)
class HotSpot:
    """A place the side should look at: why (``reason``, one of ``REASONS``), the cell it is
    centred on, the cells to frame (sorted), and how many counters the side knows there: its
    own, enemies in sight (units and markers) and ghosts. ``note``: a route's note (a march)."""

    reason: str
    centre: Cell
    cells: tuple[Cell, ...]
    own: int = 0
    enemy: int = 0
    ghosts: int = 0
    note: str = ""


@dataclass(frozen=True, slots=True)
class CloseUp:
    """A window on one hot spot: ``radius`` cells round ``around``."""

    spot: HotSpot
    around: Cell
    radius: int


Grid = HexGrid | SquareGrid


def hot_spots(view: SideView) -> tuple[HotSpot, ...]:
    """The side's hot spots, most pressing first (``REASONS``); the densest cluster of its own
    units, if it has any on the board, is always the last. Empty when nothing is on the
    board."""
    grid = view.game_map.grid
    spots: list[HotSpot] = []
    if view.side is not None:
        spots += _contacts(view, grid)
        spots += _fights(view, grid)
        spots += _marches(view, grid)
        spots += _moved(view, grid)
    main = main_body(view)
    if main is not None:
        spots.append(main)
    return tuple(spots)


def _own_cells(view: SideView, grid: Grid) -> list[Cell]:
    """Where the side's own counters stand (each unit, each own marker), one entry each."""
    out = [u.cell for u in view.units if u.level == OWN and grid.contains(u.cell)]
    out += [m.cell for m in view.markers if m.side == view.side and grid.contains(m.cell)]
    return out


def _enemy_cells(view: SideView, grid: Grid) -> list[tuple[Cell, bool]]:
    """Where the enemy counters the side knows of stand, and whether each is in sight (a
    ghost is not)."""
    out = [(u.cell, u.level != GHOST) for u in view.units
           if u.level != OWN and grid.contains(u.cell)]
    out += [(m.cell, True) for m in view.markers
            if m.side != view.side and grid.contains(m.cell)]
    return out


#: The cells within each distance of each cell, by grid (its ``repr``) and distance.
_DISCS: dict[tuple[str, int], dict[Cell, tuple[Cell, ...]]] = {}


def _disc(grid: Grid, cell: Cell, reach: int) -> tuple[Cell, ...]:
    """``grid.within(cell, reach)``, remembered: the spots of every picture ask for the same."""
    key = (repr(grid), reach)
    table = _DISCS.get(key)
    if table is None:
        if len(_DISCS) >= 16:
            _DISCS.clear()
        table = _DISCS[key] = {}
    found = table.get(cell)
    if found is None:
        found = table[cell] = tuple(grid.within(cell, reach))
    return found


def _near(grid: Grid, cells: Iterable[Cell], wanted: set[Cell], reach: int) -> set[Cell]:
    """The cells of ``wanted`` within ``reach`` of any of ``cells``."""
    out: set[Cell] = set()
    for c in set(cells):
        out.update(n for n in _disc(grid, c, reach) if n in wanted)
    return out


def _groups(grid: Grid, cells: set[Cell], link: int) -> list[list[Cell]]:
    """``cells`` in groups: two cells ``link`` or fewer apart are in one group."""
    left = set(cells)
    out: list[list[Cell]] = []
    for start in sorted(cells):
        if start not in left:
            continue
        left.discard(start)
        group, todo = [start], [start]
        while todo:
            here = todo.pop()
            for n in _disc(grid, here, link):
                if n in left:
                    left.discard(n)
                    group.append(n)
                    todo.append(n)
        out.append(sorted(group))
    return out


def _middle(cells: Iterable[Cell]) -> Cell:
    """The cell in the middle of the cells' bounding rectangle."""
    cs = list(cells)
    cols = [c.col for c in cs]
    rows = [c.row for c in cs]
    return Cell((min(cols) + max(cols)) // 2, (min(rows) + max(rows)) // 2)


def _count(cells: set[Cell], at: Iterable[Cell]) -> int:
    return sum(c in cells for c in at)


def _contacts(view: SideView, grid: Grid) -> list[HotSpot]:
    own = _own_cells(view, grid)
    enemies = _enemy_cells(view, grid)
    if not own or not enemies:
        return []
    own_set = set(own)
    touching = {e for e, _ in enemies if _near(grid, [e], own_set, REACH)}
    ranked: list[tuple[tuple[int, int, int, Cell], HotSpot]] = []
    for group in _groups(grid, touching, REACH):
        frame = set(group) | _near(grid, group, own_set, REACH)
        in_sight = sum(e in frame and seen for e, seen in enemies)
        ghosts = sum(e in frame and not seen for e, seen in enemies)
        mine = _count(frame, own)
        spot = HotSpot("contact", _middle(frame), tuple(sorted(frame)), mine, in_sight, ghosts)
        ranked.append(((-int(in_sight > 0), -(2 * in_sight + ghosts + mine),
                        len(frame), spot.centre), spot))
    return [s for _, s in sorted(ranked, key=lambda ks: ks[0])]


def _fights(view: SideView, grid: Grid) -> list[HotSpot]:
    states = view.game_map.ruleset.combat.morale_states
    normal = states[0].name if states else ""
    hit = [u.cell for u in view.units
           if u.level == OWN and grid.contains(u.cell)
           and ((u.morale and u.morale != normal) or u.stragglers > 0)]
    if not hit:
        return []
    own = _own_cells(view, grid)
    ranked = []
    for group in _groups(grid, set(hit), FIGHT_LINK):
        frame = set(group)
        spot = HotSpot("fight", _middle(frame), tuple(group), _count(frame, own))
        ranked.append(((-_count(frame, hit), spot.centre), spot))
    return [s for _, s in sorted(ranked, key=lambda ks: ks[0])]


def _marches(view: SideView, grid: Grid) -> list[HotSpot]:
    own = _own_cells(view, grid)
    out = []
    for route in view.routes:
        cells = [c for c in route.cells if grid.contains(c)]
        if not cells:
            continue
        frame = set(cells[:ROUTE_AHEAD + 1])
        out.append(HotSpot("march", cells[0], tuple(sorted(frame)), _count(frame, own),
                           note=route.note))
    return out


def _moved(view: SideView, grid: Grid) -> list[HotSpot]:
    moved = {m.cell for m in view.markers
             if m.side == view.side and m.moved_this_phase and grid.contains(m.cell)}
    own = _own_cells(view, grid)
    return [HotSpot("moved", _middle(g), tuple(g), _count(set(g), own))
            for g in _groups(grid, moved, FIGHT_LINK)]


def main_body(view: SideView) -> HotSpot | None:
    """The densest cluster of the side's own counters (every counter, for the umpire): the
    cells of the window of the phase map's size that holds most of them (``render.fit``)."""
    found = densest_window(view)
    if found is None:
        return None
    grid = view.game_map.grid
    mine = [c for c in _all_own(view, grid) if found.holds(c)]
    if not mine:
        return None
    frame = set(mine)
    enemy = sum(found.holds(e) and seen for e, seen in _enemy_cells(view, grid))
    ghosts = sum(found.holds(e) and not seen for e, seen in _enemy_cells(view, grid))
    return HotSpot("units", _middle(frame), tuple(sorted(frame)), len(mine), enemy, ghosts)


def _all_own(view: SideView, grid: Grid) -> list[Cell]:
    if view.side is None:
        return ([u.cell for u in view.units if grid.contains(u.cell)]
                + [m.cell for m in view.markers if grid.contains(m.cell)])
    return _own_cells(view, grid)


def close_ups(view: SideView, limit: int = 4) -> tuple[CloseUp, ...]:
    """Up to ``limit`` close-ups, one for each hot spot, in their rank, leaving out a spot whose
    centre a close-up before it already shows."""
    grid = view.game_map.grid
    out: list[CloseUp] = []
    for spot in hot_spots(view):
        if len(out) >= limit:
            break
        if any(grid.distance(spot.centre, c.around) <= c.radius for c in out):
            continue
        out.append(CloseUp(spot, spot.centre, CLOSE_UP_RADIUS))
    return tuple(out)


def fitted_window(view: SideView) -> Window | None:
    """The phase map's window (``render.fit``'s size): on the first hot spot, holding as many of
    its cells as it can, then as many of the next spots (each whole) as fit with it, then as
    many of the side's own counters and known enemies, nearest the first spot's centre. When
    nothing happens, the densest cluster of the side's units (``densest_window``). ``None``
    when the view has no counter on the board."""
    spots = hot_spots(view)
    if not spots:
        return None
    if spots[0].reason == "units":
        found = densest_window(view)
        return None if found is None else replace(found, reason="units")
    counters = counters_of(view)
    assert counters is not None
    grid = view.game_map.grid
    cols, rows = fit_size(grid)
    top = [s for s in spots[:FRAMED] if s.reason != "units"]
    centre = spots[0].centre
    # Every place the window can lie, narrowed by each wish in turn (``render.fit.most``).
    at = [(r0, c0) for r0 in range(grid.height - rows + 1)
          for c0 in range(grid.width - cols + 1)]
    first = running_sums(grid, top[0].cells)
    at = most(at, lambda r0, c0: _held(first, c0, r0, cols, rows))
    for spot in top[1:]:
        at = most(at, functools.partial(_whole, running_sums(grid, spot.cells),
                                        len(spot.cells), cols, rows))
    at = most(at, lambda r0, c0: counters.count(True, c0, r0, cols, rows))
    at = most(at, lambda r0, c0: counters.count(False, c0, r0, cols, rows))
    # Nearest the first spot's centre, then the topmost, then the leftmost.
    r0, c0 = min(at, key=lambda p: (abs(p[1] + (cols - 1) / 2 - centre.col)
                                    + abs(p[0] + (rows - 1) / 2 - centre.row), p))
    cells = counters.cells
    return Window(c0, r0, cols, rows, counters.count(True, c0, r0, cols, rows),
                  sum(m for _, m in cells), counters.count(False, c0, r0, cols, rows),
                  sum(not m for _, m in cells), spots[0].reason)


def _whole(t: list[list[int]], cells: int, cols: int, rows: int, r0: int, c0: int) -> bool:
    """Whether the window at ``r0``, ``c0`` holds all ``cells`` of the spot whose running sums
    are ``t``."""
    return _held(t, c0, r0, cols, rows) == cells


def _held(t: list[list[int]], c0: int, r0: int, cols: int, rows: int) -> int:
    return t[r0 + rows][c0 + cols] - t[r0][c0 + cols] - t[r0 + rows][c0] + t[r0][c0]
