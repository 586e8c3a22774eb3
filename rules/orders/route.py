"""Routes as players write them, and the cells they expand to.

A route is a list of waypoints (map labels or place names). Between two waypoints the unit goes
cell by cell along the straight run of cells joining them; the word ``road`` before a waypoint
means "follow the road network there by the shortest road path" instead. For example
``A3315 road Wilderness Church A4120`` goes to A3315, by road to Wilderness Church, then straight
on to A4120. A route may leave out its start: it then begins where the unit stands.
"""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass

from rules.ground.board import LabelError
from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell

ROAD_WORD = "road"
MAX_ROUTE_CHARS = 500


class RouteError(ValueError):
    """A route that cannot be read or followed; the message says which part and why."""


@dataclass(frozen=True, slots=True)
class Leg:
    """One leg of a route: to a waypoint, by road or straight across country."""

    to: Cell
    by_road: bool
    text: str


@dataclass(frozen=True, slots=True)
class Route:
    """A parsed route: its legs, and the full cell path they expand to from a start cell."""

    text: str
    legs: tuple[Leg, ...]


def parse_route(gm: GameMap, text: str) -> Route:
    """Read a route. Place names may have several words; the longest reading wins."""
    if len(text) > MAX_ROUTE_CHARS:
        raise RouteError(f"a route is at most {MAX_ROUTE_CHARS} characters")
    words = [w for w in re.split(r"[\s,;>]+", text.strip()) if w and w not in ("-", "to")]
    if not words:
        raise RouteError("the route is empty: give at least one waypoint (a label or a place)")
    legs: list[Leg] = []
    i = 0
    by_road = False
    while i < len(words):
        if words[i].lower() in (ROAD_WORD, "by-road", "pike"):
            if by_road:
                raise RouteError("'road' twice in a row: put a waypoint after it")
            by_road = True
            i += 1
            continue
        cell, used = _longest_waypoint(gm, words, i)
        legs.append(Leg(cell, by_road, " ".join(words[i:i + used])))
        by_road = False
        i += used
    if by_road:
        raise RouteError("the route ends with 'road': say where the road leg goes")
    return Route(text.strip(), tuple(legs))


def _longest_waypoint(gm: GameMap, words: list[str], start: int) -> tuple[Cell, int]:
    for n in range(min(6, len(words) - start), 0, -1):
        if n > 1 and words[start + n - 1].lower() == ROAD_WORD:
            continue
        cell = gm.board.find(" ".join(words[start:start + n]))
        if cell is not None:
            return cell, n
    try:
        gm.board.parse(words[start])  # words the error for the single word
    except LabelError as e:
        raise RouteError(str(e)) from None
    raise RouteError(f"cannot read {words[start]!r} as a waypoint")


class NoRoad(RouteError):
    """A road leg that no road carries: the leg, where it starts and where it goes. Its words
    give a way forward from the map alone; ``rules.orders.core`` words it again keeping clear
    of the enemy the moving side knows of (``road_advice``)."""

    def __init__(self, gm: GameMap, n: int, leg: Leg, start: Cell) -> None:
        self.n, self.leg, self.start = n, leg, start
        super().__init__(self.words(gm, road_advice(gm, start, leg.to)))

    def words(self, gm: GameMap, advice: str) -> str:
        board = gm.board
        return (f"leg {self.n + 1} ({self.leg.text}): no road joins {board.describe(self.start)} "
                f"to {board.describe(self.leg.to)}: {advice}")


def expand(gm: GameMap, route: Route, start: Cell) -> list[Cell]:
    """The cells the route enters, in order, from ``start`` (which is not included)."""
    path: list[Cell] = []
    here = start
    for n, leg in enumerate(route.legs):
        if leg.to == here:
            continue
        if leg.by_road:
            run = road_path(gm, here, leg.to)
            if run is None:
                raise NoRoad(gm, n, leg, here)
        else:
            run = gm.grid.line(here, leg.to)[1:]
        path += run
        here = leg.to
    return path


def road_path(gm: GameMap, a: Cell, b: Cell) -> list[Cell] | None:
    """The cheapest path along roads from ``a`` to ``b`` (cells after ``a``), or ``None``.

    Cost is each road's rate; ties go to fewer steps, then to the lower cell index, so that the
    same route always expands the same way."""
    if not gm.has_road(a) or not gm.has_road(b):
        return None
    costs = gm.ruleset.roads
    best: dict[Cell, tuple[float, int]] = {a: (0.0, 0)}
    came: dict[Cell, Cell] = {}
    heap: list[tuple[float, int, int, Cell]] = [(0.0, 0, gm.idx(a), a)]
    while heap:
        cost, steps, _, cell = heapq.heappop(heap)
        if cell == b:
            out = [b]
            while out[-1] in came and came[out[-1]] != a:
                out.append(came[out[-1]])
            return out[::-1]
        if (cost, steps) > best.get(cell, (float("inf"), 0)):
            continue
        for nxt, kind in gm.road_neighbours(cell):
            key = (cost + costs[kind].cost, steps + 1)
            if key < best.get(nxt, (float("inf"), 0)):
                best[nxt] = key
                came[nxt] = cell
                heapq.heappush(heap, (key[0], key[1], gm.idx(nxt), nxt))
    return None


def nearest_road_cell(gm: GameMap, cell: Cell) -> Cell | None:
    """The road cell nearest ``cell`` (``cell`` itself if it is on a road); ties go to the lower
    cell index, so that the same map always gives the same answer. ``None`` on a map with no
    roads."""
    found = [c for c in gm.board.grid.cells() if gm.has_road(c)]
    if not found:
        return None
    return min(found, key=lambda c: (gm.grid.distance(cell, c), gm.idx(c)))


