"""The ground pictures are cut from (``render.ground``): each window is drawn from a piece of its
own size, which is the whole board's picture in that box; a side's picture never depends on
what was drawn before it; and the pieces kept stay within their byte budget."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bench.samples import sample_map, sample_units, sample_view
from render import clear_cache, ground, render_map
from render.layout import Box
from render.terrain import TerrainLayer
from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell
from rules.knowledge.information import InformationModel
from rules.scenario.loader import load

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def cold() -> Iterator[None]:
    clear_cache()
    yield
    clear_cache()


def flank_march_map() -> GameMap:
    scenario = ROOT / "scenarios" / "flank-march.toml"
    ruleset = ROOT / "scenarios" / "brigade-series.ruleset.toml"
    return load(scenario.read_text(), str(scenario), ruleset.read_text(), str(ruleset)).map


def boxes(layer: TerrainLayer, seed: int, n: int = 6) -> Iterator[Box]:
    """``n`` random boxes of the layer, the corners and edges among them."""
    rng = random.Random(seed)
    w, h = layer.layout.size
    yield (0, 0, min(w, 300), min(h, 200))
    yield (max(0, w - 250), max(0, h - 180), w, h)
    for _ in range(n):
        bw, bh = rng.randint(40, w), rng.randint(40, h)
        x0, y0 = rng.randint(0, w - bw), rng.randint(0, h - bh)
        yield (x0, y0, x0 + bw, y0 + bh)


def differing(a: Image.Image, b: Image.Image) -> int:
    """How many pixels of ``a`` and ``b`` differ."""
    mask = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v else 0)
    return int(mask.histogram()[255])


@pytest.mark.parametrize("board", [
    sample_map(12, 9, seed=3),
    sample_map(11, 9, seed=6, orientation="pointy"),
    sample_map(10, 8, grid="square", seed=4),
    sample_map(8, 7, sheets=(2, 2), seed=5),
], ids=["flat hexes", "pointy hexes", "squares", "four sheets"])
@pytest.mark.parametrize("scale,every_label", [(32, False), (60, True), (34, True)])
def test_a_piece_is_the_whole_boards_picture_in_its_box(board: GameMap, scale: int,
                                                       every_label: bool) -> None:
    layer = TerrainLayer(board, scale, every_label)
    whole = layer.drawn(board, layer.whole)
    assert whole.size == layer.layout.size
    for box in boxes(layer, scale):
        assert differing(layer.drawn(board, box), whole.crop(box)) == 0, box


def test_so_is_a_piece_of_a_real_board_with_its_roads_and_trails() -> None:
    board = flank_march_map()
    assert board.roads and board.hexsides
    layer = TerrainLayer(board, 60, True)
    whole = layer.drawn(board, layer.whole)
    for box in boxes(layer, 7, n=8):
        assert differing(layer.drawn(board, box), whole.crop(box)) == 0, box


def test_and_of_a_big_board_far_from_its_corner() -> None:
    """Far from the corner the same coordinates round otherwise when a piece moves them by
    whole pixels; roads, drawn through whole pixels, come out alike (this box once did not)."""
    board = sample_map(34, 22, sheets=(2, 2), seed=7)
    layer = TerrainLayer(board, 60, True)
    whole = layer.drawn(board, layer.whole)
    for box in [(888, 528, 1327, 1334), *boxes(layer, 3, n=4)]:
        assert differing(layer.drawn(board, box), whole.crop(box)) == 0, box


def test_a_sides_picture_is_the_same_whatever_was_drawn_before() -> None:
    """What is kept from other pictures (the enemy's, other windows, the whole board) changes
    how soon a picture is drawn, never a byte of it."""
    board = sample_map(8, 7, sheets=(2, 2), seed=5)
    west = frozenset(c for c in board.grid.cells() if c.col < 9)
    east = frozenset(c for c in board.grid.cells() if c.col > 6)
    mine = sample_view(board, "union", sample_units(board, "union", 6, seed=1),
                       information=InformationModel.HIDDEN, seen=west)
    theirs = sample_view(board, "confederate", sample_units(board, "confederate", 6, seed=2),
                         information=InformationModel.HIDDEN, seen=east)
    assert mine.fog and theirs.fog
    asked = {"around": Cell(6, 5), "radius": 4}
    cold_window = render_map(mine, **asked)  # type: ignore[arg-type]
    clear_cache()
    cold_board = render_map(mine)
    for around, radius in ((Cell(6, 5), 4), (Cell(7, 6), 4), (Cell(3, 3), 9)):
        render_map(theirs, around=around, radius=radius)
    render_map(theirs)
    assert render_map(mine, **asked) == cold_window  # type: ignore[arg-type]
    assert render_map(mine) == cold_board


class Counted(TerrainLayer):
    """A layer that counts the pieces it draws."""

    pieces = 0

    def drawn(self, gm: GameMap, box: Box) -> Image.Image:
        if box != self.whole:
            Counted.pieces += 1
        return super().drawn(gm, box)


@pytest.fixture
def at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole layers begin to be drawn as soon as their board's first picture is asked for."""
    monkeypatch.setattr(ground, "DELAY_S", 0.0)


def test_a_boards_whole_layers_are_drawn_after_its_first_picture(at_once: None) -> None:
    board = sample_map(8, 7, sheets=(2, 2), seed=5)
    layer = Counted(board, ground.ORDER[1][0], True)
    Counted.pieces = 0
    box = (90, 60, 400, 300)
    first = ground.ground(layer, board, box)
    assert Counted.pieces == 1  # drawn for this picture
    ground.settle()
    drawn = ground.whole_layers()
    assert [scale for _, scale, _ in drawn] == [scale for scale, _ in ground.ORDER]
    assert 0 < ground.kept_bytes() <= ground.KEPT_BYTES
    again = ground.ground(layer, board, box)
    assert Counted.pieces == 1  # cut from the whole layer
    assert differing(again.image, first.image) == 0
    assert differing(again.fogged, first.fogged) == 0


def test_nothing_one_picture_drew_is_kept_for_another(monkeypatch: pytest.MonkeyPatch) -> None:
    """Until its layer is drawn whole, each picture draws its own piece: a side's answer is
    never quicker because the enemy, or anyone, looked at the same ground before."""
    monkeypatch.setattr(ground, "KEPT_BYTES", 0)
    board = sample_map(8, 7, sheets=(2, 2), seed=5)
    layer = Counted(board, 40, True)
    Counted.pieces = 0
    for _ in range(3):
        ground.ground(layer, board, (90, 60, 400, 300))
    ground.settle()
    assert Counted.pieces == 3 and ground.whole_layers() == []


@pytest.mark.parametrize("asked", [(60, True, (0, 0, 300, 200)), (40, True, (50, 80, 350, 380)),
                                   (32, False, None)])
def test_which_layers_are_drawn_whole_depends_on_the_boards_alone(
        at_once: None, monkeypatch: pytest.MonkeyPatch, asked: tuple[int, bool, Box | None]
        ) -> None:
    """Whatever picture of a board is asked for first, the same layers are drawn whole, in the
    same order, and as many as the bytes allow."""
    board = sample_map(8, 7, sheets=(2, 2), seed=5)
    sizes = [TerrainLayer(board, s, e).layout.size for s, e in ground.ORDER]
    budget = sum(ground.TiledImage.estimate(size) for size in sizes[:3])
    monkeypatch.setattr(ground, "KEPT_BYTES", budget)
    scale, labelled, box = asked
    layer = TerrainLayer(board, scale, labelled)
    ground.ground(layer, board, box or layer.whole)
    ground.settle()
    assert [(s, e) for _, s, e in ground.whole_layers()] == list(ground.ORDER[:3])


def test_a_tiled_picture_cuts_as_the_picture_itself() -> None:
    board = sample_map(12, 9, seed=3)
    layer = TerrainLayer(board, 34, True)
    whole = layer.drawn(board, layer.whole)
    tiled = ground.TiledImage.of(whole)
    assert tiled.size_bytes < 4 * whole.width * whole.height // 4
    for box in [*boxes(layer, 11), layer.whole, (250, 250, 262, 262)]:
        assert differing(tiled.crop(box), whole.crop(box)) == 0, box


def test_fog_hatching_runs_on_from_piece_to_piece() -> None:
    board = sample_map(12, 9, seed=3)
    layer = TerrainLayer(board, 40, True)
    whole = ground.Ground(layer.drawn(board, layer.whole), layer.whole).fogged
    box = (37, 53, 301, 222)
    assert differing(ground.Ground(layer.drawn(board, box), box).fogged, whole.crop(box)) == 0


def test_a_whole_layer_drawn_by_blocks_is_the_layer_drawn_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ground.TiledImage, "BLOCK", 1)  # many blocks on a small board
    board = sample_map(8, 7, sheets=(2, 2), seed=5)
    layer = TerrainLayer(board, 48, True)
    whole = layer.drawn(board, layer.whole)
    tiled = ground.TiledImage.drawn(layer, board)
    assert len(tiled.tiles) > 4
    assert differing(tiled.crop(layer.whole), whole) == 0


def test_a_layer_that_fails_to_draw_whole_leaves_its_pictures_to_pieces(
        at_once: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def fails(cls: type, layer: TerrainLayer, gm: GameMap) -> ground.TiledImage:
        raise RuntimeError("no room for the whole layer")

    monkeypatch.setattr(ground.TiledImage, "drawn", classmethod(fails))
    board = sample_map(8, 7, sheets=(2, 2), seed=5)
    layer = TerrainLayer(board, 40, True)
    first = ground.ground(layer, board, (0, 0, 200, 150))
    ground.settle()  # every layer tried, none drawn: nothing left waiting
    assert ground.whole_layers() == [] and "whole terrain layer failed" in caplog.text
    again = ground.ground(layer, board, (0, 0, 200, 150))
    assert differing(again.image, first.image) == 0
    whole = ground.ground(layer, board, layer.whole)
    assert whole.image.size == layer.layout.size
