"""A concealed force's preview halts it where the enemy its side knows of would: before a hex
within two hexes of an enemy marker on its map, naming that marker (ruling CF-22); a marker the
side cannot see yet changes nothing of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import events as ev
from rules.ground.grid import Cell
from rules.state import GameState, apply
from storage.store import Store
from tests.orders.test_markers_preview import NORTH, _returning, concealed_colston
from tests.support.concealed import SCENARIO, SEED
from umpire.reads.maps import MapMaker
from umpire.reads.player_settings import Preview
from umpire.reads.preview import plan_move
from umpire.service import Umpire


def _with_union_marker(state: GameState, cell: Cell) -> GameState:
    return apply(state, ev.MarkerPlaced(audience="public", marker="0900", side="union",
                                        cell=(cell.col, cell.row)))


def _beside_the_route(state: GameState) -> Cell:
    """A hex two from the route's second hex (A1815), three or more from its first (A1816) and
    from the marker's own (A1817)."""
    gm = state.loaded.map
    board = gm.board
    first, second, start = (board.parse(x) for x in ("A1816", "A1815", "A1817"))
    return next(c for c in gm.grid.cells()
                if gm.grid.distance(c, second) == 2 and gm.grid.distance(c, first) >= 3
                and gm.grid.distance(c, start) >= 3)


async def test_a_marker_preview_halts_before_a_hex_near_an_enemy_marker_it_sees(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(SCENARIO), 1, game_id="g1", channel_id=None, seed=SEED)
        await umpire.join("g1", 10, "confederate")
        await umpire.join("g1", 20, "union")
        await umpire.start("g1", 1)
        mid = await concealed_colston(umpire, {"confederate": 10, "union": 20})
        await umpire.set_preview_setting(10, Preview.ON)
        state = await umpire.repository.state_for("g1")
        before = await plan_move(umpire, "g1", 10, f"marker {mid}", NORTH)
        assert before is not None and "It stops at A1815: its MPs run out" in before.text

        cell = _beside_the_route(state)
        where = state.loaded.board.describe(cell)
        monkeypatch.setattr(umpire.repository, "state_for",
                            _returning(_with_union_marker(state, cell)))
        plan = await plan_move(umpire, "g1", 10, f"marker {mid}", NORTH)
        assert plan is not None
        assert (f"It stops at A1816: A1815 is within 2 hexes of the enemy marker your troops "
                f"see at {where}") in plan.text
        assert plan.end == "A1816"
