"""Made-up boards and views for tests, benchmarks and trying the renderer out: a small ruleset,
a map generated from a seed (terrain blobs, hills, a river, streams, roads, towns), and views with
units spread over it. Nothing here is read by the game."""

from __future__ import annotations

import itertools
import random

from rules.ground.board import Board, Place
from rules.ground.gamemap import GameMap, Road, edge
from rules.ground.grid import Cell, HexGrid, SquareGrid
from rules.knowledge.information import InformationModel
from rules.scenario.ruleset import HexsideType, RoadType, Ruleset, TerrainType
from rules.view import GHOST, IDENTIFIED, MARKER, OWN, SideView, UnitView, ViewLevel

_ALL = ("foot", "horse", "wheeled", "leader")


def _t(name: str, colour: str, cost: float = 1, **kw: object) -> TerrainType:
    return TerrainType.model_validate(
        {"name": name, "colour": colour, "cost": dict.fromkeys(_ALL, cost), **kw})


def sample_ruleset() -> Ruleset:
    """A ruleset with the sample scenarios' kinds of terrain, road and hexside."""
    return Ruleset(
        id="sample", name="Sample (render tests)", stand_in=True,
        terrain={
            "clear": _t("Clear", "#e8e4c9"),
            "fields": _t("Fields and farm", "#d9d08c"),
            "light_woods": _t("Light woods", "#9cc27a", 1.5, woods=True, los_height=1),
            "thicket": _t("Thicket (second-growth scrub)", "#6f9a54", 2, woods=True, los_height=1),
            "woods": _t("Woods", "#4f7a3a", 2, woods=True, los_height=1),
            "hill": _t("Steep hill crest", "#c9a978", 1.5, hill=True),
            "town": _t("Town or buildings", "#b07a5a", 1, los_height=1),
            "swamp": _t("Swamp", "#8fb0a0", 3),
            "water": TerrainType(name="Deep water", cost={}, enterable=False, colour="#6a9fd4"),
        },
        roads={
            "pike": RoadType(name="Pike or plank road", cost=0.5, colour="#7a3b1a"),
            "road": RoadType(name="Road", cost=1, colour="#a0522d"),
            "trail": RoadType(name="Trail or farm lane", cost=1.5, colour="#b58a5a"),
        },
        hexsides={
            "stream": HexsideType(name="Stream", extra_cost=2, colour="#3f7fbf"),
            "ford": HexsideType(name="Ford", extra_cost=0.5, colour="#7fb0e0"),
            "ridge": HexsideType(name="Impassable ridge or cut", impassable=True,
                                 road_crosses=False, colour="#5a4030"),
        },
        movement_allowance={"foot": 6, "horse": 12, "wheeled": 8, "leader": 12},
    )


