"""A game's options changed by several processes sharing one database at once.

The options are changed from what is stored when the change is written, in one transaction
holding the game's lock (``Store.change_options``, ``Umpire.change_game_options``): two stores
changing different keys, or different sides' entries of a per-side map, both keep their change.
The bot's record of its private threads (``bot.threads``) relies on it: a member it added and
then forgot would never be removed from the side's thread when unseated.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.threads import (
    MEMBERS_OPTION,
    THREADS_OPTION,
    UNREACHABLE_OPTION,
    record_sync,
    record_thread,
)
from storage.errors import NotFoundError
from storage.store import Store
from tests.support.tiny_games import BLUE, GREY, HOST, TINY
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

ROUNDS = 12


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def shared(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The database the processes share: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        return str(tmp_path / "shared.db")
    return str(request.getfixturevalue("pg_target"))


@asynccontextmanager
async def umpires(target: str) -> AsyncIterator[tuple[Umpire, Umpire]]:
    """Two umpires on ``target``, each with a store of its own, as two bot processes; game
    ``g`` made, in threads mode."""
    async with AsyncExitStack() as stack:
        a, b = [Umpire(await stack.enter_async_context(Store.open(target)),
                       maps=MapMaker(enabled=False)) for _ in range(2)]
        await a.create_game(TINY, HOST, game_id="g", seed=bytes(32))
        await a.set_game_options("g", {"delivery": "threads"})
        yield a, b


async def made(umpire: Umpire) -> dict[str, Any]:
    """The options the game was made with (its rules), and threads mode."""
    return {**(await umpire.store.get_game("g")).options}  # type: ignore[union-attr]


def with_key(key: str, value: Any) -> Any:
    return lambda options: {**options, key: value}


def with_side(side: str, value: Any) -> Any:
    return lambda options: {**options, "per_side": {**options.get("per_side", {}), side: value}}


async def test_two_stores_changing_different_keys_lose_neither(shared: str) -> None:
    async with umpires(shared) as (a, b):
        base = await made(a)
        await asyncio.gather(*(
            change for i in range(ROUNDS) for change in (
                a.store.change_options("g", with_key(f"a{i}", i)),
                b.store.change_options("g", with_key(f"b{i}", i)),
                a.store.change_options("g", with_side(f"blue{i}", [i])),
                b.store.change_options("g", with_side(f"grey{i}", [i])))))
        options = (await a.store.get_game("g")).options  # type: ignore[union-attr]
        assert base["delivery"] == "threads"
        assert options == {
            **base,
            **{f"a{i}": i for i in range(ROUNDS)}, **{f"b{i}": i for i in range(ROUNDS)},
            "per_side": {**{f"blue{i}": [i] for i in range(ROUNDS)},
                         **{f"grey{i}": [i] for i in range(ROUNDS)}}}


async def test_a_change_gets_the_options_as_stored_and_returns_the_game(shared: str) -> None:
    async with umpires(shared) as (a, b):
        base = await made(a)
        seen: list[dict[str, Any]] = []

        def change(options: dict[str, Any]) -> dict[str, Any]:
            seen.append(dict(options))
            return {**options, "b": 1}

        await a.set_game_options("g", {"a": 1})
        record = await b.store.change_options("g", change)
        assert seen == [{**base, "a": 1}]
        assert record.options == {**base, "a": 1, "b": 1}
        assert (await a.game("g")).options == record.options  # type: ignore[union-attr]


async def test_a_failing_change_or_an_unknown_game_changes_nothing(shared: str) -> None:
    async with umpires(shared) as (a, _):
        before = await a.store.get_game("g")

        def broken(options: dict[str, Any]) -> dict[str, Any]:
            raise ValueError("no")

        with pytest.raises(ValueError, match="no"):
            await a.store.change_options("g", broken)
        with pytest.raises(NotFoundError, match="nope"):
            await a.store.change_options("nope", with_key("x", 1))
        after = await a.store.get_game("g")
        assert after == before
        assert await a.store.get_game("nope") is None


async def test_set_game_options_keeps_the_keys_it_is_not_given(shared: str) -> None:
    async with umpires(shared) as (a, b):
        base = await made(a)
        await asyncio.gather(a.set_game_options("g", {"delivery": "dms"}),
                             b.set_game_options("g", {"other": 1}))
        assert (await a.game("g")).options == {  # type: ignore[union-attr]
            **base, "delivery": "dms", "other": 1}


async def test_two_processes_recording_threads_lose_no_member_no_thread(shared: str) -> None:
    """The outbox sender of one process records blue's thread and members while a command in
    the other records grey's, and the host changes nothing else: every record is kept, so
    that blue's player, once unseated, is still known to the bot as a member to remove."""
    async with umpires(shared) as (a, b):
        unreachable = GREY + 1
        await asyncio.gather(
            a.change_game_options("g", record_thread("blue", None, "101")),
            b.change_game_options("g", record_thread("grey", None, "202")))
        await asyncio.gather(
            a.change_game_options("g", record_sync("blue", had=[], now=[BLUE],
                                                   reported=[], cleared=[])),
            b.change_game_options("g", record_sync("grey", had=[], now=[GREY],
                                                   reported=[unreachable], cleared=[])),
            a.set_game_options("g", {"delivery": "threads"}))
        options = (await b.game("g")).options  # type: ignore[union-attr]
        assert options[THREADS_OPTION] == {"blue": "101", "grey": "202"}
        assert options[MEMBERS_OPTION] == {"blue": [BLUE], "grey": [GREY]}
        assert options[UNREACHABLE_OPTION] == {str(unreachable): "grey"}
        assert options["delivery"] == "threads"

        # Blue's player goes: the next sync removes them (had), and grey's record stays.
        await a.change_game_options("g", record_sync("blue", had=[BLUE], now=[],
                                                     reported=[], cleared=[]))
        options = (await b.game("g")).options  # type: ignore[union-attr]
        assert options[MEMBERS_OPTION] == {"blue": [], "grey": [GREY]}
        assert options[UNREACHABLE_OPTION] == {str(unreachable): "grey"}


