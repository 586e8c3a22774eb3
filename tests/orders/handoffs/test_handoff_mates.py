"""Done for the turn on a side of two players: the player whose Done stands is not called while
the side-mate is, and what the call told is held for that player (ruling FLOW-70). Concealed
Forces in a Command Phase, and a march order that goes on along the unit's last move, are
tested in ``test_march_on_command_phase`` and ``test_march_on_umpire``."""

from __future__ import annotations

from pathlib import Path

from storage.held_news import Held
from storage.records import DeliveryRecord, Recipient
from storage.store import Store
from umpire.demo.main import SCENARIO as FLANK_MARCH
from umpire.demo.main import SEEDS, WITHOUT
from umpire.games import ready
from umpire.games.inbox import fold, holder
from umpire.games.routing import Message, Piece
from umpire.reads.maps import MapMaker
from umpire.service import Umpire
from umpire.words.dossier import Section

#: Two Union players and one Confederate.
RESTING, MATE, GREY = 11, 12, 21


async def _shared_game(store: Store) -> Umpire:
    umpire = Umpire(store, maps=MapMaker(enabled=False))
    await umpire.create_game(FLANK_MARCH, RESTING, game_id="g1", without=WITHOUT,
                             seed=SEEDS["success"])
    await umpire.join("g1", RESTING, "union")
    await umpire.join("g1", MATE, "union")
    await umpire.join("g1", GREY, "confederate")
    await umpire.start("g1", RESTING)
    return umpire


async def _sent(store: Store, who: Recipient) -> list[DeliveryRecord]:
    return await store.deliveries_for("g1", who, limit=500)


def _player(user: int) -> Recipient:
    return Recipient("player", str(user))


async def _first_turn(store: Store, *, whole: bool) -> list[int]:
    """Turn 1 with the Union's first player Done for the turn in the Command Phase (``whole``)
    or typing ``/done`` at the start of each Union phase; the Union steps played."""
    umpire = await _shared_game(store)
    await umpire.done("g1", RESTING, until_turn=whole)
    await umpire.done("g1", MATE)
    await umpire.done("g1", GREY)
    union_steps: list[int] = []
    for _ in range(20):
        state = await umpire.repository.state_for("g1")
        if state.turn != 1:
            break
        acting = state.acting_sides()
        if "union" in acting and "union" not in state.done:
            union_steps.append(state.step)
            if not whole:
                await umpire.done("g1", RESTING)
            await umpire.done("g1", MATE)
        if "confederate" in acting:
            await umpire.done("g1", GREY)
    assert (await umpire.repository.state_for("g1")).turn == 2
    return union_steps


async def test_a_player_done_for_the_turn_is_not_called_while_the_side_mate_is(
        tmp_path: Path) -> None:
    """In each later Union phase of the turn, the player whose Done for the turn stands gets
    no call for orders; the side-mate does, and reads that the first player is ready. The
    Done ends with the turn: both are called to turn 2's Command Phase."""
    async with Store.open(tmp_path / "v.db") as store:
        steps = await _first_turn(store, whole=True)
        assert steps
        resting = await _sent(store, _player(RESTING))
        mate = await _sent(store, _player(MATE))
        for step in steps:
            key = ready.orders_key("union", 1, step)
            assert [d for d in resting if d.edit_key == key] == []
            calls = [d for d in mate if d.edit_key == key]
            assert calls, step
            assert ready.READY_NOTE in calls[-1].text, calls[-1].text
        next_turn = ready.orders_key("union", 2, 0)
        assert any(d.edit_key == next_turn for d in resting)
        assert any(d.edit_key == next_turn for d in mate)


async def test_the_enemy_hears_the_same_whether_a_union_player_stands_or_types_done(
        tmp_path: Path) -> None:
    """Non-interference: the Confederate player's messages and the channel's posts are word
    for word the same whether the Union's first player said Done for the turn or typed
    ``/done`` at the start of each Union phase."""
    heard = []
    for whole in (True, False):
        folder = tmp_path / str(whole)
        folder.mkdir()
        async with Store.open(folder / "v.db") as store:
            await _first_turn(store, whole=whole)
            heard.append(([d.text for d in await _sent(store, _player(GREY))],
                          [d.text for d in await _sent(store, Recipient("public", ""))]))
    assert heard[0] == heard[1]
    assert heard[0][0] and heard[0][1]


def test_what_the_call_told_is_held_for_the_player_it_skipped() -> None:
    """The call goes to the side without the resting player, who holds what it told (the
    side's held news and the batch's news, not the call); their next call opens with it, and
    only theirs does."""
    news = Message("side", "union", "Jackson was seen at the ford.", section=Section.SEEN)
    call = Message("side", "union", "Your orders: the Union Movement Phase.",
                   piece=Piece.CALL, section=Section.CALL, edit_key="orders:union:1:3")
    first = fold([news, call], {"union": [Held("happened", "Barlow fell back.")]},
                 acting={"union"}, resting={"union": (RESTING,)})
    [sent] = first.messages
    assert sent.skip == (RESTING,) and "Jackson" in sent.text and "Barlow" in sent.text
    kept = [h.text for h in first.hold[holder("union", RESTING)]]
    assert kept == ["Barlow fell back.", "Jackson was seen at the ford."]
    assert "union" in first.release
    later = Message("side", "union", "Your orders: the Union Fire Phase.", piece=Piece.CALL,
                    section=Section.CALL, edit_key="orders:union:1:4")
    second = fold([later], {holder("union", RESTING): first.hold[holder("union", RESTING)]},
                  acting={"union"})
    own, side = second.messages
    assert own.only == (RESTING,) and "Jackson" in own.text and "Fire Phase" in own.text
    assert side.skip == (RESTING,) and "Jackson" not in side.text
    assert holder("union", RESTING) in second.release
    ending = fold([], {holder("union", RESTING): [Held("happened", "Barlow fell back.")]},
                  ending=True)
    [last] = ending.messages
    assert last.target == "union" and last.only == (RESTING,) and "Barlow" in last.text
