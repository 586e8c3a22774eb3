"""A slow and plain reference for line of sight and the sighting pass: the test oracle.

It applies the same rule as ``rules.sighting.los`` (stated there) but shares none of its
machinery: each sight line is clipped against every cell's polygon with exact rational arithmetic
(the Cyrus-Beck method), each observer-target pair is judged on its own, and each side's sets
are built straight from their definitions. The fast code must give exactly the same answers.

Coordinates are exact: hex cells use axial coordinates ``(q, r)`` scaled by 3, in which every
centre and corner is an integer point; squares use coordinates scaled by 2. Both are linear
images of the true layout, so which cells a segment meets, and where along it, are unchanged;
distances are measured with the matching quadratic form. The geometry of a line depends only on
where the target lies relative to the observer, so it is kept per relative position.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell, Cube, HexGrid
from rules.sighting.sighting_pass import Presence, SideSighting

Point = tuple[int, int]

#: Corners of a hex about its centre, axial coordinates times 3, in order round the hex.
_HEX_CORNERS: tuple[Point, ...] = ((2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1), (1, -2))
#: Corners of a square about its centre, coordinates times 2, in order round the square.
_SQUARE_CORNERS: tuple[Point, ...] = ((1, 1), (-1, 1), (-1, -1), (1, -1))


@dataclass(frozen=True, slots=True)
class Contact:
    """How a sight line meets one cell: from ``t0`` to ``t1`` along it (0 at the observer, 1 at
    the target), whether that stretch runs along the cell's boundary, and the point ``nearest``
    the cell's centre on that stretch."""

    cell: tuple[int, int]
    t0: Fraction
    t1: Fraction
    on_boundary: bool
    nearest: Fraction


def _cross(u: Point, v: Point) -> int:
    return u[0] * v[1] - u[1] * v[0]


def _clip(d: Point, corners: list[Point]) -> tuple[Fraction, Fraction, bool] | None:
    """Clip the segment from (0, 0) to ``d`` against a convex polygon (Cyrus-Beck).

    Returns the parameter interval inside the closed polygon, and whether the segment lies along
    one of its edges there; ``None`` when they do not meet."""
    area = sum(_cross(corners[i], corners[(i + 1) % len(corners)]) for i in range(len(corners)))
    sign = 1 if area > 0 else -1
    t0, t1 = Fraction(0), Fraction(1)
    along_edge = False
    for i, v in enumerate(corners):
        w = corners[(i + 1) % len(corners)]
        edge = (w[0] - v[0], w[1] - v[1])
        # Inside means sign * cross(edge, p - v) >= 0, with p = t * d.
        f0 = sign * _cross(edge, (-v[0], -v[1]))
        f1 = sign * _cross(edge, d)
        if f1 == 0:
            if f0 < 0:
                return None
            if f0 == 0:
                along_edge = True
            continue
        bound = Fraction(-f0, f1)
        if f1 > 0:
            t0 = max(t0, bound)
        else:
            t1 = min(t1, bound)
        if t0 > t1:
            return None
    return t0, t1, along_edge


def _hex_form(u: Point, v: Point) -> int:
    # The Euclidean inner product of the hex layout, written in axial coordinates.
    return u[0] * v[0] + u[1] * v[1] + (u[0] + u[1]) * (v[0] + v[1])


def _square_form(u: Point, v: Point) -> int:
    return u[0] * v[0] + u[1] * v[1]


@cache
def reference_contacts(kind: str, rel: Point) -> tuple[Contact, ...]:
    """Every cell other than the two ends that the line from the cell at (0, 0) to the cell at
    ``rel`` meets, by brute force over a box around the segment. ``kind`` is ``"hex"`` (``rel``
    axial) or ``"square"``; cells are given in the same coordinates as ``rel``."""
    if kind == "hex":
        scale, corners, form = 3, _HEX_CORNERS, _hex_form
    else:
        scale, corners, form = 2, _SQUARE_CORNERS, _square_form
    d = (rel[0] * scale, rel[1] * scale)
    out = []
    for x in range(min(0, rel[0]) - 1, max(0, rel[0]) + 2):
        for y in range(min(0, rel[1]) - 1, max(0, rel[1]) + 2):
            if (x, y) in ((0, 0), rel):
                continue
            centre = (x * scale, y * scale)
            polygon = [(centre[0] + cx, centre[1] + cy) for cx, cy in corners]
            met = _clip(d, polygon)
            if met is None:
                continue
            t0, t1, along = met
            nearest = Fraction(form(d, centre), form(d, d))
            nearest = min(max(nearest, t0), t1)
            out.append(Contact((x, y), t0, t1, along and t0 < t1, nearest))
    return tuple(out)


