"""The scouts field for the Concealed Forces scouts and stragglers tests: Blue's division
(General Azure with the 1st Brigade, two skirmisher brigades, the Lancers and the Hussars)
stands west of a belt of woods, out of Grey's sight; Grey holds the east."""

from __future__ import annotations

from pathlib import Path

from rules.engine import Refusal
from rules.scenario.loader import LoadedScenario, load
from tests.support.surprise import SAMPLE_RULESET, Dice, Game

SCENARIO = Path(__file__).parents[1] / "fixtures" / "scouts.toml"
#: Where Blue's division conceals (General Azure's hex).
HOME = "A0405"


def load_field(*edits: tuple[str, str]) -> LoadedScenario:
    text = SCENARIO.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    return load(text, str(SCENARIO), SAMPLE_RULESET.read_text(encoding="utf-8"),
                str(SAMPLE_RULESET))


def field(*edits: tuple[str, str], dice: Dice | None = None) -> Game:
    """The game at turn 1, Blue's movement phase, nothing done (the Command Phase played with
    no order)."""
    g = Game(load_field(*edits), dice or Dice())
    g.to(1, "movement", "blue")
    return g


def concealed(*edits: tuple[str, str], dice: Dice | None = None) -> tuple[Game, str]:
    """Blue's division concealed in turn 1; the game at the start of Blue's movement phase of
    turn 2. Returns the game and the marker's id."""
    from rules.concealed.commands import ConcealForce

    g = field(*edits, dice=dice)
    g.do("blue", ConcealForce(leader="blue-gen"))
    (marker,) = [m.id for m in g.state.markers.values() if m.side == "blue"]
    g.to(2, "movement", "blue")
    return g, marker


def refused(g: Game, side: str, command: object) -> str:
    """The refusal's words; the game's state is unchanged."""
    before = g.state
    try:
        g.do(side, command)  # type: ignore[arg-type]
    except Refusal as e:
        assert g.state is before
        return str(e)
    raise AssertionError(f"{command!r} was accepted")
