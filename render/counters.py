"""Counters: military unit symbols on small cards, stacked per cell.

A counter is a light card with a border in the side's colour. On it, a rectangle frame in the side's
colour carries the arm: infantry the X, cavalry one diagonal, artillery a dot, wagons a bar; an HQ
shows a flag on a staff and a leader a star instead. The short name is printed above the symbol
and the strength below, when the view knows them. A unit deployed (line, unlimbered, dismounted) has
a broad card, one in a road formation (column, limbered) a tall one.

An enemy known only as a marker is a blank card in its side's colour with a question mark; an
anonymous one shows its arm and formation with a question mark for its name and no strength; a
ghost is its last sighting, faded, with the turn it was last seen (``T3``). A marker on the map
(a map object of its own) is a card in its side's colour with its id; its owner's card also says
what is under it (the force's short name, or that it is a decoy). The enemy's card is the same
whatever is under it.
"""

from __future__ import annotations

import functools
import math
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

from PIL import Image, ImageDraw
from PIL.ImageFont import FreeTypeFont

from render.style import INK, PAPER, RGB, centred_text, fit_font, font, mix, on
from rules.forces.labels import abbreviate as abbreviate  # re-exported
from rules.forces.labels import counter_label
from rules.ground.grid import Cell
from rules.view import ANONYMOUS, GHOST, MARKER, OWN, MarkerView, UnitView

#: The ground of a morale marker on a counter.
MORALE_RED: RGB = (170, 30, 30)

BROAD = frozenset({"line", "unlimbered", "dismounted"})
TALL = frozenset({"column", "limbered"})
GHOST_ALPHA = 0.8
#: Counters drawn in a stack before the rest are only counted.
STACK_SHOWN = 3
#: The smallest print of a counter's name (on the whole board; windows print larger).
NAME_SMALLEST = 6

_KIND_ORDER = {"infantry": 0, "cavalry": 1, "artillery": 2, "hq": 3, "leader": 4, "wagon": 5}
_LEVEL_ORDER = {OWN: 0, "identified": 0, ANONYMOUS: 0, MARKER: 1, GHOST: 2}


@dataclass(frozen=True)
class Look:
    """Everything a counter's picture depends on (and so the key of the sprite cache)."""

    level: str
    kind: str
    short: str
    strength: int | None
    formation: str
    last_seen: int | None
    colour: RGB
    scale: int
    morale_marker: str = ""
    #: What is under one of the viewer's own markers (a force's short name, or ``decoy``).
    under: str = ""
    #: One of the viewer's own counters that the enemy sees (turned face up: ruling CV-38).
    face_up: bool = False


def look_of(u: UnitView, colour: RGB, scale: int, morale_marker: str = "",
            label: str | None = None) -> Look:
    """How counter ``u`` looks; ``label``, when given, is its name on the map
    (``render.labels``), else its usual short name."""
    if u.level == MARKER:
        # A blank marker, or a marker object with its id (and, for its owner, what is under it).
        return Look(MARKER, u.kind, u.short, u.strength, "", None, colour, scale,
                    under=u.name if u.kind == OWN_MARKER else "")
    if u.level == ANONYMOUS or (u.level == GHOST and not u.name and not u.short):
        # Its kind and formation show, its identity does not: a question mark for the name.
        return Look(u.level, u.kind, "?", None, u.formation,
                    u.last_seen_turn if u.level == GHOST else None, colour, scale)
    short = short_name(u) if label is None else label
    return Look(u.level, u.kind, short, u.strength, u.formation,
                u.last_seen_turn if u.level == GHOST else None, colour, scale,
                "" if u.level == GHOST else morale_marker, face_up=u.face_up)


def short_name(u: UnitView) -> str:
    """A counter's usual label: the view's short name, or one made from its full name when the
    short one is only the name cut off."""
    return counter_label(u.name, u.short)


def name_font(look: Look) -> tuple[str, FreeTypeFont]:
    """The name on a counter and the font it is printed in: as large as fits the card, down to
    ``NAME_SMALLEST`` pixels (never cut short, so that labels stay distinct on a map)."""
    return _name_font(look.short, look.scale, look.formation)


