"""The first reads after a restart: a game several players ask about at once is loaded once, and
warming a game up loads it and readies its board's renderer without drawing any picture."""

from __future__ import annotations

import asyncio
from pathlib import Path

from render import clear_cache, ground
from storage.store import Store
from tests.support.tiny_games import C1, U1, flank_game
from umpire.reads.maps import MapMaker
from umpire.service import Umpire


async def test_players_asking_at_once_after_a_restart_share_one_load(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    async with Store.open(db) as store:
        await flank_game(store, U1, C1)
    async with Store.open(db) as store:  # the restarted process
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        first, second, third = await asyncio.gather(
            *(umpire.repository.get("g1") for _ in range(3)))
        assert first is second is third
        assert umpire.repository.cached("g1") is first


async def test_warming_a_game_up_draws_no_picture(tmp_path: Path) -> None:
    """Warming up treats every game alike: it loads the game and has its board's whole layers
    drawn, and draws no picture of any view."""
    db = tmp_path / "club.db"
    async with Store.open(db) as store:
        await flank_game(store, U1, C1)
    clear_cache()
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=True))
        assert umpire.repository.cached("g1") is None
        await umpire.warm("g1")
        game = umpire.repository.cached("g1")
        assert game is not None and game.state.status == "active"
        assert game.pictures.counts("union").draws == game.pictures.counts(None).draws == 0
        await asyncio.to_thread(ground.settle)
        drawn = ground.whole_layers()
        assert [scale for _, scale, _ in drawn] == [scale for scale, _ in ground.ORDER]
        assert ground.kept_bytes() > 0
    clear_cache()
