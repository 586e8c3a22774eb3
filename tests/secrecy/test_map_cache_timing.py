"""How fast a side's map comes tells it nothing (DESIGN.md, "Timing tells nothing"): a side's
pictures are kept under the digest of its view, in a store of their own, and its queued maps are
drawn in a thread of their own.

Each test plays through the ``Umpire`` on real SQLite files and reads whether each answer was
found kept or drawn afresh (``Umpire.picture_counts``), the difference that would show in the
answer's time. Two games that differ only in what the enemy did out of Blue's sight must give
Blue the same hits and draws, and the same bytes; a control where Blue's own view changes must
draw afresh.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from bench.samples import sample_map, sample_units, sample_view
from rules import commands as cmd
from rules.ground.grid import Cell
from rules.knowledge.information import InformationModel
from rules.knowledge.overlay import Route
from rules.knowledge.sighted import sight
from rules.state import GameState
from rules.view import SideView
from storage.store import Store
from tests.support.botkit import FIXTURES, MAPS
from tests.support.hearing import BLUE, GREY, HOST, SEED, Variant, scenario
from umpire.reads.drawn_maps import KEEP
from umpire.reads.map_digest import drawn_part, view_digest
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError

pytestmark = pytest.mark.skipif(not MAPS, reason="map pictures cannot be drawn here")

#: The Grey units out of Blue's sight throughout.
UNSEEN = ("grey-1", "grey-bat")


async def new_game(umpire: Umpire, tmp_path: Path, name: str) -> None:
    """The tiny game under the hidden model, its Movement Phase played by both sides at once."""
    ruleset = tmp_path / f"{name}.ruleset.toml"
    text = (FIXTURES / "tiny.ruleset.toml").read_text(encoding="utf-8")
    each = 'id = "movement"\nname = "Movement Phase"\nside = "each"'
    assert each in text
    ruleset.write_text(text.replace(each, each.replace('"each"', '"all"')), encoding="utf-8")
    pinned = f'ruleset = "{FIXTURES / "tiny.ruleset.toml"}"'
    path = scenario(tmp_path, name, InformationModel.HIDDEN,
                    Variant(edits=((pinned, f'ruleset = "{ruleset}"'),), unseen=UNSEEN))
    await umpire.create_game(str(path), HOST, game_id="g1", seed=SEED)
    await umpire.join("g1", BLUE, "blue")
    await umpire.join("g1", GREY, "grey")
    await umpire.start("g1", HOST)


async def blue_map(umpire: Umpire, heard: list[tuple[str, bytes | None]]) -> str:
    """Blue's fitted map, noted in ``heard`` with whether it was found kept ("hit") or drawn
    ("draw"); that word."""
    before = umpire.picture_counts("g1", "blue")
    image = (await umpire.my_map("g1", BLUE)).image
    after = umpire.picture_counts("g1", "blue")
    assert (after.hits - before.hits) + (after.draws - before.draws) == 1
    how = "hit" if after.hits > before.hits else "draw"
    heard.append((how, image))
    return how


async def grey_looks(umpire: Umpire) -> None:
    """Grey looks at its own map, whole and around cells on either side."""
    for around in (None, "B0603", "B0703", "A0604"):
        await umpire.my_map("g1", GREY, around=around)
    await umpire.my_map("g1", GREY, whole=True)


async def grey_moves(umpire: Umpire) -> None:
    """Grey's battery marches out of Blue's sight and stays there, and Grey gives an order it
    is refused."""
    await umpire.handle("g1", GREY, cmd.Move(unit="Grey Battery", route="B0603"))
    with pytest.raises(UmpireError):
        await umpire.handle("g1", GREY, cmd.Move(unit="Grey Brigade", route="Z9999"))


async def blue_maps(tmp_path: Path, name: str, busy: bool) -> list[tuple[str, bytes | None]]:
    """Blue's maps, kept or drawn, through a Movement Phase both sides play: Grey moves out of
    Blue's sight and looks at its maps (``busy``) or does nothing, then is done; then Blue
    moves a unit of its own, the control."""
    heard: list[tuple[str, bytes | None]] = []
    async with Store.open(tmp_path / f"{name}.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=True))
        await new_game(umpire, tmp_path, name)
        state = await umpire.repository.state_for("g1")
        assert set(state.acting_sides()) == {"blue", "grey"}  # a phase both play
        assert await blue_map(umpire, heard) == "draw"
        assert await blue_map(umpire, heard) == "hit"
        if busy:
            await grey_moves(umpire)
            await grey_looks(umpire)
        # Whatever Grey did out of sight, nothing Blue's picture shows has changed.
        assert await blue_map(umpire, heard) == "hit"
        await umpire.handle("g1", GREY, cmd.Done())
        state = await umpire.repository.state_for("g1")
        assert state.acting_sides() == ("blue",)  # the phase goes on: Blue is still to act
        assert await blue_map(umpire, heard) == "hit"
        # Blue's own move is news to its map (the control).
        await umpire.handle("g1", BLUE, cmd.Move(unit="2nd Brigade", route="A0106"))
        assert await blue_map(umpire, heard) == "draw"
        assert await blue_map(umpire, heard) == "hit"
        state = await umpire.repository.state_for("g1")
        assert not sight(state)["blue"].seen_units & set(UNSEEN)
        battery = state.units["grey-bat"].cell
        assert (battery == state.loaded.board.parse("B0603")) is busy
    return heard


async def test_blues_map_is_kept_whatever_grey_does_out_of_its_sight(tmp_path: Path) -> None:
    quiet = await blue_maps(tmp_path, "quiet", busy=False)
    busy = await blue_maps(tmp_path, "busy", busy=True)
    assert [how for how, _ in quiet] == [how for how, _ in busy]
    assert quiet == busy  # the same bytes too
    # The control: Blue's own move drew a new picture, and it shows.
    assert quiet[4][1] != quiet[3][1]


async def test_the_enemys_map_requests_do_not_push_out_blues_picture(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=True))
        await new_game(umpire, tmp_path, "evict")
        heard: list[tuple[str, bytes | None]] = []
        assert await blue_map(umpire, heard) == "draw"
        cells = ("A0101", "A0303", "A0505", "B0101", "B0303", "B0505", "B0703", "A0604")
        windows = [(around, radius) for radius in (2, 3, 4) for around in cells]
        assert len(windows) >= KEEP * 2
        for around, radius in windows[:KEEP * 2]:
            await umpire.my_map("g1", GREY, around=around, radius=radius)
        await umpire.my_map("g1", GREY, whole=True)
        assert umpire.picture_counts("g1", "grey").draws == KEEP * 2 + 1
        assert await blue_map(umpire, heard) == "hit"
        assert heard[0] == ("draw", heard[1][1])


class GatedMaps(MapMaker):
    """Draws maps, holding Grey's drawing until the test opens ``gate``."""

    def __init__(self) -> None:
        super().__init__(enabled=True)
        self.gate = threading.Event()
        self.grey_started = threading.Event()

    def draw(self, state: GameState, side: str | None, around: str | None,
             radius: int | None, routes: tuple[Route, ...] | None, fitted: bool) -> bytes:
        if side == "grey":
            self.grey_started.set()
            self.gate.wait(timeout=300)  # a guard against a hang; the test opens it
        return super().draw(state, side, around, radius, routes, fitted)


