"""Close combat: a side's units attack every enemy combat unit in a cell next to them.

Attack and defence strengths give the close-combat table's column (odds, or a differential, as
the table's ``kind`` says; odds round down in the defender's favour). The named column shifts
whose conditions hold move it, kept on the table. One die (with the modifiers that apply) gives
the result, whose meaning comes from ``combat.close_combat_results``: losses (spread one point at
a time over the side's strongest unit), retreats, a morale state imposed, an exchange. If the
defenders leave the cell the first attacker able to advances into it (unless the order says
not). Every unit still on the map then checks for stragglers, in secret.
"""

from __future__ import annotations

from typing import Literal

from rules.combat import events as cev
from rules.combat.checks import aim_refusal, fighters, require_phase
from rules.combat.columns import base_column, shifted
from rules.combat.commands import Assault
from rules.combat.conditions import Situation, applicable
from rules.combat.config import CloseCombatEffect, Loss
from rules.combat.fates import Fate
from rules.combat.fire import shammed, shield_of
from rules.combat.morale import worse
from rules.combat.played import assault_unplayable
from rules.combat.retreat import retreat_path
from rules.combat.sides import Knowledge, resolve_target
from rules.combat.stragglers import straggler_check
from rules.events import side_audience
from rules.ground.grid import Cell
from rules.orders.positions import moved_units, positions_changed
from rules.outcome import Outcome
from rules.state import GameState, with_units


def assault(out: Outcome, side: str, command: Assault) -> None:
    require_phase(out.state, side, ("close_combat", "combat"), "assault")
    resolve_assault(out, side, command)


def resolve_assault(out: Outcome, side: str, command: Assault) -> None:
    """The close combat, whatever the phase: ``assault`` checks the phase first; another
    module calls this for a charge the rules allow outside it (a revealed force's reaction
    charge)."""
    state = out.state
    ruleset = state.loaded.ruleset
    rules = ruleset.combat
    missing = assault_unplayable(ruleset)
    if missing is not None:
        raise missing
    table = ruleset.tables["close_combat"]
    attackers = fighters(state, side, command.units, "assault")
    know = Knowledge(state, side)
    target = resolve_target(state, side, command.target, know)
    for a in attackers:
        why = aim_refusal(state, a, "assault", target.cell, target.label)
        if why is not None:
            raise why
    defenders = target.units
    from_cells = tuple(a.cell for a in attackers if a.cell is not None)
    attacker_ids = tuple(a.id for a in attackers)
    cell_ref = (target.cell.col, target.cell.row)
    attack_total = sum(a.strength for a in attackers)
    defence_total = sum(d.strength for d in defenders)
    situation = Situation(state, attackers=attackers, defenders=defenders,
                          target_cell=target.cell, from_cells=from_cells)
    shifts = applicable(situation, "close_combat", table.shifts)
    index = shifted(table, base_column(table, attack_total, defence_total), sum(shifts.values()))
    column = table.columns[index]
    mods = applicable(situation, "close_combat", table.modifiers)
    ones = (1,) * len(attackers)
    answers = [shield_of(state, d, attackers, ones) for d in defenders]
    shield = ("ignored" if "ignored" in answers
              else "sham" if answers and all(a == "sham" for a in answers) else "")

    def made(shield: str) -> cev.AttackMade:
        return cev.AttackMade(audience="umpire", kind="assault", attackers=attacker_ids,
                              targets=tuple(d.id for d in defenders), cell=cell_ref, distance=1,
                              distances=ones, shield=shield)

    if shield == "ignored":
        out.add(made(shield))
        for dside in sorted({d.side for d in defenders}):
            mine = tuple(d.id for d in defenders if d.side == dside)
            out.add(cev.AttackIgnored(audience=side_audience(dside), units=mine,
                                      attackers=Knowledge(state, dside).describe(attackers)))
        out.add(cev.CloseCombatResolved(
            audience=side_audience(side), viewpoint="attacker",
            attackers=tuple(a.name for a in attackers), defenders=(target.label,),
            cell=cell_ref, shield=shield))
        return
    if not defenders:  # nothing real there (a decoy)
        out.add(made(""))
        out.add(cev.CloseCombatResolved(
            audience=side_audience(side), viewpoint="attacker",
            attackers=tuple(a.name for a in attackers), defenders=(target.label,),
            cell=cell_ref, outcome=("no enemy troops are found there",)))
        return
    where = state.loaded.board.label(target.cell)
    purpose = f"close combat by {', '.join(attacker_ids)} at {where}"
    roll, code = out.roll(purpose, table.dice, "umpire", table="close_combat", column=column,
                          modifiers=mods)
    out.add(made(shield))
    effect = rules.close_combat_results[code]
    a_fates = [Fate(a) for a in attackers]
    d_fates = [Fate(d) for d in defenders]
    _losses(effect, a_fates, d_fates)
    _morale_and_retreats(state, effect, a_fates, d_fates, target.cell, from_cells)
    sham = shield == "sham"
    followers = None if sham else _followers(state, d_fates, target.cell, from_cells)
    if command.advance and followers is not None:
        _advance(state, a_fates, d_fates, target.cell)
    if sham:
        for f in d_fates:
            shammed(out, f, side)
    fates = a_fates if sham else d_fates + a_fates
    for f in d_fates if not sham else ():
        for e in f.events():
            out.add(e)
    for e in followers or ():
        out.add(e)
    for f in a_fates:
        for e in f.events():
            out.add(e)
    positions_changed(out, moved_units(state, out.state),
                      {uid: cells for f in a_fates + d_fates for uid, cells in f.paths().items()})
    meaning = table.results.get(code, "")
    viewers: list[tuple[str, Literal["attacker", "defender"]]] = [(side, "attacker")]
    viewers += [(s, "defender") for s in sorted({d.side for d in defenders})]
    for viewer, role in viewers:
        k = know if viewer == side else Knowledge(state, viewer)
        everyone = all(k.knows(u) for u in (*attackers, *defenders))
        phrases: list[str] = []
        for f in d_fates + a_fates:
            words = f.phrases(state, k)
            if sham and role == "defender" and f in d_fates:
                words = [f"(shown to the enemy) {w}" for w in words]
            phrases += words
        out.add(cev.CloseCombatResolved(
            audience=side_audience(viewer), viewpoint=role,
            attackers=tuple(k.name(a) if k.knows(a) else "an unseen enemy unit"
                            for a in attackers),
            defenders=tuple(k.name(d) if k.knows(d) else "an unseen enemy unit"
                            for d in defenders),
            cell=cell_ref, odds=f"{attack_total} to {defence_total}" if everyone else "",
            column=column if everyone else "", shifts=shifts if everyone else {},
            roll=roll if everyone else None, modifiers=mods if everyone else {},
            result=code if everyone else "", meaning=meaning if everyone else "",
            outcome=tuple(phrases), shield=shield if role == "defender" else ""))
    for f in fates:  # then each unit's secret straggler check
        unit = out.state.units[f.unit.id]
        if unit.cell is not None and rules.straggler_column:
            straggler_check(out, unit, rules.straggler_column, "close combat")


