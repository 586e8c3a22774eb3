"""The words that go with a close-up of one hot spot (``render.focus``): its alt text, what a
reader who cannot see the picture is told it shows. Written from the side's view and the spot
alone, so they name only what the side knows: counters in its view, its own units' state, its
own routes' notes."""

from __future__ import annotations

from dataclasses import dataclass

from render.fit import fit_size
from render.focus import CloseUp, HotSpot, close_ups
from rules.view import GHOST, OWN, SideView

#: How many more hot spots than a gallery shows are looked at, for those the map already shows.
MORE_SPOTS = 4


@dataclass(frozen=True, slots=True)
class CloseUpWords:
    """One close-up of a gallery: the cell it is centred on (its label), its radius, and its
    alt text."""

    around: str
    radius: int
    alt: str


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun, singular or plural."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def alt_text(view: SideView, spot: HotSpot) -> str:
    """What a close-up of ``spot`` shows, in one line, from ``view`` alone."""
    where = view.board.label(spot.centre)
    cells = set(spot.cells)
    own = [u for u in view.units if u.level == OWN and u.cell in cells]
    mine = spot.own
    if spot.reason == "contact":
        parts = []
        in_sight = [u for u in view.units
                    if u.level not in (OWN, GHOST) and u.cell in cells]
        markers = [m for m in view.markers if m.side != view.side and m.cell in cells]
        ghosts = [u for u in view.units if u.level == GHOST and u.cell in cells]
        if in_sight:
            parts.append(f"{counted(len(in_sight), 'enemy unit')} in sight")
        if markers:
            parts.append(counted(len(markers), "enemy marker"))
        if ghosts:
            parts.append(f"{counted(len(ghosts), 'enemy unit')} last seen there")
        parts.append(f"{mine} of yours")
        return f"Contact near {where}: " + ", ".join(parts)
    if spot.reason == "fight":
        states = view.game_map.ruleset.combat.morale_states
        normal = states[0].name if states else ""
        shaken: dict[str, int] = {}
        for u in own:
            if u.morale and u.morale != normal:
                shaken[u.morale] = shaken.get(u.morale, 0) + 1
        parts = [f"{counted(n, 'of your units', 'of your units')} {state}"
                 for state, n in sorted(shaken.items())]
        straggling = sum(u.stragglers > 0 for u in own)
        if straggling:
            parts.append(f"{counted(straggling, 'unit')} with stragglers")
        return f"Fight near {where}: " + (", ".join(parts) or counted(mine, "unit"))
    if spot.reason == "march":
        return f"March near {where}: " + (spot.note or "the head of a planned route")
    if spot.reason == "moved":
        return f"Moved near {where}: {counted(mine, 'of your counters', 'of your counters')}" \
            " moved this phase"
    words = f"Your units near {where}: {counted(mine, 'unit')}"
    if spot.enemy:
        words += f", {counted(spot.enemy, 'enemy', 'enemies')} in sight"
    return words


def map_alt(view: SideView) -> str:
    """What the phase map shows, in one line: whose it is, and the counters in the view."""
    own = sum(u.level == OWN for u in view.units)
    ghosts = sum(u.level == GHOST for u in view.units)
    in_sight = len(view.units) - own - ghosts
    markers = sum(m.side != view.side for m in view.markers)
    parts = [counted(own, "of your units", "of your units")]
    if in_sight:
        parts.append(f"{counted(in_sight, 'enemy unit')} in sight")
    if markers:
        parts.append(counted(markers, "enemy marker"))
    if ghosts:
        parts.append(f"{counted(ghosts, 'enemy unit')} last seen")
    return f"Map of {view.side_name}, turn {view.turn}: " + ", ".join(parts)


def gallery(view: SideView, limit: int = 4, *, beside_map: bool = False
            ) -> tuple[CloseUpWords, ...]:
    """Up to ``limit`` close-ups of the side's hot spots, far apart (``render.focus.close_ups``),
    each with its alt text. ``beside_map``: only of the spots the phase map, fitted on the
    first spot (``render.focus.fitted_window``), cannot reach: those farther from the first
    spot's centre than half the map's shorter side."""
    shots = close_ups(view, limit + MORE_SPOTS)
    if beside_map and shots:
        cols, rows = fit_size(view.game_map.grid)
        first, reach = shots[0].around, min(cols, rows) // 2
        grid = view.game_map.grid
        shots = tuple(c for c in shots if grid.distance(c.around, first) > reach)
    return tuple(_words(view, c) for c in shots[:limit])


def _words(view: SideView, close: CloseUp) -> CloseUpWords:
    return CloseUpWords(view.board.label(close.around), close.radius,
                        alt_text(view, close.spot))
