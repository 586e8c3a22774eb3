"""Map pictures: reference images for each information model, determinism, no leaks through the
picture, every unit drawn in the umpire's view, windows, fog, routes and sizes.

Reference images live in ``tests/reference_images``; a picture may differ from its reference in
at most 0.5% of its pixels by more than 16 levels. Regenerate them after an intended change with
``VEDETTE_UPDATE_REFERENCES=1 uv run pytest tests/render/test_render.py``.
"""

from __future__ import annotations

import io
import os
import struct
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from bench.samples import as_enemy, sample_map, sample_units, sample_view
from render import clear_cache, render_image, render_map
from render.counters import abbreviate
from render.draw import map_box, window_scale
from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell
from rules.knowledge.overlay import Route
from rules.view import GHOST, IDENTIFIED, MARKER, OWN, SideView, UnitView, project

REFERENCES = Path(__file__).parents[1] / "reference_images"
UPDATE = os.environ.get("VEDETTE_UPDATE_REFERENCES") == "1"
#: A picture may differ from its reference in this share of pixels ...
BUDGET = 0.005
#: ... by more than this many levels in some channel.
TOLERANCE = 16
DISCORD_LIMIT = 8 * 1024 * 1024


# -- boards and views -----------------------------------------------------------------------------


def hex_board() -> GameMap:
    return sample_map(12, 9, seed=3)


def two_sheet_board() -> GameMap:
    return sample_map(8, 7, sheets=(2, 1), seed=5)


def square_board() -> GameMap:
    return sample_map(10, 8, grid="square", seed=4)


def pointy_board() -> GameMap:
    return sample_map(11, 9, seed=6, orientation="pointy")


def forces(gm: GameMap) -> tuple[list[UnitView], list[UnitView]]:
    return (sample_units(gm, "union", 9, 1, cols=(0.0, 0.5)),
            sample_units(gm, "confederate", 8, 2, cols=(0.5, 1.0)))


def west(gm: GameMap, share: float = 0.62) -> frozenset[Cell]:
    """What the union side sees in these tests: the western part of the board."""
    return frozenset(c for c in gm.grid.cells() if c.col < gm.grid.width * share)


def open_view(gm: GameMap) -> SideView:
    union, rebels = forces(gm)
    return sample_view(gm, "union", union + as_enemy(rebels, IDENTIFIED), information="open")


def inverted_view(gm: GameMap) -> SideView:
    union, rebels = forces(gm)
    seen = west(gm)
    enemy = (as_enemy([u for u in rebels if u.cell in seen], IDENTIFIED)
             + as_enemy([u for u in rebels if u.cell not in seen], MARKER))
    return sample_view(gm, "union", union + enemy, information="inverted", seen=seen)


def hidden_view(gm: GameMap) -> SideView:
    union, rebels = forces(gm)
    seen = west(gm)
    in_sight = [u for u in rebels if u.cell in seen]
    enemy = as_enemy(in_sight, IDENTIFIED) + as_enemy(
        [u for u in rebels if u.cell not in seen], GHOST, turn=2)
    blocked = frozenset(c for u in in_sight for c in gm.grid.within(u.cell, 1))
    return sample_view(gm, "union", union + enemy, information="hidden", seen=seen,
                       blocked=blocked, light="twilight", time="19:40")


def umpire_view(gm: GameMap) -> SideView:
    union, rebels = forces(gm)
    return sample_view(gm, None, union + rebels)


def routed(view: SideView, route: list[Cell] | None, note: str = "") -> SideView:
    """The view with one own route drawn on it (none for ``None``)."""
    return replace(view, routes=() if route is None else (Route(tuple(route), note),))


def march_route(gm: GameMap, view: SideView) -> list[Cell]:
    start = view.own_units()[0].cell
    end = Cell(min(gm.grid.width - 1, start.col + 4), min(gm.grid.height - 1, start.row + 2))
    return gm.grid.line(start, end)


# -- comparing pictures ---------------------------------------------------------------------------


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def differing_share(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a, b)
    r, g, bl = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), bl)
    over = worst.point(lambda v: 255 if v > TOLERANCE else 0).histogram()[255]
    return over / (a.width * a.height)


