"""Surprise Move: enemy interference. Triggers by moves and by attacks, the half-MP march, the
shield the combat module asks for, sham results shown to the firer only."""

from __future__ import annotations

import pytest

from rules import commands as cmd
from rules.combat.commands import Fire
from rules.modules.registry import MODULES
from rules.refusal import Refusal
from rules.state import with_module_data
from rules.surprise import records as rec
from rules.surprise.commands import CancelSurpriseMove, OrderSurpriseMove
from rules.view import project
from tests.support.surprise import (
    FORCE,
    ROUTE,
    SAMPLE_RULESET,
    Dice,
    Game,
    accepted,
    horse_near,
    load_ground,
)


def with_combat() -> Game:
    """The test ground with the combat module, under the sample brigade-series ruleset."""
    loaded = load_ground(('modules = ["surprise_move"]', 'modules = ["surprise_move", "combat"]'),
                         ruleset=SAMPLE_RULESET)
    return Game(loaded, Dice(initiative=[2], fire=[12, 12]))


def triggered_at_night(accepted_turn: int, **more: object) -> tuple[Game, int]:
    """A force accepted in ``accepted_turn``; in turn 7 (night: the Grey troops see only next
    to them) the Grey Horse rides up behind its tail and triggers it."""
    game = accepted(turn=accepted_turn, **more)
    game.to(7, "movement", "grey")
    horse_near(game)
    since = len(game.events)
    game.do("grey", cmd.Move(unit="Grey Horse", route="A0103"))
    return game, since


def test_an_enemy_ending_its_move_within_two_hexes_triggers_the_march() -> None:
    game = accepted()
    # Only where a unit stands when its movement phase ends counts (ruling SM-13): the leader
    # ends Grey's turn-1 phase near the force, the Horse ends Grey's turn-2 phase near it.
    game.to(1, "movement", "grey")
    game.place(**{"grey-hq": "A0801"})
    game.do("grey", cmd.Move(unit="General Ash", route="A0703"))  # a leader: no pickets
    game.step()
    assert game.march()["status"] == rec.ACCUMULATING
    game.to(2, "movement", "grey")
    horse_near(game)
    since = len(game.events)
    game.do("grey", cmd.Move(unit="Grey Horse", route="A0103"))
    assert game.march()["status"] == rec.ACCUMULATING  # not before the phase ends
    game.step()
    assert game.march()["status"] == rec.TRIGGERED
    told_grey = game.reports("grey", since)
    assert told_grey == ["Your Grey Horse ended its move at A0103: **an enemy surprise move is "
                         "triggered.**"]
    told_blue = game.reports("blue", since)
    assert any("is triggered" in t and "an enemy unit ended its move within 2 hexes of" in t
               for t in told_blue)
    assert not any("Grey Horse" in t for t in told_blue)  # the owner is not told which enemy
    # Its units stay put, enemy units may not pass through them, new orders are refused.
    module = MODULES["surprise_move"]
    assert game.cell("A0405") in module.closed_cells(game.state, "grey")
    game.to(3, "command")
    with pytest.raises(Refusal, match="triggered"):
        game.do("blue", CancelSurpriseMove(mode="reverse"))
    # At the start of Blue's next movement phase: half the 12 saved MPs, no allowance; here
    # the Grey Horse sees the road in daylight, so the head stops in the first cell it enters.
    game.to(3, "movement", "blue")
    record = game.march()
    assert record["status"] == rec.EXECUTED
    run = record["run"]
    assert (run["kind"], run["half"], run["budget"], run["spent"]) == ("triggered", True, 6.0,
                                                                      1.0)
    assert run["stopped"].startswith("it reached a blocked hex (A0505)")


def test_a_triggered_march_spends_half_its_mps() -> None:
    game, _ = triggered_at_night(5)
    assert game.march()["accumulated_mp"] == 18.0
    game.to(8, "movement", "blue")
    run = game.march()["run"]
    assert (run["budget"], run["spent"], run["stopped"]) == (9.0, 9.0,
                                                             "half its saved MPs are spent")
    assert game.label("blue-1") == "A1305"


def test_no_trigger_before_the_order_is_accepted() -> None:
    game = Game(dice=Dice(acceptance=[2]))
    game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE))
    game.to(1, "movement", "grey")
    horse_near(game)
    game.do("grey", cmd.Move(unit="Grey Horse", route="A0103"))
    assert game.march()["status"] == rec.SENT
    assert not [e for e in game.events if e.type.startswith("surprise_trigger")]


