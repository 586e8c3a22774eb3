"""Surprise Move: two marches on the same road (SM, "Surprise Move Collision"), under both
options of the game."""

from __future__ import annotations

from rules.surprise import records as rec
from rules.surprise.collision import heads_within
from rules.surprise.commands import ExecuteSurpriseMove, OrderSurpriseMove
from tests.support.surprise import ALTERNATE, FORCE, ROUTE, Dice, Game, two_marches


def test_the_first_started_completes_and_the_other_is_cancelled() -> None:
    game = two_marches()
    since = len(game.events)
    game.to(3, "movement", "blue")
    blue, grey = game.march("m1"), game.march("m1", "grey")
    assert blue["status"] == rec.EXECUTED and grey["status"] == rec.COLLIDED
    noted = [e for e in game.events[since:] if e.type == "surprise_collision"]
    assert [e.audience for e in noted] == ["side:grey"]  # Blue learns nothing of it
    assert any("saved MPs are lost" in t for t in game.reports("grey", since))
    assert game.state.units["grey-1"].cell == game.cell("A2005")  # the Grey brigade stays


def test_alternate_bouts_of_six_mps() -> None:
    game = two_marches(ALTERNATE)
    since = len(game.events)
    game.to(3, "movement", "blue")
    noted = [e for e in game.events[since:] if e.type == "surprise_collision"]
    assert sorted(e.audience for e in noted) == ["side:blue", "side:grey"]
    blue, grey = game.march("m1"), game.march("m1", "grey")
    assert blue["status"] == grey["status"] == rec.EXECUTED
    assert grey["run"]["kind"] == "collision" and grey["run"]["budget"] == 12.0  # saved only
    assert blue["run"]["budget"] == 18.0
    # Each column moved in bouts: Blue first. Their heads end within 6 MPs of each other.
    began = [e for e in game.events[since:] if e.type == "surprise_column_marched"]
    assert [e.march for e in began][:2] == ["blue:m1", "grey:m1"]  # type: ignore[attr-defined]
    assert heads_within(game.state, "blue:m1", "grey:m1")
    assert blue["run"]["stopped"] == "its head came within 6 MPs of the enemy column"
    # The Grey brigade marched in Blue's phase: it counts as having moved in its own.
    assert grey["rest"]
    game.to(3, "movement", "grey")
    assert game.state.units["grey-1"].mp_left <= 0
    assert not game.march("m1", "grey")["rest"]


def test_marches_on_different_roads_do_not_collide() -> None:
    game = Game(dice=Dice(initiative=[2]))
    game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE, by_initiative=True))
    game.do("grey", OrderSurpriseMove(force="Grey Horse, General Ash", route="A2410"))
    game.to(2, "command")
    game.do("blue", ExecuteSurpriseMove())
    game.to(2, "movement", "blue")
    assert game.march("m1", "grey")["status"] == rec.ACCUMULATING
    assert not [e for e in game.events if e.type == "surprise_collision"]
