"""A concealed force's preview halts it where the enemy its side knows of would: before a hex
within two hexes of an enemy marker on its map, naming that marker (ruling CF-22); a marker the
side cannot see yet changes nothing of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules import events as ev
from rules.commands import Done
from rules.concealed.commands import ConcealForce
from rules.ground.grid import Cell
from rules.state import GameState, apply
from storage.store import Store
from tests.support.concealed import COLSTON, SCENARIO, SEED
from umpire.reads.maps import MapMaker
from umpire.reads.player_settings import Preview
from umpire.reads.preview import plan_move
from umpire.service import Umpire

#: Thicket and woods hexes north of Colston's marker at A1817: its battery's MPs pay for two.
NORTH = "A1816 A1810"


async def concealed_colston(umpire: Umpire, users: dict[str, int]) -> str:
    """Colston's division concealed on turn 1, at the Confederate movement phase of turn 2;
    its marker's id."""
    await to_movement(umpire, users, 1)
    await umpire.handle("g1", users["confederate"], ConcealForce(leader=COLSTON))
    await to_movement(umpire, users, 2)
    [mid] = (await umpire.repository.state_for("g1")).markers
    return mid


async def to_movement(umpire: Umpire, users: dict[str, int], turn: int) -> None:
    for _ in range(60):
        state = await umpire.repository.state_for("g1")
        if (state.turn == turn and state.current.allows("move")
                and "confederate" in state.acting_sides()):
            return
        for acting in state.acting_sides():
            await umpire.handle("g1", users[acting], Done())
    raise AssertionError(f"never reached the Confederate movement phase of turn {turn}")


def _returning(state: GameState) -> Any:
    async def state_for(game_id: str) -> GameState:
        return state

    return state_for


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
