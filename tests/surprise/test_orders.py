"""Surprise Move: the order, its delay and acceptance, initiative, and what a force on an
accepted order may not do."""

from __future__ import annotations

import pytest

from rules import commands as cmd
from rules.modules.built import load_all
from rules.modules.registry import MODULES
from rules.refusal import Refusal
from rules.surprise import records as rec
from rules.surprise.commands import OrderSurpriseMove
from rules.surprise.orders import order_distance
from tests.support.surprise import FORCE, ROUTE, Dice, Game, load_ground


def order(**more: object) -> OrderSurpriseMove:
    fields: dict[str, object] = {"force": FORCE, "route": ROUTE, **more}
    return OrderSurpriseMove(**fields)  # type: ignore[arg-type]


def test_the_module_is_registered_and_the_command_phase_waits_for_everyone() -> None:
    assert "surprise_move" in load_all()
    game = Game()
    assert game.at(1, "command") and game.state.acting_sides() == ("blue", "grey")
    game.do("grey", cmd.Done())
    assert game.state.acting_sides() == ("blue",)
    with pytest.raises(Refusal, match="already finished"):
        game.do("grey", cmd.Done())
    game.do("blue", cmd.Done())
    assert game.at(1, "movement", "blue")


def test_without_the_module_the_command_phase_passes_by_itself() -> None:
    game = Game(without=("surprise_move",))
    assert game.at(1, "movement", "blue")
    with pytest.raises(Refusal, match="does not play"):
        game.do("blue", order())


def test_the_force_and_route_are_checked() -> None:
    game = Game()
    answers = []
    for name in ("Grey Brigade", "Gray Brigadz"):
        with pytest.raises(Refusal) as caught:
            game.do("blue", order(force=name))
        answers.append(str(caught.value).replace(name, "NAME"))
    assert answers[0] == answers[1]
    assert answers[0].startswith("You have no unit called 'NAME'.")
    with pytest.raises(Refusal, match=r"Z9999"):
        game.do("blue", order(route="Z9999"))
    with pytest.raises(Refusal, match="at most 4"):
        game.do("blue", order(forced=5))
    with pytest.raises(Refusal, match="does not lead"):
        game.do("blue", order(route="A0405"))
    game.do("blue", order())
    with pytest.raises(Refusal, match="already in surprise move"):
        game.do("blue", order(force="2nd Brigade"))


def test_a_command_means_it_plus_attached_and_only_units_on_the_map() -> None:
    game = Game()
    game.place(**{"blue-3": None})
    game.do("blue", order(force="1st Division"))
    assert game.march()["units"] == ["blue-gen", "blue-1", "blue-2"]
    assert game.march()["leader"] == "blue-gen"
    assert game.march()["name"] == "1st Division"


def test_outside_the_command_phase_no_order_is_written() -> None:
    game = Game()
    game.to(1, "movement", "blue")
    with pytest.raises(Refusal, match="Command Phase"):
        game.do("blue", order())


def test_the_delay_is_the_couriers_ride_from_the_army_commander() -> None:
    game = Game()
    ids = ["blue-gen", "blue-1"]
    assert order_distance(game.state, "blue", ids) == ("blue-hq", 5.0, 1)
    game.place(**{"blue-hq": "A2209"})  # beyond the woods: the road is the quicker way
    assert order_distance(game.state, "blue", ids) == ("blue-hq", 18.0, 2)
    assert order_distance(game.state, "blue", ids, extra_mp=12) == ("blue-hq", 30.0, 3)
    assert order_distance(game.state, "blue", ["blue-hq", *ids]) == ("", 0.0, 0)


def test_an_order_arrives_then_is_rolled_for_each_command_phase() -> None:
    dice = Dice(acceptance=[4, 4, 8])  # +1 for Azure's good rating: D, D, A
    game = Game(dice=dice)
    game.do("blue", order())
    assert game.march()["arrives_turn"] == 2 and game.march()["hq"] == "blue-hq"
    game.to(2, "command")
    assert not [p for p, _ in dice.log if "acceptance" in p]  # on its way during turn 1
    game.to(3, "command")
    assert game.march()["status"] == rec.SENT
    game.to(4, "command")
    assert game.march()["status"] == rec.SENT
    game.to(4, "movement", "blue")
    assert game.march()["status"] == rec.ACCUMULATING and game.march()["accepted_turn"] == 4
    rolls = [e for e in game.events if e.type == "die_rolled" and "acceptance" in e.purpose]
    assert [(r.value, r.modifiers, r.column, r.result) for r in rolls] == [
        (4, {"leader_rating_good": 1}, "move", "D"), (4, {"leader_rating_good": 1}, "move", "D"),
        (8, {"leader_rating_good": 1}, "move", "A")]
    # The first accumulation roll comes at the start of the owner's movement phase that follows.
    assert game.march()["attempts"] == 1


