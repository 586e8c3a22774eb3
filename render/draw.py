"""``render_map``: one side's picture of the map, as PNG bytes.

The picture is a pure function of its arguments: the same view and window give the same bytes (no
timestamps or other varying metadata are written). Nothing but the ``SideView`` goes in: the map,
the sides' colours, the counters, the fog, the blocked cells and the side's own routes are all in
it.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image

from render import overlay
from render.counters import (
    by_cell,
    draw_stack,
    look_of,
    marker_counters,
    name_fits,
    name_font,
    short_name,
)
from render.fit import FIT_SCALE, LABEL_PX, Window, fit_size, window_box
from render.focus import fitted_window
from render.ground import ground, prepare
from render.labels import unique_labels
from render.layout import BOARD_SCALE, WINDOW_SCALES, Box, counter_drop, counter_scale
from render.legend import LegendKey, legend, title_bar, with_window_line
from render.style import PAPER, RGB, ROUTE, side_colour
from render.terrain import TerrainLayer, terrain_layer
from rules.forces.lookup import closest, names_of
from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell
from rules.knowledge.information import InformationModel
from rules.view import GHOST, OWN, SideView, UnitView

#: Cells round ``around`` when a window is asked for without a radius.
DEFAULT_RADIUS = 8
#: Narrowest picture (so that the title bar and legend have room).
MIN_WIDTH = 520
#: Boxes whose ground is remembered per layer (``layer_features``).
FEATURES_KEPT = 256
#: zlib level for PNG: 1 is several times faster than the default and costs little in size.
PNG_LEVEL = 1


@dataclass(frozen=True, slots=True)
class Picture:
    """A drawn map, with what a reader must be able to read on it: the name on each stack's
    top counter and the pixel size it is printed at, and the fitted window, if it is one."""

    image: Image.Image
    names: tuple[tuple[str, int], ...]
    window: Window | None = None
    #: Where the counters and the route notes lie on the map part of the picture.
    counters: tuple[tuple[float, float, float, float], ...] = ()
    notes: tuple[tuple[int, int, int, int], ...] = ()
    #: Where the map part's top left corner is on the picture.
    origin: tuple[int, int] = (0, 0)
    #: What the legend shows.
    legend: LegendKey | None = None


def render_map(view: SideView, *, around: Cell | None = None, radius: int | None = None,
               fitted: bool = False, whole_layers: bool = True) -> bytes:
    """Draw ``view`` on its own map (``view.game_map``) and return PNG bytes.

    The whole board; with ``around`` a window of ``radius`` cells (default 8) round that cell,
    zoomed in and with every cell labelled; with ``fitted`` the window fitted to the side's
    units and the enemies it knows (``render.fit``). Sides are drawn in ``view.side_colours``;
    the view's own routes (``view.routes``) are drawn dashed, each with its note at its end.
    ``whole_layers=False``: the ground is drawn for this picture alone and no whole terrain
    layer is drawn or kept (``render.ground``); the picture is the same.
    """
    return encode(draw_picture(view, around=around, radius=radius, fitted=fitted,
                               whole_layers=whole_layers).image)


def warm_up(gm: GameMap | None = None, *, whole_layers: bool = True) -> None:
    """Do now what the first picture in this process would otherwise wait for: Pillow's image
    formats loaded, and with ``gm`` its board laid out at every scale a picture is drawn at, its
    cells' neighbours listed, and its whole layers asked for (``render.ground.prepare``). No
    picture is drawn and nothing a side could see is touched: the first picture of a view is
    drawn exactly as it would have been. ``whole_layers=False``: the whole layers are not asked
    for."""
    encode(Image.new("RGB", (8, 8), PAPER))
    if gm is None:
        return
    if whole_layers:
        prepare(gm)
    for scale, labelled in ((BOARD_SCALE, False), (FIT_SCALE, True),
                            *((s, True) for s in WINDOW_SCALES)):
        terrain_layer(gm, scale, every_label=labelled).every_cell  # noqa: B018 - laid out now
    fit_size(gm.grid)
    gm.grid.neighbours(Cell(0, 0))


def encode(im: Image.Image) -> bytes:
    """PNG bytes of a picture, reduced to a 256-colour palette (maps have few colours; this
    halves both the size and the time to compress) and with no metadata that could vary."""
    pal = im.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal.save(buf, format="PNG", compress_level=PNG_LEVEL)
    return buf.getvalue()


def features_in(gm: GameMap, cells: list[Cell]
                ) -> tuple[frozenset[str], frozenset[str], frozenset[str], bool]:
    """The kinds of terrain, road and hexside among ``cells``, and whether their ground rises."""
    on = [gm.idx(c) for c in cells if gm.board.on_a_sheet(c)]
    idx = set(on)
    terrain = frozenset(gm.terrain[i] for i in on)
    roads = frozenset(k for (a, b), k in gm.road_edges.items() if a in idx or b in idx)
    roads |= frozenset(r.kind for r in gm.roads if any(gm.idx(c) in idx for c in r.cells))
    sides = frozenset(k for (a, b), k in gm.hexsides.items() if a in idx or b in idx)
    hilly = len({gm.elevation[i] for i in on}) > 1
    return terrain, roads, sides, hilly


def layer_features(layer: TerrainLayer, gm: GameMap, box: Box, cells: list[Cell]
                   ) -> tuple[frozenset[str], frozenset[str], frozenset[str], bool]:
    """``features_in`` the cells of ``box``, worked out once per layer and box: the legend of
    a picture lists the ground in it, which is the same on every picture of that box."""
    found = layer.features.get(box)
    if found is None:
        if len(layer.features) >= FEATURES_KEPT:
            layer.features.clear()
        found = layer.features[box] = features_in(gm, cells)
    return found


def window_scale(radius: int) -> int:
    """Pixels a cell for a window: large for a close look, smaller as the window grows, so that a
    window stays near Discord's preview width (three scales, each one cached terrain layer)."""
    if radius <= 6:
        return WINDOW_SCALES[0]
    if radius <= 10:
        return WINDOW_SCALES[1]
    return WINDOW_SCALES[2]


