"""Where a concealed force's move will halt, foreseen from what its side knows (ruling CF-22).

The move halts the force before a hex the enemy holds, one within two hexes of an enemy unit or
marker, or one in an enemy unit's line of sight (``rules.concealed.moving``). A preview walks
the route against the enemy of the side's own view instead (``rules.orders.known``): the
counters it sees, the ghosts it remembers (taken to be there still), the enemy markers on its
map, and the sight of the counters under the turn's visibility. Nothing here reads an enemy the
side does not know of, so the words never vary with one; that enemy may still halt it sooner.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.concealed.reveal.spacing import KEEP_AWAY
from rules.ground.grid import Cell
from rules.knowledge.levels import GHOST, MarkerView, UnitView
from rules.orders.foresight import enemy_called, in_the_way
from rules.orders.known import KnownEnemy


def foreseen_halt(known: KnownEnemy, path: Sequence[Cell]) -> tuple[int, str]:
    """How many hexes of ``path`` the force enters before what the side knows of the enemy
    halts it, and why in the side's own words (empty: nothing it knows of is in the way)."""
    gm = known.ground.game_map
    board = gm.board
    for n, cell in enumerate(path):
        held = known.at(cell)
        if held:
            return n, in_the_way(board, held).replace("next on its way", "in the hex it enters")
        marker = _marker_at(known.markers, cell)
        if marker is not None:
            return n, (f"the enemy marker your troops see at {board.describe(cell)} holds the hex "
                       "it would enter")
        near = _near(known, cell)
        if near:
            return n, f"{board.describe(cell)} is within {KEEP_AWAY - 1} hexes of {near}"
        seer = _seen_from(known, cell)
        if seer is not None:
            return n, (f"{board.describe(cell)} is in the line of sight of {enemy_called(seer)}, "
                       f"which your troops {_seen_words(seer)} at {board.describe(seer.cell)}")
    return len(path), ""


def _marker_at(markers: Sequence[MarkerView], cell: Cell) -> MarkerView | None:
    return next((m for m in sorted(markers, key=lambda m: m.id) if m.cell == cell), None)


def _near(known: KnownEnemy, cell: Cell) -> str:
    """The nearest enemy counter or marker the side knows of within reach of ``cell``, named."""
    grid = known.ground.game_map.grid
    board = known.ground.game_map.board
    counters = sorted((u for u in known.counters if grid.distance(cell, u.cell) < KEEP_AWAY),
                      key=lambda u: (grid.distance(cell, u.cell), u.level == GHOST, u.ref))
    if counters:
        c = counters[0]
        return f"{enemy_called(c)}, which your troops {_seen_words(c)} at {board.describe(c.cell)}"
    markers = sorted((m for m in known.markers if grid.distance(cell, m.cell) < KEEP_AWAY),
                     key=lambda m: (grid.distance(cell, m.cell), m.id))
    if markers:
        return f"the enemy marker your troops see at {board.describe(markers[0].cell)}"
    return ""


def _seen_from(known: KnownEnemy, cell: Cell) -> UnitView | None:
    """An enemy counter the side knows of with ``cell`` in its line of sight now."""
    gm = known.ground.game_map
    to = gm.idx(cell)
    for u in sorted(known.counters, key=lambda u: (u.level == GHOST, u.ref)):
        if known.ground.rule.sees(gm.idx(u.cell), to, known.ground.visibility):
            return u
    return None


def _seen_words(counter: UnitView) -> str:
    return "last saw" if counter.level == GHOST else "see"
