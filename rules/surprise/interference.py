"""Enemy interference (SM, "Enemy Interference"): triggers, ignored attacks and sham results.

* An enemy combat unit (infantry, cavalry, artillery) that ends a movement phase, having moved
  in it, at or within two hexes of any unit of a force on an accepted surprise order triggers
  the march (ruling SM-13). So does an attack on a unit of the force from four hexes or less
  (ruling SM-4).
* The side whose unit triggered it is told that a surprise move has been triggered; the owner is
  told which of its units the enemy came near, not which enemy unit did it.
* Once triggered, attacks on the force are ignored, and enemy units may not enter or pass through
  its cells (they may fire through them).
* Fire at the force from five hexes or more is resolved normally for the firer, who is shown the
  result; the force secretly ignores it. The sham (a morale marker, a retreat) is shown to the
  enemy until the march begins, when the units are back where they really are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from rules.events import side_audience
from rules.grid import Cell
from rules.state import GameState
from rules.surprise import events as sev
from rules.surprise import force as frc
from rules.surprise import records as rec
from rules.units import Unit

if TYPE_CHECKING:
    from rules.outcome import Outcome

#: Fire from this many hexes or more at a surprise force is a sham; closer attacks trigger.
SHAM_RANGE = 5

Shield = Literal["sham", "ignored"]


def _under_order(state: GameState, unit_id: str) -> Mapping[str, Any] | None:
    return rec.march_of_unit(state, unit_id, rec.ACCEPTED)


def trigger(out: Outcome, march_id: str, by: Unit, near: Unit, how: str) -> None:
    """The enemy's ``by`` has set the march off."""
    record = rec.march(out.state, march_id)
    owner = str(record["side"])
    out.add(sev.MarchTriggered(audience=side_audience(owner), march=march_id,
                               name=rec.name_of(out.state, march_id),
                               cause=f"an enemy unit {how} {near.name}"))
    out.add(sev.TriggerAnnounced(audience=side_audience(by.side), side=by.side, unit=by.id,
                                 how=_their_words(out.state, by, how)))


def _their_words(state: GameState, by: Unit, how: str) -> str:
    where = state.loaded.board.describe(by.cell) if by.cell else "?"
    if how.startswith("ended its move"):
        return f"ended its move at {where}"
    return f"attacked at close range from {where}"


def movement_phase_ends(out: Outcome) -> None:
    """At the end of a movement phase, every enemy combat unit that moved in it (it spent MPs:
    moving, halting on contact, forming up, marching in a surprise column, even in another
    side's phase) has ended its movement where it stands; one that stands within the picket
    radius of a force on an accepted order (accumulating or reversing) triggers it (ruling
    SM-13). Only the phase's end counts, never a pause between two move orders, so that probing
    order by order finds nothing. Units that spent no MPs (arrivals, the host's corrections)
    trigger nothing."""
    state = out.state
    radius = state.loaded.ruleset.blocked_radius
    grid = state.loaded.map.grid
    movers = [u for u in state.units.values()
              if u.combat and u.cell is not None and u.mp_spent > 0]
    for record in rec.marches(state):
        if record["status"] not in (rec.ACCUMULATING, rec.REVERSING):
            continue
        force = [u for u in frc.on_map(state, record["units"]) if u.cell is not None]
        told: set[str] = set()
        for mover in movers:
            if mover.side == record["side"] or mover.side in told:
                continue
            assert mover.cell is not None
            away = {u.id: grid.distance(u.cell, mover.cell) for u in force if u.cell is not None}
            near = [u for u in force if away[u.id] <= radius]
            if near:  # the owner hears of its unit nearest the enemy (ties: the first listed)
                nearest = min(near, key=lambda u: away[u.id])
                _triggered_by(out, str(record["id"]), mover, nearest, radius, bool(told))
                told.add(mover.side)


def _triggered_by(out: Outcome, march_id: str, by: Unit, near: Unit, radius: int,
                  again: bool) -> None:
    """The march is triggered by ``by`` (once: a second side whose unit came near is only told
    of its own trigger)."""
    how = f"ended its move within {radius} hexes of"
    if not again:
        trigger(out, march_id, by, near, how)
        return
    out.add(sev.TriggerAnnounced(audience=side_audience(by.side), side=by.side, unit=by.id,
                                 how=_their_words(out.state, by, how)))


