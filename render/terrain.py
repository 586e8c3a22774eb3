"""The map without anything on it: terrain, elevation, cell edges, streams and other hexside
features, roads, sheet edges, labels and place markers, drawn once per map and scale and kept.

A ``TerrainLayer`` holds the picture of the whole board and, made when first needed, the same
picture under fog. Layers are cached by the map's content (``fingerprint``) and scale, a few at a
time, least recently used first out.
"""

from __future__ import annotations

import functools
import hashlib
import threading
import weakref
from collections import OrderedDict
from functools import cached_property
from typing import Any

from PIL import Image, ImageDraw

from render.layout import BOARD_SCALE, PAD, Layout, label_rise
from render.patterns import (
    dashed,
    hexside_styles,
    road_styles,
    styles,
    tile,
    tiled,
)
from render.style import CONTOUR, FOG, MARGIN, OFF_BOARD, SHEET_EDGE, centred_text, font, mix, on
from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell

GRID_LINE = (96, 96, 84)
#: Lines are drawn this many times larger, then scaled down (anti-aliasing).
SUPERSAMPLE = 2
#: Each level of elevation above the map's lowest darkens the ground by this much (at most 4).
ELEVATION_STEP = 0.09
#: On the whole board a label is printed on every LABEL_EVERY-th column and row of a sheet.
LABEL_EVERY = 5