def sample_map(width: int = 17, height: int = 11, sheets: tuple[int, int] = (1, 1),
               grid: str = "hex", seed: int = 1, orientation: str = "flat") -> GameMap:
    """A board of ``sheets`` (columns x rows) sheets of ``width`` x ``height`` cells."""
    rng = random.Random(seed)
    cols, rows = width * sheets[0], height * sheets[1]
    g: HexGrid | SquareGrid = (
        HexGrid(cols, rows, "pointy" if orientation == "pointy" else "flat")
        if grid == "hex" else SquareGrid(cols, rows, 4))
    letters = [(chr(ord("A") + n), c, r)
               for n, (r, c) in enumerate(itertools.product(range(sheets[1]), range(sheets[0])))]
    board = Board.build(g, letters, width, height)
    size = g.size
    terrain = ["clear"] * size
    elevation = [0] * size
    area = cols * rows

    def blob(kind: str, n: int, rmin: int, rmax: int) -> None:
        for _ in range(n):
            c = Cell(rng.randrange(cols), rng.randrange(rows))
            r = rng.randint(rmin, rmax)
            for x in g.within(c, r):
                if rng.random() < 0.85 - 0.3 * g.distance(c, x) / max(1, r):
                    terrain[g.index(x)] = kind

    blob("fields", max(1, area // 60), 1, 3)
    blob("light_woods", max(1, area // 110), 1, 3)
    blob("woods", max(1, area // 90), 1, 4)
    blob("thicket", max(1, area // 200), 1, 2)
    blob("swamp", max(1, area // 400), 1, 2)
    for _ in range(max(1, area // 300)):
        c = Cell(rng.randrange(cols), rng.randrange(rows))
        h, r = rng.randint(1, 3), rng.randint(2, 4)
        for x in g.within(c, r):
            level = h - (g.distance(c, x) * h) // (r + 1)
            elevation[g.index(x)] = max(elevation[g.index(x)], level)
            if level == h and rng.random() < 0.4:
                terrain[g.index(x)] = "hill"
    # a river down the board, with a stream joining it along cell edges
    river = [Cell(cols * 3 // 4 + rng.randint(-1, 1), 0)]
    while river[-1].row < rows - 1:
        last = river[-1]
        river.append(Cell(min(cols - 1, max(0, last.col + rng.choice((-1, 0, 0, 1)))),
                          last.row + 1))
    for c in river:
        terrain[g.index(c)] = "water"
    hexsides: dict[tuple[int, int], str] = {}
    here = Cell(cols // 5, rows // 3)
    for _ in range(max(6, cols // 2)):
        options = [n for n in g.neighbours(here) if terrain[g.index(n)] != "water"]
        if not options:
            break
        nxt = rng.choice(options)
        side = [n for n in g.neighbours(here) if n in g.neighbours(nxt)]
        if side:
            hexsides[edge(g.index(here), g.index(side[0]))] = "stream"
        here = nxt
    streams = sorted(hexsides)
    if streams:
        hexsides[streams[len(streams) // 2]] = "ford"
    ridge = Cell(cols // 2, rows * 2 // 3)
    for nb in g.neighbours(ridge)[:3]:
        hexsides[edge(g.index(ridge), g.index(nb))] = "ridge"
    # towns and roads between them
    towns = [Cell(rng.randrange(2, cols - 2), rng.randrange(2, rows - 2))
             for _ in range(max(3, area // 250))]
    names = ["Chancellor", "Wilderness Tavern", "Dowdall's", "Salem Church", "Catharine Furnace",
             "Hazel Grove", "Fairview", "Todd's Tavern", "Aldrich", "Zoan Church", "Tabernacle",
             "Piney Branch", "Spotswood", "Ely's Ford", "Germanna", "Brock", "Orange Plank"]
    places = []
    for n, t in enumerate(towns):
        if terrain[g.index(t)] == "water":
            continue
        terrain[g.index(t)] = "town"
        for x in g.neighbours(t)[:2]:
            if terrain[g.index(x)] != "water":
                terrain[g.index(x)] = "town"
        places.append(Place(names[n % len(names)] + ("" if n < len(names) else f" {n}"), t))
    board = board.with_places(places)
    gm = GameMap(board, sample_ruleset(), terrain, elevation)
    kinds = ["pike", "road", "trail"]
    for n, (a, b) in enumerate(itertools.pairwise(towns)):
        kind = kinds[n % 3]
        cells = g.line(a, b)
        gm.roads.append(Road(kind, f"{kind} {n + 1}", tuple(cells)))
        for x, y in itertools.pairwise(cells):
            if g.adjacent(x, y):
                gm.road_edges[edge(g.index(x), g.index(y))] = kind
    gm.hexsides.update(hexsides)
    return gm


_KINDS = ("infantry", "infantry", "infantry", "cavalry", "artillery", "hq", "leader", "wagon")
_FORMATION = {"infantry": ("line", "column"), "cavalry": ("mounted", "dismounted"),
              "artillery": ("limbered", "unlimbered"), "hq": ("mounted",),
              "leader": ("mounted",), "wagon": ("column",)}


def sample_units(gm: GameMap, side: str, n: int, seed: int, level: ViewLevel = OWN,
                 cols: tuple[float, float] = (0.0, 1.0)) -> list[UnitView]:
    """``n`` units of ``side`` spread over a band of columns, at most three a cell."""
    rng = random.Random(f"{seed}-{side}")
    g = gm.grid
    lo, hi = int(g.width * cols[0]), max(int(g.width * cols[0]) + 1, int(g.width * cols[1]))
    out: list[UnitView] = []
    used: dict[Cell, int] = {}
    tries = 0
    while len(out) < n and tries < n * 50:
        tries += 1
        c = Cell(rng.randrange(lo, min(hi, g.width)), rng.randrange(g.height))
        if not gm.enterable(c) or used.get(c, 0) >= 3:
            continue
        used[c] = used.get(c, 0) + 1
        k = len(out)
        kind = _KINDS[k % len(_KINDS)]
        short = f"{k % 4 + 1}/{k // 4 % 3 + 1}/{'I' * (k % 3 + 1)}"
        if kind in ("hq", "leader"):
            short = ["Hooker", "Howard", "Sickles", "Slocum", "Jackson", "Rodes", "Hill"][k % 7]
        out.append(UnitView(
            ref=f"{side}-{k + 1}", side=side, level=level, cell=c, name=f"{side} {short}",
            short=short, kind=kind, echelon="brigade",
            strength=None if kind in ("hq", "leader") else rng.randint(2, 12),
            formation=rng.choice(_FORMATION[kind]), morale="normal",
        ))
    return out


def sample_view(gm: GameMap, side: str | None, units: list[UnitView], *,
                information: str = InformationModel.OPEN, seen: frozenset[Cell] | None = None,
                blocked: frozenset[Cell] = frozenset(), turn: int = 3, time: str = "14:20",
                light: str = "day") -> SideView:
    names = {"union": "Army of the Potomac", "confederate": "Army of Northern Virginia"}
    model = InformationModel(information)
    return SideView(
        scenario_id="sample", title="Sample board: a march on the flank", side=side,
        side_name=names.get(side or "", side or "Umpire"), turn=turn, time=time, light=light,
        visibility=20 if light == "day" else 4, phase="Movement and Close Combat Phase",
        phasing=side, information=model if side else InformationModel.UMPIRE,
        units=tuple(units), seen_cells=seen, fog=model.fog and side is not None,
        game_map=gm,
        blocked_cells=blocked,
    )


def as_enemy(units: list[UnitView], level: ViewLevel, turn: int | None = None) -> list[UnitView]:
    """The same units as an enemy knows them at ``level`` (identified, marker or ghost)."""
    out = []
    for n, u in enumerate(units):
        if level == MARKER:
            out.append(UnitView(ref=f"marker-{n + 1}", side=u.side, level=MARKER, cell=u.cell))
        elif level == GHOST:
            out.append(UnitView(ref=u.ref, side=u.side, level=GHOST, cell=u.cell, name=u.name,
                                short=u.short, kind=u.kind, echelon=u.echelon,
                                strength=u.strength, formation=u.formation,
                                last_seen_turn=turn))
        else:
            out.append(UnitView(ref=u.ref, side=u.side, level=IDENTIFIED, cell=u.cell,
                                name=u.name, short=u.short, kind=u.kind, echelon=u.echelon,
                                strength=u.strength, formation=u.formation, morale=u.morale))
    return out
