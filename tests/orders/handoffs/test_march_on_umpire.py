"""A standing order to continue the march set with no route: it takes the route of the unit's last
move, goes on along what is left of it while the player is done for the turn, and stops giving
moves at the route's end; without an earlier move, or for an enemy's name, it is refused and
nothing is stored (ruling FLOW-76)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules import commands as cmd
from rules.state import GameState
from storage.records import Recipient
from storage.store import Store
from tests.support.tiny_games import flank_game
from umpire.games.standing_orders import COMMAND_ACCEPTED
from umpire.service import Umpire, UmpireError

UNION, CONFEDERATE = 11, 21
#: Barlow's march from B1016: four waypoints, more than one turn's MPs (he stops at B0913).
ROUTE = "B1014 B0812 B0610 B0408"
END = "B0408"


async def _game(store: Store) -> Umpire:
    return await flank_game(store, UNION, CONFEDERATE)


async def _until(umpire: Umpire, *, turn: int, union_moves: bool) -> GameState:
    """``/done`` by hand in every phase up to the Union Movement Phase of ``turn``
    (``union_moves``) or to the start of ``turn``."""
    for _ in range(60):
        state = await umpire.repository.state_for("g1")
        here = (state.current.side == "union" and state.current.allows("move")) \
            if union_moves else True
        if state.turn == turn and here:
            return state
        for side in state.acting_sides():
            if side not in state.done:
                await umpire.done("g1", UNION if side == "union" else CONFEDERATE)
    raise AssertionError(f"turn {turn} not reached")


async def _moves_of_barlow(store: Store) -> list[str]:
    """The routes of the moves given to Barlow, as logged."""
    return [str(r.payload["command"]["route"])
            for r in await store.events_of_type("g1", COMMAND_ACCEPTED)
            if r.payload.get("kind") == "move" and r.payload["command"]["unit"] == "barlow"]


def _at(state: GameState, unit: str) -> str:
    cell = state.units[unit].cell
    assert cell is not None
    return state.loaded.board.label(cell)


async def _marched_turn(umpire: Umpire, turn: int) -> GameState:
    """The Union player says Done for the turn at the start of ``turn``; the Confederates
    /done by hand to the end of the Union Movement Phase."""
    await _until(umpire, turn=turn, union_moves=False)
    said = await umpire.done("g1", UNION, until_turn=True)
    assert f"done for the rest of turn {turn}" in said.text
    for _ in range(10):
        state = await umpire.repository.state_for("g1")
        if state.turn != turn or state.current.side == "confederate":
            return state
        if "confederate" in state.acting_sides() and "confederate" not in state.done:
            await umpire.done("g1", CONFEDERATE)
    raise AssertionError("the Union Movement Phase did not pass")


async def test_a_march_order_without_a_route_goes_on_along_the_last_move(
        tmp_path: Path) -> None:
    """Barlow's move stops half-way; ``continue the march`` with no route keeps that move's
    route and says so; in turn 2, with his player done for the turn, Barlow goes on from where
    he stands to the next waypoint and on, never back to the first; once at the route's end he
    is given no move, and nothing is said of it."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await _game(store)
        await _until(umpire, turn=1, union_moves=True)
        await umpire.handle("g1", UNION, cmd.Move(unit="barlow", route=ROUTE))
        first = await umpire.repository.state_for("g1")
        stop = _at(first, "barlow")
        assert stop not in ROUTE.split()  # on the way between two waypoints
        said = await umpire.set_standing("g1", UNION, "Barlow", "march")
        assert f"Barlow's brigade: continue the march along {ROUTE}" in said.text
        assert await store.standing_orders("g1", "union") == [
            ("barlow", "march", ROUTE, UNION)]
        listed = await umpire.standing_list("g1", UNION)
        assert f"continue the march along {ROUTE}" in listed.text

        state = await _marched_turn(umpire, 2)
        board, grid = state.loaded.board, state.loaded.map.grid
        moves = await _moves_of_barlow(store)
        assert moves[0] == ROUTE and moves[1] == "B0812 B0610 B0408", moves
        end = board.parse(END)
        assert grid.distance(state.units["barlow"].cell, end) < \
            grid.distance(first.units["barlow"].cell, end)

        for turn in range(3, 8):
            state = await _marched_turn(umpire, turn)
            if _at(state, "barlow") == END:
                break
        assert _at(state, "barlow") == END
        given = len(await _moves_of_barlow(store))
        before = await _told(store)
        state = await _marched_turn(umpire, turn + 1)
        assert _at(state, "barlow") == END
        assert len(await _moves_of_barlow(store)) == given
        # The news of that turn reaches the Union with its next call for orders.
        await _until(umpire, turn=turn + 2, union_moves=True)
        told = await _told(store)
        new = [text for text in told if text not in before]
        assert new  # the turn was told
        # Barlow is named in the lists of orders, never as doing (or refused) anything.
        assert not [text for text in new if re.search(
            r"Barlow's brigade (moved|halted|stopped|could|cannot|can't|may not)", text)], new