@functools.lru_cache(maxsize=4096)
def _name_font(short: str, scale: int, formation: str) -> tuple[str, FreeTypeFont]:
    """``name_font``, worked out once per name and card (a map prints the same names on every
    picture, and measuring text is slow)."""
    w, _ = card_size(scale, formation)
    room = w - 2 * border_of(scale) - 1
    for size in range(max(7, round(scale * 0.24)), NAME_SMALLEST - 1, -1):
        for bold in (True, False):  # the regular weight is a little narrower
            f = font(size, bold)
            if f.getlength(short) <= room:
                return short, f
    return fit_font(short, room, NAME_SMALLEST, smallest=NAME_SMALLEST)


def border_of(scale: int) -> int:
    return max(1, round(scale / 22))


def label_room(scale: int) -> int:
    """The width a name has on the narrowest card at ``scale``."""
    return min(card_size(scale, f)[0] for f in ("", *BROAD, *TALL)) - 2 * border_of(scale) - 1


def name_fits(text: str, scale: int, px: int) -> bool:
    """Whether ``text`` fits every card at ``scale`` printed ``px`` pixels high (in bold, or
    else regular)."""
    room = label_room(scale)
    return font(px, True).getlength(text) <= room or font(px).getlength(text) <= room


def card_size(scale: int, formation: str) -> tuple[int, int]:
    u = scale * 0.72
    if formation in BROAD:
        return round(u * 1.16), round(u * 0.84)
    if formation in TALL:  # as wide as a plain card, so that its name has the same room
        return round(u), round(u * 1.16)
    return round(u), round(u)


class Sprites:
    """A bounded cache of counter pictures (RGBA) by their look."""

    def __init__(self, keep: int = 4096) -> None:
        self._cache: OrderedDict[tuple[str | None, Look], Image.Image] = OrderedDict()
        self._keep = keep
        self._lock = threading.Lock()

    def get(self, owner: str | None, look: Look) -> Image.Image:
        # The viewing side is part of the key so that no side's picture is ever made faster by
        # another side's (or the umpire's) drawing of a counter it cannot see.
        key = (owner, look)
        with self._lock:
            im = self._cache.get(key)
            if im is not None:
                self._cache.move_to_end(key)
                return im
        im = draw_counter(look)
        with self._lock:
            self._cache[key] = im
            while len(self._cache) > self._keep:
                self._cache.popitem(last=False)
        return im


SPRITES = Sprites()
SHADOW = 2


