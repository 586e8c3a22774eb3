"""The ground a picture is cut from: the whole terrain layer when it has been drawn, else a piece
of it the size of the picture, drawn for that picture alone.

A board's whole layers (one for each scale a picture is drawn at) are drawn in a worker thread of
their own, beginning shortly after the board's first picture in this process, in a fixed order
(the phase maps' scale first), and kept compressed in tiles (``TiledImage``): some 2 MB for a
layer that takes 20 in Pillow, and a window decompresses only the tiles it shows. As many are
kept as ``KEPT_BYTES`` holds; a board too big for it is drawn in pieces at the scales left over.
Until its layer is drawn, a picture draws its own piece: a four-sheet board drawn whole at a
window's scale takes half a second, its piece a tenth of that, so the first map after a restart,
or of a board nobody has looked at yet, is as quick as any other.

Timing tells nothing (DESIGN.md). A piece is the very pixels of the whole layer in its box
(``TerrainLayer.drawn``), so a picture's bytes never depend on where it was cut from. And how soon
it comes depends only on when its board was first drawn and on the fixed order its layers are
drawn in, never on who asked for which part of the board: a piece is never kept nor shared, so a
side cannot tell from a quick answer that the enemy (or anyone) looked at the same ground first.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import zlib
from concurrent.futures import Future, wait
from functools import cached_property

from PIL import Image, ImageDraw

from render.fit import FIT_SCALE
from render.layout import BOARD_SCALE, WINDOW_SCALES, Box
from render.style import FOG, mix
from render.terrain import TerrainLayer, fingerprint, forget_layers, terrain_layer
from rules.ground.gamemap import GameMap

log = logging.getLogger(__name__)

#: Bytes of whole layers kept, as counted before they are drawn (``TiledImage.estimate``): the
#: five layers of some six four-sheet boards.
KEPT_BYTES = 64 * 2**20
#: The scales a board's whole layers are drawn at, first to last: the phase maps' fitted
#: window, the close-ups', the default window's, the whole board's, and a wide window's.
ORDER: tuple[tuple[int, bool], ...] = (
    (FIT_SCALE, True), (WINDOW_SCALES[0], True), (WINDOW_SCALES[1], True),
    (BOARD_SCALE, False), (WINDOW_SCALES[2], True))
#: How long after a board's first picture its whole layers begin to be drawn, in seconds: that
#: picture, and the others of the same moment, are not slowed by them.
DELAY_S = 0.5
#: Fogged ground is hatched with a diagonal line every this many pixels.
HATCH = 7


class Ground:
    """A piece of a layer: ``image`` is the ``box`` of the board, ``fogged`` the same ground as
    a side sees the ground it cannot see."""

    def __init__(self, image: Image.Image, box: Box) -> None:
        self.image = image
        self.box = box

    @cached_property
    def fogged(self) -> Image.Image:
        """The piece washed out and finely hatched; the hatching runs on from piece to piece as
        over the whole board."""
        w, h = self.image.size
        fog = Image.new("RGB", (w, h), FOG)
        d = ImageDraw.Draw(fog)
        ink = mix(FOG, (60, 60, 70), 0.35)
        # Hatched where x + y, counted from the board's corner, is a multiple of HATCH.
        phase = -(self.box[0] + self.box[1]) % HATCH
        for k in range(phase - h, w, HATCH):
            d.line([(k, h), (k + h, 0)], fill=ink, width=1)
        return Image.blend(self.image, fog, 0.55)


class TiledImage:
    """An RGB picture kept as square tiles, each compressed alone, so that cutting a box out
    of it decompresses only the tiles the box overlaps."""

    TILE = 256
    #: A layer is drawn this many tiles square at a time (``drawn``).
    BLOCK = 4

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.tiles: dict[tuple[int, int], bytes] = {}

    @classmethod
    def of(cls, image: Image.Image) -> TiledImage:
        """``image``, tiled."""
        tiled = cls(image.size)
        tiled.put(image, (0, 0))
        return tiled

    @classmethod
    def drawn(cls, layer: TerrainLayer, gm: GameMap) -> TiledImage:
        """The whole of ``layer``, drawn ``BLOCK`` x ``BLOCK`` tiles at a time: its pieces are
        its very pixels (``TerrainLayer.drawn``), and a block takes a few MB to draw where the
        whole of a big board at a window's scale would take a hundred."""
        tiled = cls(layer.layout.size)
        w, h = tiled.size
        step = cls.TILE * cls.BLOCK
        for y in range(0, h, step):
            for x in range(0, w, step):
                box = (x, y, min(w, x + step), min(h, y + step))
                tiled.put(layer.drawn(gm, box), (x, y))
        return tiled

    def put(self, image: Image.Image, at: tuple[int, int]) -> None:
        """Keep ``image``, whose top left corner is at ``at`` on a tile's corner, as tiles."""
        t = self.TILE
        w, h = self.size
        x0, y0 = at
        for y in range(y0, min(h, y0 + image.height), t):
            for x in range(x0, min(w, x0 + image.width), t):
                box = (x - x0, y - y0, min(w, x + t) - x0, min(h, y + t) - y0)
                self.tiles[(x, y)] = zlib.compress(image.crop(box).tobytes(), 1)

    @staticmethod
    def estimate(size: tuple[int, int]) -> int:
        """The bytes a picture of ``size`` is counted for before it is drawn: an eighth of its
        raw pixels, about what a terrain layer compresses to."""
        return size[0] * size[1] * 3 // 8

    @property
    def size_bytes(self) -> int:
        return sum(len(b) for b in self.tiles.values())

    def crop(self, box: Box) -> Image.Image:
        """The pixels of ``box``, exactly as cut from the picture."""
        t = self.TILE
        w, h = self.size
        x0, y0, x1, y1 = box
        out = Image.new("RGB", (x1 - x0, y1 - y0))
        for ty in range(y0 - y0 % t, y1, t):
            for tx in range(x0 - x0 % t, x1, t):
                size = (min(w, tx + t) - tx, min(h, ty + t) - ty)
                tile = Image.frombytes("RGB", size, zlib.decompress(self.tiles[(tx, ty)]))
                out.paste(tile, (tx - x0, ty - y0))
        return out


