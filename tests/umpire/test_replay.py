"""``/game replay`` through the umpire, on real database files: a past turn's map is rebuilt from
the log as the side knew it then (never what came later), a player replays only their own side
during play (every other side refused with the same words as one that does not exist), and
anyone who may read the game replays any side, or the umpire's view, once it is over."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules import commands as cmd
from rules.reading import event_from_json
from rules.state import initial_state
from storage.store import Store
from umpire.games import seats
from umpire.reads import replay
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError
from umpire.words import replies as wording

FIXTURES = Path(__file__).parents[1] / "fixtures"
TINY = str(FIXTURES / "tiny.toml")
HOST, BLUE, GREY, CAROL = 1, 10, 20, 30
USERS = {"blue": BLUE, "grey": GREY}


async def tiny_game(store: Store) -> Umpire:
    umpire = Umpire(store, maps=MapMaker(enabled=True))
    await umpire.create_game(TINY, HOST, game_id="g1", seed=bytes(32))
    await umpire.join("g1", BLUE, "blue")
    await umpire.join("g1", GREY, "grey")
    await umpire.start("g1", HOST)
    return umpire


async def until_moving(umpire: Umpire, side: str, turn: int) -> None:
    """Say done for the acting sides until ``side`` may move in ``turn``."""
    for _ in range(40):
        state = await umpire.repository.state_for("g1")
        if state.turn == turn and side in state.acting_sides() and state.current.allows("move"):
            return
        for acting in state.acting_sides():
            await umpire.handle("g1", USERS[acting], cmd.Done())
    raise AssertionError(f"{side} never got to move in turn {turn}")


async def two_turns(db: Path, *, grey_moves: bool) -> tuple[Umpire, Store]:
    """Blue moves its 2nd Brigade in turn 1 and again in turn 2; grey's battery moves in turn 2
    only if ``grey_moves``. The game stands in turn 2, after grey's movement."""
    store = await Store.open(db)
    try:
        umpire = await tiny_game(store)
        await until_moving(umpire, "blue", 1)
        await umpire.handle("g1", BLUE, cmd.Move(unit="2nd Brigade", route="A0106"))
        await until_moving(umpire, "blue", 2)
        await umpire.handle("g1", BLUE, cmd.Move(unit="2nd Brigade", route="A0206"))
        await until_moving(umpire, "grey", 2)
        if grey_moves:
            await umpire.handle("g1", GREY, cmd.Move(unit="Grey Battery", route="B0603"))
    except BaseException:
        await store.close()
        raise
    return umpire, store


async def test_a_past_turn_is_the_log_folded_to_that_turns_end(tmp_path: Path) -> None:
    umpire, store = await two_turns(tmp_path / "v.db", grey_moves=True)
    try:
        now = await umpire.repository.state_for("g1")
        board = now.loaded.board
        assert board.label(now.units["blue-2"].cell) == "A0206"
        events = [event_from_json(json.dumps(r.payload), r.audience)
                  for r in await store.events("g1")]
        then = replay.state_at_turn(initial_state(now.loaded), events, 1)
        assert then.turn == 1
        assert board.label(then.units["blue-2"].cell) == "A0106"
        assert board.label(then.units["grey-bat"].cell) == "B0703"
    finally:
        await store.close()


async def test_a_replayed_turn_never_shows_what_came_later(tmp_path: Path) -> None:
    frames = {}
    for moves in (True, False):
        umpire, store = await two_turns(tmp_path / f"{moves}.db", grey_moves=moves)
        try:
            frames[moves] = (await umpire.replay("g1", BLUE, None, 1),
                             await umpire.replay("g1", BLUE, "blue", 2))
        finally:
            await store.close()
    (past_a, now_a), (past_b, now_b) = frames[True], frames[False]
    assert past_a.image is not None
    assert (past_a.text, past_a.image) == (past_b.text, past_b.image)  # byte for byte
    assert now_a.image != now_b.image  # grey's move in turn 2 is on blue's map now (open)
    assert past_a.image != now_a.image
    assert past_a.text.startswith("Replay of game `g1`: Blue Army's map at the end of turn 1.")
    assert (past_a.side, past_a.turn, past_a.first, past_a.last) == ("blue", 1, 1, 2)
    assert "as it stands now" in now_a.text


