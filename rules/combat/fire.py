"""Fire: one or more of a side's units fire at an enemy the side sees.

Each firer needs a formation it may fire in, a morale state that lets it fire, a clear line to
the target's cell and the range: its kind's range bands (``combat.range_bands``). Its strength
counts times its band's factor; the total picks the fire table's column. The die-roll modifiers
whose conditions hold are added (the farthest firer's band sets the range). The result's meaning
comes from ``combat.fire_results``: casualties, stragglers, a morale check (which may make the
target fall back).

The target's side is told the truth about its unit. The firing side is told what it can see: on
an identified target the roll and everything that shows on the counter; on a counter it sees
only as a marker, neither roll nor result. A rule module may shield the target
(``combat_shield``): then the result is worked out on the target as the firing side sees it
(``rules.knowledge.sighted.appearance``), its strength and morale do not change, though a retreat in
the result is made on the map; a sham that would eliminate the unit is ignored instead
(ruling COMBAT-16).
"""

from __future__ import annotations

from typing import Any

from rules.combat import events as cev
from rules.combat.checks import aim_refusal, fighters, require_phase
from rules.combat.columns import strength_column
from rules.combat.commands import Fire
from rules.combat.conditions import Situation, applicable
from rules.combat.fates import Fate
from rules.combat.ledger import SHAM_BROKEN
from rules.combat.morale import morale_check
from rules.combat.played import fire_unplayable
from rules.combat.retreat import retreat_path
from rules.combat.sides import Knowledge, resolve_target
from rules.events import side_audience
from rules.forces.units import Unit
from rules.knowledge.sighted import appearance
from rules.modules.registry import in_force
from rules.orders.positions import moved_units, positions_changed
from rules.outcome import Outcome
from rules.refusal import Refusal
from rules.state import GameState


def shield_of(state: GameState, target: Unit, attackers: tuple[Unit, ...],
              distances: tuple[int, ...]) -> str:
    """What the modules in force say of an attack on ``target`` by ``attackers``, each at its
    own distance: "sham", "ignored" or ""."""
    for module in in_force(state.modules):
        answer = module.combat_shield(state, target, attackers, distances)
        if answer in ("sham", "ignored"):
            return answer
    return ""


def shammed(out: Outcome, fate: Fate, by_side: str) -> None:
    """Record a sham result on ``fate``'s unit and make its retreat for real (ruling
    COMBAT-16); then tell the modules, so that the shielding one can keep the unit's place."""
    home = fate.unit.cell
    for e in fate.sham_events(by_side):
        out.add(e)
    if home is not None:
        for module in in_force(out.state.modules):
            module.on_sham(out, fate.unit.id, home, fate.morale)


def fire(out: Outcome, side: str, command: Fire) -> None:
    require_phase(out.state, side, ("fire", "combat"), "fire")
    resolve_fire(out, side, command)