LayerKey = tuple[str, int, bool]
_LOCK = threading.Lock()
#: The whole layers drawn, and those being drawn or to be drawn.
_WHOLE: dict[LayerKey, TiledImage] = {}
_JOBS: dict[LayerKey, Future[TiledImage]] = {}
_BOARDS: set[str] = set()
_SET_ASIDE = 0
#: The boards whose whole layers are to be drawn, each with when to begin; one worker thread
#: draws them, one layer at a time. It is a daemon: a process that stops leaves it unfinished.
_QUEUE: queue.Queue[tuple[float, GameMap]] = queue.Queue()
_WORKER: list[threading.Thread] = []


def ground(layer: TerrainLayer, gm: GameMap, box: Box, *, whole_layers: bool = True) -> Ground:
    """The piece ``box`` of ``layer`` (of the map ``gm``): cut from the whole layer if it has
    been drawn, else drawn for this picture alone. ``whole_layers=False``: drawn for this
    picture alone, and no whole layer is asked for (the bot's own process draws so while its
    map workers, which keep the whole layers, are starting)."""
    if not whole_layers:
        return Ground(layer.drawn(gm, box), box)
    prepare(gm)
    with _LOCK:
        whole = _WHOLE.get(layer.key)
        job = _JOBS.get(layer.key)
    if whole is None and job is not None and box == layer.whole:
        # The whole board itself: drawn once, by whichever of this picture and the worker
        # begins first.
        if job.cancel():
            whole = _drawn_whole(layer, gm)
        elif job.exception() is None:  # waits for the worker; if it failed, drawn below
            whole = job.result()
    if whole is None:
        return Ground(layer.drawn(gm, box), box)
    return Ground(whole.crop(box), box)


def prepare(gm: GameMap) -> None:
    """Have ``gm``'s whole layers drawn, beginning ``DELAY_S`` from now, unless they have been
    asked for already: at a board's first picture, or when the bot gets a game in play ready
    after a start."""
    board = fingerprint(gm)
    with _LOCK:
        if board in _BOARDS:
            return
        _BOARDS.add(board)
        _QUEUE.put((time.monotonic() + DELAY_S, gm))
        if not _WORKER:
            _WORKER.append(threading.Thread(target=_work, name="vedette-ground", daemon=True))
            _WORKER[0].start()


def _work() -> None:
    while True:
        due, gm = _QUEUE.get()
        try:
            time.sleep(max(0.0, due - time.monotonic()))
            _draw_whole_layers(gm)
        except Exception:  # the board's pictures draw their own pieces instead
            log.exception("drawing a board's whole terrain layers failed")
        finally:
            _QUEUE.task_done()


def _draw_whole_layers(gm: GameMap) -> None:
    """Set bytes aside for as many of ``gm``'s whole layers as ``KEPT_BYTES`` holds, in
    ``ORDER``, and draw them. Which layers are drawn depends only on the boards drawn before
    and their order, never on what was asked of them."""
    global _SET_ASIDE
    admitted: list[tuple[TerrainLayer, Future[TiledImage]]] = []
    for scale, labelled in ORDER:
        layer = terrain_layer(gm, scale, every_label=labelled)
        size = TiledImage.estimate(layer.layout.size)
        with _LOCK:
            if layer.key in _JOBS or _SET_ASIDE + size > KEPT_BYTES:
                continue
            _SET_ASIDE += size
            job: Future[TiledImage] = Future()
            _JOBS[layer.key] = job
        admitted.append((layer, job))
    for layer, job in admitted:
        if not job.set_running_or_notify_cancel():
            continue  # a whole-board picture drew it meanwhile
        try:
            job.set_result(_drawn_whole(layer, gm))
        except Exception as e:  # its pictures draw their own pieces; the next layer goes on
            job.set_exception(e)
            log.exception("drawing a whole terrain layer failed")


def _drawn_whole(layer: TerrainLayer, gm: GameMap) -> TiledImage:
    whole = TiledImage.drawn(layer, gm)
    with _LOCK:
        _WHOLE[layer.key] = whole
    return whole


def whole_layers() -> list[LayerKey]:
    """The layers drawn whole so far, in the order they were drawn."""
    with _LOCK:
        return list(_WHOLE)


def kept_bytes() -> int:
    """The bytes the whole layers drawn so far take."""
    with _LOCK:
        return sum(w.size_bytes for w in _WHOLE.values())


def settle() -> None:
    """Wait until every whole layer asked for so far is drawn (for benchmarks and tests; a
    picture never waits for one it does not cut)."""
    _QUEUE.join()
    with _LOCK:
        jobs = list(_JOBS.values())
    wait(jobs)


def clear_cache() -> None:
    """Forget every kept layer (the next picture of each map is drawn cold)."""
    global _SET_ASIDE
    settle()
    forget_layers()
    with _LOCK:
        _WHOLE.clear()
        _JOBS.clear()
        _BOARDS.clear()
        _SET_ASIDE = 0
