"""A side remembers a counter it sees only as anonymous by where it stands and what shows of it,
never by which unit it is (ruling INFO-12): whichever of two look-alike units comes back, or
whether two of them swap places, the side gets the same news, memory and ghosts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.knowledge.sighted import bits_to_cells, sight, sighting_events
from rules.state import GameState, with_units
from rules.view import GHOST, project
from tests.support.hidden_views import anonymous_greys, cell, everything, sighted

pytestmark = pytest.mark.usefixtures("hiding")


def _one_comes_back(which: str) -> GameState:
    """Both look-alike Grey brigades go out of sight, leaving ghosts; then ``which`` of them
    comes back into sight, to the same empty cell."""
    s = sighted(anonymous_greys("hidden", "as placed"))
    gone = sighted(with_units(replace(s, turn=3), {
        "grey-1": s.units["grey-1"].placed(cell(s, "B0704")),
        "grey-2": s.units["grey-2"].placed(cell(s, "B0703"))}))
    assert len([u for u in project(gone, "blue").units if u.level == GHOST]) == 2
    seen = bits_to_cells(sight(gone)["blue"].seen_cells, gone.loaded.board.grid)
    taken = {u.cell for u in gone.units.values()}
    target = sorted(seen - taken, key=lambda c: (c.row, c.col))[0]
    back = with_units(gone, {which: gone.units[which].placed(target)})
    assert which in sight(back)["blue"].seen_units
    return back


def test_which_anonymous_unit_comes_back_does_not_show() -> None:
    one, other = _one_comes_back("grey-1"), _one_comes_back("grey-2")
    assert everything(one, "blue") == everything(other, "blue")
    # Both ghosts stay where the side last saw counters: neither is cleared by the return.
    assert len([u for u in project(sighted(one), "blue").units if u.level == GHOST]) == 2


def test_two_look_alikes_swapping_places_is_no_news() -> None:
    s = sighted(anonymous_greys("hidden", "as placed"))
    a, b = s.units["grey-1"].cell, s.units["grey-2"].cell
    assert a is not None and b is not None and a != b
    swapped = with_units(s, {"grey-1": s.units["grey-1"].placed(b),
                             "grey-2": s.units["grey-2"].placed(a)})
    assert sighting_events(s) == [] and sighting_events(swapped) == []
    assert everything(swapped, "blue") == everything(s, "blue")


def test_a_look_alike_moving_in_sight_leaves_no_ghost_behind() -> None:
    s = sighted(anonymous_greys("hidden", "as placed"))
    seen = bits_to_cells(sight(s)["blue"].seen_cells, s.loaded.board.grid)
    taken = {u.cell for u in s.units.values()}
    target = sorted(seen - taken, key=lambda c: (c.row, c.col))[0]
    moved = sighted(with_units(s, {"grey-1": s.units["grey-1"].placed(target)}))
    assert [u for u in project(moved, "blue").units if u.level == GHOST] == []