def draw_counter(look: Look) -> Image.Image:
    """One counter on a transparent ground, ``SHADOW`` pixels of shadow to the lower right."""
    w, h = card_size(look.scale, look.formation)
    im = Image.new("RGBA", (w + SHADOW + 1, h + SHADOW + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rectangle([SHADOW, SHADOW, w - 1 + SHADOW, h - 1 + SHADOW], fill=(0, 0, 0, 90))
    colour = look.colour
    border = border_of(look.scale)
    if look.level == MARKER:
        d.rectangle([0, 0, w - 1, h - 1], fill=colour, outline=mix(colour, INK, 0.5), width=1)
        d.rectangle([3, 3, w - 4, h - 4], outline=mix(colour, PAPER, 0.35), width=1)
        if not look.short:
            centred_text(d, w / 2, h / 2, "?", font(round(h * 0.55), True), on(colour))
            return im
        size = max(7, round(look.scale * 0.24))
        text, f = fit_font(look.short, w - 6, size)
        centred_text(d, w / 2, h * 0.34, text, f, on(colour))
        if look.kind == OWN_MARKER:  # what is under it, for its owner only
            under = look.under or ("decoy" if not look.strength else f"{look.strength} under")
            text, f = fit_font(under, w - 6, max(6, round(size * 0.85)))
            centred_text(d, w / 2, h * 0.72, text, f, on(colour))
        return im
    ink = INK
    if look.level == GHOST:  # a faded picture: paler colours, grey print, see-through
        colour = mix(colour, PAPER, 0.45)
        ink = (100, 100, 100)
    body = mix(colour, PAPER, 0.82)
    d.rectangle([0, 0, w - 1, h - 1], fill=body, outline=colour, width=border)
    inner = w - 2 * border - 1
    # symbol
    fw, fh = round(w * 0.56), round(h * 0.3)
    if look.formation in TALL:
        fw = round(w * 0.66)
    fx0, fy0 = round((w - fw) / 2), round(h * 0.36)
    _symbol(d, look.kind, (fx0, fy0, fx0 + fw, fy0 + fh), colour, border)
    # name above, strength (or last sighting) below
    size = max(7, round(look.scale * 0.24))
    if look.short:
        text, f = name_font(look)
        centred_text(d, w / 2, h * 0.2, text, f, ink)
    below = "" if look.strength is None else str(look.strength)
    if look.kind in ("leader", "hq") and not look.strength:
        below = ""  # a commander's counter carries no strength
    if look.level == GHOST and look.last_seen is not None:
        below = f"{below} T{look.last_seen}".strip()
    if below:
        text, f = fit_font(below, inner, size)
        centred_text(d, w / 2, h * 0.82, text, f, ink)
    if look.morale_marker:  # the ruleset's morale marker (Sh, Dg...) on the counter's corner
        mf = font(max(7, round(look.scale * 0.2)), True)
        tw = d.textlength(look.morale_marker, font=mf)
        th = max(8, round(look.scale * 0.24))
        d.rectangle([w - tw - 4, 0, w - 1, th], fill=MORALE_RED)
        d.text((w - tw - 2, 0), look.morale_marker, font=mf, fill=PAPER)
    if look.face_up:  # an open eye on the top left corner: the enemy sees this counter
        r = max(3, round(look.scale * 0.08))
        cx, cy = border + r + 1, border + r + 1
        d.ellipse([cx - r, cy - r * 0.6, cx + r, cy + r * 0.6], fill=PAPER, outline=INK)
        d.ellipse([cx - r * 0.4, cy - r * 0.4, cx + r * 0.4, cy + r * 0.4], fill=INK)
    if look.level == GHOST:
        _dash_border(d, w, h, colour)
        alpha = im.getchannel("A").point(lambda v: round(v * GHOST_ALPHA))
        im.putalpha(alpha)
    return im


def _symbol(d: ImageDraw.ImageDraw, kind: str, box: tuple[int, int, int, int], colour: RGB,
            width: int) -> None:
    x0, y0, x1, y1 = box
    if kind == "leader":
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        r = (y1 - y0) * 0.85
        pts = []
        for k in range(10):
            a = math.radians(-90 + 36 * k)
            rr = r if k % 2 == 0 else r * 0.42
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a) + r * 0.1))
        d.polygon(pts, fill=colour)
        return
    if kind == "hq":
        sx = x0 + (x1 - x0) * 0.25
        top = y0 - (y1 - y0) * 0.35
        bottom = y1 + (y1 - y0) * 0.35
        d.line([(sx, top), (sx, bottom)], fill=colour, width=width)
        d.rectangle([sx, top, x1, top + (bottom - top) * 0.55], fill=colour)
        return
    d.rectangle([x0, y0, x1, y1], outline=colour, width=width)
    if kind == "infantry":
        d.line([(x0, y0), (x1, y1)], fill=colour, width=width)
        d.line([(x0, y1), (x1, y0)], fill=colour, width=width)
    elif kind == "cavalry":
        d.line([(x0, y1), (x1, y0)], fill=colour, width=width)
    elif kind == "artillery":
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        r = max(1.5, (y1 - y0) * 0.22)
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=colour)
    elif kind == "wagon":
        yy = y0 + (y1 - y0) * 0.66
        d.line([(x0, yy), (x1, yy)], fill=colour, width=width)


def _dash_border(d: ImageDraw.ImageDraw, w: int, h: int, colour: RGB) -> None:
    d.rectangle([0, 0, w - 1, h - 1], outline=PAPER, width=2)
    step = 4
    for x in range(0, w, step * 2):
        d.line([(x, 0), (min(w - 1, x + step - 1), 0)], fill=colour, width=2)
        d.line([(x, h - 1), (min(w - 1, x + step - 1), h - 1)], fill=colour, width=2)
    for y in range(0, h, step * 2):
        d.line([(0, y), (0, min(h - 1, y + step - 1))], fill=colour, width=2)
        d.line([(w - 1, y), (w - 1, min(h - 1, y + step - 1))], fill=colour, width=2)