def colours_for(view: SideView) -> dict[str, RGB]:
    given = dict(view.side_colours)
    sides = {u.side for u in view.units} | {m.side for m in view.markers}
    if view.side is not None:
        sides.add(view.side)
    sides |= set(given or {})
    return {s: side_colour(s, view.side, given) for s in sorted(sides)}


def map_box(gm: GameMap, around: Cell | None, radius: int | None) -> tuple[TerrainLayer, Box]:
    """The terrain layer a picture is cut from, and the rectangle cut: the whole board, or a
    window of ``radius`` cells (default ``DEFAULT_RADIUS``) round ``around``."""
    if around is not None and gm.grid.contains(around):
        r = DEFAULT_RADIUS if radius is None else max(0, radius)
        layer = terrain_layer(gm, window_scale(r), every_label=True)
        return layer, layer.layout.window(around, r)
    layer = terrain_layer(gm, BOARD_SCALE, every_label=False)
    return layer, (0, 0, layer.layout.width, layer.layout.height)


def fitted_box(view: SideView) -> tuple[TerrainLayer, Box, Window] | None:
    """The layer and rectangle of the view's fitted window (``None``: nothing to fit)."""
    layer = terrain_layer(view.game_map, FIT_SCALE, every_label=True)
    found = fitted_window(view)
    if found is None:
        return None
    return layer, window_box(layer.layout, found.col, found.row, found.cols, found.rows), found


