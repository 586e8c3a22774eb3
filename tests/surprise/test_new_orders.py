"""Surprise Move: new orders that outlast the march being set off (SM, "Voluntary
Cancellation"), and forced-march MPs chosen turn by turn (SM, "Forced Marches").

From the article: once new orders have arrived the force rolls for their acceptance; until they
are accepted the surprise order must be followed, the player may still carry it out, and goes on
rolling for the new orders meanwhile. Forced-march MPs, up to four, may be added each turn, with
straggler checks rolled in secret, even while the saved MPs are being unwound.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from rules import commands as cmd
from rules.refusal import Refusal
from rules.surprise import records as rec
from rules.surprise.commands import (
    CancelSurpriseMove,
    ExecuteSurpriseMove,
    OrderSurpriseMove,
    SetForcedMarch,
)
from rules.view import SideView, project
from tests.fakediscord import FakeDiscord
from tests.support.botkit import private_answer, started_game, text_of
from tests.support.surprise import FORCE, ROUTE, Dice, Game, accepted, horse_near, scenario_file

COMBAT_UNITS = ("blue-1", "blue-2", "blue-3", "blue-cav")


def acceptance_rolls(game: Game, since: int = 0) -> list[Any]:
    return [e for e in game.events[since:]
            if e.type == "die_rolled" and "new orders" in e.purpose]  # type: ignore[attr-defined]


def straggler_rolls(game: Game, since: int = 0) -> list[Any]:
    return [e for e in game.events[since:]
            if e.type == "die_rolled" and "stragglers" in e.purpose]  # type: ignore[attr-defined]


def enemy_side(game: Game, since: int = 0) -> list[dict[str, Any]]:
    """Everything Grey is sent: events addressed to it, and public ones."""
    return [e.model_dump() for e in game.events[since:]
            if e.audience in ("side:grey", "public")]


def grey_view(game: Game) -> SideView:
    """Grey's view of the game (its map's ground left out: each game loads its own)."""
    return replace(project(game.state, "grey"), game_map=None)



def grey_horse_triggers(game: Game, turn: int) -> None:
    """In Grey's movement phase of ``turn`` the Grey Horse ends its movement two hexes from the
    force, which triggers the march when the phase ends (ruling SM-13)."""
    game.to(turn, "movement", "grey")
    horse_near(game)
    game.do("grey", cmd.Move(unit="Grey Horse", route="A0103"))
    game.step()
    assert game.march()["status"] == rec.TRIGGERED

def set_off(game: Game, how: str) -> None:
    """New orders (reverse) are sent in turn 2's Command Phase (5 MPs + 6 saved: they reach
    the force in turn 4); then the march is set off in turn 2 by choice, discovered in turn 2, or
    triggered in turn 2 (marching in turn 3)."""
    game.to(2, "command")
    game.do("blue", CancelSurpriseMove(mode="reverse"))
    assert game.march()["cancel"]["arrives_turn"] == 4
    if how == "voluntary":
        game.do("blue", ExecuteSurpriseMove())  # allowed while new orders are on their way
        assert game.march()["execute_queued"]
    elif how == "triggered":
        grey_horse_triggers(game, 2)
    game.to(3, "movement", "grey")
    record = game.march()
    assert record["status"] == rec.EXECUTED
    assert record["run"]["kind"] == how


# -- new orders outlast the march ------------------------------------------------------------------
@pytest.mark.parametrize("how", ["voluntary", "discovered", "triggered"])
def test_new_orders_still_arrive_and_are_rolled_for_after_the_march(how: str) -> None:
    # The second accumulation roll (column 2) fails on a 6: the march is discovered in turn 2.
    game = accepted(Dice(accumulation=[1, 6] if how == "discovered" else []))
    set_off(game, how)
    # The march is over; the new orders are still on their way.
    assert game.march()["cancel"] is not None
    game.to(4, "command")
    assert not acceptance_rolls(game)
    since = len(game.events)
    game.to(4, "movement", "blue")
    assert len(acceptance_rolls(game, since)) == 1
    record = game.march()
    assert record["cancel"] is None
    assert record["superseded"] == {"mode": "reverse", "turn": 4}
    assert record["status"] == rec.EXECUTED  # nothing to reverse: the MPs are spent
    assert "surprise_reversed" not in game.types(since)
    told = game.reports("blue", since)
    assert any("New orders accepted" in t and "follows its new orders" in t for t in told)
    assert not game.reports("grey", since)



def test_the_owner_still_sees_new_orders_on_their_way_after_the_march() -> None:
    """A march carried out while new orders are on their way stays in its owner's view (for
    ``/march status``), with the orders and when they arrive, and no route left to draw; the
    enemy's view has no word of it."""
    game = accepted()
    set_off(game, "voluntary")  # carried out in turn 3; the orders arrive in turn 4
    assert game.march()["status"] == rec.EXECUTED
    note = project(game.state, "blue").notes["surprise_move"]
    [march] = note.marches  # type: ignore[attr-defined]
    assert march.cancel is not None and march.cancel.arrives_turn == 4
    assert march.route_cells == ()
    assert "surprise_move" not in project(game.state, "grey").notes
    game.to(4, "movement", "blue")  # accepted: the march leaves the owner's view
    assert "surprise_move" not in project(game.state, "blue").notes

