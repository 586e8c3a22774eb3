"""Non-interference for what a side cannot tell apart: what is under an enemy marker (which
units, or none: a decoy) and who an anonymous enemy unit is. A side's view, its texts and the PNG
bytes of its map are the same, byte for byte, whatever the hidden truth; its enemy's, who knows
that truth, are not (the tests are not blind)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

import pytest

from rules import events as ev
from rules.knowledge.sighted import ANONYMOUS_SLOT, phase_report, sight, sighting_events
from rules.state import GameState, apply, with_units
from rules.view import ANONYMOUS, GHOST, project
from tests.support.hidden_views import (
    CASES,
    anonymous_greys,
    cell,
    everything,
    sighted,
    tiny,
)
from tests.support.hiding_module import under, with_markers
from umpire.reads.maps import draw_side_map

pytestmark = pytest.mark.usefixtures("hiding")

FIRST, SECOND = "0417", "8823"


# -- markers ------------------------------------------------------------------------------------

MARKERS = {FIRST: "B0302", SECOND: "B0505"}
#: What is under Blue's two markers: which unit under which, and which is the decoy.
CONTENTS: dict[str, Mapping[str, Sequence[str]]] = {
    "one each": {FIRST: ["blue-1"], SECOND: ["blue-2"]},
    "swapped": {FIRST: ["blue-2"], SECOND: ["blue-1"]},
    "second a decoy": {FIRST: ["blue-1", "blue-2"], SECOND: []},
    "first a decoy": {FIRST: [], SECOND: ["blue-1", "blue-2"]},
}


def marked(model: str, contents: Mapping[str, Sequence[str]]) -> GameState:
    """Blue's two markers holding ``contents``; Grey's map shows the cells it can tell are
    blocked (as on a surprise move), so the overlay is compared too."""
    state = tiny(model)
    where = {m: cell(state, label) for m, label in MARKERS.items()}
    return with_markers(state, "blue", where, contents, blocked_for=["grey"])


@pytest.mark.parametrize("model", ["concealed", "open", "hidden"])
def test_what_is_under_a_marker_never_reaches_the_enemy(model: str) -> None:
    seen = {name: everything(marked(model, c), "grey")
            for name, c in CONTENTS.items()}
    assert len(set(seen.values())) == 1, [n for n in seen if seen[n] != seen["one each"]]
    owner = {name: everything(marked(model, c), "blue") for name, c in CONTENTS.items()}
    assert len(set(owner.values())) == len(CONTENTS)  # the owner does see the difference


def test_a_side_sees_its_own_markers_contents_and_the_enemys_as_markers() -> None:
    state = marked("concealed", CONTENTS["second a decoy"])
    blue, grey = project(state, "blue"), project(state, "grey")
    assert [m.id for m in blue.markers] == [FIRST, SECOND] == [m.id for m in grey.markers]
    first, second = blue.markers
    assert first.contents is not None and [u.ref for u in first.contents] == ["blue-1", "blue-2"]
    assert all(u.cell == first.cell for u in first.contents)
    assert second.contents == () and second.own  # a decoy, and its owner knows it
    assert all(m.contents is None and not m.own for m in grey.markers)
    assert not {u.ref for u in grey.units} & {"blue-1", "blue-2"}
    # The units under the markers are off the map: nobody's troops sight them.
    assert not {"blue-1", "blue-2"} & set(sight(state)["grey"].seen_units)
    assert all(not m.moved_this_phase and m.created_turn == state.turn for m in grey.markers)
    assert blue.blocked_cells == frozenset()


def test_an_enemy_marker_blocks_as_if_it_could_fight_and_see() -> None:
    """In the twilight no Blue unit on the map blocks the markers' cells; the markers do."""
    state = replace(marked("concealed", CONTENTS["second a decoy"]), turn=3)
    grey = project(state, "grey")
    cells = {m.cell for m in grey.markers}
    assert len(cells) == 2 and cells <= grey.blocked_cells
    without = project(replace(state, markers=MappingProxyType({})), "grey")
    assert not cells & without.blocked_cells