def resolve_fire(out: Outcome, side: str, command: Fire) -> None:
    """The fire, whatever the phase: ``fire`` checks the phase first; another module calls
    this for fire the rules allow outside it (a revealed force's opportunity fire)."""
    state = out.state
    ruleset = state.loaded.ruleset
    rules = ruleset.combat
    missing = fire_unplayable(ruleset)
    if missing is not None:
        raise missing
    table = ruleset.tables["fire"]
    firers = fighters(state, side, command.units, "fire")
    know = Knowledge(state, side)
    target = resolve_target(state, side, command.target, know)
    gm = state.loaded.map
    grid = gm.grid
    strength = 0.0
    farthest = 0
    band_name = ""
    distances: list[int] = []
    for f in firers:
        assert f.cell is not None
        why = aim_refusal(state, f, "fire", target.cell, target.label)
        if why is not None:
            raise why
        distance = grid.distance(f.cell, target.cell)
        band = rules.band_at(f.kind, distance)
        assert band is not None  # aim_refusal has checked the range
        strength += f.strength * band.factor
        distances.append(distance)
        if distance >= farthest:
            farthest, band_name = distance, band.name
    total = int(strength)
    if total <= 0:
        raise Refusal("the firing units have no strength to fire with")
    column = table.columns[strength_column(table, total)]
    hit = target.unit if target.identified else (target.units[0] if target.units else None)
    shield = shield_of(state, hit, firers, tuple(distances)) if hit is not None else ""
    if hit is not None and shield == "sham":
        # A sham is worked out on the unit as the firer sees it (an earlier sham's marker and
        # loss on it), so that it goes on as a real result on that unit would (ruling SM-19).
        hit = appearance(state, side, hit)
    from_cells = tuple(f.cell for f in firers if f.cell is not None)
    situation = Situation(state, attackers=firers, defenders=(hit,) if hit else (),
                          band=band_name, target_cell=target.cell, from_cells=from_cells)
    mods = applicable(situation, "fire", table.modifiers)
    cell_ref = (target.cell.col, target.cell.row)
    firer_ids = tuple(f.id for f in firers)

    def resolved(**more: Any) -> cev.FireResolved:
        return cev.FireResolved(audience=side_audience(side), firers=firer_ids,
                                target=target.label, cell=cell_ref, distance=farthest,
                                band=band_name, strength=total, column=column, **more)

    def attack(shield: str) -> cev.AttackMade:
        return cev.AttackMade(audience="umpire", kind="fire", attackers=firer_ids,
                              targets=(hit.id,) if hit else (), cell=cell_ref,
                              distance=farthest, distances=tuple(distances), shield=shield)

    def ignore(unit: Unit, record: str) -> None:
        out.add(attack(record))
        out.add(cev.FireReceived(audience=side_audience(unit.side), unit=unit.id,
                                 firers=Knowledge(state, unit.side).describe(firers),
                                 shield="ignored", name=unit.name))
        # On a counter the firers cannot identify, an ignored volley reads as any other whose
        # effect cannot be judged from where they stand: else the words would pick it out.
        out.add(resolved(seen=("the fire has no effect",)) if target.identified else resolved())

    if shield == "ignored":
        assert hit is not None
        ignore(hit, shield)
        return
    purpose = f"fire by {', '.join(f.id for f in firers)} at {target.label}"
    roll, code = out.roll(purpose, table.dice, "umpire", table="fire", column=column,
                          modifiers=mods)
    out.add(attack(shield))
    meaning = table.results.get(code, "")
    if hit is None:  # nothing real there (a decoy): nothing to see either
        out.add(resolved())
        return
    effect = rules.fire_results[code]
    fate = Fate(hit)
    fate.lose(effect.casualties, effect.stragglers)
    if effect.morale_check and not fate.eliminated and "morale" in ruleset.tables:
        fate.checked = True
        fate.morale = morale_check(out, hit, Situation(
            out.state, attackers=firers, unit=hit, band=band_name, target_cell=target.cell,
            from_cells=from_cells), "fire" + (", sham" if shield == "sham" else ""))
        fall_back = rules.state(fate.morale).fall_back if fate.morale else 0
        if fall_back:
            fate.retreat = retreat_path(state, hit, fall_back, from_cells)
            fate.block_retreat(fall_back, rules.retreat_shortfall_loss)
    hit_side = Knowledge(state, hit.side)
    if shield == "sham" and fate.eliminated:
        # The counter cannot leave the table for the firer while the unit is really there: the
        # illusion ends, the fire is ignored, and the attack's record says why (it replaces
        # the sham's in the ledger; ruling COMBAT-16).
        ignore(hit, SHAM_BROKEN)
        return
    if shield == "sham":
        shammed(out, fate, side)
    else:
        for e in fate.events():
            out.add(e)
    # After a sham too: the firing side's troops see the shown result as they would a real one.
    positions_changed(out, moved_units(state, out.state), fate.paths())
    out.add(cev.FireReceived(audience=side_audience(hit.side), unit=hit.id,
                             firers=hit_side.describe(firers), result=code, meaning=meaning,
                             outcome=tuple(fate.phrases(state, hit_side)), shield=shield,
                             name=hit.name))
    if target.identified:
        out.add(resolved(roll=roll, modifiers=mods, result=code, meaning=meaning,
                         seen=tuple(fate.phrases(state, know))))
    else:
        out.add(resolved())
