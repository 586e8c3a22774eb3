"""Two whole scripted games of Jackson's flank march (flank-march), played through the rules
engine with scripted dice: the march that succeeds, and the march Union pickets discover."""

from __future__ import annotations

from pathlib import Path

from rules import commands as cmd
from rules.surprise import records as rec
from rules.surprise.commands import ChooseDetour, ExecuteSurpriseMove, OrderSurpriseMove
from rules.view import project
from tests.support.surprise import Dice, Game
from umpire.demo.main import Order, reachable_route
from umpire.games import catalog

FLANK = Path(__file__).parents[2] / "scenarios" / "flank-march.toml"
ROUTE = "road A1309 road Luckett's Farm road Talley's Farm"
WITHOUT = ("concealed_forces",)


def flank_game(dice: Dice) -> Game:
    game = Game(catalog.load_file(FLANK), dice, without=WITHOUT)
    force = ", ".join(u.id for u in game.state.units.values()
                      if "flank-march" in u.tags and u.cell is not None)
    game.do("confederate", OrderSurpriseMove(force=force, route=ROUTE,
                                             name="Jackson's flank march"))
    return game


def surprise_words(texts: list[str]) -> list[str]:
    return [t for t in texts if "urprise" in t or "march" in t.lower()]


def test_the_flank_march_succeeds() -> None:
    dice = Dice(acceptance=[9], accumulation=[3, 2, 4], initiative=[2])
    game = flank_game(dice)
    record = game.march()
    assert (record["hq"], record["arrives_turn"], record["leader"]) == ("lee", 4, "jackson")
    assert len(record["units"]) == 23
    game.to(4, "movement", "confederate")
    assert game.march()["status"] == rec.ACCUMULATING and game.march()["accumulated_mp"] == 6.0
    game.to(7, "command")
    assert game.march()["accumulated_mp"] == 18.0 and game.march()["attempts"] == 3
    union_before = project(game.state, "union")
    game.do("confederate", ExecuteSurpriseMove())
    assert project(game.state, "union") == union_before
    game.to(7, "movement", "confederate")
    # The head stops before Luckett's Farm, which the Federals can see: Jackson may go round.
    record = game.march()
    assert record["status"] == rec.RUNNING and record["run"]["pending"] == [18, 8]  # A1909
    game.do("confederate", ChooseDetour(attempt=True))
    record = game.march()
    assert record["status"] == rec.EXECUTED and record["run"]["budget"] == 24.0
    head = game.state.units[record["run"]["order"][0]]
    assert head.id == "oneal"
    grid = game.loaded.map.grid
    flank = game.state.units["von-gilsa"]
    assert head.cell is not None and flank.cell is not None
    assert grid.distance(head.cell, flank.cell) <= 2  # on the XI Corps' open flank
    # Nothing of it reached the Union until the column marched.
    assert surprise_words(game.reports("union")) == []
    detour = [e for e in game.events if e.type == "die_rolled" and "detour" in e.purpose]
    assert detour[0].modifiers == {"cavalry_with_force": -1}  # type: ignore[attr-defined]


def test_union_pickets_discover_the_flank_march() -> None:
    dice = Dice(acceptance=[9], accumulation=[3, 2, 4], initiative=[2])
    game = flank_game(dice)

    def ride(route: str) -> None:
        cut = reachable_route(game.state, Order("union", "8th-pa-cav", route))
        assert cut is not None
        game.do("union", cmd.Move(unit="8th Pennsylvania Cavalry", route=cut))

    game.to(2, "movement", "union")
    ride("road Dowdall's Tavern road A2813")
    game.to(3, "movement", "union")
    ride("road Dowdall's Tavern road A2813")
    assert game.label("8th-pa-cav") == "A2813"
    game.to(6, "movement", "union")
    assert game.march()["accumulated_mp"] == 12.0
    since = len(game.events)
    game.do("union", cmd.Move(unit="8th Pennsylvania Cavalry", route="A2714 A2613 A2514"))
    # The trigger is checked where the troopers end the Union phase (ruling SM-13).
    assert game.march()["status"] == rec.ACCUMULATING
    game.step()
    assert game.march()["trigger"].startswith("an enemy unit ended its move within 2 hexes")
    assert game.reports("union", since) == [
        "Your 8th Pennsylvania Cavalry ended its move at A2514: **an enemy surprise move is "
        "triggered.**"]
    game.to(6, "movement", "confederate")
    record = game.march()
    if record["status"] == rec.RUNNING:  # a detour question before a blocked hex
        game.do("confederate", ChooseDetour(attempt=True))
        record = game.march()
    assert record["status"] == rec.EXECUTED
    run = record["run"]
    assert (run["kind"], run["budget"]) == ("triggered", 6.0)
    assert run["spent"] <= 6.0
    # The Union learnt of the trigger and nothing else about the march.
    union = surprise_words(game.reports("union"))
    assert union == ["Your 8th Pennsylvania Cavalry ended its move at A2514: **an enemy surprise "
                     "move is triggered.**"]
