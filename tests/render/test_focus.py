"""The phase map looks where the fighting is: its window is placed on the side's hot spots
(contacts, fights, marches), read from its view alone, and on the densest cluster of its units
only when nothing happens (``render.focus``); a gallery gives one close-up per hot spot far
apart, each with alt text written from the view (``umpire.words.focus``)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.samples import sample_map, sample_view
from render.draw import draw_picture
from render.fit import counters_of, densest_window, fit_size, running_sums
from render.focus import CLOSE_UP_RADIUS, close_ups, fitted_window, hot_spots
from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell
from rules.knowledge.overlay import Route
from rules.view import GHOST, IDENTIFIED, OWN, SideView, UnitView
from umpire.words.focus import alt_text, gallery


def board() -> GameMap:
    return sample_map(34, 22, sheets=(2, 2), seed=7)


def own(k: int, cell: Cell, **kw: object) -> UnitView:
    return UnitView(ref=f"u{k}", side="union", level=OWN, cell=cell, name=f"Brigade {k}",
                    short=f"Bde {k}", kind="infantry", strength=5, formation="line",
                    morale="normal", **kw)  # type: ignore[arg-type]


def enemy(k: int, cell: Cell, level: str = IDENTIFIED, turn: int | None = None) -> UnitView:
    return UnitView(ref=f"e{k}", side="confederate", level=level, cell=cell,  # type: ignore[arg-type]
                    name=f"Rebel {k}", short=f"Reb {k}", kind="infantry", strength=4,
                    formation="line", last_seen_turn=turn)


#: The side's main body, far in the rear: twelve brigades round B0606.
REAR = [own(k, Cell(5 + k % 4, 5 + k // 4)) for k in range(12)]
#: A small group at the front.
FRONT = [own(20, Cell(50, 30)), own(21, Cell(51, 30))]


def view_of(*units: UnitView, **kw: object) -> SideView:
    return sample_view(board(), "union", list(units), **kw)  # type: ignore[arg-type]


def test_a_small_group_in_contact_is_framed_not_the_main_body_in_the_rear() -> None:
    """Chancellorsville, turn 1: the Union's map sat on the rear with none of the enemy in it."""
    view = view_of(*REAR, *FRONT, enemy(1, Cell(54, 31)))
    first = hot_spots(view)[0]
    assert first.reason == "contact"
    assert {Cell(50, 30), Cell(51, 30), Cell(54, 31)} <= set(first.cells)
    window = fitted_window(view)
    assert window is not None and window.reason == "contact"
    for c in (Cell(50, 30), Cell(51, 30), Cell(54, 31)):
        assert window.holds(c)
    assert (window.own_in, window.enemy_in) == (2, 1)
    assert draw_picture(view, fitted=True).window == window
    assert alt_text(view, first) == f"Contact near {view.board.label(first.centre)}: " \
        "1 enemy unit in sight, 2 of yours"


def test_with_no_contact_the_window_is_the_densest_cluster() -> None:
    """An enemy far from every unit of the side is no contact: today's window, on the main
    body."""
    view = view_of(*REAR, *FRONT, enemy(1, Cell(30, 40)))
    assert [s.reason for s in hot_spots(view)] == ["units"]
    window = fitted_window(view)
    assert window is not None and window.reason == "units"
    assert replace(window, reason="") == densest_window(view)
    assert all(window.holds(u.cell) for u in REAR)


def test_a_contact_in_sight_comes_before_one_with_ghosts_only() -> None:
    view = view_of(*REAR, *FRONT, enemy(1, Cell(8, 9), GHOST, turn=2), enemy(2, Cell(53, 30)),
                   information="hidden")
    spots = hot_spots(view)
    assert [s.reason for s in spots] == ["contact", "contact", "units"]
    assert (spots[0].enemy, spots[0].ghosts) == (1, 0)
    assert (spots[1].enemy, spots[1].ghosts) == (0, 1)
    assert "1 enemy unit last seen there" in alt_text(view, spots[1])


def test_units_that_were_in_a_fight_and_a_march_are_hot_spots() -> None:
    hit = own(30, Cell(40, 10), stragglers=1)
    shaken = replace(own(31, Cell(41, 10)), morale="shaken")
    route = Route((Cell(20, 30), Cell(21, 30), Cell(22, 31)), "Howard: marching", "m1")
    view = replace(view_of(*REAR, hit, shaken), routes=(route,))
    spots = hot_spots(view)
    assert [s.reason for s in spots] == ["fight", "march", "units"]
    assert set(spots[0].cells) == {Cell(40, 10), Cell(41, 10)}
    assert spots[1].centre == Cell(20, 30)
    assert alt_text(view, spots[0]).endswith("1 of your units shaken, 1 unit with stragglers")
    assert alt_text(view, spots[1]) == "March near C2109: Howard: marching"
    window = fitted_window(view)
    assert window is not None and window.reason == "fight" and window.holds(Cell(40, 10))


