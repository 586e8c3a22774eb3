"""Concealment markers on the maps: in the owning side's colour, the same picture on the
enemy's map whatever is under them (a division or a decoy, which division, how big), and on the
owner's map labelled with what is under each. Released scouts keep their anonymous look."""

from __future__ import annotations

from dataclasses import replace

from bench.samples import sample_map, sample_view
from render import render_map
from render.counters import OWN_MARKER, look_of, marker_counters, under_label
from rules import commands as cmd
from rules.concealed.commands import BreedDecoy, ConcealForce
from rules.ground.grid import Cell
from rules.state import GameState
from rules.view import ANONYMOUS, MARKER, MarkerView, UnitView, project
from tests.support.concealed import COLSTON, NEXT_DOOR, SEED, FlankMarch, Rigged

RADIUS = 5
CELL = Cell(6, 5)


def game(holds: int) -> tuple[GameState, Cell]:
    """Flank-march: the Confederates conceal Colston in turn 1, breed a decoy in turn 2 (the
    force under the first marker by id when ``holds`` is 1, the second when 2) and move the
    first marker next door. The state, and the cell the markers stand round."""
    f = FlankMarch(Rigged(SEED, "g1", holds))
    g = f.game
    f.to_confederate_movement(1)
    g.do("confederate", ConcealForce(leader=COLSTON))
    f.to_confederate_movement(2)
    [parent] = g.state.markers
    centre = g.state.markers[parent].cell
    g.do("confederate", BreedDecoy(marker=parent))
    first = min(g.state.markers)
    g.do("confederate", cmd.Move(unit=f"marker {first}", route=NEXT_DOOR))
    return g.state, centre


def test_the_enemys_map_is_the_same_for_a_decoy_and_a_division() -> None:
    real, centre = game(1)
    decoy, again = game(2)
    assert centre == again and sorted(real.markers) == sorted(decoy.markers)
    first = min(real.markers)
    # What is under the first marker does differ ...
    assert [len(m.contents or ()) for m in project(real, "confederate").markers] == [6, 0]
    assert [len(m.contents or ()) for m in project(decoy, "confederate").markers] == [0, 6]
    # ... and the Union's map does not show it, whole board or close up.
    union_real, union_decoy = project(real, "union"), project(decoy, "union")
    assert [m.contents for m in union_real.markers] == [None, None]
    assert render_map(union_real) == render_map(union_decoy)
    assert (render_map(union_real, around=centre, radius=RADIUS)
            == render_map(union_decoy, around=centre, radius=RADIUS))
    # The owner's map says which is which.
    own_real = render_map(project(real, "confederate"), around=centre, radius=RADIUS)
    own_decoy = render_map(project(decoy, "confederate"), around=centre, radius=RADIUS)
    assert own_real != own_decoy
    assert real.markers[first].cell == decoy.markers[first].cell


def test_swapping_what_is_under_an_enemy_marker_changes_no_byte() -> None:
    """Even a view that wrongly carried an enemy marker's contents would not draw them: the
    enemy's card is drawn from the marker's public face only."""
    view = sample_view(sample_map(), "union", [])
    division = tuple(UnitView(ref=f"u{k}", side="confederate", level=MARKER, cell=CELL,
                              name=f"Hays{k}'s brigade", kind="infantry", strength=5)
                     for k in range(6))
    blank = MarkerView(id="4821", side="confederate", cell=CELL, created_turn=1,
                       moved_this_phase=False)
    shown = render_map(replace(view, markers=(blank,)), around=CELL, radius=RADIUS)
    for contents in ((), division, division[:2]):
        wrong = replace(view, markers=(replace(blank, contents=contents),))
        assert render_map(wrong, around=CELL, radius=RADIUS) == shown
    # The owner's card, by contrast, names the force or says decoy.
    mine = replace(blank, side="union", contents=division[:1])
    [card] = marker_counters([mine], "union")
    assert card.kind == OWN_MARKER and look_of(card, (1, 2, 3), 40).under == "Hays0"
    assert under_label(()) == "decoy"
    as_decoy = replace(view, markers=(replace(mine, contents=()),))
    assert (render_map(replace(view, markers=(mine,)), around=CELL, radius=RADIUS)
            != render_map(as_decoy, around=CELL, radius=RADIUS))
    # The enemy's card is in the owner's colour: not the same picture as a union marker's.
    assert render_map(replace(view, markers=(replace(blank, side="union"),)), around=CELL,
                      radius=RADIUS) != shown


def test_the_owners_card_names_the_division_by_its_commander() -> None:
    real, _ = game(1)
    view = project(real, "confederate")
    labels = [look_of(c, (0, 0, 0), 40).under for c in marker_counters(view.markers)]
    assert labels == ["Colston", "decoy"]
    assert [look_of(c, (0, 0, 0), 40).under
            for c in marker_counters(project(real, "union").markers)] == ["", ""]


def test_an_anonymous_counter_keeps_its_look() -> None:
    """A released scout shows its arm and formation, a question mark for its name and no
    strength: two different scouts in the same cell and formation draw the same."""
    view = sample_view(sample_map(), "union", [])
    scout = UnitView(ref="", side="confederate", level=ANONYMOUS, cell=CELL, kind="cavalry",
                     formation="mounted")
    look = look_of(scout, (9, 9, 9), 40)
    assert (look.short, look.strength, look.kind) == ("?", None, "cavalry")
    other = replace(scout, name="1st Virginia Cavalry", short="1 Va", strength=4)
    assert look_of(other, (9, 9, 9), 40) == look
    assert (render_map(replace(view, units=(scout,)), around=CELL, radius=RADIUS)
            == render_map(replace(view, units=(other,)), around=CELL, radius=RADIUS))
