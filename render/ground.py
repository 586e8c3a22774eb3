"""The ground a picture is cut from: pieces of terrain layers, drawn when first asked for and
kept, with their fogged twins, in one cache for the whole process bounded by bytes.

A picture is first drawn from a piece of the board of its own size, not cut from the whole board
drawn at the picture's scale: a four-sheet board drawn whole at a window's scale takes half a
second, its piece a few dozen milliseconds, so the first map after a restart, or of a board
nobody has looked at yet, is as quick as any other. Once a layer has been asked for a second
box, the whole layer is drawn in a worker thread of its own (when it fits in a third of the
bytes kept), and later pictures are cut from it, which is quicker still.

A piece is the very pixels of the whole layer in its box (``TerrainLayer.drawn``), so whether a
picture was cut from a piece or from the whole, and whatever was drawn before it, for whom, its
bytes are the same: a side never tells from its map that the enemy looked at the same ground
first (DESIGN.md, "Timing tells nothing").
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor, wait
from functools import cached_property

from PIL import Image, ImageDraw

from render.layout import Box
from render.style import FOG, mix
from render.terrain import TerrainLayer, forget_layers
from rules.ground.gamemap import GameMap

#: Bytes of pieces kept (each counted with its fogged twin): some forty windows of a big board.
KEPT_BYTES = 96 * 2**20
#: Fogged ground is hatched with a diagonal line every this many pixels.
HATCH = 7


class Ground:
    """A piece of a layer: ``image`` is the ``box`` of the board, ``fogged`` the same ground as
    a side sees the ground it cannot see. Cut ``from_whole``, it is a view of the whole layer's
    piece, and takes no bytes of its own."""

    def __init__(self, image: Image.Image, box: Box, from_whole: Ground | None = None) -> None:
        self.image = image
        self.box = box
        self.from_whole = from_whole

    @property
    def size_bytes(self) -> int:
        """What the piece and its fogged twin take in memory (Pillow keeps 4 bytes a pixel)."""
        return 2 * 4 * self.image.width * self.image.height

    @cached_property
    def fogged(self) -> Image.Image:
        """The piece washed out and finely hatched; the hatching runs on from piece to piece as
        over the whole board."""
        if self.from_whole is not None:
            return self.from_whole.fogged.crop(self.box)
        w, h = self.image.size
        fog = Image.new("RGB", (w, h), FOG)
        d = ImageDraw.Draw(fog)
        ink = mix(FOG, (60, 60, 70), 0.35)
        # Hatched where x + y, counted from the board's corner, is a multiple of HATCH.
        phase = -(self.box[0] + self.box[1]) % HATCH
        for k in range(phase - h, w, HATCH):
            d.line([(k, h), (k + h, 0)], fill=ink, width=1)
        return Image.blend(self.image, fog, 0.55)


Key = tuple[tuple[str, int, bool], Box]
_KEPT: OrderedDict[Key, Ground] = OrderedDict()
_BYTES = 0
_LOCK = threading.Lock()
#: The pieces being drawn, each with the lock its drawer holds: many games of one scenario
#: start at once, and their first pictures often share a box.
_DRAWING: dict[Key, threading.Lock] = {}


#: The layers drawn whole in the background, or being drawn: each at most once a process
#: (until ``clear_cache``), however many pictures ask for it.
_WHOLE_ASKED: set[tuple[str, int, bool]] = set()
#: The boxes of each layer drawn as pieces: a layer asked for a second box is drawn whole.
_BOXES_DRAWN: dict[tuple[str, int, bool], set[Box]] = {}
#: Draws whole layers, one at a time, beside the pictures being drawn.
_BACKGROUND = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vedette-ground")
_PENDING: list[Future[Ground]] = []


def ground(layer: TerrainLayer, gm: GameMap, box: Box) -> Ground:
    """The piece ``box`` of ``layer`` (of the map ``gm``): cut from the whole layer if it has
    been drawn, else drawn once and kept."""
    key = (layer.key, box)
    with _LOCK:
        whole = _KEPT.get((layer.key, layer.whole))
        if whole is not None and box != layer.whole:
            _KEPT.move_to_end((layer.key, layer.whole))
            return Ground(whole.image.crop(box), box, whole)
        hit = _kept(key)
        if hit is not None:
            return hit
        drawing = _DRAWING.setdefault(key, threading.Lock())
    with drawing:
        with _LOCK:
            hit = _kept(key)
            if hit is not None:
                return hit
        piece = Ground(layer.drawn(gm, box), box)
        with _LOCK:
            _keep(key, piece)
            _DRAWING.pop(key, None)
            if layer.key not in _WHOLE_ASKED and _fits(layer):
                boxes = _BOXES_DRAWN.setdefault(layer.key, set())
                boxes.add(box)
                if len(boxes) >= 2:
                    _WHOLE_ASKED.add(layer.key)
                    del _BOXES_DRAWN[layer.key]
                    _PENDING.append(_BACKGROUND.submit(ground, layer, gm, layer.whole))
    return piece


def _fits(layer: TerrainLayer) -> bool:
    """Whether the whole layer, with its fogged twin, takes at most a third of the bytes kept."""
    w, h = layer.layout.size
    return 2 * 4 * w * h <= KEPT_BYTES // 3


def settle() -> None:
    """Wait until the whole layers being drawn in the background are drawn (for benchmarks and
    tests; a picture never waits for them)."""
    while True:
        with _LOCK:
            pending = list(_PENDING)
            _PENDING.clear()
        if not pending:
            return
        wait(pending)


def _kept(key: Key) -> Ground | None:
    """The piece kept under ``key``, now the most recently used (under ``_LOCK``)."""
    hit = _KEPT.get(key)
    if hit is not None:
        _KEPT.move_to_end(key)
    return hit


def _keep(key: Key, piece: Ground) -> None:
    """Keep ``piece``, forgetting the least recently used while over ``KEPT_BYTES`` (under
    ``_LOCK``). A piece larger than the whole budget is kept alone."""
    global _BYTES
    _KEPT[key] = piece
    _BYTES += piece.size_bytes
    while _BYTES > KEPT_BYTES and len(_KEPT) > 1:
        _, old = _KEPT.popitem(last=False)
        _BYTES -= old.size_bytes


def kept_bytes() -> int:
    """The bytes the kept pieces take (``KEPT_BYTES`` at most, but for one larger piece)."""
    with _LOCK:
        return _BYTES


def clear_cache() -> None:
    """Forget every kept layer and piece (the next picture of each map is drawn cold)."""
    global _BYTES
    settle()
    forget_layers()
    with _LOCK:
        _KEPT.clear()
        _BYTES = 0
        _WHOLE_ASKED.clear()
        _BOXES_DRAWN.clear()
