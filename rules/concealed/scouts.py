"""Releasing scouts from a concealed force (Cf 3.1).

At the start of his movement phase a player may have a concealed division release up to one
cavalry unit and any number of skirmishers (units tagged ``skirmisher`` in the scenario); the
rest of the force stays concealed. A lone cavalry brigade or a decoy has none to release. The
released units are placed in the marker's hex (for that moment the rule that a concealed force
stacks with no other unit gives way), and in that phase a skirmisher may go no farther than two
hexes from that hex, a cavalry unit no farther than four MPs at leader rates; a scout still in
the marker's hex when the phase ends goes back under it (ruling CF-12).

A released cavalry unit shows to the enemy as an anonymous cavalry counter until it stands in
the line of sight of an enemy unit on the map; from then on it shows as itself for good (ruling
CF-13). Skirmishers show as themselves at once.
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

from rules import events as ev
from rules.concealed import events as cev
from rules.concealed.commands import ReleaseScouts
from rules.concealed.records import (
    SKIRMISHER_TAG,
    ForceKind,
    data,
    force,
    is_anonymous,
    kind_of,
    own_marker,
    released_this_phase,
    scouts,
)
from rules.concealed.timing import require_phase_start
from rules.forces.lookup import own_unit, own_unit_list
from rules.forces.markers import Marker
from rules.forces.units import Unit
from rules.forces.words import Formation, MovementClass, UnitKind
from rules.ground.board import Board
from rules.ground.grid import Cell
from rules.knowledge.sighted import sight
from rules.orders.positions import positions_changed
from rules.refusal import Refusal
from rules.state import GameState

if TYPE_CHECKING:
    from rules.outcome import Outcome

#: How far (in hexes) a skirmisher may go from its force in the phase it is released.
SKIRMISHER_REACH = 2
#: How far (in MPs at leader rates) a cavalry scout may go from its force in that phase.
CAVALRY_REACH = 4.0
#: The two kinds of scout, as the module's data files them.
CAVALRY, SKIRMISHER = "cavalry", "skirmisher"
_EPS = 1e-9


def is_skirmisher(unit: Unit) -> bool:
    return SKIRMISHER_TAG in unit.tags


def decide_release(out: Outcome, side: str, command: ReleaseScouts) -> None:
    state = out.state
    found = release_check(state, side, command.marker, command.units)
    if isinstance(found, Refusal):
        raise found
    marker, chosen = found
    cavalry = [u for u in chosen if not is_skirmisher(u)]
    ids = tuple(sorted(u.id for u in chosen))
    out.add(cev.ScoutsReleased(
        audience=ev.side_audience(side), marker=marker.id, units=ids,
        cell=(marker.cell.col, marker.cell.row), cavalry=cavalry[0].id if cavalry else "",
        names=tuple(state.units[u].name for u in ids)))
    positions_changed(out, ids)


def release_check(state: GameState, side: str, marker_text: str, units: tuple[str, ...]
                  ) -> tuple[Marker, list[Unit]] | Refusal:
    """The marker and the scouts it would release now, or the refusal with its reason. With no
    ``units``, whether the marker may release any scouts now at all. The one reading of the
    order that both the order and the side's offers use (only the side's own records are
    read)."""
    try:
        return _release(state, side, marker_text, units)
    except Refusal as why:
        return why


def scout_refusal(state: GameState, side: str, marker_text: str, units: tuple[str, ...] = ()
                  ) -> Refusal | None:
    """Why the marker may not release ``units`` now (``None``: it may)."""
    found = release_check(state, side, marker_text, units)
    return found if isinstance(found, Refusal) else None


def _release(state: GameState, side: str, marker_text: str, units: tuple[str, ...]
             ) -> tuple[Marker, list[Unit]]:
    require_phase_start(state, side, "release scouts")
    marker = own_marker(state, side, marker_text)
    record = force(state, marker.id) if marker is not None else None
    if marker is None or record is None:
        raise Refusal(f"you have no concealment marker {marker_text.strip()[:40]!r}")
    kind = kind_of(record)
    if kind is ForceKind.DECOY:
        raise Refusal(f"marker {marker.id} is a decoy: it has no troops to release")
    if kind is ForceKind.CAVALRY:
        raise Refusal(f"marker {marker.id} holds a lone cavalry brigade: only a concealed "
                      "division releases scouts")
    if released_this_phase(state, marker.id):
        raise Refusal(f"marker {marker.id} has already released scouts this phase")
    inside = set(record["units"])
    chosen: list[Unit] = []
    for ref in own_unit_list(state, side, units):  # names may hold commas
        unit = own_unit(state, side, ref)
        if unit.id not in inside:
            raise Refusal(f"{unit.name} is not under marker {marker.id}")
        if unit in chosen:
            raise Refusal(f"{unit.name} is named twice")
        if not (is_skirmisher(unit) or unit.kind is UnitKind.CAVALRY):
            raise Refusal(f"{unit.name} is neither cavalry nor a skirmisher: only those go "
                          "out as scouts")
        chosen.append(unit)
    cavalry = [u for u in chosen if not is_skirmisher(u)]
    if len(cavalry) > 1:
        raise Refusal("a concealed force releases at most one cavalry unit at a time: "
                      f"{', '.join(u.name for u in cavalry)}")
    return marker, chosen


# -- the scouts' reach in the phase they are released -------------------------------------------
def route_refusal(state: GameState, unit: Unit, path: tuple[Cell, ...]) -> str | None:
    """A scout released this phase may not go beyond its reach from the hex it was released
    in: every hex it enters must be within it (the side knows where that is: no enemy matters)."""
    info = scouts(state).get(unit.id)
    if info is None or list(info["phase"]) != [state.turn, state.step]:
        return None
    origin = Cell(*info["from"])
    board = state.loaded.board
    grid = state.loaded.map.grid
    if info["kind"] == SKIRMISHER:
        for n, cell in enumerate(path, start=1):
            d = grid.distance(origin, cell)
            if d > SKIRMISHER_REACH:
                return (f"step {n} ({_to(board, cell)}): {unit.name} was released as a "
                        f"skirmisher this phase and may go at most {SKIRMISHER_REACH} hexes from "
                        f"{board.describe(origin)}; that hex is {d} away")
        return None
    reach = leader_reach(state, origin, CAVALRY_REACH)
    for n, cell in enumerate(path, start=1):
        if cell not in reach:
            return (f"step {n} ({_to(board, cell)}): {unit.name} was released as a cavalry "
                    f"scout this phase and may go at most {CAVALRY_REACH:g} MPs at leader rates "
                    f"from {board.describe(origin)}")
    return None


def _to(board: Board, cell: Cell) -> str:
    return f"to {board.describe(cell)}"


def leader_reach(state: GameState, origin: Cell, budget: float) -> dict[Cell, float]:
    """Every hex a leader could reach from ``origin`` with ``budget`` MPs, over the terrain
    and roads alone, with the cheapest cost of each."""
    gm = state.loaded.map
    best: dict[Cell, float] = {origin: 0.0}
    queue: list[tuple[float, int, int, Cell]] = [(0.0, origin.row, origin.col, origin)]
    while queue:
        cost, _, _, here = heapq.heappop(queue)
        if cost > best.get(here, float("inf")) + _EPS:
            continue
        for cell in gm.grid.neighbours(here):
            if not gm.board.on_a_sheet(cell):
                continue
            step = gm.step_cost(here, cell, MovementClass.LEADER, Formation.MOUNTED)
            if step is None:
                continue
            total = cost + step
            if total <= budget + _EPS and total < best.get(cell, float("inf")) - _EPS:
                best[cell] = total
                heapq.heappush(queue, (total, cell.row, cell.col, cell))
    return best


# -- what the enemy sees of a cavalry scout ------------------------------------------------------
def shows_anonymous(state: GameState, viewer: str, unit: Unit) -> bool:
    """A cavalry scout shows as anonymous to the enemy until it is identified; the moment an
    enemy unit on the map sees it, it shows as itself (before the module files that for good),
    so that the enemy's memory never holds an anonymous counter for a unit it sees."""
    return (unit.side != viewer and is_anonymous(state, unit.id)
            and not seen_by_enemy_units(state, unit))


