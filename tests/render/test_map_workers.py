"""Maps drawn in worker processes (``umpire.reads.map_workers``): the very bytes the bot's own
process would draw, the board sent to a worker once, a drawing's error told to its asker, a
worker that dies replaced, and fair turns: the enemy asking for many maps at once delays a
side's map by at most one of them, never by the whole backlog. And the bot hosted that way: a
player's ``/map`` and the phase's gallery come through Discord as the very same pictures."""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from bench.samples import as_enemy, sample_map, sample_units, sample_view
from render.terrain import fingerprint
from rules.forces.words import Formation, MovementClass
from rules.ground.grid import Cell
from rules.state import GameState
from rules.view import GHOST, UnitView
from storage.store import Store
from tests.support.botkit import (
    MAPS,
    Table,
    final,
    game_id,
    running,
    settle,
    start_and_reach_blue_movement,
)
from umpire.reads.map_workers import Drawing, MapWorkers, pickled
from umpire.reads.maps import MapMaker
from umpire.service import Umpire


async def flank_march(folder: Path) -> GameState:
    """A started game of the shipped flank-march, as it stands."""
    async with Store.open(folder / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game("flank-march", 1, game_id="g")
        await umpire.join("g", 2, "union")
        await umpire.join("g", 3, "confederate")
        await umpire.start("g", 1)
        return (await umpire.repository.get("g")).state


@pytest.fixture
async def workers() -> AsyncIterator[MapMaker]:
    maps = MapMaker(workers=1)
    try:
        await maps.warm_up()  # as the bot does at its start
        yield maps
    finally:
        maps.close()


def pool_of(maps: MapMaker) -> MapWorkers:
    assert maps.workers is not None
    return maps.workers


async def test_a_worker_draws_the_very_bytes_the_bot_would(tmp_path: Path,
                                                           workers: MapMaker) -> None:
    state = await flank_march(tmp_path)
    here = MapMaker(workers=0)
    for side in ("union", "confederate", None):
        for how in ({"fitted": True}, {}, {"around": "B1118", "radius": 5}):
            drawn = await workers.side_map(state, side, **how)  # type: ignore[arg-type]
            assert drawn is not None and drawn[:8] == b"\x89PNG\r\n\x1a\n"
            assert drawn == await here.side_map(state, side, **how)  # type: ignore[arg-type]
    # Nine pictures on one board: the board went to the worker once.
    assert pool_of(workers).boards_sent == 1


async def test_a_label_that_cannot_be_read_is_the_askers_error(tmp_path: Path,
                                                               workers: MapMaker) -> None:
    state = await flank_march(tmp_path)
    with pytest.raises(ValueError, match="Atlantis"):
        await workers.side_map(state, "union", around="Atlantis")
    assert await workers.side_map(state, "union", fitted=True) is not None  # still drawing


async def test_a_worker_that_dies_is_replaced_and_the_picture_still_comes(
        tmp_path: Path, workers: MapMaker) -> None:
    state = await flank_march(tmp_path)
    first = await workers.side_map(state, "union", fitted=True)
    pool = pool_of(workers)
    [worker] = pool._workers
    for pid in list(worker.pool._processes or {}):
        os.kill(pid, signal.SIGKILL)
    again = await workers.side_map(state, "union", fitted=True)
    assert again == first
    assert pool.boards_sent == 2  # the new worker was sent the board afresh


async def finishing_order(pool: MapWorkers, state: GameState, greys: int) -> list[str]:
    """Who got their picture in which order, when Grey asks for ``greys`` maps at once and
    Blue (the union here) then for one."""
    done: list[str] = []

    async def ask(side: str, drawing: Drawing) -> None:
        await pool.draw(side, drawing)
        done.append(side)

    grey = MapMaker.view_drawn(state, "confederate", None)
    blue = MapMaker.view_drawn(state, "union", None)
    asking = [asyncio.create_task(ask("confederate", Drawing(grey, around=f"A{10 + k:02d}05")))
              for k in range(greys)]
    await asyncio.sleep(0)
    asking.append(asyncio.create_task(ask("union", Drawing(blue, fitted=True))))
    await asyncio.gather(*asking)
    return done


async def test_the_enemys_many_maps_delay_a_sides_map_by_one_at_most(
        tmp_path: Path, workers: MapMaker) -> None:
    state = await flank_march(tmp_path)
    pool = pool_of(workers)
    await workers.side_map(state, "union", fitted=True)  # the board is there
    quiet = await finishing_order(pool, state, 1)
    busy = await finishing_order(pool, state, 6)
    # One drawing of Grey's was under way when Blue asked; Blue's came next but for at most
    # one more of Grey's, however many Grey had asked for.
    assert quiet.index("union") == 1
    assert busy.index("union") <= 2
    assert len(busy) == 7


async def test_closed_workers_refuse_and_fail_what_waits(tmp_path: Path) -> None:
    state = await flank_march(tmp_path)
    maps = MapMaker(workers=1)
    view = MapMaker.view_drawn(state, "union", None)
    waiting = [asyncio.create_task(pool_of(maps).draw("union", Drawing(view)))
               for _ in range(3)]
    await asyncio.sleep(0)
    maps.close()
    results = await asyncio.gather(*waiting, return_exceptions=True)
    assert any(isinstance(r, RuntimeError) for r in results)
    with pytest.raises(RuntimeError, match="closed"):
        await pool_of(maps).draw("union", Drawing(view))


@pytest.mark.skipif(not MAPS, reason="the map renderer is not installed")
async def test_a_map_drawn_by_a_worker_reaches_the_player(table: Table) -> None:
    async with running(table, map_workers=1) as bot:
        await start_and_reach_blue_movement(table, bot)
        gid = await game_id(bot, table)
        await settle(bot)
        handle = await table.fake.slash("map", {"around": "Old Church", "radius": 3},
                                        user=table.alice)
        [attachment] = (await final(handle))["attachments"]
        sent = table.fake.world.blobs[int(attachment["id"])].data
        state = await bot.umpire.repository.state_for(gid)
        assert sent == await MapMaker(workers=0).side_map(state, "blue", around="Old Church",
                                                          radius=3)
        # The call for Blue's orders came with its phase map, drawn by the worker too.
        dms = table.fake.messages_in(table.fake.dm_channel(table.alice))
        assert any(m.get("attachments") for m in dms)
        workers = bot.umpire.maps.workers
        assert workers is not None and workers.boards_sent == 1


async def test_a_board_travels_as_what_defines_it(tmp_path: Path) -> None:
    """A board sent to a worker carries its terrain, roads and names, not the answers worked
    out from it meanwhile: it arrives as small as it was loaded, and draws the same."""
    state = await flank_march(tmp_path)
    gm = state.loaded.map
    fresh = len(pickle.dumps(gm))
    for cell in list(gm.grid.cells())[:200]:
        gm.cheapest_step(cell, MovementClass.FOOT, Formation.LINE)
        gm.grid.neighbours(cell)
        gm.board.label(cell)
    assert len(pickle.dumps(gm)) == fresh
    arrived = pickle.loads(pickle.dumps(gm))
    assert fingerprint(arrived) == fingerprint(gm)
    assert arrived.terrain == gm.terrain and arrived.hexsides == gm.hexsides
    assert all(arrived.board.label(c) == gm.board.label(c) for c in gm.grid.cells())
    assert arrived.board.parse("B1118") == gm.board.parse("B1118")


def test_a_view_arrives_as_it_left() -> None:
    """What a worker is sent is the view itself: every counter, every cell seen and blocked,
    whatever their number (they travel packed)."""
    gm = sample_map(34, 22, sheets=(2, 2), seed=3)
    mine = sample_units(gm, "union", 40, seed=1)
    theirs = as_enemy(sample_units(gm, "confederate", 30, seed=2), GHOST, turn=2)
    for seen in (None, frozenset(), frozenset(gm.grid.cells())):
        view = sample_view(gm, "union", [*mine, *theirs], information="hidden", seen=seen,
                           blocked=frozenset({Cell(3, 4), Cell(33, 21)}))
        arrived = pickle.loads(pickled(view))
        assert replace(arrived, game_map=gm) == view
        assert arrived.seen_cells == view.seen_cells and type(arrived.units[0]) is UnitView


async def test_a_map_a_player_waits_for_goes_before_his_sides_messages_maps(
        tmp_path: Path, workers: MapMaker) -> None:
    state = await flank_march(tmp_path)
    pool = pool_of(workers)
    await workers.side_map(state, "union", fitted=True)  # the board is there
    view = MapMaker.view_drawn(state, "union", None)
    done: list[str] = []

    async def ask(name: str, drawing: Drawing, now: bool) -> None:
        await pool.draw("union", drawing, now=now)
        done.append(name)

    asking = [asyncio.create_task(ask(f"message {k}", Drawing(view, around=f"A{10 + k:02d}05"),
                                      False)) for k in range(4)]
    await asyncio.sleep(0)
    asking.append(asyncio.create_task(ask("player", Drawing(view, fitted=True), True)))
    await asyncio.gather(*asking)
    # The first message's map was under way; the player's came next.
    assert done == ["message 0", "player", "message 1", "message 2", "message 3"]


async def test_before_the_workers_have_started_maps_are_drawn_here_the_same(
        tmp_path: Path) -> None:
    """The first map after a restart does not wait for the workers to start: it is drawn in
    the bot's own process, the same bytes; the workers are started meanwhile and draw the
    maps after."""
    state = await flank_march(tmp_path)
    maps = MapMaker(workers=1)
    try:
        pool = pool_of(maps)
        assert not pool.ready
        first = await maps.side_map(state, "union", fitted=True)
        assert first == await MapMaker(workers=0).side_map(state, "union", fitted=True)
        assert pool.boards_sent == 0  # drawn here, not sent
        await asyncio.wait_for(_started(pool), 60)
        assert await maps.side_map(state, "union", fitted=True) == first
        assert pool.boards_sent == 1
    finally:
        maps.close()


async def _started(pool: MapWorkers) -> None:
    while not pool.ready:
        await asyncio.sleep(0.05)
