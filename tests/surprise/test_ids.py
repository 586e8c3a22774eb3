"""Surprise Move: march ids count the side's own marches only, and games recorded with the old
shared numbering still load and go on."""

from __future__ import annotations

from rules.state import apply
from rules.surprise import events as sev
from rules.surprise import records as rec
from rules.surprise.commands import ExecuteSurpriseMove, OrderSurpriseMove
from tests.support.surprise import FORCE, ROUTE, Dice, Game, with_state


def test_each_side_counts_its_own_marches() -> None:
    game = Game(dice=Dice(initiative=[2, 2]))
    game.do("grey", OrderSurpriseMove(force="Grey Horse, General Ash", route="A2410"))
    game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE, by_initiative=True))
    assert [(m["id"], rec.label(m)) for m in rec.marches(game.state)] == [
        ("grey:m1", "m1"), ("blue:m1", "m1")]  # oldest first, each side from one


def test_a_game_recorded_with_shared_numbers_goes_on() -> None:
    """A log from before per-side numbering: Grey's march ``m1``, Blue's ``m2``, no labels.
    They keep their old names; Blue's next march is its ``m3``, never a clash."""
    game = Game(dice=Dice(initiative=[2, 2]))
    fresh = game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE, by_initiative=True))
    ordered = next(e for e in fresh.events if isinstance(e, sev.MarchOrdered))
    blue_record = {k: v for k, v in ordered.record.items() if k != "label"} | {
        "id": "m2", "units": ["blue-cav"], "name": "Blue Horse"}
    grey_record = blue_record | {"id": "m1", "side": "grey", "units": ["grey-cav"],
                                 "leader": "", "status": rec.SENT}
    state = Game().state
    for mid, record in (("m1", grey_record), ("m2", blue_record)):
        state = apply(state, sev.MarchOrdered(audience=f"side:{record['side']}", march=mid,
                                              record=record))
    state = apply(state, sev.MarchAccepted(audience="side:blue", march="m2", turn=1))
    old = with_state(Game(), state)
    assert [m["id"] for m in rec.marches(old.state)] == ["m1", "m2"]
    assert rec.label(old.march("m2", "blue")) == "m2"
    old.do("blue", ExecuteSurpriseMove(march="m2"))  # found by its old name
    assert old.march("m2", "blue")["execute_queued"]
    old.do("blue", OrderSurpriseMove(force="1st Division", route="road A1005"))
    assert rec.marches(old.state)[-1]["id"] == "blue:m3"
