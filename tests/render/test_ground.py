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


def test_the_pieces_kept_stay_within_their_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    board = sample_map(8, 7, sheets=(2, 2), seed=5)
    layer = TerrainLayer(board, 40, True)
    one = ground.ground(layer, board, (0, 0, 200, 150)).size_bytes
    monkeypatch.setattr(ground, "KEPT_BYTES", 3 * one)
    clear_cache()
    drawn = [ground.ground(layer, board, (x, 0, x + 200, 150)) for x in range(0, 500, 50)]
    assert ground.kept_bytes() <= 3 * one
    # The latest are kept and come back as they were; the oldest are drawn again.
    assert ground.ground(layer, board, (450, 0, 650, 150)) is drawn[-1]
    again = ground.ground(layer, board, (0, 0, 200, 150))
    assert again is not drawn[0] and again.image.tobytes() == drawn[0].image.tobytes()


def test_fog_hatching_runs_on_from_piece_to_piece() -> None:
    board = sample_map(12, 9, seed=3)
    layer = TerrainLayer(board, 40, True)
    whole = ground.ground(layer, board, layer.whole).fogged
    box = (37, 53, 301, 222)
    assert differing(ground.ground(layer, board, box).fogged, whole.crop(box)) == 0


def test_a_layer_asked_for_a_second_box_is_drawn_whole_in_the_background() -> None:
    board = sample_map(8, 7, sheets=(2, 2), seed=5)
    layer = TerrainLayer(board, 40, True)
    first = ground.ground(layer, board, (0, 0, 200, 150))
    ground.settle()
    assert first.from_whole is None and ground.kept_bytes() == first.size_bytes  # not yet
    second = ground.ground(layer, board, (90, 60, 400, 300))
    ground.settle()
    assert second.from_whole is None
    third = ground.ground(layer, board, (300, 200, 520, 410))
    assert third.from_whole is not None and third.from_whole.box == layer.whole
    # Cut from the whole or drawn alone, the same pixels, fogged or not.
    alone = TerrainLayer(board, 40, True).drawn(board, third.box)
    assert differing(third.image, alone) == 0
    assert differing(third.fogged, ground.Ground(alone, third.box).fogged) == 0


def test_a_layer_too_big_for_the_bytes_kept_is_only_ever_drawn_in_pieces(
        monkeypatch: pytest.MonkeyPatch) -> None:
    board = sample_map(8, 7, sheets=(2, 2), seed=5)
    layer = TerrainLayer(board, 40, True)
    w, h = layer.layout.size
    monkeypatch.setattr(ground, "KEPT_BYTES", 3 * 2 * 4 * w * h - 1)
    for x in range(0, 300, 60):
        ground.ground(layer, board, (x, 0, x + 200, 150))
    ground.settle()
    piece = ground.ground(layer, board, (333, 222, 533, 372))
    assert piece.from_whole is None
    assert ground.kept_bytes() < 2 * 4 * w * h
