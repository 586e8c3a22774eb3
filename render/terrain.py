"""The map without anything on it: terrain, elevation, cell edges, streams and other hexside
features, roads, sheet edges, labels and place markers.

A ``TerrainLayer`` draws any rectangle of the board at its scale (``drawn``); ``render.ground``
keeps the rectangles pictures are cut from. Layers are kept by the map's content
(``fingerprint``) and scale, a few at a time, least recently used first out.
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

from render.layout import BOARD_SCALE, PAD, Box, Layout, label_rise
from render.patterns import (
    dashed,
    hexside_styles,
    road_styles,
    styles,
    tile,
    tiled,
)
from render.style import CONTOUR, MARGIN, OFF_BOARD, SHEET_EDGE, centred_text, font, on
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
    """The board of ``gm`` at ``scale`` pixels a cell, with labels on every cell when
    ``every_label`` (zoomed-in windows) or every fifth column and row (the whole board).

    The layer is drawn a piece at a time (``drawn``), never held whole: ``render.ground`` keeps
    the pieces pictures are cut from."""

    def __init__(self, gm: GameMap, scale: int, every_label: bool) -> None:
        #: What the layer is kept under: the map's content, the scale and the labelling.
        self.key = (fingerprint(gm), scale, every_label)
        self.layout = Layout(gm.grid, scale)
        self.scale = scale
        self.every_label = every_label
        self.styles = styles(gm.ruleset)
        self.roads = road_styles(gm.ruleset)
        self.sides = hexside_styles(gm.ruleset)
        #: The elevation of the board's lowest cell: ground is shaded by its height above it,
        #: in every piece of the board alike.
        self.lowest = min((gm.elevation_at(c) for c in gm.grid.cells() if gm.board.on_a_sheet(c)),
                          default=0)
        #: Legends drawn for pictures on this layer, by ``render.legend.LegendKey``.
        self.legends: dict[Any, Image.Image] = {}
        #: The kinds of ground in a box of this layer (``render.draw.layer_features``).
        self.features: dict[tuple[int, int, int, int],
                            tuple[frozenset[str], frozenset[str], frozenset[str], bool]] = {}

    @property
    def whole(self) -> Box:
        """The box of the whole board."""
        return (0, 0, self.layout.width, self.layout.height)

    @cached_property
    def every_cell(self) -> list[Cell]:
        """The cells of the whole layer, in the grid's order."""
        return list(self.layout.grid.cells())

    # -- drawing ---------------------------------------------------------------------------
    def drawn(self, gm: GameMap, box: Box) -> Image.Image:
        """The part ``box`` of the layer, drawn alone: the very pixels of the whole board drawn
        at once, cut to ``box``, at a fraction of the cost for a small part of a big board."""
        # Drawn with a cell's margin round it: a shape that reaches into the part is then drawn
        # from the same whole pixels as in the whole picture (Pillow cuts a point left or above
        # the picture's corner towards it, not down), and the margin is cut off after.
        w, h = self.layout.size
        m = self.scale
        outer = (max(0, box[0] - m), max(0, box[1] - m), min(w, box[2] + m), min(h, box[3] + m))
        drawn = self._draw(gm, outer)
        return drawn.crop((box[0] - outer[0], box[1] - outer[1],
                           box[2] - outer[0], box[3] - outer[1]))

    def _draw(self, gm: GameMap, box: Box | None = None) -> Image.Image:
        whole = self.layout
        grid = gm.grid
        board = gm.board
        x0, y0, x1, y1 = box or (0, 0, whole.width, whole.height)
        lay = Layout(grid, self.scale, PAD, (x0, y0))
        im = Image.new("RGB", (x1 - x0, y1 - y0), MARGIN)
        near = whole.cells_in(box) if box is not None else list(grid.cells())
        cells = [c for c in near if board.on_a_sheet(c)]
        off = [c for c in near if not board.on_a_sheet(c)]
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
            self._fill(im, lay, by_terrain[key], tile(st.pattern, st.fill, st.ink, self.scale))
        self._elevation(im, lay, gm, cells)
        # Lines are drawn at SUPERSAMPLE times the size and scaled down, so that they come out
        # smooth; the fills under them, blown up pixel for pixel, come back unchanged.
        k = SUPERSAMPLE
        big = im.resize((im.width * k, im.height * k), Image.Resampling.NEAREST)
        lay2 = Layout(grid, self.scale * k, PAD * k, (x0 * k, y0 * k))
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
        self._labels(ImageDraw.Draw(im), lay, gm, cells)
        return im

    def _mask(self, size: tuple[int, int], lay: Layout, cells: list[Cell]
              ) -> tuple[Image.Image, tuple[int, int, int, int]]:
        mask = Image.new("L", size, 0)
        d = ImageDraw.Draw(mask)
        for c in cells:
            d.polygon(lay.polygon(c), fill=255, outline=255)
        box = mask.getbbox() or (0, 0, 1, 1)
        return mask, box

    def _fill(self, im: Image.Image, lay: Layout, cells: list[Cell], t: Image.Image) -> None:
        mask, box = self._mask(im.size, lay, cells)
        # The pattern lies on the whole board's grid of tiles, wherever this piece of it starts.
        x0 = box[0] - (box[0] + lay.origin[0]) % t.width
        y0 = box[1] - (box[1] + lay.origin[1]) % t.height
        box = (x0, y0, box[2], box[3])
        pattern = tiled(t, box[2] - x0, box[3] - y0)
        im.paste(pattern, box, mask.crop(box))

    def _elevation(self, im: Image.Image, lay: Layout, gm: GameMap, cells: list[Cell]) -> None:
        by_level: dict[int, list[Cell]] = {}
        for c in cells:
            level = gm.elevation_at(c) - self.lowest
            if level > 0:
                by_level.setdefault(min(level, 4), []).append(c)
        for level, group in sorted(by_level.items()):
            mask, box = self._mask(im.size, lay, group)
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
                dashed(d, [(x0, y0), (x1, y1)], st.colour, w, s * 0.12, s * 0.07,
                       lay.origin)
            elif st.look == "wall":
                w = max(2, round(s * 0.09))
                d.line([(x0, y0), (x1, y1)], fill=st.colour, width=w)
                ax, ay = grid.centre(grid.cell(ia))
                bx, by = grid.centre(grid.cell(ib))
                # teeth on both sides, pointing across the edge
                nx, ny = (bx - ax) * s * 0.12, (by - ay) * s * 0.12
                # Worked out on the whole picture and moved last, as ``dashed`` does.
                ox, oy = lay.origin
                wx, wy = x0 + ox, y0 + oy
                for t in (0.2, 0.4, 0.6, 0.8):
                    px, py = wx + (x1 - x0) * t, wy + (y1 - y0) * t
                    d.line([(px - nx - ox, py - ny - oy), (px + nx - ox, py + ny - oy)],
                           fill=st.colour, width=1)
            else:
                d.line([(x0, y0), (x1, y1)], fill=st.colour, width=max(2, round(s * 0.07)))

    def _roads(self, d: ImageDraw.ImageDraw, lay: Layout, gm: GameMap) -> None:
        s = lay.scale
        ox, oy = lay.origin

        # A road runs through whole pixels of the whole picture (here, the supersampled one):
        # Pillow then draws its joints and edges alike in a piece and in the whole.
        def at(c: Cell) -> tuple[float, float]:
            x, y = lay.centre(c)
            return (round(x + ox) - ox, round(y + oy) - oy)

        runs: list[tuple[str, list[tuple[float, float]]]] = [
            (r.kind, [at(c) for c in r.cells]) for r in gm.roads if len(r.cells) > 1
        ]
        if not runs:
            runs = [(k, [at(gm.grid.cell(a)), at(gm.grid.cell(b))])
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
                dashed(d, pts, st.colour, max(2, round(s * 0.07)), s * 0.22, s * 0.13,
                       lay.origin)
        for kind, pts in runs:  # the pike's light centre line goes over every join
            st = self.roads.get(kind)
            if st is not None and st.look == "pike":
                d.line(pts, fill=(244, 232, 200), width=max(1, round(s * 0.06)), joint="curve")

    def _labels(self, d: ImageDraw.ImageDraw, lay: Layout, gm: GameMap, cells: list[Cell]
                ) -> None:
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
#: Layers kept: a layer holds no picture (``render.ground`` keeps those), only the layout of
#: the board at its scale, its styles and the legends drawn for it.
_KEEP = 16


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
    """The layer of ``gm`` at ``scale``, kept for the next picture of the same map."""
    key = (fingerprint(gm), scale, every_label)
    with _LOCK:
        hit = _kept(key)
        if hit is not None:
            return hit
    layer = TerrainLayer(gm, scale, every_label)
    with _LOCK:
        hit = _kept(key)  # another thread made it meanwhile: keep one
        if hit is not None:
            return hit
        _CACHE[key] = layer
        while len(_CACHE) > _KEEP:
            _CACHE.popitem(last=False)
    return layer


def _kept(key: tuple[str, int, bool]) -> TerrainLayer | None:
    """The layer kept under ``key``, now the most recently used (under ``_LOCK``)."""
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
    return hit


def forget_layers() -> None:
    """Forget every kept layer."""
    with _LOCK:
        _CACHE.clear()
