"""Cf 3.1, releasing scouts: at the start of his movement phase a player may have a concealed
division put out one cavalry unit and any number of skirmishers while the rest stays hidden; a
lone cavalry brigade or a decoy has none to put out. The scouts start on the marker and, in that
phase, skirmishers go at most two hexes from it and cavalry four leader MPs. A released cavalry
unit shows to the enemy only as "some cavalry" until it comes into the sight of an enemy unit on
the map (rulings CF-12, CF-13)."""

from __future__ import annotations

from rules import commands as cmd
from rules.concealed import records as rec
from rules.concealed.commands import BreedDecoy, ConcealForce, ReleaseScouts
from rules.forces.location import InMarker, OnMap
from rules.view import ANONYMOUS, IDENTIFIED, project
from tests.support.concealed_scouts import HOME, concealed, field, refused
from tests.support.hidden_views import everything
from tests.support.surprise import Game


def _grey_knows(g: Game, since: int = 0) -> str:
    """Everything Grey holds that could name a unit: its view's counters, markers and memory,
    and the words it was sent."""
    v = project(g.state, "grey")
    return repr((v.units, v.markers, v.memory, v.reports, g.reports("grey", since))).lower()


# -- releasing ----------------------------------------------------------------------------------

def test_scouts_are_placed_on_the_marker_and_the_force_stays_concealed() -> None:
    g, m = concealed()
    g.do("blue", ReleaseScouts(marker=m, units=("Blue Lancers", "blue-2", "blue-3")))
    home = g.cell(HOME)
    for uid in ("blue-lancers", "blue-2", "blue-3"):
        assert g.state.units[uid].location == OnMap(home)
    for uid in ("blue-gen", "blue-1", "blue-hussars"):
        assert g.state.units[uid].location == InMarker(m)
    assert g.state.markers[m].cell == home
    record = rec.force(g.state, m)
    assert record is not None and sorted(record["units"]) == ["blue-1", "blue-gen",
                                                              "blue-hussars"]
    # The enemy still sees the marker, and no content under it.
    (seen,) = [mv for mv in project(g.state, "grey").markers if mv.id == m]
    assert seen.contents is None


def test_what_may_not_be_released_is_refused_plainly() -> None:
    g, m = concealed()
    assert "at most one cavalry unit" in refused(
        g, "blue", ReleaseScouts(marker=m, units=("blue-lancers", "blue-hussars")))
    assert "neither cavalry nor a skirmisher" in refused(
        g, "blue", ReleaseScouts(marker=m, units=("blue-1",)))
    assert "is not under marker" in refused(
        g, "blue", ReleaseScouts(marker=m, units=("blue-ind",)))
    # An enemy unit's name reads as no unit at all.
    assert refused(g, "blue", ReleaseScouts(marker=m, units=("grey-cav",))) == refused(
        g, "blue", ReleaseScouts(marker=m, units=("no-such-unit",))).replace(
            "no-such-unit", "grey-cav")
    g.do("blue", ReleaseScouts(marker=m, units=("blue-hussars",)))
    assert "already released scouts this phase" in refused(
        g, "blue", ReleaseScouts(marker=m, units=("blue-lancers",)))


def test_scouts_are_released_only_at_the_start_of_the_phase() -> None:
    g, m = concealed()
    g.do("blue", cmd.Move(unit="blue-ind", route="A0202"))
    assert "before any unit of your side moves" in refused(
        g, "blue", ReleaseScouts(marker=m, units=("blue-lancers",)))
    g.step()  # Grey's movement phase
    assert "start of your own movement phase" in refused(
        g, "blue", ReleaseScouts(marker=m, units=("blue-lancers",)))
    # Grey cannot use Blue's marker: to Grey it is no marker of its own.
    assert "no concealment marker" in refused(
        g, "grey", ReleaseScouts(marker=m, units=("blue-lancers",)))


def test_a_lone_cavalry_brigade_or_a_decoy_releases_nothing() -> None:
    g = field()
    g.do("blue", ConcealForce(leader="blue-ind"))
    g.do("blue", ConcealForce(leader="blue-gen"))
    lone = next(mid for mid, f in rec.forces(g.state).items() if f["kind"] == "cavalry")
    division = next(mid for mid, f in rec.forces(g.state).items() if f["kind"] == "division")
    g.to(2, "movement", "blue")
    assert "lone cavalry brigade" in refused(
        g, "blue", ReleaseScouts(marker=lone, units=("blue-ind",)))
    g.do("blue", BreedDecoy(marker=division))
    decoy = rec.decoys_of(g.state, "blue")[0]
    assert "decoy" in refused(g, "blue", ReleaseScouts(marker=decoy, units=("blue-lancers",)))


# -- their reach in the phase they come out -----------------------------------------------------