def test_acceptance_results() -> None:
    # Azure's rating (9) is good: +1. Rolls: 4 -> 5 "D"; 3 -> 4 "R" (the order is lost).
    game = Game(dice=Dice(acceptance=[4, 3]))
    game.do("blue", order())
    game.to(2, "movement", "blue")
    assert game.march()["status"] == rec.SENT
    game.to(3, "movement", "blue")
    assert game.march()["status"] == rec.LOST
    rolls = [e for e in game.events if e.type == "die_rolled" and "acceptance" in e.purpose]
    assert [(r.value, r.modifiers, r.result) for r in rolls] == [
        (4, {"leader_rating_good": 1}, "D"), (3, {"leader_rating_good": 1}, "R")]
    assert all(r.audience == "side:blue" for r in rolls)
    assert any("refused and lost" in t for t in game.reports("blue"))
    game.to(4, "command")
    game.do("blue", order())  # the force is free for a new order
    assert game.march("m2")["status"] == rec.SENT


def test_a_poor_leader_and_night_take_off_the_acceptance_roll() -> None:
    game = Game(load_ground(("initiative = 9", "initiative = 2")), Dice(acceptance=[9]))
    game.to(7, "command")
    game.do("blue", order())
    game.to(8, "movement", "blue")
    (roll,) = [e for e in game.events if e.type == "die_rolled" and "acceptance" in e.purpose]
    assert roll.modifiers == {"leader_rating_poor": -1, "night": -1}


def test_an_order_given_in_person_is_rolled_for_at_once() -> None:
    game = Game()
    game.do("blue", order(force="Blue Army"))
    assert game.march()["hq"] == "" and game.march()["arrives_turn"] == 1
    game.to(1, "movement", "blue")
    assert game.march()["status"] == rec.ACCUMULATING


def test_initiative_takes_the_order_at_once_or_not_at_all() -> None:
    game = Game(dice=Dice(initiative=[10, 4]))  # Azure (9): 8-9 column; 10 fails, 4 succeeds
    game.do("blue", order(by_initiative=True))
    assert rec.marches(game.state) == []
    assert any("does not take the initiative" in t for t in game.reports("blue"))
    with pytest.raises(Refusal, match="already tried"):
        game.do("blue", order(by_initiative=True))
    game.to(2, "command")
    game.do("blue", order(by_initiative=True))
    assert game.march()["status"] == rec.ACCUMULATING and game.march()["by_initiative"]
    with pytest.raises(Refusal, match="no leader"):
        Game().do("blue", order(force="Blue Dragoons", route="A0305 road A2005",
                                by_initiative=True))


def test_a_force_on_an_accepted_order_stays_in_place() -> None:
    game = Game(dice=Dice(initiative=[2]))
    game.do("blue", order(by_initiative=True))
    game.to(1, "movement", "blue")
    for command in (cmd.Move(unit="1st Brigade", route="A0505"),
                    cmd.SetFormation(unit="3rd Brigade", formation="column"),
                    cmd.Move(unit="General Azure", route="A0505")):
        with pytest.raises(Refusal, match="stays in place"):
            game.do("blue", command)
    game.do("blue", cmd.Move(unit="General Cobalt", route="A0209"))  # not in the force
    module = MODULES["surprise_move"]
    unit = game.state.units["blue-1"]
    for action in ("fire", "assault", "rally"):
        assert "no fire" in (module.may_fight(game.state, unit, action) or "")  # type: ignore[attr-defined]
    assert module.may_recover_stragglers(game.state, unit) is False  # type: ignore[attr-defined]
    assert module.may_recover_stragglers(  # type: ignore[attr-defined]
        game.state, game.state.units["blue-hq"]) is True


def test_before_acceptance_the_force_moves_freely() -> None:
    game = Game(dice=Dice(acceptance=[2, 2, 2]))
    game.do("blue", order())
    game.to(1, "movement", "blue")
    game.do("blue", cmd.Move(unit="2nd Brigade", route="A0306"))
    assert game.label("blue-2") == "A0306"


def test_every_event_about_the_march_goes_to_its_owner_only() -> None:
    game = Game(dice=Dice(acceptance=[9]))
    game.do("blue", order(forced=2))
    game.to(4, "movement", "grey")
    mine = [e for e in game.events if e.type.startswith("surprise_") or
            (e.type == "die_rolled")]
    assert mine and all(e.audience == "side:blue" for e in mine)