def test_new_orders_go_on_being_rolled_for_each_command_phase() -> None:
    # Azure's rating adds 1: 4 + 1 is delayed, 8 + 1 accepts.
    game = accepted(Dice(acceptance=[4, 8]))
    set_off(game, "voluntary")
    game.to(5, "command")
    assert len(acceptance_rolls(game)) == 1
    assert game.march()["cancel"] is not None  # delayed, still pending
    game.to(5, "movement", "blue")
    assert len(acceptance_rolls(game)) == 2
    assert game.march()["cancel"] is None and game.march()["superseded"]["turn"] == 5


def test_refused_new_orders_after_the_march_are_lost() -> None:
    game = accepted(Dice(acceptance=[2]))  # 2 + 1: refused
    set_off(game, "voluntary")
    since = len(game.events)
    game.to(4, "movement", "blue")
    assert game.march()["cancel"] is None and "superseded" not in game.march()
    assert any("refused and lost" in t for t in game.reports("blue", since))


def test_new_orders_accepted_before_a_triggered_march_moves_do_not_stop_it() -> None:
    game = accepted()
    game.to(2, "command")
    game.do("blue", CancelSurpriseMove(mode="reverse"))  # reaches the force in turn 4
    grey_horse_triggers(game, 3)
    game.to(4, "movement", "blue")
    record = game.march()
    # Accepted in turn 4's Command Phase, yet the triggered march still spends half its MPs.
    assert record["superseded"] == {"mode": "reverse", "turn": 4}
    assert record["status"] == rec.EXECUTED and record["run"]["kind"] == "triggered"
    assert "surprise_reversed" not in game.types()


def test_new_orders_accepted_after_the_march_is_set_to_go_do_not_take_it_back() -> None:
    game = accepted(Dice(acceptance=[8]))
    game.to(2, "command")
    # Given in person (no army commander on the map): rolled for at the end of this very
    # phase, after the owner has set the march off.
    game.place(**{"blue-hq": None})
    game.do("blue", CancelSurpriseMove(mode="reverse"))
    assert game.march()["cancel"]["arrives_turn"] == 2
    game.do("blue", ExecuteSurpriseMove())
    game.to(2, "movement", "blue")
    record = game.march()
    assert record["superseded"] == {"mode": "reverse", "turn": 2}
    assert record["status"] == rec.EXECUTED and record["run"]["kind"] == "voluntary"


def play_new_orders(with_new_orders: bool) -> Game:
    game = accepted()
    game.to(2, "command")
    if with_new_orders:
        game.do("blue", CancelSurpriseMove(mode="execute"))
    game.do("blue", ExecuteSurpriseMove())
    game.to(5, "command")
    return game


def test_the_enemy_learns_nothing_of_new_orders_after_the_march() -> None:
    plain, pending = play_new_orders(False), play_new_orders(True)
    assert pending.march()["superseded"]["turn"] == 4
    assert enemy_side(plain) == enemy_side(pending)
    assert grey_view(plain) == grey_view(pending)
    # The comparison can fail: Blue's own side is told of the new orders.
    assert plain.reports("blue") != pending.reports("blue")


# -- forced marches, turn by turn ------------------------------------------------------------------
def test_forced_march_mps_are_chosen_turn_by_turn_and_stand_until_changed() -> None:
    game = accepted()
    game.do("blue", SetForcedMarch(mp=3))
    since = len(game.events)
    game.to(3, "command")  # turns 1 and 2: 6 + 3 each
    assert game.march()["accumulated_mp"] == 18.0
    assert game.march()["forced"] == 3
    rolls = straggler_rolls(game, since)
    assert len(rolls) == 8 and {r.column for r in rolls} == {"3"}
    assert all(r.audience == "side:blue" for r in rolls)
    game.do("blue", SetForcedMarch(mp=0))
    since = len(game.events)
    game.to(4, "command")
    assert game.march()["accumulated_mp"] == 24.0 and not straggler_rolls(game, since)
    # Set off with forced marching chosen again: the turn's allowance and MPs count.
    game.do("blue", SetForcedMarch(mp=4))
    game.do("blue", ExecuteSurpriseMove())
    game.to(4, "movement", "blue")
    assert game.march()["run"]["budget"] == 24.0 + 6 + 4


def test_forced_march_mps_for_a_march_not_yet_accepted() -> None:
    game = Game(dice=Dice(acceptance=[2], initiative=[]))
    game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE, forced=1))
    game.do("blue", SetForcedMarch(mp=2))
    assert game.march()["forced"] == 2 and game.march()["status"] == rec.SENT
    assert any("+2 MP" in t for t in game.reports("blue"))


def test_the_first_choice_is_the_orders() -> None:
    game = accepted(forced=2)
    assert game.march()["forced"] == 2
    ordered = next(e for e in game.events if e.type == "surprise_ordered")
    assert ordered.record["forced"] == 2  # type: ignore[attr-defined]


