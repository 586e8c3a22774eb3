"""Helpers for the tests of deployment plans and of a revealed force's opportunity fire: a
small field (``fixtures/concealed-reveal.toml``) where the Confederate division of General Ash
conceals at A1205 on turn 1, and the Union Brigade can march up the road from A0405."""

from __future__ import annotations

from pathlib import Path

from rules.concealed.commands import ConcealForce
from rules.events import GameEvent
from rules.scenario.loader import LoadedScenario, load
from tests.support.surprise import Dice, Game

FIXTURES = Path(__file__).parents[1] / "fixtures"
FIELD = FIXTURES / "concealed-reveal.toml"
RULESET = FIXTURES.parent.parent / "scenarios" / "brigade-series.ruleset.toml"
DIVISION = ("grey-lead", "c-inf1", "c-inf2", "c-inf3", "c-bat")


def field(*edits: tuple[str, str]) -> LoadedScenario:
    """The field, with text edits to its scenario."""
    text = FIELD.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    return load(text, str(FIELD), RULESET.read_text(encoding="utf-8"), str(RULESET))


def concealed(loaded: LoadedScenario | None = None, dice: Dice | None = None
              ) -> tuple[Game, str]:
    """A game on the field where Ash's division has just concealed (turn 1, Confederate
    movement phase), and its marker's id."""
    game = Game(loaded or field(), dice or Dice())
    game.to(1, "movement", "confederate")
    out = game.do("confederate", ConcealForce(leader="General Ash"))
    (marker,) = [e.marker for e in out.events if e.type == "marker_placed"]
    return game, str(marker)


def seen_by(side: str, events: list[GameEvent]) -> list[dict[str, object]]:
    """The events a side receives (its own and the public ones), as data."""
    return [e.model_dump(mode="json") for e in events
            if e.audience in (f"side:{side}", "public")]


#: A second Confederate division, General Bay's, far to the east, out of the Union's sight.
BAY = '''
[[commands]]
id = "bay-div"
side = "confederate"
name = "Bay Division"
echelon = "division"
parent = "grey-corps"
leader = "bay-lead"

[[units]]
id = "bay-lead"
side = "confederate"
name = "General Bay"
kind = "leader"
echelon = "division"
command = "bay-div"
at = "A1509"

[[units]]
id = "bay-bat"
side = "confederate"
name = "Bay Battery"
kind = "artillery"
strength = 3
formation = "unlimbered"
command = "bay-div"
at = "A1509"

[[turns]]
turn = 1
'''
