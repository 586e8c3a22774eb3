"""Surprise Move: the MP Accumulation Table cell by cell (day, twilight, night), the columns of
the ruleset's tables, and the arithmetic of delays and halves."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rules.engine import Outcome
from rules.surprise import records as rec
from rules.surprise import rolls
from rules.surprise.commands import OrderSurpriseMove
from rules.surprise.march import accumulation
from rules.surprise.march.execution import budget_for
from rules.surprise.orders import delay_turns
from tests.support.surprise import FORCE, ROUTE, Dice, Game
from umpire.games import catalog

SAMPLE = Path(__file__).parents[2] / "scenarios" / "flank-march.toml"

#: The article's MP Accumulation Table: rows by die roll, columns 1, 2, 3, 4+.
ARTICLE = {1: "PPPP", 2: "PPPP", 3: "PPPP", 4: "PPPF", 5: "PPFF", 6: "PFFF"}


def test_the_sample_ruleset_carries_the_articles_table() -> None:
    table = catalog.load_file(SAMPLE).ruleset.tables["mp_accumulation"]
    assert table.columns == ("1", "2", "3", "4+")
    assert table.modifiers == {"night": -1}
    for roll, row in ARTICLE.items():
        assert "".join(table.lookup(roll, c) for c in table.columns) == row


@pytest.mark.parametrize("attempt,column", [(1, "1"), (2, "2"), (3, "3"), (4, "4+"), (5, "4+"),
                                            (12, "4+")])
def test_turn_column(attempt: int, column: str) -> None:
    table = Game().loaded.ruleset.tables["mp_accumulation"]
    assert rolls.turn_column(table, attempt) == column


@pytest.mark.parametrize("rating,column", [(0, "0-3"), (3, "0-3"), (4, "4-5"), (9, "8-9"),
                                           (11, "10-12"), (12, "10-12"), (15, "10-12")])
def test_initiative_band(rating: int, column: str) -> None:
    table = Game().loaded.ruleset.tables["initiative"]
    assert rolls.band_column(table, rating) == column


def test_bonuses_turn_towards_success() -> None:
    """The stand-in initiative table succeeds on low rolls: the cavalry's +1 comes off the
    roll, night's penalty goes on it (ruling SM-5)."""
    table = Game().loaded.ruleset.tables["initiative"]
    assert rolls.success_is_low(table, "8-9", "I")
    assert rolls.toward_success(table, "8-9", "I", +1) == -1
    assert rolls.toward_success(table, "8-9", "I", -1) == +1


def _at_attempt(turn: int, attempt: int, roll: int) -> bool:
    """A march accepted earlier, rolling its ``attempt``-th turn in ``turn``: pass?"""
    game = Game(dice=Dice(initiative=[2]))
    game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE, by_initiative=True))
    state = replace(game.state, turn=turn)
    state = rec.with_march(state, "blue:m1", attempts=attempt - 1,
                           accumulated_mp=6.0 * (attempt - 1))
    out = Outcome(state, Dice(accumulation=[roll]))
    return accumulation.accumulation_roll(out, "blue:m1")


@pytest.mark.parametrize("light,turn,shift", [("day", 2, 0), ("twilight", 6, -1),
                                              ("night", 7, -1)])
@pytest.mark.parametrize("attempt", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("roll", [1, 2, 3, 4, 5, 6])
def test_every_cell_of_the_accumulation_table(light: str, turn: int, shift: int, attempt: int,
                                              roll: int) -> None:
    passed = _at_attempt(turn, attempt, roll)
    row = ARTICLE[max(1, roll + shift)]
    assert passed == (row[min(attempt, 4) - 1] == "P"), (light, attempt, roll)


def test_the_roll_is_logged_with_its_column_and_night_modifier() -> None:
    game = Game(dice=Dice(initiative=[2]))
    game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE, by_initiative=True))
    state = rec.with_march(replace(game.state, turn=7), "blue:m1", attempts=2)
    out = Outcome(state, Dice(accumulation=[6]))
    assert not accumulation.accumulation_roll(out, "blue:m1")
    (rolled,) = [e for e in out.events if e.type == "die_rolled"]
    assert rolled.audience == "side:blue"
    assert (rolled.table, rolled.column, rolled.modifiers, rolled.value, rolled.result) == \
        ("mp_accumulation", "3", {"night": -1}, 6, "F")


@pytest.mark.parametrize("mp,turns", [(0, 0), (1, 1), (10, 1), (10.5, 2), (20, 2), (20 + 12, 4),
                                      (22.5, 3), (40, 4)])
def test_order_delay(mp: float, turns: int) -> None:
    """The article's example: 20 MPs away and 12 saved is 32 MPs, four turns at 10 a turn."""
    assert delay_turns(mp, 10) == turns


@pytest.mark.parametrize("saved,half", [(12.0, 6.0), (18.0, 9.0), (15.0, 7.5), (7.0, 3.5),
                                        (0.0, 0.0)])
def test_a_triggered_march_spends_exactly_half(saved: float, half: float) -> None:
    """Ruling SM-2: half of an odd total is not rounded; MPs go in halves (a pike costs 0.5)."""
    game = Game()
    record = {"accumulated_mp": saved, "units": ["blue-1"], "forced": 0}
    assert budget_for(game.state, record, "triggered") == (half, True)
    assert budget_for(game.state, record, "reverse_discovered") == (half, True)
    assert budget_for(game.state, record, "voluntary") == (saved + 6, False)
    assert budget_for(game.state, {**record, "forced": 3}, "discovered") == (saved + 9, False)
    assert budget_for(game.state, record, "collision") == (saved, False)
