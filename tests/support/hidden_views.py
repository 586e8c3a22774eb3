"""Small states for the hidden-view tests: the tiny scenario under a model, enemies placed
in and out of sight, and everything a side's view shows, comparable across variants."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from rules.ground.grid import Cell
from rules.knowledge.sighted import phase_report, sighting_events
from rules.state import GameState, apply, initial_state, with_units
from rules.view import SideView, project
from tests.support.hiding_module import in_force
from tests.support.tiny_games import load_tiny
from umpire.games.routing import messages_for
from umpire.reads.maps import draw_side_map


def tiny(model: str) -> GameState:
    loaded = load_tiny(('information = "open"', f'information = "{model}"'))
    return replace(initial_state(loaded), status="active")

def cell(state: GameState, label: str) -> Cell:
    return state.loaded.board.parse(label)

def everything(state: GameState, side: str) -> tuple[object, ...]:
    """All a side gets from a state: the words of its sighting news, then, with that news in its
    memory, its view, its map's PNG bytes (whole and a window) and its phase report."""
    news = sighting_events(state)
    after = state
    for e in news:
        after = apply(after, e)
    words = [m.text for m in messages_for(state, list(news), after) if m.target == side]
    view = project(after, side)
    return (_comparable(view), draw_side_map(view), draw_side_map(view, "A0404", 4),
            phase_report(view), tuple(words))

def _comparable(view: SideView) -> tuple[object, ...]:
    return (view.units, view.markers, view.seen_cells, view.blocked_cells, view.routes,
            repr(sorted(view.notes.items())), view.information, view.turn, view.phase)

def two_greys(state: GameState, first: str, second: str, **changes: object) -> GameState:
    """Grey's brigade and a second brigade like it (another name, strength and id) in Blue's
    sight at ``first`` and ``second``; ``changes`` alter the first brigade."""
    grey = state.units["grey-1"]
    other = replace(grey, id="grey-2", name="Grey Guards", short="GG", strength=3)
    units = {"grey-1": replace(grey, **changes).placed(cell(state, first)),  # type: ignore[arg-type]
             "grey-2": other.placed(cell(state, second))}
    return with_units(state, units)

CASES = {
    "as placed": ("A0404", "A0405", {}),
    "swapped": ("A0405", "A0404", {}),
    "renamed": ("A0404", "A0405", {"name": "Another Brigade", "short": "AB", "strength": 1,
                                   "echelon": "division"}),
}

def anonymous_greys(model: str, case: str, anonymous: bool = True) -> GameState:
    first, second, changes = CASES[case]
    state = two_greys(tiny(model), first, second, **changes)
    return in_force(state, anonymous=["grey-1", "grey-2"] if anonymous else [])

def sighted(state: GameState) -> GameState:
    for e in sighting_events(state):
        state = apply(state, e)
    return state


def unseen_renamed(state: GameState, side: str) -> GameState:
    """The state with every enemy unit on the map that ``side`` does not see renamed and
    weakened: what a side is shown must not change."""
    seen = {u.ref for u in project(state, side).units}
    hidden = [uid for uid, u in state.units.items()
              if u.side != side and uid not in seen and u.cell is not None]
    assert hidden
    units = dict(state.units)
    for uid in hidden:
        units[uid] = replace(units[uid], strength=1, name="Someone Else", short="Else")
    return replace(state, units=MappingProxyType(units))