def widened(box: Box, limit: int, width: int = MIN_WIDTH) -> Box:
    """``box`` at least ``width`` pixels wide where the board allows, widened evenly and moved
    inside ``0..limit``: a narrow window shows more of the board round it, not blank paper
    beside it (the picture is never narrower than ``MIN_WIDTH``)."""
    x0, y0, x1, y1 = box
    if x1 - x0 >= width:
        return box
    size = min(limit, width)
    lo = max(0, min(limit - size, x0 - (size - (x1 - x0)) // 2))
    return (lo, y0, lo + size, y1)


def render_image(view: SideView, *, around: Cell | None = None, radius: int | None = None,
                 fitted: bool = False) -> Image.Image:
    """``render_map`` before PNG encoding."""
    return draw_picture(view, around=around, radius=radius, fitted=fitted).image


def view_labels(view: SideView) -> dict[str, str]:
    """The name each named counter of the view carries, by ref, unique on the map."""
    counters = [*view.units, *marker_counters(view.markers, view.side)]
    scale = counter_scale(view.game_map.grid, FIT_SCALE)
    # The labels depend on these of each counter only; a side's counters are much the same from
    # one picture to the next, so they are worked out once for each set.
    key = (scale, tuple((u.ref, u.side, u.kind, u.level, u.name, u.short) for u in counters))
    found = _LABELS.get(key)
    if found is None:
        if len(_LABELS) >= LABELS_KEPT:
            _LABELS.clear()
        found = _LABELS[key] = unique_labels(counters, short_name,
                                             functools.partial(_fits_window, scale),
                                             *_misleading(view.side, counters))
    return found


def _misleading(side: str | None, counters: Sequence[UnitView]
                ) -> tuple[Callable[[UnitView, str], bool], Callable[[UnitView, str], bool]]:
    """Whether a label, typed in an order, would name another of the side's own units than the
    one it is put on, and whether it would name that one alone (``rules.forces.lookup``): no
    order reads an enemy's name, so any label names an enemy's counter alone."""
    own = [(u.ref, names_of(u.ref, u.name, u.short)) for u in counters
           if u.level == OWN and u.side == side]

    # Both questions are asked of most labels, for several counters each.
    @functools.cache
    def named(label: str) -> tuple[str, ...]:
        return tuple(closest(own, label))

    def misleads(u: UnitView, label: str) -> bool:
        if u.level != OWN or u.side != side:
            return False
        found = named(label)
        return len(found) == 1 and found[0] != u.ref

    def names_alone(u: UnitView, label: str) -> bool:
        return u.level != OWN or u.side != side or named(label) == (u.ref,)
    return misleads, names_alone


#: Label sets remembered (``view_labels``), by what they depend on.
LABELS_KEPT = 64
_LABELS: dict[tuple[object, ...], dict[str, str]] = {}


@functools.lru_cache(maxsize=4096)
def _fits_window(scale: int, text: str) -> bool:
    """Whether a name prints at least ``LABEL_PX`` high on the fitted window's cards."""
    return name_fits(text, scale, LABEL_PX)


def draw_picture(view: SideView, *, around: Cell | None = None, radius: int | None = None,
                 fitted: bool = False, whole_layers: bool = True) -> Picture:
    """``render_map``'s picture, with what it shows (``Picture``)."""
    gm = view.game_map
    colours = colours_for(view)
    grid = gm.grid
    window: Window | None = None
    fit = fitted_box(view) if fitted and around is None else None
    if fit is not None:
        layer, box, window = fit
    else:
        layer, box = map_box(gm, around, radius)
    lay = layer.layout
    box = widened(box, lay.width)
    near = layer.every_cell if box == layer.whole else lay.cells_in(box)
    piece = ground(layer, gm, box, whole_layers=whole_layers)
    im = piece.image
    scale = lay.scale

    if view.fog and view.seen_cells is not None:
        seen = view.seen_cells
        board = gm.board
        overlay.fog(im, piece.fogged, lay, box,
                    (c for c in near if c not in seen and board.on_a_sheet(c)))
    routes = [([c for c in r.cells if grid.contains(c)], r.note) for r in view.routes]
    if view.blocked_cells:
        overlay.blocked(im, lay, box, (c for c in view.blocked_cells if grid.contains(c)))
    own = colours.get(view.side or "", ROUTE)
    for cells, _ in routes:
        if len(cells) > 1:
            overlay.route(im, lay, box, cells, ROUTE)
    # Enemy units' ways seen, in their side's colour, under the counters like the routes.
    trails = [([c for c in t.cells if grid.contains(c)], t.side) for t in view.trails]
    for cells, whose in trails:
        if len(cells) > 1:
            overlay.route(im, lay, box, cells, colours.get(whose, (110, 110, 110)))
    lift = scale * counter_drop(grid)
    size = counter_scale(grid, scale)
    counters = [*view.units, *marker_counters(view.markers, view.side)]
    stacks = [(c, st) for c, st in by_cell(counters).items()
              if grid.contains(c) and lay.touches(c, box)]
    stacks.sort(key=lambda cs: (lay.centre(cs[0])[1], lay.centre(cs[0])[0]))
    markers = {m.name: m.marker for m in gm.ruleset.combat.morale_states if m.marker}
    labels = view_labels(view)
    # Place names go under the counters: a counter is never drawn over by a name.
    overlay.place_names(im, lay, box, gm.board)
    covered: list[tuple[float, float, float, float]] = []
    names: list[tuple[str, int]] = []
    for c, stack in stacks:
        x, y = lay.centre(c)
        covered.append(draw_stack(im, x - box[0], y - box[1] + lift, stack, colours, size,
                                  view.side, markers, labels))
        top = stack[0]
        if top.ref in labels:
            look = look_of(top, colours.get(top.side, (110, 110, 110)), size, "",
                           labels[top.ref])
            text, f = name_font(look)
            names.append((text, round(f.size)))
    notes = []
    for cells, note in routes:
        if cells and note:
            drawn = overlay.route_note(im, lay, box, cells[-1], note, ROUTE, covered)
            if drawn is not None:
                notes.append(drawn)

    width = max(im.width, MIN_WIDTH)
    enemy = next((colours[s] for s in sorted(colours) if s != view.side), (110, 110, 110))
    if view.side is None:
        own = next(iter(colours.values()), (110, 110, 110))
    terrain, roads, sides, hilly = layer_features(layer, gm, box, near)
    shown = [u for _, st in stacks for u in st]
    ghosts = tuple(sorted({u.last_seen_turn for u in shown
                           if u.level == GHOST and u.last_seen_turn is not None}))
    placed = [m for m in view.markers if grid.contains(m.cell) and lay.touches(m.cell, box)]
    key = LegendKey(width, scale, own, enemy, bool(view.fog and view.seen_cells is not None),
                    bool(view.blocked_cells), any(len(cells) > 1 for cells, _ in routes),
                    view.information in (InformationModel.INVERTED, InformationModel.CONCEALED),
                    ghosts, terrain, roads, sides, hilly, tuple(colours.items()),
                    any(view.side is None or m.side == view.side for m in placed),
                    any(view.side is not None and m.side != view.side for m in placed),
                    any(len(cells) > 1 for cells, _ in trails))
    title = title_bar(view, width, colours.get(view.side or "", (60, 60, 60)),
                      "hexes" if grid.kind == "hex" else "squares")
    if window is not None:
        title = with_window_line(title, view, window, "hexes" if grid.kind == "hex"
                                 else "squares")
    leg = legend(gm, layer, key)
    out = Image.new("RGB", (width, title.height + im.height + leg.height), PAPER)
    out.paste(title, (0, 0))
    origin = ((width - im.width) // 2, title.height)
    out.paste(im, origin)
    out.paste(leg, (0, title.height + im.height))
    return Picture(out, tuple(names), window, tuple(covered), tuple(notes), origin, key)

