"""Colours, fonts and small drawing helpers shared by the render modules.

Fonts are the DejaVu Sans Condensed files shipped in ``render/fonts`` (Bitstream Vera licence),
laid out with Pillow's basic engine, so that every machine draws the same pixels.
"""

from __future__ import annotations

import threading
import zlib
from pathlib import Path

from PIL import ImageDraw, ImageFont

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

FONTS = Path(__file__).resolve().parent / "fonts"

INK: RGB = (30, 30, 30)
PAPER: RGB = (250, 248, 240)
OFF_BOARD: RGB = (200, 200, 196)
MARGIN: RGB = (236, 234, 226)
FOG: RGB = (176, 180, 188)
BLOCKED: RGB = (200, 40, 30)
ROUTE: RGB = (170, 20, 120)
CONTOUR: RGB = (120, 80, 40)
SHEET_EDGE: RGB = (60, 50, 60)

#: Side colours when the caller gives none: well-known side ids first, then a fixed palette.
KNOWN_SIDES: dict[str, str] = {
    "union": "#2f5597", "federal": "#2f5597", "north": "#2f5597", "usa": "#2f5597",
    "blue": "#2f5597", "confederate": "#7a7f87", "csa": "#7a7f87", "south": "#7a7f87",
    "rebel": "#7a7f87", "grey": "#7a7f87", "gray": "#7a7f87", "red": "#b03030",
}
PALETTE: tuple[str, ...] = ("#2f5597", "#b03030", "#7a7f87", "#2e7d32", "#8e24aa", "#ef6c00")


def rgb(colour: str) -> RGB:
    """``#rrggbb`` (or ``#rgb``) as an RGB triple; anything else is mid grey."""
    c = colour.strip().lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    try:
        return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16))
    except (ValueError, IndexError):
        return (128, 128, 128)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` of the way to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def lightness(c: RGB) -> float:
    """Perceived lightness 0..255 (the ITU-R 601 luma Pillow uses for greyscale)."""
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def on(c: RGB) -> RGB:
    """Ink that reads on a background of colour ``c``."""
    return INK if lightness(c) > 145 else PAPER


def side_colour(side: str, own: str | None, given: dict[str, str] | None) -> RGB:
    """A side's colour: the caller's, else a well-known one, else one fixed by the side's id
    (never by which other sides happen to be in the picture)."""
    if given and side in given:
        return rgb(given[side])
    if side.lower() in KNOWN_SIDES:
        return rgb(KNOWN_SIDES[side.lower()])
    if not side:
        return (110, 110, 110)
    if own is not None and side == own:
        return rgb(PALETTE[0])
    return rgb(PALETTE[1 + zlib.crc32(side.encode()) % (len(PALETTE) - 1)])


_FONTS = threading.local()


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans Condensed at ``size`` pixels; one set of font objects a thread, since a
    FreeType face must not be used by two threads at once."""
    cache: dict[tuple[int, bool], ImageFont.FreeTypeFont] | None = getattr(_FONTS, "cache", None)
    if cache is None:
        cache = _FONTS.cache = {}
    key = (max(6, size), bold)
    f = cache.get(key)
    if f is None:
        name = "DejaVuSansCondensed-Bold.ttf" if bold else "DejaVuSansCondensed.ttf"
        f = ImageFont.truetype(str(FONTS / name), key[0], layout_engine=ImageFont.Layout.BASIC)
        cache[key] = f
    return f


def text_width(text: str, f: ImageFont.FreeTypeFont) -> float:
    return f.getlength(text)


def fit_font(text: str, width: float, size: int, bold: bool = True, smallest: int = 7
             ) -> tuple[str, ImageFont.FreeTypeFont]:
    """The largest font from ``size`` down to ``smallest`` in which ``text`` fits ``width``
    (trying the regular weight at the smallest size too); the text is cut short, ending in an
    ellipsis, when even that does not fit."""
    for s in range(size, smallest - 1, -1):
        f = font(s, bold)
        if f.getlength(text) <= width:
            return text, f
    f = font(smallest, False)
    if f.getlength(text) <= width:
        return text, f
    while len(text) > 1 and f.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…", f


def centred_text(draw: ImageDraw.ImageDraw, x: float, y: float, text: str,
                 f: ImageFont.FreeTypeFont, fill: RGB | RGBA, halo: RGB | RGBA | None = None,
                 halo_width: int = 1) -> None:
    """Text centred on (x, y), with an optional halo so that it reads on any ground."""
    if not text:
        return
    if halo is not None:
        draw.text((round(x), round(y)), text, font=f, fill=fill, anchor="mm",
                  stroke_width=halo_width, stroke_fill=halo)
    else:
        draw.text((round(x), round(y)), text, font=f, fill=fill, anchor="mm")