async def test_two_syncs_of_one_side_keep_both_processes_additions(shared: str) -> None:
    async with umpires(shared) as (a, b):
        await a.change_game_options("g", record_thread("blue", None, "101"))
        await asyncio.gather(
            a.change_game_options("g", record_sync("blue", had=[], now=[BLUE],
                                                   reported=[], cleared=[])),
            b.change_game_options("g", record_sync("blue", had=[], now=[BLUE + 1],
                                                   reported=[BLUE + 2], cleared=[])))
        options = (await a.game("g")).options  # type: ignore[union-attr]
        assert options[MEMBERS_OPTION] == {"blue": [BLUE, BLUE + 1]}
        assert options[UNREACHABLE_OPTION] == {str(BLUE + 2): "blue"}
        # Reachable again: cleared from the side's unreachable players, members kept.
        await b.change_game_options("g", record_sync("blue", had=[BLUE], now=[BLUE],
                                                     reported=[], cleared=[BLUE + 2]))
        options = (await a.game("g")).options  # type: ignore[union-attr]
        assert options[MEMBERS_OPTION] == {"blue": [BLUE, BLUE + 1]}
        assert options[UNREACHABLE_OPTION] == {}


async def test_a_thread_made_twice_keeps_the_first_recorded(shared: str) -> None:
    """Two processes found no thread for blue and each made one: the first recorded is the
    side's, and the second's record changes nothing (its thread stays empty)."""
    async with umpires(shared) as (a, b):
        await a.change_game_options("g", record_thread("blue", None, "101"))
        await a.change_game_options("g", record_sync("blue", had=[], now=[BLUE],
                                                     reported=[], cleared=[]))
        game = await b.change_game_options("g", record_thread("blue", None, "303"))
        assert game.options[THREADS_OPTION] == {"blue": "101"}
        assert game.options[MEMBERS_OPTION] == {"blue": [BLUE]}
        # A thread found gone is replaced, its members starting afresh.
        game = await b.change_game_options("g", record_thread("blue", "101", "404"))
        assert game.options[THREADS_OPTION] == {"blue": "404"}
        assert game.options[MEMBERS_OPTION] == {"blue": []}