def shield(state: GameState, target: Unit, attackers: tuple[Unit, ...], distance: int
           ) -> Shield | None:
    """How an attack on ``target`` is treated: a ``sham`` (fire from five hexes or more:
    resolved for the firer, ignored by the force), ``ignored`` (an attack from four hexes or
    less, which triggers the march, or any attack on a triggered force), or ``None`` (not a
    unit on an accepted surprise order, or an attack by its own side)."""
    record = _under_order(state, target.id)
    if record is None or any(a.side == record["side"] for a in attackers):
        return None
    if record["status"] == rec.TRIGGERED:
        return "ignored"
    return "sham" if distance >= SHAM_RANGE else "ignored"


def attacks_this_step(out: Outcome) -> None:
    """Attacks the combat module recorded in the step now ending (its ``attacks`` ledger): one
    from four hexes or less on a unit of a force on an accepted order triggers the march."""
    state = out.state
    ledger = state.module_data.get("combat", {}).get("attacks", [])
    for attack in ledger:
        if [attack.get("turn"), attack.get("step")] != [state.turn, state.step]:
            continue
        distance = int(attack.get("distance", 0))
        if distance >= SHAM_RANGE:
            continue
        for target_id in attack.get("targets", []):
            record = rec.march_of_unit(out.state, str(target_id), {rec.ACCUMULATING,
                                                                    rec.REVERSING})
            attackers = [out.state.units[a] for a in attack.get("attackers", [])
                         if a in out.state.units]
            if record is None or not attackers or attackers[0].side == record["side"]:
                continue
            trigger(out, str(record["id"]), attackers[0], out.state.units[str(target_id)],
                    f"attacked from {distance} hex(es)")


def record_sham(out: Outcome, target_id: str, cell: Cell | None = None, marker: str = "") -> None:
    """Show the enemy a sham result on a unit of a force (a marker, a retreat to ``cell``)."""
    record = _under_order(out.state, target_id)
    if record is None:
        return
    unit = out.state.units[target_id]
    where = cell if cell is not None else unit.cell
    assert where is not None
    out.add(sev.ShamRecorded(audience=side_audience(str(record["side"])), march=str(record["id"]),
                             name=rec.name_of(out.state, str(record["id"])),
                             unit=target_id, cell=rec.ref(where), marker=marker))


def appearance(state: GameState, viewer: str, unit: Unit) -> Unit:
    """An enemy viewer sees the sham results it was shown (a marker, a retreat, losses) on a
    unit of a force on an accepted order, until the march begins (ruling SM-19)."""
    if viewer == unit.side:
        return unit
    record = rec.march_of_unit(state, unit.id, rec.ACCEPTED)
    if record is None:
        return unit
    face = unit
    since = int(record.get("accepted_turn") or 0)
    for sham in state.module_data.get("combat", {}).get("shams", []):
        if sham.get("unit") != unit.id or sham.get("by_side") != viewer:
            continue
        if int(sham.get("turn", 0)) < since:
            continue
        lost = int(sham.get("strength_lost") or 0)
        face = replace(face, strength=max(0, face.strength - lost),
                       morale=str(sham.get("morale") or face.morale))
        if sham.get("retreat_to"):
            face = face.placed(rec.cell_of(sham["retreat_to"]))
    own = record["shams"].get(unit.id)
    if own:
        face = replace(face.placed(rec.cell_of(own["cell"])),
                       morale=own.get("marker") or face.morale)
    return face


def closed_cells(state: GameState, side: str) -> frozenset[Cell]:
    """Cells of triggered forces of other sides: no entering or passing through."""
    out: set[Cell] = set()
    for record in rec.marches(state):
        if record["side"] != side and record["status"] == rec.TRIGGERED:
            out |= {u.cell for u in frc.on_map(state, record["units"]) if u.cell is not None}
    return frozenset(out)