def check_reference(name: str, png: bytes, tmp_path: Path) -> None:
    path = REFERENCES / f"{name}.png"
    if UPDATE:
        REFERENCES.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        return
    assert path.exists(), (f"no reference image {path.name}; make it with "
                           "VEDETTE_UPDATE_REFERENCES=1 uv run pytest tests/render/test_render.py")
    actual = decode(png)
    expected = decode(path.read_bytes())
    out = tmp_path / f"{name}.actual.png"
    out.write_bytes(png)
    assert actual.size == expected.size, f"size {actual.size} != {expected.size}; see {out}"
    share = differing_share(actual, expected)
    assert share < BUDGET, f"{share:.2%} of pixels differ from {path.name}; see {out}"


def region(im: Image.Image, gm: GameMap, cell: Cell, view_box: tuple[int, int] = (0, 46),
           scale: int = 32) -> Image.Image:
    """The part of a whole-board picture round a cell (the title bar is 46 pixels high)."""
    from render.terrain import terrain_layer

    lay = terrain_layer(gm, scale).layout
    x, y = lay.centre(cell)
    x += view_box[0] + (im.width - lay.width) // 2
    y += view_box[1]
    r = scale // 2
    return im.crop((round(x - r), round(y - r), round(x + r), round(y + r)))


# -- reference images -----------------------------------------------------------------------------

Case = tuple[Callable[[], GameMap], Callable[[GameMap], SideView], dict[str, int]]
CASES: dict[str, Case] = {
    "open-hex": (hex_board, open_view, {}),
    "inverted-hex": (hex_board, inverted_view, {}),
    "hidden-two-sheets": (two_sheet_board, hidden_view, {"route": 1}),
    "umpire-hex": (hex_board, umpire_view, {}),
    "umpire-square": (square_board, umpire_view, {}),
    "inverted-square": (square_board, inverted_view, {}),
    "open-pointy-window": (pointy_board, open_view, {"window": 3}),
    "hidden-hex-window": (hex_board, hidden_view, {"window": 4, "route": 1}),
}
COLOURS = {"union": "#2a4d8f", "confederate": "#8c8c8c"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_reference_images(name: str, tmp_path: Path) -> None:
    board, make_view, opts = CASES[name]
    gm = board()
    view = make_view(gm)
    route = march_route(gm, view) if opts.get("route") else None
    note = "hidden march: 6 MP hoarded" if route else ""
    around = view.own_units()[0].cell if "window" in opts else None
    png = render_map(routed(replace(view, side_colours=COLOURS), route, note), around=around,
                     radius=opts.get("window"))
    check_reference(name, png, tmp_path)


def test_the_comparison_notices_a_changed_picture() -> None:
    gm = hex_board()
    a = decode(render_map(open_view(gm)))
    b = decode(render_map(inverted_view(gm)))
    assert differing_share(a, a) == 0
    assert differing_share(a, b) > 0


# -- determinism and what a PNG carries -----------------------------------------------------------


def png_chunks(png: bytes) -> list[str]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    out, pos = [], 8
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos:pos + 4])
        out.append(png[pos + 4:pos + 8].decode("ascii"))
        pos += 12 + length
    return out


def test_same_inputs_give_the_same_bytes_warm_or_cold() -> None:
    gm = two_sheet_board()
    view = hidden_view(gm)
    route = march_route(gm, view)
    first = render_map(routed(view, route, "note"))
    again = render_map(routed(view, route, "note"))
    clear_cache()
    cold = render_map(routed(view, route, "note"))
    rebuilt = render_map(routed(hidden_view(two_sheet_board()), route, "note"))
    assert first == again == cold == rebuilt
    window = render_map(view, around=Cell(3, 3), radius=3)
    assert window == render_map(view, around=Cell(3, 3), radius=3)


def test_maps_loaded_afresh_share_their_terrain_layer() -> None:
    from render.terrain import terrain_layer

    a, b = hex_board(), hex_board()
    assert a is not b
    assert terrain_layer(a) is terrain_layer(b)
    assert terrain_layer(a) is not terrain_layer(sample_map(12, 9, seed=4))
    assert terrain_layer(a, 40, True) is not terrain_layer(a)


