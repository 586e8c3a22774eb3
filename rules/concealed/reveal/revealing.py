"""Revealing concealed forces (Cf 2.1, 2.2).

A unit on the map (not inside a marker) that comes into the line of sight of an enemy concealed
force, or within two hexes of it, stops there, and the force is revealed: a real one deploys
(``rules.concealed.reveal.deploying``), a decoy is taken off and is back in the pool next turn. The
same holds however the unit got there: a move, an arrival, a retreat or advance, a surprise
column, another force deploying, or a new turn's longer sight (ruling CF-10). Markers never
reveal markers: their troops are off the map.

A real force found by a unit's move may at once fire at or charge that unit
(``rules.concealed.reveal.opportunity``, ruling CF-11).

A player may also unconceal a force of his own at the start of his movement phase, before any
of his units has moved: it deploys by the same rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rules import events as ev
from rules.concealed import events as cev
from rules.concealed import marching
from rules.concealed.commands import Unconceal
from rules.concealed.records import force, forces, own_marker
from rules.concealed.reveal import deploying, opportunity
from rules.concealed.reveal.spacing import REVEAL_RANGE
from rules.concealed.timing import require_phase_start
from rules.forces.markers import Marker
from rules.forces.units import Unit
from rules.ground.grid import Cell
from rules.knowledge.levels import MarkerView
from rules.knowledge.overlay import Ground
from rules.knowledge.sighted import rule_for, sight, turn_visibility
from rules.orders.positions import positions_changed
from rules.orders.stops import Stop, StopKind
from rules.refusal import Refusal
from rules.state import GameState

if TYPE_CHECKING:
    from rules.outcome import Outcome

#: Why a removed marker went, as every side is told.
DECOY_FOUND = "a decoy: nothing was under it"
FORCE_REVEALED = "revealed: its force deploys"


def finds(state: GameState, unit: Unit, cell: Cell, marker: Marker) -> bool:
    """Whether ``unit``, standing in ``cell``, finds the enemy force under ``marker``: within
    two hexes of it, or with its hex in line of sight (units that see nothing, wagons, find
    nothing by sight)."""
    gm = state.loaded.map
    if gm.grid.distance(cell, marker.cell) <= REVEAL_RANGE:
        return True
    return unit.observer and rule_for(state).sees(gm.idx(cell), gm.idx(marker.cell),
                                                  turn_visibility(state))


def stop_reason(state: GameState, unit: Unit, cell: Cell) -> Stop | None:
    """A moving unit stops where it finds an enemy concealed force."""
    for marker in sorted(state.markers.values(), key=lambda m: m.id):
        if marker.side != unit.side and marker.id in forces(state) and finds(
                state, unit, cell, marker):
            return Stop(StopKind.RULE, "it came upon an enemy concealed force at "
                        f"{state.loaded.board.describe(marker.cell)}")
    return None


def foreseen_stop(unit: Unit, cell: Cell, markers: tuple[MarkerView, ...], ground: Ground
                  ) -> Stop | None:
    """``stop_reason`` as the moving side foresees it: the enemy markers it sees, each taken to
    be a force (a decoy stops the unit as well), found by the same reach and sight."""
    gm = ground.game_map
    for marker in sorted(markers, key=lambda m: m.id):
        if gm.grid.distance(cell, marker.cell) <= REVEAL_RANGE:
            how = f"within {REVEAL_RANGE} hexes of"
        elif unit.observer and ground.rule.sees(gm.idx(cell), gm.idx(marker.cell),
                                                ground.visibility):
            how = "in sight of"
        else:
            continue
        return Stop(StopKind.RULE, f"it comes {how} the enemy marker your troops see at "
                    f"{gm.board.describe(marker.cell)}, and finding what is under it stops it")
    return None


def found_marker(state: GameState) -> Marker | None:
    """The first concealed force (by id) that an enemy unit on the map finds now."""
    concealed = forces(state)
    markers = sorted((m for m in state.markers.values() if m.id in concealed),
                     key=lambda m: m.id)
    if not markers:
        return None
    gm = state.loaded.map
    seen = sight(state)
    # Where the markers' enemies stand, by column, gathered once: this runs after every move,
    # for every marker.
    owners = {m.side for m in markers}
    stands: dict[str, dict[int, list[Cell]]] = {}
    for unit in state.units.values():
        cell = unit.cell
        if cell is not None and (len(owners) > 1 or unit.side not in owners):
            stands.setdefault(unit.side, {}).setdefault(cell.col, []).append(cell)
    for marker in markers:
        idx = gm.idx(marker.cell)
        for side, sighting in seen.items():
            if side != marker.side and (sighting.sees_cell(idx) or _within_reach(
                    state, stands.get(side, {}), marker.cell)):
                return marker
    return None


def _within_reach(state: GameState, columns: Mapping[int, list[Cell]], target: Cell) -> bool:
    """Whether a cell of ``columns`` (cells by column) is within two hexes of ``target``. A
    step changes a cell's column and row by one at most, so only cells that near in both are
    measured."""
    grid = state.loaded.map.grid
    return any(abs(c.row - target.row) <= REVEAL_RANGE and grid.distance(c, target)
               <= REVEAL_RANGE
               for col in range(target.col - REVEAL_RANGE, target.col + REVEAL_RANGE + 1)
               for c in columns.get(col, ()))


def reveal_found(out: Outcome, units: tuple[str, ...] = ()) -> None:
    """Reveal every concealed force an enemy unit finds, until none is left (a force that
    deploys may find another). ``units`` are the units that just changed place: one of them
    that found a real force may be fired at or charged by it (``opportunity``)."""
    movers = set(units)
    for _ in range(len(out.state.markers) + 1):
        marker = found_marker(out.state)
        if marker is None:
            return
        finder = finder_of(out.state, marker, movers)
        placed = reveal(out, marker, cause="an enemy unit came within sight")
        if placed and finder is not None:
            opportunity.offer(out, marker.id, finder.id)
        movers |= {uid for uid, _, _ in placed}  # a deployed unit may find the next force


def finder_of(state: GameState, marker: Marker, movers: set[str]) -> Unit | None:
    """The unit that found the force by moving: of the enemy units on the map that find it
    and just changed place, the nearest (then by id); ``None`` if none did."""
    grid = state.loaded.map.grid
    found = [u for u in state.enemies_of(marker.side) if u.id in movers and u.cell is not None
             and finds(state, u, u.cell, marker)]
    if not found:
        return None
    return min(found, key=lambda u: (grid.distance(u.cell or marker.cell, marker.cell),
                                     not u.combat, u.id))


def reveal(out: Outcome, marker: Marker, *, cause: str, voluntary: bool = False
           ) -> tuple[deploying.Placed, ...]:
    """Lift the marker: a real force deploys (by its owner's plan where legal), a decoy is
    removed. Returns where the units were placed (none for a decoy)."""
    record = force(out.state, marker.id)
    assert record is not None
    placed = deploying.deploy(out.state, marker, record)
    out.add(cev.ForceRevealed(audience=ev.side_audience(marker.side), marker=marker.id,
                              placed=placed, voluntary=voluntary, cause=cause))
    out.add(ev.MarkerRemoved(audience="public", marker=marker.id,
                             reason=FORCE_REVEALED if placed else DECOY_FOUND))
    marching.settle(out, marker.id, marker.side)  # the forced marches' checks it owes
    return placed


def unconceal_check(state: GameState, side: str, marker_text: str) -> Marker | Refusal:
    """The marker that would turn back into its units now, or the refusal with its reason:
    the one reading of the order that both the order and the side's offers use."""
    try:
        require_phase_start(state, side, "unconceal a force")
    except Refusal as why:
        return why
    marker = own_marker(state, side, marker_text)
    if marker is None or force(state, marker.id) is None:
        return Refusal(f"you have no concealment marker {marker_text.strip()[:40]!r}")
    return marker


def decide_unconceal(out: Outcome, side: str, command: Unconceal) -> None:
    marker = unconceal_check(out.state, side, command.marker)
    if isinstance(marker, Refusal):
        raise marker
    placed = reveal(out, marker, cause="unconcealed", voluntary=True)
    # Its units are on the map now: they see, and may find enemy forces in their turn (CF-10).
    positions_changed(out, tuple(uid for uid, _, _ in placed))