def test_a_triggered_march_stops_in_the_first_blocked_hex() -> None:
    game, _ = triggered_at_night(5, detour="never")
    game.place(**{"grey-bat": "A0907"})  # its pickets reach the road from A0805
    game.to(8, "movement", "blue")
    run = game.march()["run"]
    assert run["budget"] == 9.0 and run["spent"] == 4.0
    assert game.label("blue-1") == "A0805"
    assert run["stopped"] == "it reached a blocked hex (A0805): all movement ends"


def test_half_of_an_odd_total() -> None:
    game, _ = triggered_at_night(7, forced=1)  # 7 MPs a turn, one turn saved
    assert game.march()["accumulated_mp"] == 7.0
    game.to(8, "movement", "blue")
    run = game.march()["run"]
    assert run["budget"] == 3.5 and run["spent"] == 3.0  # road steps cost 1: 0.5 is lost
    ended = [e for e in game.events if e.type == "surprise_march_ended"]
    assert ended[-1].lost_mp == 0.5  # type: ignore[attr-defined]


# -- attacks ---------------------------------------------------------------------------------------
def test_the_shield_the_combat_module_asks_for() -> None:
    game = accepted()
    module = MODULES["surprise_move"]
    units = game.state.units
    target, gun, foot = units["blue-1"], units["grey-bat"], units["grey-1"]
    shield = module.combat_shield  # type: ignore[attr-defined]
    assert shield(game.state, target, (gun,), (5,)) == "sham"
    assert shield(game.state, target, (gun,), (9,)) == "sham"
    assert shield(game.state, target, (gun,), (4,)) == "ignored"
    assert shield(game.state, target, (foot,), (1,)) == "ignored"
    assert shield(game.state, units["blue-hq"], (gun,), (6,)) is None  # not in the force
    assert shield(game.state, target, (units["blue-cav"],), (1,)) is None  # its own side


def test_an_attack_from_four_hexes_or_less_triggers_at_the_end_of_the_step() -> None:
    game = accepted()
    game.to(1, "movement", "grey")
    attack = {"turn": 1, "step": game.state.step, "kind": "fire", "attackers": ["grey-bat"],
              "targets": ["blue-1"], "cell": [3, 4], "distance": 4, "shield": "ignored"}
    game.state = with_module_data(game.state, "combat", {"attacks": [attack]})
    since = len(game.events)
    game.step()
    assert game.march()["status"] == rec.TRIGGERED
    assert game.reports("grey", since) == [
        "Your Grey Battery attacked at close range from A2408: **an enemy surprise move is "
        "triggered.**"]


def test_fire_through_the_combat_module_sham_and_trigger() -> None:
    game = with_combat()
    game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE, by_initiative=True))
    game.place(**{"grey-bat": "A0905"})  # five hexes from the 1st Brigade
    game.to(1, "fire", "grey")
    game.do("grey", Fire(units=("Grey Battery",), target="1st Brigade"))
    blue_1 = game.state.units["blue-1"]
    assert (blue_1.strength, blue_1.cell) == (8, game.cell("A0405"))  # truly untouched
    grey_sees = {u.ref: u for u in project(game.state, "grey").units}["blue-1"]
    assert grey_sees.strength is not None and grey_sees.strength < 8  # the sham
    blue_sees = {u.ref: u for u in project(game.state, "blue").units}["blue-1"]
    assert blue_sees.strength == 8
    assert game.march()["status"] == rec.ACCUMULATING
    # From four hexes the fire is ignored and sets the march off.
    game.to(2, "fire", "grey")
    game.place(**{"grey-bat": "A0805"})
    game.do("grey", Fire(units=("Grey Battery",), target="1st Brigade"))
    game.step()
    assert game.march()["status"] == rec.TRIGGERED
    # Once the march begins the sham is gone: the Grey side sees the unit as it really is.
    game.to(3, "movement", "grey")
    seen = {u.ref: u for u in project(game.state, "grey").units}["blue-1"]
    assert seen.strength == 8 and seen.cell == game.state.units["blue-1"].cell


def test_a_force_on_order_may_not_fire() -> None:
    game = with_combat()
    game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE, by_initiative=True))
    game.place(**{"grey-1": "A0605"})
    game.to(1, "fire", "blue")
    with pytest.raises(Refusal, match="surprise move"):
        game.do("blue", Fire(units=("1st Brigade",), target="Grey Brigade"))