def road_advice(gm: GameMap, start: Cell, to: Cell, enemy: frozenset[Cell] = frozenset()
                ) -> str:
    """A way forward for a road leg that no road carries (ruling ORD-5): the route written so
    that it reaches a road first, or leaves it for the end, from the map alone (public). With
    ``enemy`` (the cells where the moving side knows of an enemy), a route it suggests never
    goes through one of them, nor next to one before it is next to its destination (ruling
    ORD-46): another road cell is tried, then the straight way; with none clear, it says so
    instead of suggesting a route."""
    reason, route = _advice(gm, start, to)
    if route is None:
        return reason
    if not enemy or _clear(gm, route, start, enemy):
        return f"{reason}: try {_quoted(route)}"
    past = _first_near(gm, route, start, enemy)
    assert past is not None
    passes = (f"{_quoted(route)} would pass {gm.board.describe(past)}, "
              f"{'where' if past in enemy else 'next to'} the enemy your troops know of")
    for other in _other_ways(gm, start, to):
        if _clear(gm, other, start, enemy):
            return f"{reason}; {passes}: try {_quoted(other)}"
    return (f"{reason}; {passes}, and so would every other way this can suggest: give "
            "waypoints round it")


def _advice(gm: GameMap, start: Cell, to: Cell) -> tuple[str, str | None]:
    """Why no road carries the leg, and the route to try (``None``: none to suggest)."""
    board = gm.board
    on_start, on_end = gm.has_road(start), gm.has_road(to)
    if not on_start:
        near = nearest_road_cell(gm, start)
        if near is None:
            return "this map has no roads", None
        first = board.label(near)
        if on_end and to not in road_network(gm, near):
            return (f"{board.describe(start)} is not on a road (the nearest road cell is "
                    f"{board.describe(near)}, {gm.grid.distance(start, near)} away), and that "
                    f"road does not lead to {board.describe(to)}"), None
        tail = f"road {board.label(to)}" if on_end else _off_road_end(gm, near, to)
        if ROAD_WORD not in tail.split():
            return (f"neither {board.describe(start)} nor {board.describe(to)} is on a road",
                    board.label(to))
        return (f"{board.describe(start)} is not on a road; the nearest road cell is "
                f"{board.describe(near)} ({gm.grid.distance(start, near)} away)",
                f"{first} {tail}")
    if not on_end:
        return f"{board.describe(to)} is not on a road", _off_road_end(gm, start, to)
    return (f"the roads at {board.describe(start)} and {board.describe(to)} do not meet: go "
            "across country for part of the way"), None


#: Road cells tried, nearest the destination first, for a way round the known enemy.
OTHER_WAYS = 24


def _other_ways(gm: GameMap, start: Cell, to: Cell) -> list[str]:
    """Other routes to ``to`` as a player would write them: by road to each road cell the start
    (or the road cell nearest it) is joined to, nearest ``to`` first, then straight on; last,
    straight across country."""
    board = gm.board
    entry = start if gm.has_road(start) else nearest_road_cell(gm, start)
    ways: list[str] = []
    if entry is not None:
        lead = "" if entry == start else f"{board.label(entry)} "
        cells = sorted(road_network(gm, entry), key=lambda c: (gm.grid.distance(to, c), gm.idx(c)))
        for cell in cells[:OTHER_WAYS]:
            if cell == entry:
                ways.append(f"{lead}{board.label(to)}".strip())
            elif cell == to:
                ways.append(f"{lead}road {board.label(to)}")
            else:
                ways.append(f"{lead}road {board.label(cell)} {board.label(to)}")
    ways.append(board.label(to))
    return list(dict.fromkeys(ways))


def _cells_of(gm: GameMap, route: str, start: Cell) -> list[Cell] | None:
    try:
        return expand(gm, parse_route(gm, route), start)
    except (RouteError, LabelError):
        return None


def _clear(gm: GameMap, route: str, start: Cell, enemy: frozenset[Cell]) -> bool:
    """Whether ``route`` from ``start`` keeps clear of ``enemy`` until its end (the destination
    is the player's own choice): through no enemy's cell, and next to none until it is next to
    its destination."""
    cells = _cells_of(gm, route, start)
    return cells is not None and _first_near(gm, route, start, enemy) is None


def _first_near(gm: GameMap, route: str, start: Cell, enemy: frozenset[Cell]) -> Cell | None:
    """The first cell of ``route`` before its end that does not keep clear of ``enemy``."""
    cells = _cells_of(gm, route, start) or []
    if not cells:
        return None
    grid, to = gm.grid, cells[-1]
    for cell in cells[:-1]:
        if cell in enemy:
            return cell
        if grid.distance(cell, to) > 1 and any(n in enemy for n in grid.neighbours(cell)):
            return cell
    return None


def _quoted(route: str) -> str:
    """A suggested route in quotes, said to go across country when no leg of it is by road."""
    return f"'{route}'" + ("" if ROAD_WORD in route.split() else " (across country)")


def _off_road_end(gm: GameMap, start: Cell, to: Cell) -> str:
    """A road leg to the road cell nearest ``to`` on the road from ``start``, then straight on
    to ``to``: as a player would write it."""
    board = gm.board
    near = min(road_network(gm, start), key=lambda c: (gm.grid.distance(to, c), gm.idx(c)))
    if near == start:
        return board.label(to)
    return f"road {board.label(near)} {board.label(to)}"


def road_network(gm: GameMap, start: Cell) -> set[Cell]:
    """The cells joined to ``start`` by road (``start`` included)."""
    seen = {start}
    todo = [start]
    while todo:
        for nxt, _kind in gm.road_neighbours(todo.pop()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen
