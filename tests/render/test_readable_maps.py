"""Maps a player can read: the phase map is a window fitted to what the side knows, at a scale
whose counter names read in Discord's inline preview (about 550 px wide); labels never repeat on
a map; a stack can be listed; a route's note covers neither its end nor a counter (rulings
ORD-30 to ORD-34)."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest
from PIL import Image

from bench.samples import sample_map, sample_view
from render.draw import Picture, draw_picture, encode, render_map, view_labels
from render.fit import FIT_WIDTH, LABEL_PX
from render.focus import hot_spots
from render.legend import legend_words
from render.style import PAPER
from render.terrain import terrain_layer
from rules.ground.grid import Cell
from rules.knowledge.overlay import Route
from rules.state import GameState, initial_state
from rules.view import GHOST, OWN, MarkerView, SideView, UnitView, project
from storage.store import Store
from tests.fakediscord import FakeDiscord
from tests.support.botkit import private_answer, started_game
from tests.support.hidden_views import unseen_renamed
from umpire.games import catalog
from umpire.reads.drawn_maps import read_view, window_view
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError
from umpire.words.stack import stack_text

SAMPLES = ["flank-march", "chancellorsville-hidden"]
#: Discord shows a picture inline at most this wide.
PREVIEW = 550


def opening(name: str) -> GameState:
    return initial_state(catalog.load_file(catalog.find(name)))


def sides(name: str) -> list[str]:
    return list(opening(name).sides)


def shown_px(px: int, width: int) -> float:
    """How high ``px`` pixels of a picture ``width`` wide are in the inline preview."""
    return px * min(1.0, PREVIEW / width)


@pytest.mark.parametrize("name,side", [(n, s) for n in SAMPLES for s in sides(n)])
def test_the_phase_window_reads_at_discord_width(name: str, side: str) -> None:
    """Each sample's phase window for each side: every name on a top counter prints at least
    10 px high at 550 px wide, and no two counters of the view share a label."""
    view = project(opening(name), side)
    picture = draw_picture(view, fitted=True)
    width = picture.image.width
    assert width <= FIT_WIDTH
    assert picture.names, "the window shows the side's counters"
    assert min(shown_px(px, width) for _, px in picture.names) >= LABEL_PX
    labels = view_labels(view)
    assert len(set(labels.values())) == len(labels)
    drawn = [text for text, _ in picture.names]
    assert len(set(drawn)) == len(drawn)
    # The window holds as much of the first hot spot (a contact at these openings, else the
    # side's own units) as any window of its size could.
    window = picture.window
    assert window is not None and window.own_in > 0
    first = hot_spots(view)[0]
    wanted = ([u.cell for u in view.units if u.level == OWN] if first.reason == "units"
              else list(first.cells))
    held = sum(window.holds(c) for c in wanted)
    grid = view.game_map.grid
    for row in range(grid.height - window.rows + 1):
        for col in range(grid.width - window.cols + 1):
            inside = sum(col <= c.col < col + window.cols and row <= c.row < row + window.rows
                         for c in wanted)
            assert inside <= held


def test_the_whole_board_is_still_the_whole_board() -> None:
    view = project(opening("flank-march"), "union")
    whole = Image.open(io.BytesIO(render_map(view)))
    window = Image.open(io.BytesIO(render_map(view, fitted=True)))
    assert whole.width > 3 * window.width


def test_a_leader_and_his_battery_carry_different_labels() -> None:
    """Geary the leader and Geary's artillery (Knap) were both "Geary"."""
    view = project(opening("flank-march"), "union")
    labels = view_labels(view)
    by_name = {u.name: labels[u.ref] for u in view.units if u.ref in labels}
    assert by_name["Brig. Gen. John W. Geary"] == "Geary"
    assert by_name["Geary's artillery (Knap)"] == "Knap"
    assert by_name["Maj. Gen. Hiram G. Berry"] != by_name["Berry's artillery (Osborn)"]


def test_labels_stay_distinct_even_for_names_alike() -> None:
    """Names with nothing else to tell them apart get a number."""
    gm = sample_map()
    units = [UnitView(ref=f"u{k}", side="union", level=OWN, cell=Cell(3 + k, 3),
                      name="Artillery Reserve", short="Artillery", kind="artillery",
                      strength=4, formation="limbered") for k in range(4)]
    labels = view_labels(sample_view(gm, "union", units))
    assert len(set(labels.values())) == 4


def test_a_small_force_is_all_in_its_window_and_the_window_is_a_function_of_the_view() -> None:
    gm = sample_map(34, 22, sheets=(2, 2), seed=7)
    units = [UnitView(ref=f"u{k}", side="union", level=OWN, cell=Cell(20 + k % 3, 12 + k // 3),
                      name=f"Brigade {k}", short=f"Bde {k}", kind="infantry", strength=5,
                      formation="line") for k in range(6)]
    view = sample_view(gm, "union", units)
    picture = draw_picture(view, fitted=True)
    assert picture.window is not None
    assert picture.window.own_in == picture.window.own_all == 6
    assert all(picture.window.holds(u.cell) for u in units)
    again = sample_view(sample_map(34, 22, sheets=(2, 2), seed=7), "union", list(units))
    assert render_map(again, fitted=True) == encode(picture.image)


def test_a_view_with_nothing_on_the_board_shows_the_whole_board() -> None:
    gm = sample_map()
    view = sample_view(gm, "union", [])
    assert draw_picture(view, fitted=True).window is None
    assert render_map(view, fitted=True) == render_map(view)


def test_unseen_enemies_leave_the_window_alone() -> None:
    """The window follows the side's view only: an enemy it cannot see, changed, changes
    nothing in its picture; the umpire's map does change."""
    state = opening("chancellorsville-hidden")
    union = project(state, "union")
    seen = {u.ref for u in union.units}
    hidden = [uid for uid, u in state.units.items()
              if u.side == "confederate" and uid not in seen and u.cell is not None]
    assert hidden, "the test needs a confederate unit the union cannot see"
    units = dict(state.units)
    for uid in hidden:
        units[uid] = replace(units[uid], strength=1, name="Someone Else", short="Else")
    changed = replace(state, units=MappingProxyType(units))
    assert render_map(project(changed, "union"), fitted=True) == render_map(union, fitted=True)
    assert render_map(project(changed, None)) != render_map(project(state, None))


def test_a_route_note_covers_neither_its_end_nor_a_counter() -> None:
    """The note used to sit below the route's end, over whatever counter stood there."""
    gm = sample_map()
    end = Cell(8, 5)
    units = [UnitView(ref=f"u{k}", side="union", level=OWN, cell=c, name=f"Brigade {k}",
                      short=f"B{k}", kind="infantry", strength=5, formation="line")
             for k, c in enumerate([Cell(8, 6), Cell(8, 4), Cell(9, 5), Cell(7, 5),
                                    Cell(8, 7)])]
    route = Route(cells=(Cell(4, 5), Cell(5, 5), Cell(6, 5), Cell(7, 5), end),
                  note="Howard: stops at the ford, 0 MP left")
    view = replace(sample_view(gm, "union", units), routes=(route,))
    picture = draw_picture(view, around=end, radius=4)
    [note] = picture.notes
    assert picture.counters
    for box in picture.counters:
        assert not (note[0] < box[2] and box[0] < note[2] and note[1] < box[3]
                    and box[1] < note[3]), (note, box)


def test_a_stack_is_listed_own_units_in_full() -> None:
    view = project(opening("flank-march"), "union")
    cells: dict[Cell, list[UnitView]] = {}
    for u in view.units:
        cells.setdefault(u.cell, []).append(u)
    cell, stack = max(cells.items(), key=lambda cs: len(cs[1]))
    assert len(stack) >= 3
    text = stack_text(view, cell)
    labels = view_labels(view)
    for u in stack:
        assert u.name in text and labels[u.ref] in text
    assert f"{len(stack)} counters" in text


def test_a_stack_lists_nothing_of_what_the_side_cannot_see() -> None:
    """Hidden enemies changed (names, strengths): every cell's list reads the same for the
    side; the umpire's lists do change (the test is not blind)."""
    state = opening("chancellorsville-hidden")
    union = project(state, "union")
    changed = unseen_renamed(state, "union")
    cells = {u.cell for u in state.units.values() if u.cell is not None}
    after = project(changed, "union")
    assert all(stack_text(union, c) == stack_text(after, c) for c in cells)
    assert any(stack_text(project(state, None), c) != stack_text(project(changed, None), c)
               for c in cells)


def test_queued_phase_maps_ask_for_the_fitted_window() -> None:
    assert read_view(window_view("union")) == ("union", True)
    assert read_view("union") == ("union", False)
    assert read_view(window_view("umpire")) == ("umpire", True)


async def test_map_windows_whole_board_and_stacks_through_the_umpire(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker())
        scenario = str(catalog.find("flank-march"))
        await umpire.create_game(scenario, 1, game_id="g")
        await umpire.join("g", 1, "union")
        await umpire.join("g", 2, "confederate")
        await umpire.start("g", 1)
        # The phase DM's map: the union's fitted window.
        pending = [d for d in await store.pending_deliveries("g") if d.picture_to_draw]
        mine = [d for d in pending if d.target == "1"]
        assert mine and all(d.image_view == window_view("union") for d in mine)
        drawn = await umpire.with_picture(mine[0])
        assert drawn.image is not None
        assert Image.open(io.BytesIO(drawn.image)).width <= FIT_WIDTH
        assert drawn.image_name == "union-turn-01.png"
        fitted = await umpire.my_map("g", 1)
        whole = await umpire.my_map("g", 1, whole=True)
        assert fitted.image is not None and whole.image is not None
        assert fitted.image == drawn.image  # /map shows the window the DM carried
        assert Image.open(io.BytesIO(whole.image)).width > 3 * FIT_WIDTH
        view = project((await umpire.repository.get("g")).state, "union")
        at = view.board.label(view.own_units()[0].cell)
        listed = await umpire.my_map("g", 1, stack=at)
        assert view.own_units()[0].name in listed.text
        with pytest.raises(UmpireError):
            await umpire.my_map("g", 1, stack="Z9999")


async def test_map_whole_and_stack_through_the_bot(fake: FakeDiscord, tmp_path: Path) -> None:
    if True:
        async with started_game(fake, tmp_path, catalog.find("flank-march"),
                                ("union", "confederate"), maps=True) as (bot, alice, _):
            window = await private_answer(fake, "map", alice, {})
            whole = await private_answer(fake, "map", alice, {"whole": True})
            [w] = window["attachments"]
            [b] = whole["attachments"]
            assert w["width"] <= FIT_WIDTH < b["width"]
            state = (await bot.umpire.repository.get("g1")).state
            view: SideView = project(state, "union")
            unit = view.own_units()[0]
            listed = await private_answer(fake, "map", alice,
                                          {"stack": view.board.label(unit.cell)})
            assert unit.name in (listed.get("content") or "")



def test_no_place_name_is_drawn_over_a_counter(monkeypatch: pytest.MonkeyPatch) -> None:
    """"Chancellorsville" was printed over Hooker's and Geary's counters: names now go under
    the counters."""
    gm = sample_map()
    place = gm.board.places[0].cell
    units = [UnitView(ref="u1", side="union", level=OWN, cell=place, name="Brigade 1",
                      short="B1", kind="infantry", strength=5, formation="line")]
    view = sample_view(gm, "union", units)
    named = draw_picture(view, around=place, radius=4)
    monkeypatch.setattr("render.overlay.place_names", lambda *args: None)
    bare = draw_picture(view, around=place, radius=4)
    assert named.image.tobytes() != bare.image.tobytes(), "the name is on the picture"
    [box] = named.counters
    x, y = named.origin
    crop = (x + round(box[0]), y + round(box[1]), x + round(box[2]), y + round(box[3]))
    assert named.image.crop(crop).tobytes() == bare.image.crop(crop).tobytes()


@pytest.mark.parametrize("at", [Cell(0, 0), Cell(16, 10), Cell(8, 5), Cell(16, 0)])
def test_a_narrow_window_shows_more_board_not_blank_bands(at: Cell) -> None:
    """``/map around:`` with a small radius left white bands either side of the map, widest
    near the board's edge; the window is widened over the board instead, and kept on it."""
    gm = sample_map()
    view = sample_view(gm, "union", [])
    picture = draw_picture(view, around=at, radius=3)
    assert picture.origin[0] == 0, "the map part fills the picture's width"
    row = picture.image.crop((0, picture.origin[1] + 20, picture.image.width,
                              picture.origin[1] + 21))
    assert PAPER not in {row.getpixel((0, 0)), row.getpixel((row.width - 1, 0))}, \
        "ground, not paper, at both ends of a row of the map"


def legend_of(picture: Picture, view: SideView) -> tuple[str, ...]:
    assert picture.legend is not None
    layer = terrain_layer(view.game_map, picture.legend.scale, every_label=True)
    return legend_words(view.game_map, layer, picture.legend)


def ghost(k: int, cell: Cell, turn: int) -> UnitView:
    return UnitView(ref=f"g{k}", side="confederate", level=GHOST, cell=cell, name=f"Rebel {k}",
                    short=f"R{k}", kind="infantry", strength=4, formation="line",
                    last_seen_turn=turn)


def test_the_ghost_legend_names_the_turn_its_ghosts_were_last_seen() -> None:
    """The legend said "enemy last seen turn 3" whatever turn the ghosts on the map were from."""
    gm = sample_map()
    mine = UnitView(ref="u1", side="union", level=OWN, cell=Cell(4, 4), name="Brigade 1",
                    short="B1", kind="infantry", strength=5, formation="line")
    view = sample_view(gm, "union", [mine, ghost(1, Cell(6, 4), 2)], information="hidden")
    words = legend_of(draw_picture(view, around=Cell(5, 4), radius=4), view)
    assert "enemy last seen turn 2" in words
    assert not any("turn 3" in w for w in words)
    two = replace(view, units=(*view.units, ghost(2, Cell(6, 5), 5)))
    assert "enemy last seen turns 2-5 (T on the counter)" in legend_of(
        draw_picture(two, around=Cell(5, 4), radius=4), two)
    # No ghost on the picture, no ghost in its legend.
    alone = replace(view, units=(mine,))
    assert not any("last seen" in w for w in legend_of(draw_picture(alone), alone))


def test_markers_on_the_picture_have_their_legend_entry() -> None:
    gm = sample_map()
    mine = UnitView(ref="u1", side="union", level=OWN, cell=Cell(4, 4), name="Brigade 1",
                    short="B1", kind="infantry", strength=5, formation="line")
    own_marker = MarkerView(id="K2", side="union", cell=Cell(5, 5), created_turn=1,
                            moved_this_phase=False, contents=(replace(mine, cell=Cell(5, 5)),))
    enemy_marker = MarkerView(id="K7", side="confederate", cell=Cell(7, 4), created_turn=1,
                              moved_this_phase=False)
    plain = sample_view(gm, "union", [mine])
    assert not any("marker" in w for w in legend_of(draw_picture(plain), plain))
    view = replace(plain, markers=(own_marker, enemy_marker))
    words = legend_of(draw_picture(view), view)
    assert "marker, with what is under it" in words
    assert "enemy marker: a force or a decoy" in words
    only_enemy = replace(plain, markers=(enemy_marker,))
    words = legend_of(draw_picture(only_enemy), only_enemy)
    assert "enemy marker: a force or a decoy" in words
    assert "marker, with what is under it" not in words
