"""The title bar (scenario, turn, clock, light, visibility, whose view) and the legend (unit
symbols, markers, ghosts, fog, routes, terrain, roads and hexside features). The legend names
what the picture shows: its ghosts' turns, its markers, the ground in it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.counters import OWN_MARKER, SHADOW, Look, draw_counter
from render.fit import Window
from render.patterns import dashed, tile
from render.style import BLOCKED, CONTOUR, FOG, INK, PAPER, RGB, ROUTE, fit_font, font, mix, on
from render.terrain import TerrainLayer
from rules.ground.gamemap import GameMap
from rules.view import GHOST, MARKER, OWN, SideView

LIGHT_BARS: dict[str, RGB] = {"day": (236, 230, 205), "twilight": (150, 130, 160),
                              "night": (32, 40, 70)}

Painter = Callable[[ImageDraw.ImageDraw, Image.Image, int, int, int], None]


def title_bar(view: SideView, width: int, colour: RGB, cells: str = "hexes") -> Image.Image:
    """Two lines: the scenario's title and whose view this is; then turn, clock, light,
    visibility and phase. The bar's colour follows the light (day, twilight, night)."""
    bg = LIGHT_BARS.get(view.light, LIGHT_BARS["day"])
    ink = on(bg)
    big = font(17, True)
    im = Image.new("RGB", (width, 46), bg)
    d = ImageDraw.Draw(im)
    who = view.side_name or ("Umpire" if view.side is None else view.side)
    chip = f" {who} "
    cw = round(big.getlength(chip)) + 4
    d.rectangle([width - cw - 6, 4, width - 6, 24], fill=colour)
    d.text((width - cw - 4, 14), chip, font=big, fill=on(colour), anchor="lm")
    title, tf = fit_font(view.title or view.scenario_id, width - cw - 24, 17, True, 12)
    d.text((8, 14), title, font=tf, fill=ink, anchor="lm")
    sight = ("no range limit to sight" if view.visibility is None
             else f"visibility {view.visibility} {cells}")
    parts = [f"Turn {view.turn}", view.time, view.light, sight]
    if view.phase:
        parts.append(view.phase)
    line = "  ·  ".join(p for p in parts if p)
    line, sf = fit_font(line, width - 16, 13, False, 10)
    d.text((8, 35), line, font=sf, fill=ink, anchor="lm")
    d.line([(0, 45), (width, 45)], fill=mix(bg, INK, 0.5))
    return im


def with_window_line(title: Image.Image, view: SideView, window: Window, cells: str
                     ) -> Image.Image:
    """The title bar with a line under it saying what the fitted window leaves out, and how to
    see the rest: only counts of what the view holds."""
    words = f"{window.cols} x {window.rows} {cells}: {window.own_in} of {window.own_all} " + (
        "units" if view.side is None else "of your units")
    if window.enemy_all:
        words += f", {window.enemy_in} of {window.enemy_all} known enemies"
    words += ". /map whole:true shows the whole board"
    line, f = fit_font(words, title.width - 16, 12, False, 9)
    out = Image.new("RGB", (title.width, title.height + 18), PAPER)
    out.paste(title, (0, 0))
    d = ImageDraw.Draw(out)
    d.text((8, title.height + 9), line, font=f, fill=INK, anchor="lm")
    d.line([(0, out.height - 1), (out.width, out.height - 1)], fill=mix(PAPER, INK, 0.5))
    return out


@dataclass(frozen=True)
class LegendKey:
    """What a legend shows: the picture's width and scale, the colours of the sample counters,
    which overlays are in use, whether markers and ghosts can appear (by the information
    model), the kinds of terrain, road and hexside in the picture, and the sides' colours."""

    width: int
    scale: int
    own: RGB
    enemy: RGB
    fog: bool
    blocked: bool
    route: bool
    markers: bool
    #: The turns the ghosts on the picture were last seen in, earliest first.
    ghosts: tuple[int, ...]
    terrain: frozenset[str]
    roads: frozenset[str]
    hexsides: frozenset[str]
    elevation: bool
    sides: tuple[tuple[str, RGB], ...] = ()
    #: Whether the picture shows markers (concealed forces, decoys): the side's own, the
    #: enemy's.
    own_markers: bool = False
    enemy_markers: bool = False
    #: Whether the picture shows enemy units' ways seen (trails).
    trails: bool = False


