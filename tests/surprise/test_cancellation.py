"""Surprise Move: new orders for a force on a surprise move (execute as it stands, or reverse),
their delay, and countermanding an order not yet accepted."""

from __future__ import annotations

import pytest

from rules import commands as cmd
from rules.refusal import Refusal
from rules.surprise import records as rec
from rules.surprise.commands import CancelSurpriseMove, ExecuteSurpriseMove, OrderSurpriseMove
from tests.support.surprise import FORCE, ROUTE, Dice, Game, accepted


def test_the_articles_example_twenty_mps_away_and_twelve_saved_is_four_turns() -> None:
    game = accepted()
    game.place(**{"blue-hq": "A2405"})  # twenty MPs down the road from General Azure
    game.to(3, "command")
    assert game.march()["accumulated_mp"] == 12.0
    game.do("blue", CancelSurpriseMove(mode="reverse"))
    cancel = game.march()["cancel"]
    assert (cancel["distance_mp"], cancel["arrives_turn"]) == (32.0, 3 + 4)
    assert any("32 MP to travel" in t for t in game.reports("blue"))
    with pytest.raises(Refusal, match="already on their way"):
        game.do("blue", CancelSurpriseMove(mode="execute"))
    # Until they arrive and are accepted the march goes on, saving MPs.
    game.to(7, "command")
    assert game.march()["status"] == rec.ACCUMULATING
    assert game.march()["accumulated_mp"] == 36.0
    game.to(7, "movement", "blue")
    assert game.march()["status"] == rec.REVERSING


def test_new_orders_only_in_the_command_phase() -> None:
    game = accepted()
    game.to(1, "movement", "blue")
    with pytest.raises(Refusal, match="Command Phase"):
        game.do("blue", CancelSurpriseMove(mode="execute"))


def test_execute_as_it_stands_then_free() -> None:
    game = accepted()
    game.to(2, "command")
    game.do("blue", CancelSurpriseMove(mode="execute"))  # 5 MPs + 6 saved: arrives turn 4
    assert game.march()["cancel"]["arrives_turn"] == 4
    game.to(4, "movement", "blue")
    record = game.march()
    assert record["status"] == rec.EXECUTED and record["run"]["kind"] == "voluntary"
    assert record["run"]["budget"] == 18.0 + 6.0  # turns 1-3 saved, and this turn's allowance


def test_setting_the_march_off_keeps_new_orders_on_their_way() -> None:
    game = accepted()
    game.to(2, "command")
    game.do("blue", CancelSurpriseMove(mode="reverse"))
    game.do("blue", ExecuteSurpriseMove())
    game.to(2, "movement", "blue")
    # Ruling SM-14: the new orders still arrive and are rolled for after the march.
    assert game.march()["status"] == rec.EXECUTED and game.march()["cancel"] is not None
    game.to(5, "command")
    assert game.march()["status"] == rec.EXECUTED and game.march()["cancel"] is None
    assert game.march()["superseded"] == {"mode": "reverse", "turn": 4}


def test_reversing_unwinds_the_saved_mps_until_none_are_left() -> None:
    game = accepted(Dice(initiative=[2, 2]))
    game.to(3, "command")
    game.do("blue", CancelSurpriseMove(mode="reverse", by_initiative=True))
    assert game.march()["status"] == rec.REVERSING
    game.to(3, "movement", "grey")
    assert game.march()["accumulated_mp"] == 6.0 and game.march()["attempts"] == 3
    game.to(4, "movement", "grey")
    record = game.march()
    assert record["status"] == rec.CANCELLED and record["accumulated_mp"] == 0.0
    assert game.state.units["blue-1"].cell == game.cell("A0405")  # never moved
    game.to(5, "movement", "blue")
    game.do("blue", cmd.Move(unit="1st Brigade", route="A0505"))  # free again


def test_reversing_with_a_forced_march_still_checks_stragglers() -> None:
    game = accepted(Dice(initiative=[2, 2]), forced=2)
    game.to(3, "command")
    game.do("blue", CancelSurpriseMove(mode="reverse", by_initiative=True))
    before = len([e for e in game.events if e.type == "die_rolled" and "stragglers" in e.purpose])
    game.to(3, "movement", "grey")
    after = len([e for e in game.events if e.type == "die_rolled" and "stragglers" in e.purpose])
    assert after - before == 4  # one check for each combat unit
    assert game.march()["accumulated_mp"] == 16.0 - 8.0


def test_discovery_while_reversing_is_a_trigger() -> None:
    game = accepted(Dice(initiative=[2, 2], accumulation=[1, 1, 5]))
    game.to(3, "command")
    game.do("blue", CancelSurpriseMove(mode="reverse", by_initiative=True))
    game.to(3, "movement", "blue")
    record = game.march()
    assert record["status"] == rec.EXECUTED
    assert record["run"]["kind"] == "reverse_discovered" and record["run"]["budget"] == 6.0
    assert any("discovered while reversing" in t for t in game.reports("blue"))
    assert not game.reports("grey")


def test_acceptance_of_new_orders_can_fail() -> None:
    game = accepted(Dice(acceptance=[2, 5]))  # +1 for Azure: 3 refused; at night 5 delayed
    game.to(2, "command")
    game.do("blue", CancelSurpriseMove(mode="reverse"))  # 5 MPs + 6 saved: turn 4
    game.to(4, "movement", "blue")
    assert game.march()["cancel"] is None and game.march()["status"] == rec.ACCUMULATING
    assert any("refused and lost; the march goes on" in t for t in game.reports("blue"))
    game.to(5, "command")
    game.do("blue", CancelSurpriseMove(mode="reverse"))  # 5 + 24 saved: three turns
    assert game.march()["cancel"]["arrives_turn"] == 8
    game.to(8, "movement", "blue")
    assert game.march()["cancel"] is not None and game.march()["status"] == rec.ACCUMULATING


def test_an_order_not_yet_accepted_is_countermanded_at_once() -> None:
    game = Game()
    game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE))
    game.do("blue", CancelSurpriseMove(mode="reverse"))
    assert game.march()["status"] == rec.LOST
    assert any("countermanded" in t for t in game.reports("blue"))


def test_changing_orders_by_initiative_fails_or_takes_at_once() -> None:
    game = accepted(Dice(initiative=[12, 2]))
    game.to(2, "command")
    game.do("blue", CancelSurpriseMove(mode="execute", by_initiative=True))
    assert game.march()["cancel"] is None and not game.march()["execute_queued"]
    with pytest.raises(Refusal, match="already tried"):
        game.do("blue", CancelSurpriseMove(mode="execute", by_initiative=True))
    game.to(3, "command")
    game.do("blue", CancelSurpriseMove(mode="execute", by_initiative=True))
    assert game.march()["execute_queued"]