async def test_during_play_only_the_own_side_may_be_replayed(tmp_path: Path) -> None:
    umpire, store = await two_turns(tmp_path / "v.db", grey_moves=True)
    try:
        last = await store.last_seq("g1")
        refusals = set()
        for side in ("grey", "umpire", "purple", " grey "):
            with pytest.raises(UmpireError) as refused:
                await umpire.replay("g1", BLUE, side, 1)
            refusals.add(str(refused.value))
        assert refusals == {replay.own_side_only("blue")}  # the same words for every one
        with pytest.raises(UmpireError) as outsider:
            await umpire.replay("g1", CAROL, "blue", 1)
        assert str(outsider.value) == wording.NOT_PLAYING
        for turn in (0, 3):
            with pytest.raises(UmpireError, match="choose a turn from 1 to 2"):
                await umpire.replay("g1", BLUE, "blue", turn)
        assert await store.last_seq("g1") == last  # nothing changed
    finally:
        await store.close()


async def test_after_the_end_every_side_and_the_umpire_may_be_replayed(tmp_path: Path) -> None:
    umpire, store = await two_turns(tmp_path / "v.db", grey_moves=True)
    try:
        during = await umpire.replay("g1", GREY, None, 1)
        await umpire.end_game("g1", HOST)
        grey = await umpire.replay("g1", BLUE, "grey", 1)
        assert grey.side == "grey" and grey.image == during.image
        whole = await umpire.replay("g1", CAROL, "umpire", 1)  # no server: anyone may read
        assert whole.text.startswith("Replay of game `g1`: Umpire's map at the end of turn 1")
        assert whole.image != grey.image
        assert (await umpire.replay("g1", CAROL)).side == "umpire"  # not a player: the truth
        assert (await umpire.replay("g1", BLUE)).side == "blue"
        with pytest.raises(UmpireError) as refused:
            await umpire.replay("g1", BLUE, "purple", 1)
        assert str(refused.value) == replay.no_such_side(("blue", "grey"))
    finally:
        await store.close()


async def test_an_outsider_is_told_how_to_see_a_server_games_replay(tmp_path: Path) -> None:
    """After the end, a server's game is replayed for its players and the server's members;
    anyone else is told what they can do instead, in words about the replay (not its status),
    and so for the check of the finished game."""
    store = await Store.open(tmp_path / "v.db")
    try:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(TINY, HOST, game_id="g1", guild_id=99, seed=bytes(32))
        await umpire.join("g1", BLUE, "blue", in_server=True)
        await umpire.join("g1", GREY, "grey", in_server=True)
        await umpire.start("g1", HOST)
        await umpire.end_game("g1", HOST)
        last = await store.last_seq("g1")
        with pytest.raises(UmpireError) as refused:
            await umpire.replay("g1", CAROL, "blue", 1)
        assert str(refused.value) == seats.NOT_SEEN_REPLAY
        assert "status" not in str(refused.value) and "game record" in str(refused.value)
        with pytest.raises(UmpireError) as unchecked:
            await umpire.verify_game("g1", CAROL)
        assert str(unchecked.value) == seats.NOT_SEEN_VERIFY
        assert "vedette verify --record" in str(unchecked.value)
        assert (await umpire.replay("g1", CAROL, "blue", 1, in_server=True)).side == "blue"
        assert (await umpire.replay("g1", BLUE, "grey", 1)).side == "grey"
        assert await store.last_seq("g1") == last  # nothing changed
    finally:
        await store.close()