def test_the_gallery_has_one_close_up_per_hot_spot_far_apart() -> None:
    view = view_of(*REAR, *FRONT, enemy(1, Cell(54, 31)), enemy(2, Cell(52, 31)))
    shots = close_ups(view)
    assert [c.spot.reason for c in shots] == ["contact", "units"]
    assert all(c.radius == CLOSE_UP_RADIUS for c in shots)  # one scale for every close-up
    assert len(close_ups(view, 1)) == 1
    words = gallery(view)
    assert words[0].alt.endswith("2 enemy units in sight, 2 of yours")
    assert words[1].alt == f"Your units near {words[1].around}: 12 units"
    # A march whose head is in the contact's close-up gets none of its own.
    route = Route((Cell(51, 30), Cell(52, 30)), "Howard: marching", "m1")
    marching = replace(view, routes=(route,))
    assert [s.reason for s in hot_spots(marching)] == ["contact", "march", "units"]
    shots = close_ups(marching)
    assert [c.spot.reason for c in shots] == ["contact", "units"]
    grid = view.game_map.grid
    for k, later in enumerate(shots):
        assert all(grid.distance(later.around, c.around) > c.radius for c in shots[:k])


def test_the_umpire_map_keeps_the_densest_cluster() -> None:
    units = [*REAR, *FRONT, replace(enemy(1, Cell(54, 31)), level=OWN)]
    view = sample_view(board(), None, units)
    assert [s.reason for s in hot_spots(view)] == ["units"]


def _window_by_every_place(view: SideView) -> tuple[int, int] | None:
    """The fitted window's corner found the plain way: every place the window can lie, scored
    by all the wishes at once (the reference for ``fitted_window``'s narrowing search)."""
    spots = hot_spots(view)
    if not spots or spots[0].reason == "units":
        return None
    counters = counters_of(view)
    assert counters is not None
    grid = view.game_map.grid
    cols, rows = fit_size(grid)
    top = [s for s in spots[:3] if s.reason != "units"]
    tables = [running_sums(grid, s.cells) for s in top]

    def held(t: list[list[int]], c0: int, r0: int) -> int:
        return t[r0 + rows][c0 + cols] - t[r0][c0 + cols] - t[r0 + rows][c0] + t[r0][c0]

    centre = spots[0].centre
    best = min(
        (-held(tables[0], c0, r0),
         *(-int(held(t, c0, r0) == len(s.cells)) for t, s in zip(tables[1:], top[1:],
                                                                    strict=True)),
         -counters.count(True, c0, r0, cols, rows), -counters.count(False, c0, r0, cols, rows),
         abs(c0 + (cols - 1) / 2 - centre.col) + abs(r0 + (rows - 1) / 2 - centre.row), r0, c0)
        for r0 in range(grid.height - rows + 1) for c0 in range(grid.width - cols + 1))
    return int(best[-2]), int(best[-1])


_CELLS = st.builds(Cell, st.integers(0, 33), st.integers(0, 21))


@settings(max_examples=60, deadline=None)
@given(mine=st.lists(_CELLS, min_size=1, max_size=25), theirs=st.lists(_CELLS, max_size=12),
       hit=st.lists(st.integers(0, 24), max_size=4), ghosts=st.lists(st.booleans(), max_size=12),
       march=st.lists(_CELLS, max_size=6))
def test_the_window_is_the_best_place_by_every_wish_in_turn(
        mine: list[Cell], theirs: list[Cell], hit: list[int], ghosts: list[bool],
        march: list[Cell]) -> None:
    units = [own(k, c, stragglers=int(k in hit)) for k, c in enumerate(mine)]
    units += [enemy(k, c, GHOST if k < len(ghosts) and ghosts[k] else IDENTIFIED, turn=2)
              for k, c in enumerate(theirs)]
    view = view_of(*units, information="hidden")
    if march:
        view = replace(view, routes=(Route(tuple(march), "marching", "m1"),))
    found = fitted_window(view)
    expected = _window_by_every_place(view)
    assert found is not None
    if expected is not None:
        assert (found.row, found.col) == expected


def test_running_sums_count_every_rectangle() -> None:
    grid = board().grid
    cells = [Cell(0, 0), Cell(3, 2), Cell(3, 2), Cell(33, 21), Cell(10, 5)]
    t = running_sums(grid, cells)
    for r in range(0, grid.height + 1, 3):
        for c in range(0, grid.width + 1, 4):
            assert t[r][c] == sum(1 for x in cells if x.row < r and x.col < c)


@settings(max_examples=40, deadline=None)
@given(mine=st.lists(_CELLS, min_size=1, max_size=25), theirs=st.lists(_CELLS, max_size=12))
def test_the_densest_window_is_the_best_place_by_every_wish_in_turn(
        mine: list[Cell], theirs: list[Cell]) -> None:
    view = view_of(*(own(k, c) for k, c in enumerate(mine)),
                   *(enemy(k, c) for k, c in enumerate(theirs)))
    found = densest_window(view)
    counters = counters_of(view)
    assert found is not None and counters is not None
    grid = view.game_map.grid
    cols, rows = fit_size(grid)
    every = [c for c, _ in counters.cells]
    mid_c = (min(c.col for c in every) + max(c.col for c in every) + 1) / 2
    mid_r = (min(c.row for c in every) + max(c.row for c in every) + 1) / 2
    best = min((-counters.count(True, c0, r0, cols, rows),
                -counters.count(False, c0, r0, cols, rows),
                abs(c0 + cols / 2 - mid_c) + abs(r0 + rows / 2 - mid_r), r0, c0)
               for r0 in range(grid.height - rows + 1) for c0 in range(grid.width - cols + 1))
    assert (found.row, found.col) == (best[3], best[4])
    assert (found.own_in, found.enemy_in) == (-best[0], -best[1])
