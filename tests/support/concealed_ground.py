"""Helpers for the Concealed Forces tests: the test ground (``tests/fixtures/concealed.toml``),
a game on it, and readers of where every unit is."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from rules.concealed import records as rec
from rules.concealed.commands import BreedDecoy, ConcealForce, Unconceal
from rules.engine import Outcome
from rules.forces.location import Eliminated, InMarker
from rules.forces.markers import markers_of
from rules.scenario.loader import LoadedScenario, load
from rules.state import GameState, with_units
from tests.support.surprise import Dice, Game

FIXTURES = Path(__file__).parents[1] / "fixtures"
SCENARIO = FIXTURES / "concealed.toml"
RULESET = FIXTURES / "surprise.ruleset.toml"

#: Blue's first division (General Azure, three brigades) and its members.
DIVISION = ("blue-1", "blue-2", "blue-3", "blue-gen")
#: Blue's second division (General Teal, a brigade and a battery).
SECOND = ("blue-5", "blue-6", "blue-gen2")


def scenario_text(*edits: tuple[str, str], extra: str = "") -> str:
    text = SCENARIO.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text + extra


def ground(*edits: tuple[str, str], extra: str = "") -> LoadedScenario:
    """The test ground, with text edits (each made once) and extra units."""
    return load(scenario_text(*edits, extra=extra), str(SCENARIO),
                RULESET.read_text(encoding="utf-8"), str(RULESET))


def game(*edits: tuple[str, str], extra: str = "", dice: Dice | None = None) -> Game:
    """A game on the test ground, at Blue's movement phase of turn 1 (its Command Phase, where
    detachments are ordered, played with no order)."""
    g = Game(ground(*edits, extra=extra), dice or Dice())
    assert g.at(1, "command"), g.state.current.title
    g.to(1, "movement", "blue")
    return g


def conceal(g: Game, leader: str, *join: str, side: str = "blue") -> str:
    """Conceal a force; the new marker's id."""
    before = set(g.state.markers)
    g.do(side, ConcealForce(leader=leader, join=tuple(join)))
    [mid] = set(g.state.markers) - before
    return mid


def breed(g: Game, marker: str, side: str = "blue") -> tuple[str, str]:
    """Breed a decoy; (the marker holding the force, the decoy)."""
    out = g.do(side, BreedDecoy(marker=marker))
    [bred] = [e for e in out.events if e.type == "cf_decoy_bred"]
    return bred.kept, bred.decoy  # type: ignore[attr-defined]


def unconceal(g: Game, marker: str, side: str = "blue") -> Outcome:
    return g.do(side, Unconceal(marker=marker))


def to_blue_movement(g: Game, turn: int) -> None:
    g.to(turn, "movement", "blue")


def eliminate(g: Game, *units: str) -> None:
    g.state = with_units(g.state, {u: replace(g.state.units[u], location=Eliminated())
                                     for u in units})


def under(state: GameState, marker_id: str) -> set[str]:
    """The units whose location is inside the marker."""
    return {u.id for u in state.units.values()
            if isinstance(u.location, InMarker) and u.location.marker_id == marker_id}


def contents(state: GameState, side: str) -> Mapping[str, tuple[str, ...]]:
    """What the module says is under each of the side's markers."""
    return {m.id: tuple(rec.force(state, m.id)["units"])  # type: ignore[index]
            for m in markers_of(state.markers, side)}