def stack_order(units: Iterable[UnitView]) -> list[UnitView]:
    """A cell's counters, the one shown on top first."""
    return sorted(units, key=lambda u: (
        _LEVEL_ORDER.get(u.level, 3), _KIND_ORDER.get(u.kind, 6), -(u.strength or 0),
        u.side, u.ref,
    ))


#: The kind a marker object's counter carries in its owner's picture.
OWN_MARKER = "own marker"


def marker_counters(markers: Iterable[MarkerView], viewer: str | None = None
                    ) -> list[UnitView]:
    """Markers as counters to stack with the units: the marker's id on a card in its side's
    colour; the owner's card also says what is under it (the force's short name, or a decoy).
    An enemy marker's card shows nothing more than its public face (the same for a decoy and
    a division): only a marker of the ``viewer``'s side (any, for the umpire's ``None``) is
    drawn with its contents, whatever the view holds."""
    out = []
    for m in markers:
        contents = m.contents if viewer is None or m.side == viewer else None
        out.append(UnitView(ref=f"marker:{m.id}", side=m.side, level=MARKER, cell=m.cell,
                            short=m.id, kind=OWN_MARKER if contents is not None else "",
                            name=under_label(contents) if contents is not None else "",
                            strength=len(contents) if contents is not None else None))
    return out


def under_label(contents: tuple[UnitView, ...]) -> str:
    """What the owner's marker card says is under it: ``decoy``, or the short name of the
    force's commander (a division's leader, or a lone brigade itself)."""
    if not contents:
        return "decoy"
    head = next((u for u in contents if u.kind == "leader"), contents[0])
    return counter_label(head.name, head.short)  # a rank ("Brig. Gen.") is no name


def by_cell(units: Iterable[UnitView]) -> dict[Cell, list[UnitView]]:
    out: dict[Cell, list[UnitView]] = {}
    for u in units:
        out.setdefault(u.cell, []).append(u)
    return {c: stack_order(us) for c, us in out.items()}


def draw_stack(im: Image.Image, x: float, y: float, stack: list[UnitView], colours: dict[str, RGB],
               scale: int, owner: str | None,
               morale_markers: dict[str, str] | None = None,
               labels: dict[str, str] | None = None) -> tuple[float, float, float, float]:
    """Draw a cell's counters centred on (x, y): up to ``STACK_SHOWN`` cards offset up and to
    the left, the top one in full, and a badge with the count when there are more than one.
    Returns the rectangle the stack covers."""
    shown = stack[:STACK_SHOWN]
    step = max(2, round(scale * 0.07))
    n = len(shown)
    d = ImageDraw.Draw(im)
    top_box: tuple[float, float, float, float] = (x, y, x, y)
    covered: tuple[float, float, float, float] | None = None
    for j, u in enumerate(reversed(shown)):  # bottom first
        off = (j - (n - 1) / 2) * step
        marker = (morale_markers or {}).get(u.morale, "")
        sprite = SPRITES.get(owner, look_of(u, colours.get(u.side, (110, 110, 110)), scale,
                                            marker, (labels or {}).get(u.ref)))
        w, h = sprite.size[0] - SHADOW - 1, sprite.size[1] - SHADOW - 1
        left, top = round(x - w / 2 - off), round(y - h / 2 - off)
        im.paste(sprite, (left, top), sprite)
        top_box = (left, top, left + w, top + h)
        covered = top_box if covered is None else (
            min(covered[0], left), min(covered[1], top), max(covered[2], left + w + SHADOW),
            max(covered[3], top + h + SHADOW))
    if len(stack) > 1:
        r = max(5, round(scale * 0.15))
        cx, cy = top_box[2] - 1, top_box[1] + 1
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=INK, outline=PAPER)
        centred_text(d, cx, cy, str(len(stack)), font(max(7, round(r * 1.3)), True), PAPER)
        covered = (covered or top_box)[0], min((covered or top_box)[1], cy - r), \
            max((covered or top_box)[2], cx + r), (covered or top_box)[3]
    return covered or top_box
