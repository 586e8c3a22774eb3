"""What goes over the ground for one view: fog over the cells the side does not see, blocked cells,
a hidden-march route, and place names."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence

from PIL import Image, ImageDraw

from render.layout import Box, Layout
from render.patterns import dashed
from render.style import BLOCKED, INK, PAPER, RGB, centred_text, font, mix
from rules.ground.board import Board
from rules.ground.grid import Cell

#: The halo round a place name, in pixels.
HALO = 2


def fog(im: Image.Image, fogged: Image.Image, lay: Layout, box: Box, cells: Iterable[Cell],
        ) -> None:
    """Lay the fogged ground over ``cells``; ``im`` and ``fogged`` are the ``box`` of the
    board."""
    mask = Image.new("L", im.size, 0)
    d = ImageDraw.Draw(mask)
    x0, y0 = box[0], box[1]
    any_cell = False
    for c in cells:
        if not lay.touches(c, box):
            continue
        any_cell = True
        d.polygon([(x - x0, y - y0) for x, y in lay.polygon(c)], fill=255, outline=255)
    if any_cell:
        im.paste(fogged, (0, 0), mask)


def blocked(im: Image.Image, lay: Layout, box: Box, cells: Iterable[Cell]) -> None:
    """Outline each blocked cell in red and hatch it with red diagonals."""
    x0, y0 = box[0], box[1]
    sprite = _hatched_cell(lay)
    sw, sh = sprite.size
    d = ImageDraw.Draw(im)
    width = max(2, round(lay.scale / 16))
    for c in sorted(cells):
        if not lay.touches(c, box):
            continue
        x, y = lay.centre(c)
        im.paste(sprite, (round(x - x0 - sw / 2), round(y - y0 - sh / 2)), sprite)
        pts = [(px - x0, py - y0) for px, py in lay.polygon(c, shrink=width / 2)]
        d.line([*pts, pts[0]], fill=BLOCKED, width=width, joint="curve")


def _hatched_cell(lay: Layout) -> Image.Image:
    r = math.ceil(lay.radius()) + 2
    size = 2 * r
    mask = Image.new("L", (size, size), 0)
    md = ImageDraw.Draw(mask)
    cx, cy = lay.centre(Cell(0, 0))
    md.polygon([(x - cx + r, y - cy + r) for x, y in lay.polygon(Cell(0, 0), shrink=1)],
               fill=255)
    lines = Image.new("L", (size, size), 0)
    ld = ImageDraw.Draw(lines)
    gap = max(5, round(lay.scale / 5))
    for k in range(-size, 2 * size, gap):
        ld.line([(k, size), (k + size, 0)], fill=150, width=max(1, round(lay.scale / 24)))
    alpha = Image.new("L", (size, size), 0)
    alpha.paste(lines, (0, 0), mask)
    sprite = Image.new("RGBA", (size, size), (*BLOCKED, 0))
    sprite.putalpha(alpha)
    return sprite


def route(im: Image.Image, lay: Layout, box: Box, cells: list[Cell], colour: RGB) -> None:
    """A dashed line through the centres of the route's cells, with an arrowhead at its end."""
    if len(cells) < 2:
        return
    x0, y0 = box[0], box[1]
    pts = [(x - x0, y - y0) for x, y in (lay.centre(c) for c in cells)]
    d = ImageDraw.Draw(im)
    s = lay.scale
    w = max(2, round(s * 0.09))
    dashed(d, pts, PAPER, w + 2, s * 0.3, s * 0.16)
    dashed(d, pts, colour, w, s * 0.3, s * 0.16)
    (ax, ay), (bx, by) = pts[-2], pts[-1]
    ang = math.atan2(by - ay, bx - ax)
    head = s * 0.3
    tip = (bx, by)
    left = (bx - head * math.cos(ang - 0.45), by - head * math.sin(ang - 0.45))
    right = (bx - head * math.cos(ang + 0.45), by - head * math.sin(ang + 0.45))
    d.polygon([tip, left, right], fill=colour, outline=PAPER)


def route_note(im: Image.Image, lay: Layout, box: Box, end: Cell, note: str, colour: RGB,
               avoid: Sequence[tuple[float, float, float, float]] = ()
               ) -> tuple[int, int, int, int] | None:
    """The route's note in a box near its last cell, kept inside the picture, covering neither
    that cell nor any counter (``avoid``: the rectangles the counters cover) where any place
    round it allows; else where it covers least. Returns the note's rectangle."""
    if not note:
        return None
    x0, y0 = box[0], box[1]
    x, y = lay.centre(end)
    x, y = x - x0, y - y0
    f = font(max(9, round(lay.scale * 0.3)), True)
    d = ImageDraw.Draw(im)
    left, top, right, bottom = d.textbbox((0, 0), note, font=f)
    tw, th = right - left + 8, bottom - top + 6
    r = lay.radius()
    keep = [(x - r, y - r, x + r, y + r), *avoid]
    best: tuple[float, int, int] | None = None
    for bx, by in _note_places(x, y, tw, th, lay.scale):
        px = int(min(max(2, round(bx)), im.width - tw - 2))
        py = int(min(max(2, round(by)), im.height - th - 2))
        covers = float(sum(_overlap((px, py, px + tw, py + th), k) for k in keep))
        if best is None or covers < best[0]:
            best = (covers, px, py)
        if covers == 0:
            break
    assert best is not None
    _, bx, by = best
    d.rectangle([bx, by, bx + tw, by + th], fill=mix(colour, PAPER, 0.85), outline=colour,
                width=2)
    d.text((bx + 4 - left, by + 3 - top), note, font=f, fill=INK)
    return (bx, by, bx + round(tw), by + round(th))


def _note_places(x: float, y: float, tw: float, th: float, scale: int
                 ) -> list[tuple[float, float]]:
    """Where a note may go round a cell's centre, nearest first: below, above, right, left,
    then the same a cell and more further out."""
    out: list[tuple[float, float]] = []
    for k in (0.6, 1.1, 1.6, 2.2, 3.0):
        d = scale * k
        out += [(x - tw / 2, y + d), (x - tw / 2, y - d - th), (x + d, y - th / 2),
                (x - d - tw, y - th / 2), (x + d, y + d), (x - d - tw, y + d),
                (x + d, y - d - th), (x - d - tw, y - d - th)]
    return out


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]
             ) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def place_names(im: Image.Image, lay: Layout, box: Box, board: Board) -> None:
    """Each named place's name, at the foot of its cell, readable on any ground."""
    x0, y0 = box[0], box[1]
    size = max(8, round(lay.scale * 0.27))
    for p in board.places:
        if not board.on_a_sheet(p.cell) or not lay.touches(p.cell, box):
            continue
        x, y = lay.centre(p.cell)
        stamp, left, top = _name_stamp(p.name, size)
        im.paste(stamp, (round(x - x0) + left, round(y - y0 + lay.scale * 0.52) + top), stamp)


@functools.lru_cache(maxsize=1024)
def _name_stamp(name: str, size: int) -> tuple[Image.Image, int, int]:
    """A place name drawn once, haloed, on a clear ground: where its top left corner sits
    from the point the name is centred on. (Every picture of a map carries the same names;
    drawing text is the costliest part of a picture after encoding it.)"""
    f = font(size, True)
    left, top, right, bottom = (int(v) for v in f.getbbox(name, anchor="mm",
                                                         stroke_width=HALO))
    stamp = Image.new("RGBA", (right - left, bottom - top), (*PAPER, 0))
    centred_text(ImageDraw.Draw(stamp), -left, -top, name, f, INK, PAPER, HALO)
    return stamp, left, top
