"""Game ids people can say: ``tiny-1``, ``tiny-2``, counted per server and per scenario, on a
real database file; an explicit id still works, and every made id fits the bot's button ids."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from bot.views import GAME_ID
from storage.store import Store
from umpire.games.ids import MAX_ID, next_game_id, number_of
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError

FIXTURES = Path(__file__).parents[1] / "fixtures"
TINY = str(FIXTURES / "tiny.toml")
COMBAT = str(FIXTURES / "combat.toml")
HOST = 1
CLUB, OTHER_CLUB = 100, 200


def created_id(text: str) -> str:
    found = re.search(r"Game `([^`]+)` created", text)
    assert found is not None, text
    return found[1]


async def test_games_are_numbered_per_server_and_scenario(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))

        async def create(scenario: str, guild: int | None, channel: int | None) -> str:
            return created_id((await umpire.create_game(scenario, HOST, guild_id=guild,
                                                        channel_id=channel)).text)

        assert await create(TINY, CLUB, 1) == "tiny-1"
        assert await create(TINY, CLUB, 2) == "tiny-2"
        # Another scenario in the same server counts from 1.
        combat = await create(COMBAT, CLUB, 3)
        assert number_of(combat, "tiny") is None and combat.endswith("-1")
        # A game made outside Discord is numbered among its own: tiny-1 and tiny-2 are taken
        # by the club's games, so it passes over them.
        assert await create(TINY, None, None) == "tiny-3"
        # The club's next game: 1 + the highest it used (the outside game's 3 is not its own,
        # but its id is taken).
        assert await create(TINY, CLUB, 4) == "tiny-4"
        # Another server: its first number is free only after the ones taken.
        assert await create(TINY, OTHER_CLUB, 5) == "tiny-5"
        assert await create(TINY, OTHER_CLUB, 6) == "tiny-6"
        assert await create(TINY, CLUB, 7) == "tiny-7"
        for gid in ("tiny-1", "tiny-3", "tiny-7"):
            assert await umpire.game(gid) is not None


async def test_an_explicit_id_is_kept_and_a_taken_one_refused(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        reply = await umpire.create_game(TINY, HOST, game_id="g1")
        assert created_id(reply.text) == "g1"
        with pytest.raises(UmpireError, match="there is already a game 'g1'"):
            await umpire.create_game(TINY, HOST, game_id="g1", channel_id=9)
        assert [g.id for g in await store.list_games()] == ["g1"]
        # An explicit id that looks like a number counts for the server's next one.
        await umpire.create_game(TINY, HOST, game_id="tiny-8", guild_id=CLUB, channel_id=1)
        made = created_id((await umpire.create_game(TINY, HOST, guild_id=CLUB,
                                                    channel_id=2)).text)
        assert made == "tiny-9"


async def test_games_created_at_once_get_different_numbers(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        replies = await asyncio.gather(*(
            umpire.create_game(TINY, HOST, guild_id=CLUB, channel_id=c) for c in range(20)))
        # Twenty at once (a busy club, or a load test): none is told to try again.
        made = sorted((created_id(r.text) for r in replies), key=lambda i: int(i.split("-")[-1]))
        assert made == [f"tiny-{n}" for n in range(1, 21)]


def test_made_ids_fit_the_button_ids() -> None:
    long = "a" + "-very-long-scenario-name" * 3
    made = next_game_id(long, None, [])
    assert len(made) <= MAX_ID and re.fullmatch(GAME_ID, made)
    assert number_of(made, long) == 1
    assert next_game_id(long, None, [(made, None)]).endswith("-2")
    # Ids of other scenarios that share the stem's start are not counted.
    assert next_game_id("tiny", 5, [("tiny-big-3", 5), ("tiny-2", 6)]) == "tiny-1"