def _height_blocks(game_map: GameMap, cell: Cell, eye: int, target: int, t: Fraction) -> bool:
    grid = game_map.grid
    if not grid.contains(cell):
        return False
    i = grid.index(cell)
    height = game_map.los_height(i)
    obstacle = game_map.ruleset.terrain[game_map.terrain[i]].los_height > 0
    line = eye + (target - eye) * t
    return height > line or (obstacle and height == line)


def reference_clear(game_map: GameMap, a: int, b: int) -> bool:
    """Whether the line from cell index ``a`` to ``b`` is clear, at any distance."""
    grid = game_map.grid
    ca, cb = grid.cell(a), grid.cell(b)
    if a == b or grid.adjacent(ca, cb):
        return True
    if isinstance(grid, HexGrid):
        qa, qb = grid.to_cube(ca), grid.to_cube(cb)
        kind, rel = "hex", (qb.q - qa.q, qb.r - qa.r)

        def absolute(c: tuple[int, int]) -> Cell:
            return grid.from_cube(Cube(qa.q + c[0], qa.r + c[1], -qa.q - c[0] - qa.r - c[1]))
    else:
        kind, rel = "square", (cb.col - ca.col, cb.row - ca.row)

        def absolute(c: tuple[int, int]) -> Cell:
            return Cell(ca.col + c[0], ca.row + c[1])

    eye, target = game_map.elevation[a], game_map.elevation[b]
    # Stretches along a side (or single corner points) shared by several cells: the line is
    # blocked there only if every one of those cells blocks.
    shared: dict[tuple[Fraction, Fraction], list[bool]] = {}
    for c in reference_contacts(kind, rel):
        blocking = _height_blocks(game_map, absolute(c.cell), eye, target, c.nearest)
        if c.t0 < c.t1 and not c.on_boundary:
            if blocking:
                return False  # the line passes through the cell
        elif c.t0 < c.t1 or kind == "square":
            shared.setdefault((c.t0, c.t1), []).append(blocking)
        # A hex met at a single corner is passed by, through the two hexes on either side.
    return not any(all(flags) for flags in shared.values())


def reference_sees(game_map: GameMap, a: int, b: int, visibility: int) -> bool:
    """Whether an observer in cell ``a`` sees cell ``b`` under ``visibility``: nothing under a
    visibility of 0; else its own cell, the adjacent ones, and clear lines within range."""
    if visibility <= 0:
        return False
    grid = game_map.grid
    ca, cb = grid.cell(a), grid.cell(b)
    if a == b or grid.adjacent(ca, cb):
        return True
    return grid.distance(ca, cb) <= visibility and reference_clear(game_map, a, b)


def reference_sighting(
    game_map: GameMap,
    visibility: int,
    units: Iterable[Presence],
    *,
    blocked_radius: int | None = None,
    sides: Iterable[str] = (),
) -> dict[str, SideSighting]:
    """Every side's sighting under line of sight, from the definitions, one pair at a time."""
    return reference_pass(game_map, visibility, units, reference_sees,
                          blocked_radius=blocked_radius, sides=sides)


#: Whether an observer in one cell (by index) sees a unit in another under a visibility.
Sees = Callable[[GameMap, int, int, int], bool]


def reference_pass(
    game_map: GameMap,
    visibility: int,
    units: Iterable[Presence],
    sees: Sees,
    *,
    blocked_radius: int | None = None,
    sides: Iterable[str] = (),
) -> dict[str, SideSighting]:
    """Every side's sighting under the rule ``sees``, built straight from the sighting pass's
    definitions (``rules.sighting.sighting_pass``), one observer-target pair at a time."""
    units = list(units)
    radius = game_map.ruleset.blocked_radius if blocked_radius is None else blocked_radius
    grid = game_map.grid
    names = list(dict.fromkeys([*sides, *(u.side for u in units)]))
    seen: dict[str, int] = {}
    for side in names:
        observers = sorted({u.cell for u in units if u.side == side and u.observer})
        seen[side] = sum(
            1 << cell for cell in range(grid.size)
            if any(sees(game_map, o, cell, visibility) for o in observers)
        )
    out = {}
    for side in names:
        observers = sorted({u.cell for u in units if u.side == side and u.observer})
        enemies = [u for u in units if u.side != side]
        seen_units = frozenset(
            u.unit_id for u in enemies
            if any(sees(game_map, o, u.cell, visibility) for o in observers)
        )
        near = 0
        for u in enemies:
            if u.combat:
                for cell in grid.within(grid.cell(u.cell), radius):
                    near |= 1 << grid.index(cell)
        watched = 0
        for other in names:
            if other != side:
                watched |= seen[other]
        out[side] = SideSighting(side, seen[side], seen_units, near, watched)
    return out