def _amount(loss: Loss, fates: list[Fate]) -> int:
    return sum(f.strength_left for f in fates) if loss == "all" else int(loss)


def _spread(fates: list[Fate], points: int) -> None:
    """Points lost one at a time, each by the side's strongest unit still standing."""
    for _ in range(points):
        alive = [f for f in fates if f.strength_left > 0]
        if not alive:
            return
        max(alive, key=lambda f: f.strength_left).lose(1)


def _losses(effect: CloseCombatEffect, a_fates: list[Fate], d_fates: list[Fate]) -> None:
    if effect.exchange:
        a_total = sum(f.strength_left for f in a_fates)
        d_total = sum(f.strength_left for f in d_fates)
        _spread(a_fates, a_total if a_total <= d_total else d_total)
        _spread(d_fates, d_total if d_total <= a_total else a_total)
        return
    _spread(a_fates, _amount(effect.attacker_losses, a_fates))
    _spread(d_fates, _amount(effect.defender_losses, d_fates))


def _morale_and_retreats(state: GameState, effect: CloseCombatEffect, a_fates: list[Fate],
                         d_fates: list[Fate], target_cell: Cell,
                         from_cells: tuple[Cell, ...]) -> None:
    """Morale states imposed, then retreats, each worked out on the position as the units
    before it left it."""
    rules = state.loaded.ruleset.combat
    moved = state
    for fates, imposed, cells, away in (
            (d_fates, effect.defender_morale, effect.defender_retreat, from_cells),
            (a_fates, effect.attacker_morale, effect.attacker_retreat, (target_cell,))):
        for f in fates:
            if f.eliminated:
                continue
            f.morale = worse(state, f.unit.morale, imposed)
            wanted = max(cells, rules.state(f.morale).fall_back if f.morale else 0)
            if wanted:
                f.retreat = retreat_path(moved, moved.units[f.unit.id], wanted, away)
                f.block_retreat(wanted, rules.retreat_shortfall_loss)
                if f.retreat:
                    moved = with_units(moved, {f.unit.id: f.unit.placed(f.retreat[-1])})


def _advance(state: GameState, a_fates: list[Fate], d_fates: list[Fate], cell: Cell) -> None:
    """The first attacker able to move takes the cell if every defender left it."""
    rules = state.loaded.ruleset.combat
    if any(not f.eliminated and not f.retreat for f in d_fates):
        return
    for f in a_fates:
        if f.eliminated or f.retreat:
            continue
        if rules.state(f.morale or f.unit.morale).may_move:
            f.advance = [cell]
            return


def _followers(state: GameState, d_fates: list[Fate], cell: Cell, from_cells: tuple[Cell, ...]
               ) -> list[cev.UnitRetreated] | None:
    """Leaders, HQs and wagons left alone in a cell their troops lost fall back two cells with
    them; ``None`` if one of them cannot (then no attacker advances into the cell)."""
    if any(not f.eliminated and not f.retreat for f in d_fates):
        return []
    out = []
    for u in sorted(state.units.values(), key=lambda u: u.id):
        if u.cell == cell and not u.combat:
            path = retreat_path(state, u, 2, from_cells)
            if not path:
                return None
            out.append(cev.UnitRetreated(audience=side_audience(u.side), unit=u.id,
                                         path=tuple((c.col, c.row) for c in path)))
    return out