def legend(gm: GameMap, layer: TerrainLayer, key: LegendKey) -> Image.Image:
    """The legend for a picture drawn on ``layer`` (kept with the layer, a few per layer)."""
    with _LOCK:
        hit = layer.legends.get(key)
        if hit is not None:
            return hit
    im = _draw_legend(gm, layer, key)
    with _LOCK:
        if len(layer.legends) >= 16:
            layer.legends.clear()
        layer.legends[key] = im
    return im


_LOCK = threading.Lock()


def _short(name: str) -> str:
    return name.split("(")[0].strip()


def legend_words(gm: GameMap, layer: TerrainLayer, key: LegendKey) -> tuple[str, ...]:
    """The words of the legend's entries, in order."""
    return tuple(label for _, label in _items(gm, layer, key))


def _draw_legend(gm: GameMap, layer: TerrainLayer, key: LegendKey) -> Image.Image:
    return _flow(_items(gm, layer, key), key.width)


def _items(gm: GameMap, layer: TerrainLayer, key: LegendKey) -> list[tuple[Painter, str]]:
    items: list[tuple[Painter, str]] = []
    s = 30  # counters in the legend are drawn small whatever the map's scale

    def counter(look: Look) -> Painter:
        def paint(d: ImageDraw.ImageDraw, im: Image.Image, x: int, y: int, size: int) -> None:
            sp = draw_counter(look)
            w, h = sp.size[0] - SHADOW - 1, sp.size[1] - SHADOW - 1
            im.paste(sp, (x + (size - w) // 2, y + (size - h) // 2), sp)
        return paint

    if len(key.sides) > 1:
        for side, colour in key.sides:
            items.append((counter(Look(OWN, "", "", None, "", None, colour, s)),
                          side.replace("_", " ").replace("-", " ")))
    for kind, label in (("infantry", "infantry"), ("cavalry", "cavalry"),
                        ("artillery", "artillery"), ("hq", "HQ"), ("leader", "leader"),
                        ("wagon", "wagon")):
        items.append((counter(Look(OWN, kind, "", None, "", None, key.own, s)), label))
    items.append((counter(Look(OWN, "infantry", "", None, "line", None, key.own, s)), "in line"))
    items.append((counter(Look(OWN, "infantry", "", None, "column", None, key.own, s)),
                  "in column"))
    if key.markers:
        items.append((counter(Look(MARKER, "", "", None, "", None, key.enemy, s)),
                       "enemy, unidentified"))
    if key.own_markers:
        items.append((counter(Look(MARKER, OWN_MARKER, "M", 1, "", None, key.own, s,
                                   under="force")), "marker, with what is under it"))
    if key.enemy_markers:
        items.append((counter(Look(MARKER, "", "M", None, "", None, key.enemy, s)),
                      "enemy marker: a force or a decoy"))
    if key.ghosts:
        items.append((counter(Look(GHOST, "infantry", "", None, "", key.ghosts[-1], key.enemy,
                                   s)),
                      ghost_words(key.ghosts)))
    if key.fog:
        items.append((_fog_swatch(), "not in sight"))
    if key.blocked:
        items.append((_blocked, "blocked"))
    if key.route:
        items.append((_route, "planned route"))
    if key.trails:
        items.append((_trail(key.enemy), "enemy seen on the way"))
    for k, t in gm.ruleset.terrain.items():
        if k in key.terrain and k in layer.styles:
            st = layer.styles[k]
            swatch = _tile(tile(st.pattern, st.fill, st.ink, layer.scale))
            items.append((swatch, _short(t.name or k)))
    if key.elevation:
        items.append((_higher, "higher ground"))
    for k, r in gm.ruleset.roads.items():
        if k in key.roads and k in layer.roads:
            items.append((_road(layer.roads[k].look, layer.roads[k].colour), _short(r.name or k)))
    for k, h in gm.ruleset.hexsides.items():
        if k in key.hexsides and k in layer.sides:
            items.append((_side(layer.sides[k].look, layer.sides[k].colour), _short(h.name or k)))
    return items


def ghost_words(turns: tuple[int, ...]) -> str:
    """The legend's words for ghosts last seen in ``turns`` (sorted, at least one)."""
    if turns[0] == turns[-1]:
        return f"enemy last seen turn {turns[0]}"
    return f"enemy last seen turns {turns[0]}-{turns[-1]} (T on the counter)"


def _flow(items: list[tuple[Painter, str]], width: int) -> Image.Image:
    f = font(11)
    icon, gap, row_h = 26, 12, 28
    rows: list[list[tuple[Painter, str, int]]] = [[]]
    x = 8
    for paint, label in items:
        w = icon + 4 + round(f.getlength(label))
        if x + w > width - 8 and rows[-1]:
            rows.append([])
            x = 8
        rows[-1].append((paint, label, x))
        x += w + gap
    im = Image.new("RGB", (width, len(rows) * row_h + 6), PAPER)
    d = ImageDraw.Draw(im)
    d.line([(0, 0), (width, 0)], fill=mix(PAPER, INK, 0.5))
    for r, row in enumerate(rows):
        y = 4 + r * row_h
        for paint, label, x in row:
            paint(d, im, x, y, icon)
            d.text((x + icon + 4, y + icon // 2), label, font=f, fill=INK, anchor="lm")
    return im


def _tile(t: Image.Image) -> Painter:
    def paint(d: ImageDraw.ImageDraw, im: Image.Image, x: int, y: int, size: int) -> None:
        im.paste(t.crop((0, 0, size - 4, size - 4)), (x + 2, y + 2))
        d.rectangle([x + 2, y + 2, x + size - 3, y + size - 3], outline=(96, 96, 84))
    return paint


def _fog_swatch() -> Painter:
    def paint(d: ImageDraw.ImageDraw, im: Image.Image, x: int, y: int, size: int) -> None:
        fog = Image.new("RGB", (size - 4, size - 4), FOG)
        fd = ImageDraw.Draw(fog)
        for k in range(-size, size, 7):
            fd.line([(k, size), (k + size, 0)], fill=mix(FOG, (60, 60, 70), 0.35))
        im.paste(Image.blend(Image.new("RGB", fog.size, (232, 228, 201)), fog, 0.55),
                 (x + 2, y + 2))
        d.rectangle([x + 2, y + 2, x + size - 3, y + size - 3], outline=(96, 96, 84))
    return paint


def _blocked(d: ImageDraw.ImageDraw, im: Image.Image, x: int, y: int, size: int) -> None:
    sw = Image.new("RGB", (size - 4, size - 4), (232, 228, 201))
    sd = ImageDraw.Draw(sw)
    for k in range(-size, size, 6):
        sd.line([(k, size), (k + size, 0)], fill=mix(BLOCKED, (232, 228, 201), 0.4))
    sd.rectangle([0, 0, size - 5, size - 5], outline=BLOCKED, width=2)
    im.paste(sw, (x + 2, y + 2))


def _route(d: ImageDraw.ImageDraw, im: Image.Image, x: int, y: int, size: int) -> None:
    dashed(d, [(x + 1, y + size - 6), (x + size - 2, y + 6)], ROUTE, 3, 6, 4)


def _trail(colour: RGB) -> Painter:
    def paint(d: ImageDraw.ImageDraw, im: Image.Image, x: int, y: int, size: int) -> None:
        dashed(d, [(x + 1, y + size - 6), (x + size - 2, y + 6)], colour, 3, 6, 4)

    return paint


def _higher(d: ImageDraw.ImageDraw, im: Image.Image, x: int, y: int, size: int) -> None:
    d.rectangle([x + 2, y + 2, x + size - 3, y + size - 3], fill=(232, 228, 201))
    d.rectangle([x + size // 2, y + 2, x + size - 3, y + size - 3],
                fill=mix((232, 228, 201), CONTOUR, 0.18))
    d.line([(x + size // 2, y + 2), (x + size // 2, y + size - 3)], fill=CONTOUR, width=2)


def _road(look: str, colour: RGB) -> Painter:
    def paint(d: ImageDraw.ImageDraw, im: Image.Image, x: int, y: int, size: int) -> None:
        pts = [(x + 1.0, y + size / 2), (x + size - 1.0, y + size / 2)]
        if look == "pike":
            d.line(pts, fill=colour, width=5)
            d.line(pts, fill=(244, 232, 200), width=2)
        elif look == "road":
            d.line(pts, fill=colour, width=3)
        else:
            dashed(d, pts, colour, 2, 6, 4)
    return paint


def _side(look: str, colour: RGB) -> Painter:
    def paint(d: ImageDraw.ImageDraw, im: Image.Image, x: int, y: int, size: int) -> None:
        pts = [(x + size / 2, y + 2.0), (x + size / 2, y + size - 2.0)]
        if look == "ford":
            dashed(d, pts, colour, 3, 5, 3)
        elif look == "wall":
            d.line(pts, fill=colour, width=3)
            for t in range(5, size - 4, 5):
                d.line([(x + size / 2 - 4, y + t), (x + size / 2 + 4, y + t)], fill=colour)
        else:
            d.line(pts, fill=colour, width=3)
    return paint