def test_png_carries_no_varying_metadata() -> None:
    gm = hex_board()
    chunks = png_chunks(render_map(open_view(gm)))
    assert chunks[0] == "IHDR" and chunks[-1] == "IEND"
    assert set(chunks) <= {"IHDR", "PLTE", "tRNS", "IDAT", "IEND"}, chunks


# -- no leaks: a side's picture depends only on its view ------------------------------------------


def _tiny_state(model: str):  # type: ignore[no-untyped-def]
    from rules.state import initial_state
    from tests.support.tiny_games import load_tiny

    loaded = load_tiny(('information = "open"', f'information = "{model}"'))
    state = initial_state(loaded)
    # Turn 3 is twilight (visibility 4): blue, at the west edge, cannot see grey in the east.
    return loaded, replace(state, status="active", turn=3)


def _moved(state, uid: str, **changes):  # type: ignore[no-untyped-def]
    units = dict(state.units)
    if "cell" in changes:  # a unit's cell is where its location puts it
        units[uid] = units[uid].placed(changes.pop("cell"))
    units[uid] = replace(units[uid], **changes)
    return replace(state, units=MappingProxyType(units))


@pytest.mark.parametrize("model", ["hidden", "inverted", "open"])
def test_unseen_enemy_changes_leave_the_picture_alone(model: str) -> None:
    from rules.knowledge.sighted import sight

    loaded, state = _tiny_state(model)
    gm = loaded.map
    seen = sight(state)["blue"]
    assert not seen.seen_units, "the test needs grey out of blue's sight"
    before = render_map(project(state, "blue"))
    window = render_map(project(state, "blue"), around=Cell(1, 3), radius=4)
    if model == "open":
        changed = _moved(state, "grey-1", mp_spent=2.0)  # only MPs are private under open
    else:
        changed = _moved(state, "grey-1", strength=1, name="Someone Else", short="X",
                         formation="line")
        if model == "hidden":
            unseen = [c for c in gm.grid.cells()
                      if not seen.sees_cell(gm.idx(c)) and gm.enterable(c)
                      and c != state.units["grey-1"].cell]
            changed = _moved(changed, "grey-1", cell=unseen[len(unseen) // 2])
            changed = _moved(changed, "grey-bat", cell=unseen[-1])
    assert render_map(project(changed, "blue")) == before
    assert render_map(project(changed, "blue"), around=Cell(1, 3), radius=4) == window
    # ... while the umpire's picture does change (the test is not blind).
    if model != "open":
        assert render_map(project(changed, None)) != render_map(project(state, None))


def test_a_sighted_enemy_does_change_the_picture() -> None:
    _, state = _tiny_state("hidden")
    before = render_map(project(state, "blue"))
    near = _moved(state, "grey-1", cell=Cell(2, 3))
    assert render_map(project(near, "blue")) != before


# -- what is drawn --------------------------------------------------------------------------------


def without(view: SideView, unit: UnitView) -> SideView:
    return replace(view, units=tuple(u for u in view.units if u is not unit))


@pytest.mark.parametrize("make", [umpire_view, inverted_view, hidden_view])
def test_every_unit_in_the_view_is_drawn(make) -> None:  # type: ignore[no-untyped-def]
    gm = hex_board()
    view = make(gm)
    full = render_image(view)
    assert len(view.units) >= 12
    for u in view.units:
        other = render_image(without(view, u))
        a, b = region(full, gm, u.cell), region(other, gm, u.cell)
        assert differing_share(a, b) > 0.02, f"{u.ref} ({u.level}) at {u.cell} is not drawn"


def test_umpire_view_shows_both_sides() -> None:
    gm = hex_board()
    view = umpire_view(gm)
    assert {u.side for u in view.units} == {"union", "confederate"}
    assert all(u.level == OWN for u in view.units)


def test_fog_covers_what_the_side_does_not_see() -> None:
    gm = hex_board()
    view = replace(inverted_view(gm), units=())
    fogged = render_image(view)
    clear = render_image(replace(view, fog=False))
    unseen = Cell(gm.grid.width - 2, 2)
    seen = Cell(1, 2)
    assert unseen not in (view.seen_cells or ())
    assert differing_share(region(fogged, gm, unseen), region(clear, gm, unseen)) > 0.5
    assert differing_share(region(fogged, gm, seen), region(clear, gm, seen)) == 0
    no_fog = render_image(replace(view, seen_cells=None))
    assert differing_share(no_fog, clear) < 0.01  # only the legend's fog swatch differs


def test_blocked_cells_and_route_are_drawn() -> None:
    gm = hex_board()
    base = replace(open_view(gm), units=())
    cell = Cell(3, 3)
    marked = render_image(replace(base, blocked_cells=frozenset({cell})))
    plain = render_image(base)
    assert differing_share(region(marked, gm, cell), region(plain, gm, cell)) > 0.05
    route = [Cell(2, 5), Cell(3, 5), Cell(4, 5)]
    drawn = render_image(routed(base, route, "6 MP"))
    assert differing_share(region(drawn, gm, Cell(3, 5)), region(plain, gm, Cell(3, 5))) > 0.05


def test_cells_off_the_board_are_ignored() -> None:
    gm = hex_board()
    view = replace(open_view(gm), blocked_cells=frozenset({Cell(99, 99), Cell(2, 2)}))
    png = render_map(routed(view, [Cell(1, 1), Cell(2, 1), Cell(50, 50)], "x"),
                     around=Cell(77, 3))
    assert decode(png).size == decode(render_map(routed(view, [Cell(1, 1), Cell(2, 1)],
                                                        "x"))).size


def test_side_colours_are_used() -> None:
    gm = hex_board()
    view = open_view(gm)
    im = render_image(replace(view, side_colours={"union": "#c01010",
                                                  "confederate": "#10a010"}))
    colours = {c for _, c in (im.getcolors(1 << 20) or [])}
    assert (0xC0, 0x10, 0x10) in colours and (0x10, 0xA0, 0x10) in colours


def test_short_names_from_full_names() -> None:
    assert abbreviate("Maj. Gen. Oliver O. Howard") == "Howard"
    assert abbreviate("Mott's brigade") == "Mott"
    assert abbreviate("J. R. Jones' brigade") == "Jones"
    assert abbreviate("8th Pennsylvania Cavalry") == "8th Pa"
    assert abbreviate("6th New York Battery (Martin)") == "6th NY"
    assert abbreviate("2nd Division, XI Corps (von Steinwehr)") == "2/XI"
    assert abbreviate("Battery I, 1st Ohio (Dilger)") == "Dilger"
    assert abbreviate("Cavalry division (Stuart)") == "Stuart"
    assert abbreviate("Iron Brigade") == "Iron"
    assert abbreviate("3rd and 4th Virginia Cavalry") == "3rd/4th Va"


# -- windows and sizes ----------------------------------------------------------------------------


def test_window_size_follows_the_radius_and_stays_on_the_board() -> None:
    gm = sample_map(34, 22, sheets=(2, 1), seed=2)
    view = replace(open_view(gm), units=())
    board = render_image(view)
    sizes = {}
    for radius in (3, 6, 8, 12):
        middle = render_image(view, around=Cell(17, 11), radius=radius)
        _, (x0, y0, x1, y1) = map_box(gm, Cell(17, 11), radius)
        _, (c0, r0, c1, r1) = map_box(gm, Cell(0, 0), radius)
        assert (x1 - x0, y1 - y0) == (c1 - c0, r1 - r0)
        assert (c0, r0) == (0, 0)
        s = window_scale(radius)
        expected_w = 2 * radius * 0.866 * s + 1.155 * s + 8  # columns, one hex, margins
        assert abs(middle.width - max(520, expected_w)) <= 2, (radius, middle.width)
        sizes[radius] = middle.size
    assert sizes[3][0] < sizes[8][0] < board.width
    assert sizes[8][0] <= 760, "a radius-8 window should stay near Discord's preview width"
    layer, huge = map_box(gm, Cell(5, 5), 60)
    assert huge == (0, 0, *layer.layout.size)


def test_a_window_labels_every_cell_the_board_every_fifth() -> None:
    from render.terrain import TerrainLayer

    gm = hex_board()
    labelled = TerrainLayer(gm, window_scale(4), every_label=True)
    every = labelled.drawn(gm, labelled.whole)
    sparse = TerrainLayer(gm, window_scale(4), every_label=False)
    some = sparse.drawn(gm, sparse.whole)
    assert window_scale(4) > 30
    lay = TerrainLayer(gm, window_scale(4), every_label=True).layout
    for cell, differs in ((Cell(1, 1), True), (Cell(2, 6), True), (Cell(4, 4), False)):
        x, y = lay.centre(cell)
        box = (round(x - 12), round(y - lay.scale * 0.5), round(x + 12), round(y))
        share = differing_share(every.crop(box), some.crop(box))
        assert (share > 0.02) == differs, (cell, share)


def test_a_four_sheet_board_fits_discord() -> None:
    gm = sample_map(34, 22, sheets=(2, 2), seed=7)
    union = sample_units(gm, "union", 300, 1, cols=(0.0, 0.55))
    rebels = sample_units(gm, "confederate", 300, 2, cols=(0.45, 1.0))
    png = render_map(sample_view(gm, None, union + rebels))
    assert len(png) < DISCORD_LIMIT
    assert decode(png).width < 2400


# -- any view renders -----------------------------------------------------------------------------

LEVELS = st.sampled_from([OWN, IDENTIFIED, MARKER, GHOST])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 11), st.integers(0, 8), LEVELS,
                          st.sampled_from(["infantry", "cavalry", "artillery", "hq", "leader",
                                           "wagon", ""]),
                          st.sampled_from(["line", "column", "mounted", ""]),
                          st.text(max_size=14), st.none() | st.integers(0, 99)),
                max_size=14),
       st.booleans(), st.none() | st.tuples(st.integers(0, 11), st.integers(0, 8),
                                            st.integers(0, 6)))