async def test_a_sides_queued_map_does_not_wait_behind_the_enemys(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        maps = GatedMaps()
        umpire = Umpire(store, maps=maps)
        await new_game(umpire, tmp_path, "queued")
        pending = [d for d in await store.pending_deliveries("g1") if d.picture_to_draw]
        grey = next(d for d in pending if d.target == str(GREY))
        blue = next(d for d in pending if d.target == str(BLUE))
        try:
            greys = asyncio.create_task(umpire.with_picture(grey, sending=True))
            assert await asyncio.to_thread(maps.grey_started.wait, 120)
            # Grey's map is being drawn (and held): Blue's is drawn meanwhile all the same
            # (behind Grey's, it would wait for the gate's 300 s).
            blues = await asyncio.wait_for(umpire.with_picture(blue, sending=True), 120)
            assert blues.image is not None and not greys.done()
        finally:
            maps.gate.set()
        assert (await greys).image is not None
        assert maps.queue_of("blue") is not maps.queue_of("grey")


async def test_a_queued_map_and_map_share_one_picture(tmp_path: Path) -> None:
    """The phase's queued map and a /map of the same view and moment are one picture."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=True))
        await new_game(umpire, tmp_path, "shared")
        [queued] = [d for d in await store.pending_deliveries("g1")
                    if d.picture_to_draw and d.target == str(BLUE)]
        sent = await umpire.with_picture(queued, sending=True)
        heard: list[tuple[str, bytes | None]] = []
        assert await blue_map(umpire, heard) == "hit"
        assert heard[0][1] == sent.image


def test_the_digest_is_of_what_the_view_holds_not_how_it_was_built() -> None:

    gm = sample_map(8, 6, sheets=(2, 1), seed=3)
    units = sample_units(gm, "union", 6, 1, cols=(0.0, 0.5))
    seen = [c for c in gm.grid.cells() if c.col < 6]
    one = sample_view(gm, "union", units, information="hidden", seen=frozenset(seen))
    two = sample_view(gm, "union", units, information="hidden",
                      seen=frozenset(reversed(seen)))
    assert one.seen_cells == two.seen_cells and view_digest(one) == view_digest(two)
    moved = sample_view(gm, "union", units, information="hidden",
                        seen=frozenset(seen[1:]))
    assert view_digest(moved) != view_digest(one)
    # What the words alone use is left out of what a picture is drawn from.
    told = replace(one, waiting_for=("grey",), reports=("Grey is done.",))
    assert view_digest(drawn_part(told)) == view_digest(drawn_part(one))
    assert view_digest(told) != view_digest(one)


def test_the_digest_refuses_what_it_cannot_put_in_canonical_form() -> None:
    gm = sample_map(8, 6, sheets=(1, 1), seed=3)
    view = sample_view(gm, "union", [], information="hidden", seen=frozenset([Cell(0, 0)]))
    with pytest.raises(TypeError):
        view_digest(replace(view, notes={"x": object()}))  # type: ignore[dict-item]


class CountedLooks(MapMaker):
    """Draws maps, counting the looks at a view (its view and digest worked out)."""

    def __init__(self) -> None:
        super().__init__(enabled=True)
        self.looks: list[str | None] = []

    async def looked_at(self, state: GameState, side: str | None) -> tuple[SideView, str]:
        self.looks.append(side)
        return await super().looked_at(state, side)


async def test_a_sides_map_costs_the_same_looks_whether_or_not_the_enemy_moved(
        tmp_path: Path) -> None:
    """Nothing of a look at a view is kept from one request to the next: Blue's ``/map``
    works out its view's digest once, whether Grey gave a hidden order in between or not, so
    its answer is no quicker after a quiet spell than after the enemy's secret move."""
    looks: dict[bool, list[str | None]] = {}
    for busy in (False, True):
        async with Store.open(tmp_path / f"looks-{busy}.db") as store:
            maps = CountedLooks()
            umpire = Umpire(store, maps=maps)
            await new_game(umpire, tmp_path, f"looks-{busy}")
            await blue_map(umpire, [])
            maps.looks.clear()
            if busy:
                await grey_moves(umpire)
            await blue_map(umpire, [])
            looks[busy] = [s for s in maps.looks if s == "blue"]
    assert looks[False] == looks[True] == ["blue"]


async def test_pictures_kept_fit_the_process_budget_and_blues_share_is_its_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pictures kept are bounded by bytes for the whole process, shared evenly between the
    games loaded and each game's views: with room for about one fitted map a view, the enemy
    drawing map after map still leaves Blue's picture kept, and never the process over its
    budget."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=True))
        await new_game(umpire, tmp_path, "budget")
        heard: list[tuple[str, bytes | None]] = []
        assert await blue_map(umpire, heard) == "draw"
        game = await umpire.repository.get("g1")
        one = len(heard[0][1] or b"")
        views = len(game.state.sides) + 1
        monkeypatch.setattr("umpire.games.repository.PICTURE_BYTES", views * one * 3 // 2)
        for around in ("A0101", "A0303", "A0505", "B0101", "B0303"):
            await umpire.my_map("g1", GREY, around=around, radius=3)
            assert game.pictures.kept_bytes() <= views * one * 3 // 2
        assert umpire.picture_counts("g1", "grey").draws == 5
        assert await blue_map(umpire, heard) == "hit"
        # The control: a budget with no room for Blue's picture keeps none of it.
        monkeypatch.setattr("umpire.games.repository.PICTURE_BYTES", views * one // 2)
        await umpire.my_map("g1", BLUE, whole=True)
        assert await blue_map(umpire, heard) == "draw"
