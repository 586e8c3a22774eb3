"""How each kind of terrain, road and hexside is drawn: a fill colour and a pattern (so that the
map still reads when printed or seen in greyscale), chosen from the ruleset's flags, names and
colours."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render.style import RGB, mix, rgb
from rules.scenario.ruleset import HexsideType, RoadType, Ruleset, TerrainType

Line = list[tuple[float, float]]

_DEFAULT_FILL: dict[str, str] = {
    "plain": "#ece8d0", "furrows": "#dcd394", "dots": "#a9cc88", "crosshatch": "#7da562",
    "trees": "#5a8845", "buildings": "#b8876a", "marsh": "#9cbcac", "waves": "#74a6d8",
    "hachure": "#d2b688", "fort": "#9a9a9a", "ripples": "#a8cbe8",
}


@dataclass(frozen=True)
class TerrainStyle:
    fill: RGB
    pattern: str
    ink: RGB


def _has(text: str, *words: str) -> bool:
    return any(w in text for w in words)


def terrain_style(key: str, t: TerrainType) -> TerrainStyle:
    """Fill and pattern of a terrain type: plain, furrows (fields), dots (light woods),
    crosshatch (thickets), trees (woods), buildings (towns), marsh, waves (water), ripples (fords),
    hachure (hills) or fort (brickwork)."""
    words = f"{key} {t.name}".lower()
    if not t.enterable or _has(words, "water", "river", "lake", "pond", "sea"):
        pattern = "waves"
    elif _has(words, "ford"):
        pattern = "ripples"
    elif t.fort or _has(words, "fort", "redoubt", "earthwork"):
        pattern = "fort"
    elif t.woods and _has(words, "light", "open", "orchard", "sparse"):
        pattern = "dots"
    elif t.woods and _has(words, "thicket", "scrub", "brush", "wilderness", "second"):
        pattern = "crosshatch"
    elif t.woods or _has(words, "wood", "forest"):
        pattern = "trees"
    elif _has(words, "town", "village", "city", "building", "house"):
        pattern = "buildings"
    elif _has(words, "swamp", "marsh", "bog", "wet"):
        pattern = "marsh"
    elif _has(words, "field", "farm", "crop", "orchard", "wheat"):
        pattern = "furrows"
    elif t.hill or _has(words, "hill", "crest", "ridge", "slope"):
        pattern = "hachure"
    else:
        pattern = "plain"
    fill = rgb(t.colour) if t.colour else rgb(_DEFAULT_FILL[pattern])
    return TerrainStyle(fill, pattern, _ink(fill, pattern))


def _ink(fill: RGB, pattern: str) -> RGB:
    if pattern in ("waves", "ripples"):
        return mix(fill, (255, 255, 255), 0.55)
    if pattern == "buildings":
        return mix(fill, (40, 20, 10), 0.6)
    if pattern == "trees":
        return mix(fill, (10, 30, 5), 0.55)
    return mix(fill, (20, 20, 10), 0.4)


def styles(ruleset: Ruleset) -> dict[str, TerrainStyle]:
    return {k: terrain_style(k, t) for k, t in ruleset.terrain.items()}


@lru_cache(maxsize=128)
def tile(pattern: str, fill: RGB, ink: RGB, scale: int) -> Image.Image:
    """A seamless square tile of the pattern at ``scale`` pixels a cell."""
    p = max(4, round(scale / 5))  # the pattern's period
    size = p * 6
    im = Image.new("RGB", (size, size), fill)
    d = ImageDraw.Draw(im)
    if pattern == "furrows":
        for k in range(-size, 2 * size, p):
            d.line([(k, 0), (k + size, size)], fill=mix(fill, ink, 0.6), width=1)
    elif pattern == "dots":
        q = p * 2
        r = max(1, p // 3)
        for y in range(0, size, q):
            for x in range(0, size, q):
                ox = x + (q // 2 if (y // q) % 2 else 0)
                d.ellipse([ox, y, ox + 2 * r, y + 2 * r], fill=ink)
    elif pattern == "crosshatch":
        for k in range(-size, 2 * size, p):
            d.line([(k, 0), (k + size, size)], fill=ink, width=1)
            d.line([(k, size), (k + size, 0)], fill=ink, width=1)
    elif pattern == "trees":
        q = max(5, round(p * 1.5))
        size = q * 4
        im = Image.new("RGB", (size, size), fill)
        d = ImageDraw.Draw(im)
        r = max(2, q // 3)
        for j, y in enumerate(range(0, size, q)):
            for x in range(0, size, q):
                ox = (x + (q // 2 if j % 2 else 0)) % size
                for dx in (0, -size, size):
                    d.ellipse([ox + dx, y, ox + dx + 2 * r, y + 2 * r], fill=ink)
    elif pattern == "buildings":
        q = p * 2
        b = max(2, p // 2 + 1)
        for j, y in enumerate(range(1, size, q)):
            for x in range(1, size, q):
                ox = x + (q // 2 if j % 2 else 0)
                d.rectangle([ox % size, y, ox % size + b, y + b - 1], fill=ink)
    elif pattern == "marsh":
        for j, y in enumerate(range(p // 2, size, p)):
            for x in range(0, size, 2 * p):
                ox = x + (p if j % 2 else 0)
                d.line([(ox, y), (ox + p - 1, y)], fill=ink, width=1)
                d.line([(ox + p // 2, y - max(1, p // 3)), (ox + p // 2, y)], fill=ink)
    elif pattern in ("waves", "ripples"):
        step = p
        for y in range(p // 2, size, p if pattern == "waves" else 2 * p):
            pts = [(x, y + (1 if (x // step) % 2 else -1) * max(1, p // 4))
                   for x in range(0, size + step, step)]
            d.line(pts, fill=ink, width=1)
    elif pattern == "hachure":
        q = p * 2
        h = max(2, p // 2)
        for j, y in enumerate(range(h + 1, size, q)):
            for x in range(0, size, q):
                ox = x + (q // 2 if j % 2 else 0)
                d.line([(ox, y), (ox + h, y - h), (ox + 2 * h, y)], fill=ink, width=1)
    elif pattern == "fort":  # brickwork
        q = p * 2
        for j, y in enumerate(range(0, size, p)):
            d.line([(0, y), (size, y)], fill=ink, width=1)
            for x in range(0, size, q):
                ox = x + (p if j % 2 else 0)
                d.line([(ox, y), (ox, y + p)], fill=ink, width=1)
    return im


def tiled(t: Image.Image, width: int, height: int) -> Image.Image:
    """An image of ``width`` x ``height`` covered with the tile, aligned on its top left corner
    (built by doubling, so in a few pastes)."""
    row = t
    while row.width < width:
        wider = Image.new("RGB", (row.width * 2, row.height))
        wider.paste(row, (0, 0))
        wider.paste(row, (row.width, 0))
        row = wider
    out = row
    while out.height < height:
        taller = Image.new("RGB", (out.width, out.height * 2))
        taller.paste(out, (0, 0))
        taller.paste(out, (0, out.height))
        out = taller
    return out.crop((0, 0, width, height))


# -- roads and hexsides ------------------------------------------------------------------------


@dataclass(frozen=True)
class RoadStyle:
    kind: str
    look: str  # "pike" (double line), "road" (solid) or "trail" (dashed)
    colour: RGB


def road_styles(ruleset: Ruleset) -> dict[str, RoadStyle]:
    """Each road kind's look: by its name (pike, road, trail), else by cost (cheapest kind the
    boldest, dearest dashed)."""
    kinds = sorted(ruleset.roads.items(), key=lambda kv: (kv[1].cost, kv[0]))
    out: dict[str, RoadStyle] = {}
    for n, (k, r) in enumerate(kinds):
        look = _road_look(k, r)
        if not look:
            look = "pike" if n == 0 and len(kinds) > 2 else (
                "trail" if n == len(kinds) - 1 and len(kinds) > 1 else "road")
        colour = rgb(r.colour) if r.colour else {"pike": (110, 55, 25), "road": (150, 80, 45),
                                                 "trail": (140, 105, 70)}[look]
        out[k] = RoadStyle(k, look, colour)
    return out


def _road_look(key: str, r: RoadType) -> str:
    words = f"{key} {r.name}".lower()
    if _has(words, "pike", "plank", "turnpike", "highway", "macadam"):
        return "pike"
    if _has(words, "trail", "lane", "path", "track"):
        return "trail"
    if _has(words, "road"):
        return "road"
    return ""


@dataclass(frozen=True)
class SideStyle:
    kind: str
    look: str  # "stream", "ford", "wall" (impassable) or "line"
    colour: RGB


def hexside_styles(ruleset: Ruleset) -> dict[str, SideStyle]:
    out: dict[str, SideStyle] = {}
    for k, h in ruleset.hexsides.items():
        look = _side_look(k, h)
        default = {"stream": (50, 110, 190), "ford": (120, 170, 225), "wall": (70, 50, 40),
                   "line": (90, 70, 60)}[look]
        out[k] = SideStyle(k, look, rgb(h.colour) if h.colour else default)
    return out


def _side_look(key: str, h: HexsideType) -> str:
    words = f"{key} {h.name}".lower()
    if _has(words, "ford"):
        return "ford"
    if h.impassable:
        return "wall"
    if _has(words, "stream", "river", "creek", "run", "brook", "water"):
        return "stream"
    return "line"


def dashed(draw: ImageDraw.ImageDraw, points: Line, fill: RGB | tuple[int, int, int, int],
           width: int, dash: float, gap: float, origin: tuple[int, int] = (0, 0)) -> None:
    """A dashed polyline; the dash pattern runs on across the corners. ``points`` are given
    from ``origin`` (a piece of a bigger picture, ``render.layout.Layout``): the dashes are
    worked out where they lie on the whole picture and moved last, so that a piece shows
    exactly the whole picture's dashes."""
    ox, oy = origin
    on, left = True, dash
    for (x0, y0), (x1, y1) in itertools.pairwise((x + ox, y + oy) for x, y in points):
        seg = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
        pos = 0.0
        while seg > 0 and pos < seg:
            step = min(left, seg - pos)
            if on:
                a, b = pos / seg, (pos + step) / seg
                draw.line([(x0 + (x1 - x0) * a - ox, y0 + (y1 - y0) * a - oy),
                           (x0 + (x1 - x0) * b - ox, y0 + (y1 - y0) * b - oy)], fill=fill,
                          width=width)
            pos += step
            left -= step
            if left <= 1e-9:
                on = not on
                left = dash if on else gap
