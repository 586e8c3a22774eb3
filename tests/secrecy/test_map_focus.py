"""Where a side's phase map looks tells it nothing it does not see: the hot spots, the window
and the close-ups' alt text (``render.focus``, ``umpire.words.focus``) are functions of its view,
so two games that differ only in enemies out of its sight give the same ones; and they are read
from the part of the view a picture's digest covers (``umpire.reads.map_digest.drawn_part``), so
a picture kept under that digest has the right window."""

from __future__ import annotations

from dataclasses import replace

from render.focus import close_ups, fitted_window, hot_spots
from rules.ground.grid import Cell
from rules.knowledge.overlay import Route
from rules.state import GameState, initial_state, with_units
from rules.view import SideView, project
from tests.support.hidden_views import cell, tiny, unseen_renamed
from umpire.games import catalog
from umpire.reads.map_digest import drawn_part
from umpire.words.focus import gallery


def focus(view: SideView) -> tuple[object, ...]:
    """Everything the side is shown of where its map looks."""
    return (hot_spots(view), fitted_window(view), close_ups(view), gallery(view))


def greys_at(state: GameState, first: str, second: str, **changes: object) -> GameState:
    grey = state.units["grey-1"]
    bat = state.units["grey-bat"]
    return with_units(state, {"grey-1": replace(grey, **changes).placed(cell(state, first)),  # type: ignore[arg-type]
                              "grey-bat": bat.placed(cell(state, second))})


def unseen_labels(state: GameState, side: str) -> list[str]:
    seen = project(state, side).seen_cells
    assert seen is not None
    board = state.loaded.board
    return [board.label(c) for c in state.loaded.board.grid.cells()
            if c not in seen and board.on_a_sheet(c)]


def test_enemies_out_of_sight_moved_or_changed_leave_the_focus_alone() -> None:
    state = tiny("hidden")
    hidden = unseen_labels(state, "blue")
    assert len(hidden) >= 4, "the test needs cells Blue cannot see"
    a = greys_at(state, hidden[0], hidden[1])
    b = greys_at(state, hidden[-1], hidden[-2], name="Someone Else", short="SE", strength=1)
    assert focus(project(a, "blue")) == focus(project(b, "blue"))
    # Not blind: a Grey brigade beside Blue's makes a contact, and the umpire's view differs.
    near = greys_at(state, "A0304", hidden[0])
    assert hot_spots(project(near, "blue"))[0].reason == "contact"
    assert focus(project(a, None)) != focus(project(b, None))


def test_hidden_enemy_identities_leave_the_focus_alone() -> None:
    """Chancellorsville: the Confederates out of Union sight renamed and weakened (the Union sees
    them as blank markers where they stand)."""
    state = initial_state(catalog.load_file(catalog.find("chancellorsville-hidden")))
    changed = unseen_renamed(state, "union")
    assert focus(project(changed, "union")) == focus(project(state, "union"))


def test_the_focus_is_read_from_what_the_digest_covers() -> None:
    state = initial_state(catalog.load_file(catalog.find("chancellorsville-hidden")))
    for side in state.sides:
        view = project(state, side)
        head = view.own_units()[0].cell
        marching = replace(view, routes=(Route((head, Cell(head.col + 1, head.row)),
                                               "a march", "m1"),))
        for v in (view, marching):
            assert focus(drawn_part(v)) == focus(v)