async def _told(store: Store) -> list[str]:
    """Everything the Union player was sent, and the news held for them or their side."""
    sent = [d.text for d in await store.deliveries_for(
        "g1", Recipient("player", str(UNION)), Recipient("side", "union"), limit=1000)]
    held = [h.text for key, news in (await store.held_news("g1")).items()
            if key.startswith("union") for h in news]
    return sent + held


async def test_a_unit_never_moved_has_no_march_to_go_on_with(tmp_path: Path) -> None:
    """``continue the march`` with no route for a unit the side never moved: a clear answer,
    nothing stored; ``route:`` still gives a new route."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await _game(store)
        with pytest.raises(UmpireError) as refused:
            await umpire.set_standing("g1", UNION, "barlow", "march")
        assert str(refused.value) == ("Barlow's brigade has no move to go on with: give route: "
                                      "(as /move takes it); nothing was changed")
        assert await store.standing_orders("g1", "union") == []
        said = await umpire.set_standing("g1", UNION, "barlow", "march", "B0915")
        assert "continue the march along B0915" in said.text


async def _enemy_moved(umpire: Umpire) -> str:
    """The Confederates move one of their brigades a cell in their Movement Phase of turn 1;
    its id."""
    await _until(umpire, turn=1, union_moves=True)
    await umpire.done("g1", UNION)
    state = await umpire.repository.state_for("g1")
    assert state.current.side == "confederate" and state.current.allows("move")
    grid = state.loaded.map.grid
    for unit in state.units_of("confederate"):
        if unit.cell is None or unit.is_leader or "flank-march" in unit.tags:
            continue
        for cell in grid.neighbours(unit.cell):
            try:
                await umpire.handle("g1", CONFEDERATE, cmd.Move(
                    unit=unit.id, route=state.loaded.board.label(cell)))
            except UmpireError:
                continue
            return unit.id
    raise AssertionError("no Confederate brigade could move")


async def test_an_enemy_name_gets_the_answer_no_unit_gets_even_after_its_move(
        tmp_path: Path) -> None:
    """A Confederate brigade the Confederates have just moved, named in the Union's
    ``continue the march``: the words a name of no unit gets; nothing stored."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await _game(store)
        enemy = (await umpire.repository.state_for("g1")).units[await _enemy_moved(umpire)]
        answers = []
        for name in (enemy.id, enemy.name, "nobody-at-all"):
            with pytest.raises(UmpireError) as refused:
                await umpire.set_standing("g1", UNION, name, "march")
            answers.append(str(refused.value).replace(repr(name), "X"))
        assert answers[0] == answers[1] == answers[2]
        assert await store.standing_orders("g1", "union") == []


async def _union_answer(folder: Path, *, enemy_moves: bool) -> str:
    """The Union's answer to ``continue the march`` for a unit it never moved, with or
    without a Confederate move in the log."""
    async with Store.open(folder / "v.db") as store:
        umpire = await _game(store)
        if enemy_moves:
            await _enemy_moved(umpire)
        else:
            await _until(umpire, turn=1, union_moves=True)
            await umpire.done("g1", UNION)
        with pytest.raises(UmpireError) as refused:
            await umpire.set_standing("g1", UNION, "barlow", "march")
        return str(refused.value)


async def test_the_answer_does_not_depend_on_the_enemy_s_moves(tmp_path: Path) -> None:
    """Only the side's own orders are read for the route: the Union's answer is the same
    whether or not the Confederates gave a move."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with_move = await _union_answer(tmp_path / "a", enemy_moves=True)
    without = await _union_answer(tmp_path / "b", enemy_moves=False)
    assert with_move == without
    assert "no move to go on with" in with_move


async def test_a_march_order_with_a_route_goes_on_from_where_the_unit_stands(
        tmp_path: Path) -> None:
    """The same with ``route:`` given: the march does not send the unit back to the first
    waypoint it passed."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await _game(store)
        await _until(umpire, turn=1, union_moves=True)
        await umpire.handle("g1", UNION, cmd.Move(unit="barlow", route=ROUTE))
        await umpire.set_standing("g1", UNION, "barlow", "march", ROUTE)
        await _marched_turn(umpire, 2)
        assert (await _moves_of_barlow(store))[1:] == ["B0812 B0610 B0408"]
