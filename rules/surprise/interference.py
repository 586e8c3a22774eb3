"""Enemy interference (SM, "Enemy Interference"): triggers, ignored attacks and sham results.

* An enemy combat unit (infantry, cavalry, artillery) that ends a movement phase, having moved
  in it, at or within two hexes of any unit of a force on an accepted surprise order triggers
  the march (ruling SM-13). So does any attack on a unit of the force that is not a sham, and
  a sham whose result would eliminate the unit (ruling SM-4).
* The side whose unit triggered it is told that a surprise move has been triggered; the owner is
  told which of its units the enemy came near, not which enemy unit did it.
* Once triggered, attacks on the force are ignored, and enemy units may not enter or pass through
  its cells (they may fire through them).
* Artillery fire at the force from five hexes or more, every firer that far, is a sham: resolved
  normally for the firer, who is shown the result, while the force secretly ignores it. Its
  retreat is made for real and its morale marker is shown to every enemy side; the march keeps
  each unit's proper cell. A further sham on a unit goes on from what the firer was shown. When
  the march begins the markers go and the units stand in their proper places again; an order
  that ends without its march makes what was shown the truth (ruling SM-19). Before either the
  owner may rally them back (SM-23).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from rules.events import side_audience
from rules.forces.location import Eliminated
from rules.forces.units import Unit
from rules.forces.words import STACKING_KINDS, UnitKind
from rules.ground.grid import Cell
from rules.orders.positions import positions_changed
from rules.state import GameState
from rules.surprise import events as sev
from rules.surprise import force as frc
from rules.surprise import records as rec

if TYPE_CHECKING:
    from rules.outcome import Outcome

#: Fire from this many hexes or more at a surprise force is a sham; closer attacks trigger.
SHAM_RANGE = 5

#: The combat ledger's shield word for a sham that could not be kept up (its result would have
#: eliminated the unit): the fire was ignored, and it triggers (ruling SM-4). The combat
#: module's own name for it is ``rules.combat.ledger.SHAM_BROKEN``.
SHAM_BROKEN = "sham_broken"

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
    if how.startswith("fired from"):  # a sham that could not be kept up
        return f"fired from {where}"
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
              if u.combat and u.cell is not None and u.mp_spent > 0
              and not _rallied_this_step(state, u.id)]
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


def _rallied_this_step(state: GameState, unit_id: str) -> bool:
    """Whether the unit spent its MPs on a rally roll in this step (the combat module's
    ``used`` ledger): a rally needs a unit that has not moved, and spends its movement without
    taking it anywhere, so it ends no movement near anyone."""
    used = state.module_data.get("combat", {}).get("used", {}).get("rally", {})
    return bool(used.get(unit_id) == [state.turn, state.step]) or rec.sham_rallied_now(
        state, unit_id)


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


def is_sham(attackers: Sequence[Unit], distances: Sequence[int]) -> bool:
    """Whether an attack is the article's sham case: every attacker is artillery firing from
    five hexes or more (ruling SM-4). Any attacker nearer, or one that is not artillery,
    makes it an attack that triggers the march."""
    if not attackers or len(distances) != len(attackers):
        return False
    return all(a.kind == UnitKind.ARTILLERY and d >= SHAM_RANGE
               for a, d in zip(attackers, distances, strict=True))


def shield(state: GameState, target: Unit, attackers: tuple[Unit, ...],
           distances: tuple[int, ...]) -> Shield | None:
    """How an attack on ``target`` is treated: a ``sham`` (artillery fire from five hexes or
    more, ``is_sham``: resolved for the firer, ignored by the force), ``ignored`` (any other
    attack, which triggers the march, or any attack on a triggered force), or ``None`` (not a
    unit on an accepted surprise order, or an attack by its own side)."""
    record = _under_order(state, target.id)
    if record is None or any(a.side == record["side"] for a in attackers):
        return None
    if record["status"] == rec.TRIGGERED:
        return "ignored"
    return "sham" if is_sham(attackers, distances) else "ignored"


def attacks_this_step(out: Outcome) -> None:
    """Attacks the combat module recorded in the step now ending (its ``attacks`` ledger): one
    on a unit of a force on an accepted order that is not a sham (``is_sham``), or a sham the
    combat module could not keep up (``SHAM_BROKEN``), triggers the march."""
    state = out.state
    ledger = state.module_data.get("combat", {}).get("attacks", [])
    for attack in ledger:
        if [attack.get("turn"), attack.get("step")] != [state.turn, state.step]:
            continue
        attackers = [out.state.units[a] for a in attack.get("attackers", [])
                     if a in out.state.units]
        # A game recorded before each attacker's distance was kept: the farthest for all.
        distances = [int(d) for d in attack.get("distances") or
                     [attack.get("distance", 0)] * len(attackers)]
        # A sham the combat module could not keep up (it would have eliminated the unit) is
        # an attack like any other (ruling SM-4).
        broken = attack.get("shield") == SHAM_BROKEN
        if not attackers or (is_sham(attackers, distances) and not broken):
            continue
        nearest = min(distances, default=int(attack.get("distance", 0)))
        how = f"fired from {nearest} hex(es) on" if broken else f"attacked from {nearest} hex(es)"
        for target_id in attack.get("targets", []):
            record = rec.march_of_unit(out.state, str(target_id), {rec.ACCUMULATING,
                                                                    rec.REVERSING})
            if record is None or attackers[0].side == record["side"]:
                continue
            trigger(out, str(record["id"]), attackers[0], out.state.units[str(target_id)], how)


# -- sham results ------------------------------------------------------------------------------
def record_sham(out: Outcome, unit_id: str, home: Cell, marker: str) -> None:
    """A sham result was shown on a unit of a force: it stands where its retreat (made for
    real) took it, under the sham marker; the march keeps its proper cell (the first one, if
    it was shammed before) to return it there (ruling SM-19)."""
    record = _under_order(out.state, unit_id)
    unit = out.state.units.get(unit_id)
    if record is None or unit is None or unit.cell is None:
        return
    before = record["shams"].get(unit_id) or {}
    proper = rec.cell_of(before["home"]) if before.get("home") else home
    out.add(sev.ShamRecorded(audience=side_audience(str(record["side"])),
                             march=str(record["id"]),
                             name=rec.name_of(out.state, str(record["id"])), unit=unit_id,
                             home=rec.ref(proper), cell=rec.ref(unit.cell),
                             marker=marker or str(before.get("marker") or "")))


def lift_shams(out: Outcome, march_id: str) -> None:
    """The march begins: its sham markers go and its units stand in their proper places again.
    A unit whose proper cell an enemy unit now holds, or its own side fills to the stacking
    limit, stays where it stands (ruling SM-19)."""
    state = out.state
    record = rec.march(state, march_id)
    shams: Mapping[str, Any] = record.get("shams") or {}
    if not shams:
        return
    gm = state.loaded.map
    side = str(record["side"])
    enemy = {u.cell for u in state.enemies_of(side) if u.cell is not None}
    friends: dict[Cell, int] = {}
    for u in state.units_of(side):
        if u.cell is not None and u.kind in STACKING_KINDS and u.id not in shams:
            friends[u.cell] = friends.get(u.cell, 0) + 1
    returns: dict[str, list[int]] = {}
    stay: list[str] = []
    for uid in sorted(shams):
        unit = state.units.get(uid)
        home = shams[uid].get("home")
        if unit is None or unit.cell is None or not home:
            continue
        cell = rec.cell_of(home)
        stacks = unit.kind in STACKING_KINDS
        if unit.cell == cell:
            friends[cell] = friends.get(cell, 0) + stacks
            continue
        if cell in enemy or (stacks and friends.get(cell, 0) + 1 > gm.ruleset.stacking_limit):
            stay.append(uid)
            friends[unit.cell] = friends.get(unit.cell, 0) + stacks
            continue
        returns[uid] = rec.ref(cell)
        friends[cell] = friends.get(cell, 0) + stacks
    out.add(sev.ShamsLifted(audience=side_audience(side), march=march_id,
                            name=rec.name_of(state, march_id), returns=returns, stay=stay))
    if returns:
        positions_changed(out, tuple(returns))


def appearance(state: GameState, viewer: str, unit: Unit) -> Unit:
    """How an enemy viewer sees a unit of a force on an accepted order: under its sham marker
    (every enemy side alike: the board is the same for all), and, for the side that fired, with
    the strength it believes it took off, until the march begins (ruling SM-19). Where it
    stands is the truth: a sham retreat is made on the map."""
    if viewer == unit.side:
        return unit
    record = rec.march_of_unit(state, unit.id, rec.ACCEPTED)
    if record is None:
        return unit
    face = unit
    shown = shown_losses(state, record, unit.id).get(viewer)
    if shown is not None and shown.lost > 0:
        lost = min(shown.lost, face.strength)
        face = replace(face, strength=face.strength - lost,
                       stragglers=face.stragglers + min(shown.straggling, lost))
    own = record["shams"].get(unit.id)
    if own and own.get("marker"):
        face = replace(face, morale=str(own["marker"]))
    return face


class ShownLoss(NamedTuple):
    """What one enemy side believes its sham fire took off a unit: the strength lost, and how
    much of that is straggling (the rest are casualties)."""

    lost: int
    straggling: int


def shown_losses(state: GameState, record: Mapping[str, Any], unit_id: str
                 ) -> dict[str, ShownLoss]:
    """What each enemy side believes its sham fire took off the unit since the march's order
    was accepted (the combat module's ``shams`` ledger), less the shown stragglers it has since
    seen come back (its ``sham_recoveries``), by firing side."""
    since = int(record.get("accepted_turn") or 0)
    combat = state.module_data.get("combat", {})
    lost: dict[str, int] = {}
    straggling: dict[str, int] = {}
    for s in combat.get("shams", []):
        if s.get("unit") == unit_id and int(s.get("turn", 0)) >= since:
            by = str(s.get("by_side"))
            lost[by] = lost.get(by, 0) + int(s.get("strength_lost") or 0)
            straggling[by] = straggling.get(by, 0) + int(s.get("stragglers") or 0)
    for back in combat.get("sham_recoveries", []):
        by = str(back.get("by_side"))
        if back.get("unit") == unit_id and int(back.get("turn", 0)) >= since and by in lost:
            n = min(int(back.get("points") or 0), straggling[by])
            lost[by] -= n
            straggling[by] -= n
    return {by: ShownLoss(lost[by], straggling[by]) for by in lost}


def shams_made_true(state: GameState, record: Mapping[str, Any],
                    units: Mapping[str, Unit]) -> tuple[dict[str, Unit], dict[str, int]]:
    """The force's units (``units``: those already changed, else the state's) once an order that
    ends without its march makes what the enemy was shown the truth (ruling SM-19): the shown
    marker becomes the unit's morale, and the loss shown (the most any one side was shown) is
    taken as it was shown: its straggling part as stragglers, the rest as casualties, lost for
    good, so that no more comes back than would to a real unit. A unit left with no strength
    leaves the map. Also returns the casualties taken, by unit, for the combat ledger."""
    out = dict(units)
    casualties: dict[str, int] = {}
    markers = {uid: str(s.get("marker") or "") for uid, s in (record.get("shams") or {}).items()}
    for uid in record.get("units", []):
        unit = out.get(uid) or state.units.get(uid)
        if unit is None:
            continue
        shown = max(shown_losses(state, record, uid).values(), default=ShownLoss(0, 0),
                    key=lambda loss: loss.lost)
        lost = min(shown.lost, unit.strength)
        straggling = min(shown.straggling, lost)
        marker = markers.get(uid, "")
        if not lost and not marker:
            continue
        strength = unit.strength - lost
        out[uid] = replace(unit, strength=strength, stragglers=unit.stragglers + straggling,
                           morale=marker or unit.morale,
                           location=unit.location if strength > 0 else Eliminated())
        if lost - straggling:
            casualties[uid] = lost - straggling
    return out, casualties


def closed_cells(state: GameState, side: str) -> frozenset[Cell]:
    """Cells of triggered forces of other sides: no entering or passing through."""
    out: set[Cell] = set()
    for record in rec.marches(state):
        if record["side"] != side and record["status"] == rec.TRIGGERED:
            out |= {u.cell for u in frc.on_map(state, record["units"]) if u.cell is not None}
    return frozenset(out)