def seen_by_enemy_units(state: GameState, unit: Unit) -> bool:
    """Whether an enemy unit on the map sees the unit now (units under markers are off the
    map and see nothing)."""
    return unit.cell is not None and any(
        unit.id in s.seen_units for side, s in sight(state).items() if side != unit.side)


def identify_seen(out: Outcome) -> None:
    """Every anonymous cavalry scout that an enemy unit on the map now sees is identified for
    good."""
    state = out.state
    anonymous = list(data(state).get("anonymous", ()))
    for uid in sorted(anonymous):
        unit = state.units.get(uid)
        if unit is not None and seen_by_enemy_units(state, unit):
            out.add(cev.ScoutIdentified(audience=ev.side_audience(unit.side), unit=uid,
                                        name=unit.name))


# -- the end of the phase --------------------------------------------------------------------------
def rejoin_stayers(out: Outcome) -> None:
    """Scouts released this phase that are still in their force's hex go back under it."""
    state = out.state
    back: dict[str, list[str]] = {}
    for uid, info in sorted(scouts(state).items()):
        if list(info["phase"]) != [state.turn, state.step]:
            continue
        mid = str(info["marker"])
        marker = state.markers.get(mid)
        unit = state.units.get(uid)
        if (marker is None or force(state, mid) is None or unit is None
                or unit.cell != marker.cell):
            continue
        back.setdefault(mid, []).append(uid)
    moved: list[str] = []
    for mid, ids in sorted(back.items()):
        side = state.markers[mid].side
        out.add(cev.ScoutsRejoined(audience=ev.side_audience(side), marker=mid,
                                   units=tuple(ids),
                                   names=tuple(state.units[u].name for u in ids)))
        moved += ids
    if moved:
        positions_changed(out, moved)