@pytest.mark.parametrize(("mp", "why"), [(5, "at most 4 MPs"), (-1, "cannot be negative"),
                                         (2, "already")])
def test_bad_forced_march_choices_are_refused(mp: int, why: str) -> None:
    game = accepted(forced=2)
    before = game.state
    with pytest.raises(Refusal, match=why):
        game.do("blue", SetForcedMarch(mp=mp))
    assert game.state == before


def test_forced_marching_only_for_ones_own_open_march() -> None:
    game = accepted()
    with pytest.raises(Refusal, match="no surprise move under way") as enemy:
        game.do("grey", SetForcedMarch(march="m1", mp=2))
    with pytest.raises(Refusal, match="no surprise move under way") as none:
        game.do("grey", SetForcedMarch(march="zz", mp=2))
    # Naming the enemy's march reads as naming nothing at all.
    assert str(enemy.value).replace("'m1'", "X") == str(none.value).replace("'zz'", "X")
    game.to(2, "command")
    game.do("blue", ExecuteSurpriseMove())
    game.to(2, "movement", "grey")
    assert game.march()["status"] == rec.EXECUTED
    before = game.state
    with pytest.raises(Refusal, match="executed"):
        game.do("blue", SetForcedMarch(march="m1", mp=2))
    assert game.state == before


def test_no_forced_march_for_a_triggered_march() -> None:
    game = accepted()
    grey_horse_triggers(game, 2)
    with pytest.raises(Refusal, match="triggered"):
        game.do("blue", SetForcedMarch(mp=2))


def strengths(game: Game, side: str) -> dict[str, int | None]:
    return {u.ref: u.strength for u in project(game.state, side).units if u.ref in COMBAT_UNITS}


def reversing(forced: int) -> Game:
    """A force reversing from turn 3 (12 MPs saved), marching ``forced`` MPs a turn chosen after
    the new orders; played to Grey's movement phase of turn 3."""
    game = accepted(Dice(initiative=[2, 2], stragglers=[6] * 8))
    game.to(3, "command")
    game.do("blue", CancelSurpriseMove(mode="reverse", by_initiative=True))
    if forced:
        game.do("blue", SetForcedMarch(mp=forced))
    game.to(3, "movement", "grey")
    assert game.march()["status"] == rec.REVERSING
    return game


def test_a_reversing_force_marching_forced_checks_stragglers_in_secret() -> None:
    plain, game = reversing(0), reversing(2)
    record = game.march()
    assert record["accumulated_mp"] == 12.0 - 8.0
    assert plain.march()["accumulated_mp"] == 12.0 - 6.0
    rolls = straggler_rolls(game)
    assert len(rolls) == 4 and {r.column for r in rolls} == {"2"}
    assert all(r.audience == "side:blue" for r in rolls)
    assert not straggler_rolls(plain)
    assert sum(record["stragglers"].values()) > 0
    noted = [e for e in game.events if e.type == "surprise_stragglers"]
    assert noted and all(e.audience == "side:blue" for e in noted)
    # The enemy is sent the same, and sees the units' strength unchanged.
    assert enemy_side(game) == enemy_side(plain)
    assert strengths(game, "grey") == strengths(plain, "grey")
    assert grey_view(game) == grey_view(plain)
    assert strengths(game, "blue") == strengths(plain, "blue")  # the roster waits, secret
    # When the reversal ends the losses come off, for everyone to see.
    seen = strengths(game, "grey")
    game.to(4, "movement", "grey")
    assert game.march()["status"] == rec.CANCELLED
    after = strengths(game, "grey")
    assert sum(v or 0 for v in after.values()) < sum(v or 0 for v in seen.values())


# -- /march forced through the bot -----------------------------------------------------------------
async def test_march_forced_through_the_bot(fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, scenario_file(tmp_path), ("blue", "grey"),
                            maps=True) as (bot, alice, bob):
        [group] = [c for c in bot.command_payload() if c["name"] == "march"]
        forced = next(o for o in group["options"] if o["name"] == "forced")
        assert {o["name"] for o in forced["options"]} >= {"mp", "march"}
        await bot.umpire.handle("g1", alice.id, OrderSurpriseMove(force="1st Brigade",
                                                                   route="road A1005"))
        offered = await fake.autocomplete("march forced", {"march": "", "mp": 1},
                                          focused="march", user=alice)
        assert len((await offered.response()).choices) == 1  # its own march, under way
        told = await private_answer(fake, "march forced", alice, {"mp": 3})
        assert "+3 MP" in text_of(told)
        state = await bot.umpire.repository.state_for("g1")
        assert rec.march(state, "blue:m1")["forced"] == 3
        refused = await private_answer(fake, "march forced", alice, {"mp": 9})
        assert "at most 4 MPs" in text_of(refused)
        theirs = await private_answer(fake, "march forced", bob, {"mp": 1, "march": "m1"})
        assert "no surprise move under way" in text_of(theirs)
        state = await bot.umpire.repository.state_for("g1")
        assert rec.march(state, "blue:m1")["forced"] == 3
