"""Jackson's flank march (flank-march, Surprise Move) replayed to its stop: the owner's report
names the blocked hex and what blocked it, why the column did not go round it, the MPs it could
still spend after it and where its head spent them, the enemy-held hex it ran into, and which of
the lost MPs the blocked hex took (rulings SM-25 to SM-28)."""

from __future__ import annotations

from pathlib import Path

from rules.surprise import records as rec
from rules.surprise.commands import ChooseDetour, ExecuteSurpriseMove, OrderSurpriseMove
from tests.support.surprise import Dice, Game
from umpire.games import catalog

FLANK = Path(__file__).parents[2] / "scenarios" / "flank-march.toml"
ROUTE = "road A1309 road Luckett's Farm road Talley's Farm"


def jackson_sets_off(turn: int = 6) -> Game:
    """Jackson's corps takes Lee's order, saves 6 MP a turn, and sets off in ``turn``'s
    Command Phase (turn 6: 12 MP saved and the turn's 6, an 18-MP march); its head then waits
    before Luckett's Farm, which the Federals see, for its owner's detour choice."""
    game = Game(catalog.load_file(FLANK), Dice(acceptance=[9], accumulation=[3, 2, 4]))
    force = ", ".join(u.id for u in game.state.units.values()
                      if "flank-march" in u.tags and u.cell is not None)
    game.do("confederate", OrderSurpriseMove(force=force, route=ROUTE,
                                             name="Jackson's flank march"))
    game.to(turn, "command")
    game.do("confederate", ExecuteSurpriseMove())
    game.to(turn, "movement", "confederate")
    record = game.march()
    assert record["status"] == rec.RUNNING and record["run"]["budget"] == 18.0
    assert game.board.label(rec.cell_of(record["run"]["pending"])) == "A1909"
    return game


def stop_report(game: Game, since: int) -> tuple[str, str]:
    """The owner's report of the column's last move and of the march's end."""
    texts = game.reports("confederate", since)
    (marched,) = [t for t in texts if "unit(s) marched" in t]
    (ended,) = [t for t in texts if ": executed." in t]
    return marched, ended


def test_marching_on_into_luckett_s_farm_is_told_hex_by_hex() -> None:
    game = jackson_sets_off()
    since = len(game.events)
    game.do("confederate", ChooseDetour(attempt=False))
    marched, ended = stop_report(game, since)
    assert game.march()["status"] == rec.EXECUTED
    # where the head stopped, and the hex held by the enemy that stopped it, with who holds it
    assert "the head (O'Neal's (Rodes') brigade) is at A2309 after 6 MP." in marched
    assert ("It stopped: it ran into the enemy at A2409, where your troops see von Gilsa's "
            "brigade.") in marched
    # the blocked hex, when, and what made it one: a Union general the side sees from there
    assert ("Its head entered A1909 (Luckett's Farm) after 4 MP: a hex in sight of "
            "Maj. Gen. Carl Schurz at A3209.") in marched
    # why no detour
    assert "No detour: you chose to march on." in marched
    # the MPs after the blocked hex, and the cells they were spent on
    assert ("After it the column could spend 6 more MP; its head spent 2 of them, on A2009, "
            "A2109, A2209 and A2309.") in marched
    # what was lost, and why
    assert ("The 12 MP its head did not spend are lost: 4 of the 6 MP it could still spend "
            "after the blocked hex, and the 8 MP beyond them.") in ended


def test_going_round_luckett_s_farm_the_head_finds_von_gilsa_s_pickets() -> None:
    """Jackson goes round by A1910 and A2009; the road beyond runs into the pickets of the XI
    Corps' flank, with no way round them back to the route."""
    game = jackson_sets_off()
    since = len(game.events)
    game.do("confederate", ChooseDetour(attempt=True))
    marched, ended = stop_report(game, since)
    assert "is at A2309 after 7 MP" in marched
    assert ("Its head entered A2209 after 6.5 MP: a hex within 2 of von Gilsa's brigade at "
            "A2409.") in marched
    assert ("No detour: no way round leads back to the route without crossing a blocked or "
            "enemy-held hex.") in marched
    assert "could spend 6 more MP; its head spent 0.5 of them, on A2309." in marched
    assert "ran into the enemy at A2409, where your troops see von Gilsa's brigade" in marched
    assert ("The 11 MP its head did not spend are lost: 5.5 of the 6 MP it could still spend "
            "after the blocked hex, and the 5.5 MP beyond them.") in ended


def test_the_phase_ending_unanswered_is_the_reason_told() -> None:
    game = jackson_sets_off()
    since = len(game.events)
    game.step()  # every side done: the question goes unanswered and the column marches on
    marched, _ = stop_report(game, since)
    assert "Its head entered A1909 (Luckett's Farm) after 4 MP" in marched
    assert "No detour: the phase ended before you chose, so it marched on." in marched