def test_any_view_renders(units: list[tuple[int, int, str, str, str, str, int | None]],
                          fog: bool, window: tuple[int, int, int] | None) -> None:
    gm = hex_board()
    views = [
        UnitView(ref=f"u{n}", side="union" if level == OWN else "confederate", level=level,
                 cell=Cell(c, r), name=name, short=name[:5], kind=kind, strength=strength,
                 formation=formation, last_seen_turn=2 if level == GHOST else None)
        for n, (c, r, level, kind, formation, name, strength) in enumerate(units)
    ]
    view = sample_view(gm, "union", views, information="hidden" if fog else "open",
                       seen=west(gm) if fog else None)
    kwargs = {}
    if window:
        kwargs = {"around": Cell(window[0], window[1]), "radius": window[2]}
    png = render_map(view, **kwargs)  # type: ignore[arg-type]
    assert png == render_map(view, **kwargs)  # type: ignore[arg-type]
    assert decode(png).width >= 520


# -- the sample scenarios -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["flank-march", "chancellorsville-hidden"])
def test_sample_scenarios_render(name: str) -> None:
    from rules.state import initial_state
    from umpire.games import catalog

    path = Path(__file__).parents[2] / "scenarios" / f"{name}.toml"
    loaded = catalog.load_file(path)
    state = replace(initial_state(loaded), status="active")
    colours = {s.id: s.colour for s in loaded.scenario.sides}
    for side in [None, *state.sides]:
        view = project(state, side)
        assert view.side_colours == colours  # the picture's colours come with the view
        png = render_map(view)
        assert len(png) < DISCORD_LIMIT
        own = [u for u in view.units if u.level == OWN]
        if own:
            win = render_map(view, around=own[0].cell, radius=8)
            assert decode(win).width < decode(png).width


def test_a_morale_marker_shows_on_the_counter() -> None:
    """A unit with a morale state the ruleset marks (Sh, Dg...) carries the marker."""
    from render.counters import MORALE_RED, look_of
    from rules.combat.config import CombatRules

    marker = next(s.marker for s in CombatRules().morale_states if s.marker)
    unit = UnitView(ref="u", side="blue", level="own", cell=Cell(1, 1), name="1st Brigade",
                    short="1 Bde", kind="infantry", strength=5, formation="line",
                    morale="shaken")
    from render.counters import draw_counter

    plain = draw_counter(look_of(unit, (40, 60, 150), 40))
    marked = draw_counter(look_of(unit, (40, 60, 150), 40, marker))
    assert plain.tobytes() != marked.tobytes()
    def colours(im: Image.Image) -> set[tuple[int, int, int]]:
        rgb = im.convert("RGB")
        return {c for _, c in rgb.getcolors(rgb.width * rgb.height) or []}

    assert MORALE_RED in colours(marked)
    assert MORALE_RED not in colours(plain)