def test_a_skirmisher_goes_at_most_two_hexes_from_its_force_that_phase() -> None:
    g, m = concealed()
    g.do("blue", ReleaseScouts(marker=m, units=("blue-2", "blue-3")))
    assert "at most 2 hexes" in refused(g, "blue", cmd.Move(unit="blue-3", route="A0705"))
    # Out three and back again is refused too: every hex it enters counts.
    assert "at most 2 hexes" in refused(g, "blue",
                                        cmd.Move(unit="blue-3", route="A0705 A0605"))
    g.do("blue", cmd.Move(unit="blue-3", route="A0605"))
    assert g.label("blue-3") == "A0605"
    # The next turn it moves as any other unit.
    g.to(3, "movement", "blue")
    g.do("blue", cmd.Move(unit="blue-3", route="A0805"))
    assert g.label("blue-3") == "A0805"


def test_a_cavalry_scout_goes_at_most_four_leader_mps_from_its_force_that_phase() -> None:
    g, m = concealed()
    g.do("blue", ReleaseScouts(marker=m, units=("blue-lancers",)))
    # Four clear hexes cost a leader four MPs; the woods beyond cost two more.
    assert "at most 4 MPs at leader rates" in refused(
        g, "blue", cmd.Move(unit="blue-lancers", route="A0905"))
    assert "at most 4 MPs at leader rates" in refused(
        g, "blue", cmd.Move(unit="blue-lancers", route="A0905 A0805"))
    g.do("blue", cmd.Move(unit="blue-lancers", route="A0805"))
    assert g.label("blue-lancers") == "A0805"
    g.to(3, "movement", "blue")
    g.do("blue", cmd.Move(unit="blue-lancers", route="A0905"))
    assert g.label("blue-lancers") == "A0905"


def test_a_scout_that_never_left_its_force_goes_back_under_the_marker() -> None:
    g, m = concealed()
    g.do("blue", ReleaseScouts(marker=m, units=("blue-lancers", "blue-2")))
    g.do("blue", cmd.Move(unit="blue-lancers", route="A0505"))
    g.step()
    assert g.state.units["blue-2"].location == InMarker(m)
    assert g.state.units["blue-lancers"].location == OnMap(g.cell("A0505"))
    record = rec.force(g.state, m)
    assert record is not None and "blue-2" in record["units"]
    assert any("went back under it" in r for r in g.reports("blue"))


# -- the anonymous cavalry scout ----------------------------------------------------------------

def test_a_released_cavalry_unit_shows_to_the_enemy_as_anonymous_cavalry() -> None:
    g, m = concealed()
    since = len(g.events)
    g.do("blue", ReleaseScouts(marker=m, units=("blue-lancers", "blue-2")))
    grey = project(g.state, "grey")
    (scout,) = [u for u in grey.units if u.level == ANONYMOUS]
    assert scout.kind == "cavalry" and scout.cell == g.cell(HOME)
    assert (scout.ref, scout.name, scout.strength, scout.echelon) == ("anonymous-1", "", None, "")
    # Skirmishers are not hidden.
    assert grey.unit("blue-2") is not None and grey.unit("blue-2").level == IDENTIFIED
    g.do("blue", cmd.Move(unit="blue-lancers", route="A0805"))
    known = _grey_knows(g, since)
    assert "lancers" not in known and "blue-lancers" not in known
    # Its own side sees it in full.
    own = project(g.state, "blue").unit("blue-lancers")
    assert own is not None and own.name == "Blue Lancers"


def test_whichever_cavalry_unit_is_released_the_enemy_gets_the_same() -> None:
    """Cheater test: the Lancers (4 strength points) or the Hussars (2) go out and ride the same
    way; Grey's view, map, memory and messages are identical."""
    seen = []
    for which in ("blue-lancers", "blue-hussars"):
        g, m = concealed()
        since = len(g.events)
        g.do("blue", ReleaseScouts(marker=m, units=(which,)))
        first = everything(g.state, "grey")
        g.do("blue", cmd.Move(unit=which, route="A0805"))
        g.step()
        seen.append((first, everything(g.state, "grey"), g.reports("grey", since)))
    assert seen[0] == seen[1]


def test_the_scout_is_identified_for_good_once_an_enemy_unit_sees_it() -> None:
    g, m = concealed()
    g.do("blue", ReleaseScouts(marker=m, units=("blue-lancers",)))
    g.do("blue", cmd.Move(unit="blue-lancers", route="A0805"))
    g.to(3, "movement", "blue")
    assert project(g.state, "grey").unit("blue-lancers") is None
    # South of the woods the Grey Horse has a clear view along the row.
    g.do("blue", cmd.Move(unit="blue-lancers", route="A0809"))
    grey = project(g.state, "grey")
    shown = grey.unit("blue-lancers")
    assert shown is not None and shown.level == IDENTIFIED and shown.name == "Blue Lancers"
    assert not rec.is_anonymous(g.state, "blue-lancers")
    # Its memory holds the unit as itself, and no anonymous counter for it.
    assert [u.ref for u in grey.memory] == ["blue-lancers"]
    assert any("no longer anonymous" in r for r in g.reports("blue"))
    # Back out of sight it stays identified.
    g.do("blue", cmd.Move(unit="blue-lancers", route="A0805"))
    shown = project(g.state, "grey").unit("blue-lancers")
    assert shown is not None and shown.level == IDENTIFIED