def test_units_located_in_a_marker_are_its_contents_when_no_module_says_otherwise() -> None:
    state = tiny("concealed")
    state = apply(state, ev.MarkerPlaced(audience="public", marker=FIRST, side="blue",
                                         cell=(3, 4)))
    state = with_units(state, {"blue-1": under(state.units["blue-1"], FIRST)})
    (mine,) = project(state, "blue").markers
    assert mine.contents is not None and [u.ref for u in mine.contents] == ["blue-1"]
    (theirs,) = project(state, "grey").markers
    assert theirs.contents is None
    assert "blue-1" not in {u.ref for u in project(state, "grey").units}


def test_an_enemy_marker_out_of_sight_is_not_shown_under_the_hidden_model() -> None:
    state = replace(marked("hidden", CONTENTS["one each"]), turn=3)  # twilight: short sight
    grey = project(state, "grey")
    seen = grey.seen_cells or frozenset()
    assert all(m.cell in seen for m in grey.markers)
    assert len(grey.markers) < 2 and len(project(state, "blue").markers) == 2


def test_markers_are_drawn() -> None:
    state = marked("concealed", CONTENTS["one each"])
    for side in ("blue", "grey"):
        view = project(state, side)
        assert draw_side_map(view) != draw_side_map(replace(view, markers=()))
    blue = project(state, "blue")
    decoy = replace(blue, markers=tuple(replace(m, contents=()) for m in blue.markers))
    assert draw_side_map(blue) != draw_side_map(decoy)  # the owner's card says what is under


# -- anonymous units ----------------------------------------------------------------------------


@pytest.mark.parametrize("model", ["hidden", "inverted", "open"])
def test_who_an_anonymous_unit_is_never_reaches_the_viewer(model: str) -> None:
    states = {case: anonymous_greys(model, case) for case in CASES}
    assert all({"grey-1", "grey-2"} <= set(sight(s)["blue"].seen_units) for s in states.values())
    first = {case: everything(s, "blue") for case, s in states.items()}
    assert len(set(first.values())) == 1
    view = project(states["as placed"], "blue")
    anonymous = [u for u in view.units if u.level == ANONYMOUS]
    assert [u.ref for u in anonymous] == ["anonymous-1", "anonymous-2"]
    assert all(u.kind == "infantry" and not u.name and u.strength is None for u in anonymous)
    # Then out of sight (twilight, and gone east): the ghosts and "lost from sight" agree too.
    later = {}
    for case, s in states.items():
        remembered = sighted(s)
        gone = with_units(replace(remembered, turn=3), {
            "grey-1": remembered.units["grey-1"].placed(cell(s, "B0704")),
            "grey-2": remembered.units["grey-2"].placed(cell(s, "B0703"))})
        later[case] = everything(gone, "blue")
    assert len(set(later.values())) == 1
    if model == "hidden":
        (_, _, _, _, words) = later["as placed"]
        assert words and "unidentified infantry unit" in words[0] and "Grey" not in words[0]
        ghost = [u for u in project(sighted(gone), "blue").units if u.level == GHOST]
        assert [u.ref for u in ghost] == ["ghost-1", "ghost-2"] and not any(u.name for u in ghost)


@pytest.mark.parametrize("model", ["hidden", "open"])
def test_without_anonymity_the_same_cases_do_differ(model: str) -> None:
    """The comparison is not blind: identified, the cases give different output."""
    shown = {case: everything(s, "blue") for case in CASES
             if (s := anonymous_greys(model, case, anonymous=False))}
    assert len(set(shown.values())) == len(CASES)


def test_anonymous_units_appear_in_the_sighting_memory_without_a_name() -> None:
    state = sighted(anonymous_greys("hidden", "as placed"))
    memory = state.memory["blue"]
    # Kept by where they stand and what shows, never by which unit they are (INFO-12).
    assert "grey-1" not in memory and "grey-2" not in memory
    anonymous = [m for key, m in memory.items() if key.startswith(ANONYMOUS_SLOT)]
    assert len(anonymous) == 2
    assert all(m.seen["anonymous"] and m.seen["name"] == "" and m.seen["strength"] is None
               for m in anonymous)
    report = phase_report(project(state, "blue"))
    assert "an unidentified infantry unit at" in report and "Grey" not in report
    # A Sighted event's words name the unit by its kind.
    news = sighting_events(anonymous_greys("hidden", "as placed"))
    assert any(isinstance(e, ev.Sighted) for e in news)
