"""The Chancellorsville victory chart's result says how it was reached: which places each army
held at the end, each army's points for places and for the enemy's units eliminated, which
column of which chart was read and at what margin, and that the score and the chart are
Vedette's stand-ins (the article prints neither)."""

from __future__ import annotations

from dataclasses import replace

from rules import commands as cmd
from rules.chancellorsville.events import VictoryDecided
from rules.engine import decide, end
from rules.forces.location import Eliminated
from rules.state import GameState, with_units
from rules.view import project
from tests.support.chancellorsville import SEED, dice, raided, sample, started

#: The sample's scored places, points and starting holders (its [settings.raid_victory]).
PLACES = {"Chancellorsville": (4, "union"), "United States Ford": (2, "union"),
          "Banks Ford": (2, "union"), "Fredericksburg": (3, "confederate"),
          "Marye's Heights": (3, "confederate"), "Salem Church": (2, "confederate")}
NAMES = {"union": "Army of the Potomac", "confederate": "Army of Northern Virginia"}


def result_of(state: GameState, roll: int) -> VictoryDecided:
    out = end(state, SEED.hex(), "the host ends it", lambda seq, purpose, spec: roll)
    [found] = [e for e in out.events if isinstance(e, VictoryDecided)]
    return found


def test_the_result_names_the_places_points_chart_and_column() -> None:
    state = started(sample())
    # Robinson's division takes Fredericksburg; Anderson's division (its strength in the order
    # of battle) is eliminated.
    state = decide(state, "", cmd.Correct(unit="robinson", changes={"cell": "Fredericksburg"},
                                          reason="test"), dice, host=True).state
    anderson = state.units["anderson"]
    lost = next(u.strength for u in state.loaded.scenario.units if u.id == "anderson")
    state = with_units(state, {"anderson": replace(anderson, strength=0,
                                                   location=Eliminated())})
    result = result_of(state, 3)
    holders = {p: h for p, (_, h) in PLACES.items()} | {"Fredericksburg": "union"}
    assert [(p.place, p.points, p.holder) for p in result.places] == [
        (p, points, NAMES[holders[p]]) for p, (points, _) in PLACES.items()]
    federal, confederate = result.scores
    assert (federal.name, federal.places, federal.losses) == (NAMES["union"], 8 + 3, lost)
    assert (confederate.name, confederate.places, confederate.losses) == (
        NAMES["confederate"], 5, 0)
    assert (result.federal, result.confederate) == (federal.total, confederate.total)
    assert result.chart is not None
    assert (result.chart.title, result.chart.column) == ("Victory (stand-in)", "No Raid")
    assert result.chart.value == result.margin == federal.total - confederate.total
    text = result.report(project(state, "confederate"))
    assert "- Fredericksburg (3 points): Army of the Potomac" in text
    assert "- Salem Church (2 points): Army of Northern Virginia" in text
    assert f"units of {lost} strength points eliminated" in text
    assert (f"Chart read: Victory (stand-in), column 'No Raid', at a margin of "
            f"{result.margin:+d}") in text
    assert "Both the victory conditions and the chart are Vedette's own stand-ins" in text


def test_after_the_raid_the_column_the_roll_picked_is_named() -> None:
    result = result_of(started(raided()), 1)
    assert result.chart is not None and result.chart.column == "Successful Raid"
    assert result.chart.row == "-3 to +3"
    assert ("column 'Successful Raid', at a margin of +0 (row -3 to +3)"
            in result.report(project(started(raided()), "union")))


def test_a_result_logged_before_the_explanation_is_told_as_it_was() -> None:
    old = VictoryDecided(raid=False, column="No Raid", federal=8, confederate=8, margin=0,
                         result="DRAW", words="draw")
    assert old.report(project(started(sample()), None)) == (
        "**Victory.** The raid was not sent: the chart is read in its No Raid column. Federal "
        "points 8, Confederate points 8: Federal margin +0. Result: **Draw**.")