class TerrainLayer:
    """The board of ``gm`` drawn at ``scale`` pixels a cell, with labels on every cell when
    ``every_label`` (zoomed-in windows) or every fifth column and row (the whole board)."""

    def __init__(self, gm: GameMap, scale: int, every_label: bool) -> None:
        self.layout = Layout(gm.grid, scale)
        self.scale = scale
        self.every_label = every_label
        self.styles = styles(gm.ruleset)
        self.roads = road_styles(gm.ruleset)
        self.sides = hexside_styles(gm.ruleset)
        self.image = self._draw(gm)
        #: Legends drawn for pictures on this layer, by ``render.legend.LegendKey``.
        self.legends: dict[Any, Image.Image] = {}
        #: The kinds of ground in a box of this layer (``render.draw.layer_features``).
        self.features: dict[tuple[int, int, int, int],
                            tuple[frozenset[str], frozenset[str], frozenset[str], bool]] = {}

    @cached_property
    def every_cell(self) -> list[Cell]:
        """The cells of the whole layer, in the grid's order."""
        return list(self.layout.grid.cells())

    @cached_property
    def fogged(self) -> Image.Image:
        """The board as a side sees the ground it cannot see: washed out, finely hatched."""
        w, h = self.image.size
        fog = Image.new("RGB", (w, h), FOG)
        d = ImageDraw.Draw(fog)
        ink = mix(FOG, (60, 60, 70), 0.35)
        for k in range(-h, w, 7):
            d.line([(k, h), (k + h, 0)], fill=ink, width=1)
        return Image.blend(self.image, fog, 0.55)

    # -- drawing ---------------------------------------------------------------------------
    def _draw(self, gm: GameMap) -> Image.Image:
        lay = self.layout
        grid = gm.grid
        board = gm.board
        im = Image.new("RGB", (lay.width, lay.height), MARGIN)
        cells = [c for c in grid.cells() if board.on_a_sheet(c)]
        off = [c for c in grid.cells() if not board.on_a_sheet(c)]
        if off:
            d0 = ImageDraw.Draw(im)
            for c in off:
                d0.polygon(lay.polygon(c), fill=OFF_BOARD, outline=OFF_BOARD)
        by_terrain: dict[str, list[Cell]] = {}
        for c in cells:
            by_terrain.setdefault(gm.terrain_at(c), []).append(c)
        for key in sorted(by_terrain):
            st = self.styles.get(key)
            if st is None:
                continue
            self._fill(im, by_terrain[key], tile(st.pattern, st.fill, st.ink, self.scale))
        self._elevation(im, gm, cells)
        # Lines are drawn at SUPERSAMPLE times the size and scaled down, so that they come out
        # smooth; the fills under them, blown up pixel for pixel, come back unchanged.
        k = SUPERSAMPLE
        big = im.resize((im.width * k, im.height * k), Image.Resampling.NEAREST)
        lay2 = Layout(grid, self.scale * k, PAD * k)
        d = ImageDraw.Draw(big)
        for c in cells:
            pts = lay2.polygon(c)
            d.line([*pts, pts[0]], fill=GRID_LINE, width=k)
        self._contours(d, lay2, gm, cells)
        self._sheet_edges(d, lay2, gm, cells)
        self._hexsides(d, lay2, gm)
        self._roads(d, lay2, gm)
        self._places(d, lay2, gm)
        im = big.reduce(k)
        self._labels(ImageDraw.Draw(im), gm, cells)
        return im

    def _mask(self, cells: list[Cell]) -> tuple[Image.Image, tuple[int, int, int, int]]:
        lay = self.layout
        mask = Image.new("L", (lay.width, lay.height), 0)
        d = ImageDraw.Draw(mask)
        for c in cells:
            d.polygon(lay.polygon(c), fill=255, outline=255)
        box = mask.getbbox() or (0, 0, 1, 1)
        return mask, box

    def _fill(self, im: Image.Image, cells: list[Cell], t: Image.Image) -> None:
        mask, box = self._mask(cells)
        x0 = box[0] - box[0] % t.width
        y0 = box[1] - box[1] % t.height
        box = (x0, y0, box[2], box[3])
        pattern = tiled(t, box[2] - x0, box[3] - y0)
        im.paste(pattern, box, mask.crop(box))

    def _elevation(self, im: Image.Image, gm: GameMap, cells: list[Cell]) -> None:
        if not cells:
            return
        low = min(gm.elevation_at(c) for c in cells)
        by_level: dict[int, list[Cell]] = {}
        for c in cells:
            level = gm.elevation_at(c) - low
            if level > 0:
                by_level.setdefault(min(level, 4), []).append(c)
        for level, group in sorted(by_level.items()):
            mask, box = self._mask(group)
            alpha = round(255 * ELEVATION_STEP * level)
            mask = mask.point(lambda v, a=alpha: v * a // 255)
            im.paste(CONTOUR, box, mask.crop(box))

    def _contours(self, d: ImageDraw.ImageDraw, lay: Layout, gm: GameMap, cells: list[Cell]
                  ) -> None:
        grid = gm.grid
        width = max(1, round(lay.scale / 20))
        for c in cells:
            e = gm.elevation_at(c)
            i = grid.index(c)
            for n in grid.neighbours(c):
                if grid.index(n) <= i or not gm.board.on_a_sheet(n):
                    continue
                diff = abs(gm.elevation_at(n) - e)
                if diff == 0:
                    continue
                seg = lay.shared_edge(c, n)
                if seg is not None:
                    d.line(list(seg), fill=CONTOUR, width=width + (1 if diff > 1 else 0))

    def _sheet_edges(self, d: ImageDraw.ImageDraw, lay: Layout, gm: GameMap, cells: list[Cell]
                     ) -> None:
        b = gm.board
        if len(b.sheets) < 2:
            return
        width = max(3, round(lay.scale / 9))
        for c in cells:
            here = (c.col // b.sheet_width, c.row // b.sheet_height)
            i = gm.grid.index(c)
            for n in gm.grid.neighbours(c):
                if gm.grid.index(n) <= i or not b.on_a_sheet(n):
                    continue
                if (n.col // b.sheet_width, n.row // b.sheet_height) != here:
                    seg = lay.shared_edge(c, n)
                    if seg is not None:
                        d.line(list(seg), fill=SHEET_EDGE, width=width)

    def _hexsides(self, d: ImageDraw.ImageDraw, lay: Layout, gm: GameMap) -> None:
        grid = gm.grid
        s = lay.scale
        for (ia, ib), kind in sorted(gm.hexsides.items()):
            st = self.sides.get(kind)
            if st is None:
                continue
            seg = lay.shared_edge(grid.cell(ia), grid.cell(ib))
            if seg is None:
                continue
            (x0, y0), (x1, y1) = seg
            if st.look == "stream":
                w = max(2, round(s * 0.11))
                d.line([(x0, y0), (x1, y1)], fill=st.colour, width=w)
                r = w / 2 - 0.5
                for x, y in seg:
                    d.ellipse([x - r, y - r, x + r, y + r], fill=st.colour)
            elif st.look == "ford":
                w = max(2, round(s * 0.11))
                dashed(d, [(x0, y0), (x1, y1)], st.colour, w, s * 0.12, s * 0.07)
            elif st.look == "wall":
                w = max(2, round(s * 0.09))
                d.line([(x0, y0), (x1, y1)], fill=st.colour, width=w)
                ax, ay = grid.centre(grid.cell(ia))
                bx, by = grid.centre(grid.cell(ib))
                # teeth on both sides, pointing across the edge
                nx, ny = (bx - ax) * s * 0.12, (by - ay) * s * 0.12
                for t in (0.2, 0.4, 0.6, 0.8):
                    px, py = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
                    d.line([(px - nx, py - ny), (px + nx, py + ny)], fill=st.colour, width=1)
            else:
                d.line([(x0, y0), (x1, y1)], fill=st.colour, width=max(2, round(s * 0.07)))

    def _roads(self, d: ImageDraw.ImageDraw, lay: Layout, gm: GameMap) -> None:
        s = lay.scale
        runs: list[tuple[str, list[tuple[float, float]]]] = [
            (r.kind, [lay.centre(c) for c in r.cells]) for r in gm.roads if len(r.cells) > 1
        ]
        if not runs:
            runs = [(k, [lay.centre(gm.grid.cell(a)), lay.centre(gm.grid.cell(b))])
                    for (a, b), k in sorted(gm.road_edges.items())]
        order = {"trail": 0, "road": 1, "pike": 2}
        runs.sort(key=lambda kv: order[self.roads[kv[0]].look] if kv[0] in self.roads else 1)
        for kind, pts in runs:
            st = self.roads.get(kind)
            if st is None:
                continue
            if st.look == "pike":
                d.line(pts, fill=st.colour, width=max(3, round(s * 0.17)), joint="curve")
            elif st.look == "road":
                d.line(pts, fill=st.colour, width=max(2, round(s * 0.1)), joint="curve")
            else:
                dashed(d, pts, st.colour, max(2, round(s * 0.07)), s * 0.22, s * 0.13)
        for kind, pts in runs:  # the pike's light centre line goes over every join
            st = self.roads.get(kind)
            if st is not None and st.look == "pike":
                d.line(pts, fill=(244, 232, 200), width=max(1, round(s * 0.06)), joint="curve")

    def _labels(self, d: ImageDraw.ImageDraw, gm: GameMap, cells: list[Cell]) -> None:
        lay = self.layout
        b = gm.board
        f = font(max(7, round(self.scale * 0.21)))
        dy = self.scale * label_rise(gm.grid)
        for c in cells:
            if not self.every_label and (
                (c.col % b.sheet_width + 1) % LABEL_EVERY or (c.row % b.sheet_height + 1)
                % LABEL_EVERY
            ):
                continue
            x, y = lay.centre(c)
            st = self.styles.get(gm.terrain_at(c))
            ink = on(st.fill) if st else (30, 30, 30)
            centred_text(d, x, y - dy, b.label(c), f, ink)

    def _places(self, d: ImageDraw.ImageDraw, lay: Layout, gm: GameMap) -> None:
        r = max(3, round(lay.scale * 0.1))
        for p in gm.board.places:
            if not gm.board.on_a_sheet(p.cell):
                continue
            x, y = lay.centre(p.cell)
            d.rectangle([x - r, y - r, x + r, y + r], fill=(255, 255, 255), outline=(0, 0, 0),
                        width=max(2, round(lay.scale / 15)))


_CACHE: OrderedDict[tuple[str, int, bool], TerrainLayer] = OrderedDict()
_PRINTS: dict[int, tuple[weakref.ref[GameMap], str]] = {}
_LOCK = threading.RLock()
#: The layers being drawn, each with the lock its drawer holds.
_DRAWING: dict[tuple[str, int, bool], threading.Lock] = {}
#: Layers kept (a big board's layer and its fogged twin take some 10-40 MB).
_KEEP = 8


def fingerprint(gm: GameMap) -> str:
    """A digest of everything a terrain layer shows, so that maps loaded afresh from the same
    scenario (the umpire reloads after each command) share their cached layers. Worked out once
    per ``GameMap`` object; a map is not changed once loaded."""
    with _LOCK:
        hit = _PRINTS.get(id(gm))
        if hit is not None and hit[0]() is gm:
            return hit[1]
    b = gm.board
    parts = (
        repr(gm.grid), b.sheets, b.sheet_width, b.sheet_height, b.label_format, b.places,
        gm.terrain, gm.elevation, [(r.kind, r.cells) for r in gm.roads],
        sorted(gm.road_edges.items()), sorted(gm.hexsides.items()),
        gm.ruleset.model_dump_json(include={"terrain", "roads", "hexsides"}),
    )
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()
    with _LOCK:
        _PRINTS[id(gm)] = (weakref.ref(gm, functools.partial(_forget, id(gm))), digest)
    return digest


def _forget(key: int, _ref: object = None) -> None:
    with _LOCK:
        entry = _PRINTS.get(key)
        if entry is not None and entry[0]() is None:
            del _PRINTS[key]


def terrain_layer(gm: GameMap, scale: int = BOARD_SCALE, every_label: bool = False
                  ) -> TerrainLayer:
    """The cached layer of ``gm`` at ``scale``; drawn on first use, once: threads asking for
    a layer being drawn wait for it (many games of one scenario start at once, and each
    drawing holds the interpreter for a good part of a second)."""
    key = (fingerprint(gm), scale, every_label)
    with _LOCK:
        hit = _kept(key)
        if hit is not None:
            return hit
        drawing = _DRAWING.setdefault(key, threading.Lock())
    with drawing:
        with _LOCK:
            hit = _kept(key)
            if hit is not None:
                return hit
        layer = TerrainLayer(gm, scale, every_label)
        with _LOCK:
            _CACHE[key] = layer
            _DRAWING.pop(key, None)
            while len(_CACHE) > _KEEP:
                _CACHE.popitem(last=False)
    return layer


def _kept(key: tuple[str, int, bool]) -> TerrainLayer | None:
    """The layer kept under ``key``, now the most recently used (under ``_LOCK``)."""
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
    return hit


def clear_cache() -> None:
    """Forget every cached layer (the next picture of each map is drawn cold)."""
    with _LOCK:
        _CACHE.clear()
