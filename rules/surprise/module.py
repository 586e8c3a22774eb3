"""The Surprise Move rule module (rule text 000): its commands, its events and its hooks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules.commands import GameCommand
from rules.events import GameEvent
from rules.forces.units import Unit
from rules.forces.words import Formation
from rules.ground.grid import Cell
from rules.knowledge.levels import UnitView
from rules.knowledge.notes import ModuleNote
from rules.knowledge.overlay import Ground, Overlay
from rules.modules.api import RuleModule
from rules.modules.registry import register
from rules.refusal import Refusal
from rules.state import GameState, with_module_data, with_units
from rules.surprise import cancellation, interference, notes, orders, queueing, rally
from rules.surprise import events as sev
from rules.surprise import records as rec
from rules.surprise.commands import (
    CancelSurpriseMove,
    ChooseDetour,
    ExecuteSurpriseMove,
    OrderSurpriseMove,
    RallyShammed,
    SetForcedMarch,
)
from rules.surprise.march import accumulation, execution
from rules.surprise.march.forced import decide_forced
from rules.surprise.offers import surprise_offers
from rules.surprise.spec import SPEC
from rules.turn import reaction
from rules.turn.offers import Offer
from rules.turn.sequence import Step
from rules.view import SideView

if TYPE_CHECKING:
    from rules.outcome import Outcome


class SurpriseMove(RuleModule):
    spec = SPEC

    # -- commands ----------------------------------------------------------------------------------
    def decide(self, out: Outcome, side: str, command: GameCommand) -> None:
        match command:
            case OrderSurpriseMove():
                orders.decide_order(out, side, command)
            case ExecuteSurpriseMove():
                queueing.decide_execute(out, side, command)
            case CancelSurpriseMove():
                cancellation.decide_cancel(out, side, command)
            case ChooseDetour():
                _detour(out, side, command)
            case RallyShammed():
                rally.decide_rally(out, side, command)
            case SetForcedMarch():
                decide_forced(out, side, command)
            case _:
                raise Refusal("that is not a surprise-move order")

    # -- the fold ----------------------------------------------------------------------------------
    def apply(self, state: GameState, event: GameEvent) -> GameState | None:
        if not isinstance(event, sev.EVENTS):
            return None
        return fold(state, event)

    # -- the turn ----------------------------------------------------------------------------------
    def on_step_begin(self, out: Outcome) -> None:
        step = out.state.current
        if step.allows("move"):
            for side in step.acting(out.state.sides):
                accumulation.movement_phase_begins(out, side)

    def on_step_end(self, out: Outcome) -> None:
        step = out.state.current
        if step.allows("move"):
            for side in step.acting(out.state.sides):
                for record in rec.side_marches(out.state, side, {rec.RUNNING}):
                    # The engine has settled every detour question already; a detour offered
                    # before offers were questions (a game recorded earlier) is settled here.
                    if record["run"] and record["run"].get("pending"):
                        execution.settle_pending(out, str(record["id"]))
            # Only now has every enemy unit ended its movement for the phase (ruling SM-13).
            interference.movement_phase_ends(out)
        if step.allows("order"):
            orders.accept_arrived_orders(out)  # surprise orders first, then new orders
            cancellation.cancel_acceptance(out)
        interference.attacks_this_step(out)

    def offers(self, state: GameState, side: str, view: SideView, step: Step
               ) -> tuple[Offer, ...]:
        return surprise_offers(state, side, view, step)

    # -- movement ----------------------------------------------------------------------------------
    def closed_cells(self, state: GameState, side: str) -> frozenset[Cell]:
        return interference.closed_cells(state, side)

    def may_move(self, state: GameState, unit: Unit) -> str | None:
        record = rec.march_of_unit(state, unit.id, rec.ACCEPTED | {rec.RUNNING})
        if record is None:
            return None
        return (f"{unit.name} is on surprise move {record['name']} and stays in place in its "
                "formation until the march is carried out (SM, restriction 2)")

    def on_answer(self, out: Outcome, question: reaction.Question, choice: str,
                  by_default: bool) -> None:
        """The owner's detour choice; unanswered at the phase's end, the column marches on into
        the blocked hex and enters any later one without asking (ruling SM-11)."""
        if by_default:
            execution.settle_pending(out, question.topic)
        else:
            execution.choose_detour(out, question.topic, choice == execution.TRY)

    # -- combat ----------------------------------------------------------------------------------
    def combat_shield(self, state: GameState, target: Unit, attackers: tuple[Unit, ...],
                      distances: tuple[int, ...]) -> str | None:
        """For the combat module: ``sham``, ``ignored`` or ``None`` (see ``interference``)."""
        return interference.shield(state, target, attackers, distances)

    def on_sham(self, out: Outcome, unit_id: str, home: Cell, marker: str) -> None:
        interference.record_sham(out, unit_id, home, marker)

    def may_fight(self, state: GameState, unit: Unit, action: str) -> str | None:
        record = rec.march_of_unit(state, unit.id, rec.ACCEPTED | {rec.RUNNING})
        if record is None:
            return None
        return (f"{unit.name} is on surprise move {record['name']}: no fire, assault or rally "
                "until the march is carried out (SM, restriction 2)")

    def may_recover_stragglers(self, state: GameState, unit: Unit) -> bool:
        return rec.march_of_unit(state, unit.id, rec.ACCEPTED | {rec.RUNNING}) is None

    # -- views -------------------------------------------------------------------------------------
    def appearance(self, state: GameState, viewer: str, unit: Unit) -> Unit:
        return interference.appearance(state, viewer, unit)

    def view_notes(self, state: GameState, side: str) -> ModuleNote | None:
        return notes.view_notes(state, side)

    def overlay(self, note: ModuleNote | None, enemies: tuple[UnitView, ...],
                ground: Ground) -> Overlay:
        return notes.overlay(note if isinstance(note, notes.SurpriseNote) else None, enemies,
                             ground)


def _detour(out: Outcome, side: str, command: ChooseDetour) -> None:
    record = cancellation.find_march(out.state, side, command.march, frozenset({rec.RUNNING}))
    run = record["run"]
    if not run or not run.get("pending"):
        raise Refusal(f"surprise move {record['name']} is not waiting for a detour choice")
    march_id = str(record["id"])
    choice = execution.TRY if command.attempt else execution.GO_ON
    asked = reaction.open_questions(out.state, module=rec.MODULE, topic=march_id)
    if asked:
        reaction.answer(out, asked[0].id, choice)  # the march goes on in ``on_answer``
    else:  # offered before offers were questions (a game recorded earlier)
        execution.choose_detour(out, march_id, command.attempt)


# -- folding the module's events ---------------------------------------------------------------
def fold(state: GameState, event: GameEvent) -> GameState:
    new = rec.edit(state)
    marches: dict[str, dict[str, Any]] = new["marches"]
    units: dict[str, Unit] = {}
    made_true: dict[str, int] = {}
    match event:
        case sev.MarchOrdered(march=mid, record=record):
            marches[mid] = dict(record) | {"seq": int(new["next"])}
            new["next"] = int(new["next"]) + 1
        case sev.MarchAccepted(march=mid, turn=turn):
            marches[mid].update(status=rec.ACCUMULATING, accepted_turn=turn)
        case sev.OrderLost(march=mid, why=why):
            marches[mid].update(status=rec.LOST, why=why)
        case sev.InitiativeTried(leader=leader, turn=turn):
            new["initiative"][leader] = turn
        case sev.MPsAccumulated(march=mid, attempt=attempt, total=total) | \
                sev.MPsReversed(march=mid, attempt=attempt, total=total):
            marches[mid].update(attempts=attempt, accumulated_mp=total)
        case sev.StragglersNoted(march=mid, unit=uid, count=count):
            roster = marches[mid]["stragglers"]
            roster[uid] = int(roster.get(uid, 0)) + count
        case sev.ExecutionQueued(march=mid):
            marches[mid]["execute_queued"] = True
        case sev.MarchTriggered(march=mid, cause=cause):
            marches[mid].update(status=rec.TRIGGERED, trigger=cause)
        case sev.MarchBegun(march=mid, run=run, formations=formations):
            m = marches[mid]
            units = _revealed(state, m)
            for uid, formation in formations.items():
                units[uid] = replace(units.get(uid, state.units[uid]),
                                     formation=Formation(formation))
            # New orders on their way outlast the march (ruling SM-14).
            m.update(status=rec.RUNNING, run=dict(run), execute_queued=False, shams={},
                     stragglers={})
        case sev.DetourOffered(march=mid) | sev.DetourResolved(march=mid):
            execution.apply_run_event(marches[mid], event)
        case sev.ColumnMarched(march=mid, moves=moves, run=run):
            marches[mid]["run"] = dict(run)
            for uid in run.get("order", []):
                unit = state.units[uid]
                cells = moves.get(uid)
                moved = unit.placed(rec.cell_of(cells[-1])) if cells else unit
                units[uid] = replace(moved, mp_spent=float(unit.movement))
        case sev.MarchEnded(march=mid, outcome=outcome, rest=rest):
            m = marches[mid]
            units = _revealed(state, m)
            if outcome in (rec.CANCELLED, rec.COLLIDED):  # no march: the shams stand (SM-19)
                units, casualties = interference.shams_made_true(state, m, units)
                made_true = casualties
            m.update(status=outcome, rest=rest, shams={}, stragglers={}, execute_queued=False)
        case sev.CancelSent(march=mid, mode=mode, arrives_turn=arrives, distance_mp=mp,
                            by_initiative=by_initiative):
            marches[mid]["cancel"] = {"mode": mode, "arrives_turn": arrives, "distance_mp": mp,
                                      "by_initiative": by_initiative,
                                      "sent_turn": state.turn}
        case sev.CancelAccepted(march=mid, mode=mode, superseded=superseded):
            m = marches[mid]
            m["cancel"] = None
            if superseded:  # the march goes, or went, as it must; the new orders follow it
                m["superseded"] = {"mode": mode, "turn": state.turn}
            elif mode == "execute":
                m["execute_queued"] = True
            else:
                m["status"] = rec.REVERSING
        case sev.CancelLost(march=mid):
            marches[mid]["cancel"] = None
        case sev.ShamRecorded(march=mid, unit=uid, cell=cell, marker=marker, home=home):
            marches[mid]["shams"][uid] = {"cell": list(cell), "marker": marker,
                                          "home": list(home or cell)}
        # sham rallies
        case sev.ShamsLifted(march=mid, returns=returns):
            marches[mid]["shams"] = {}
            units = {uid: state.units[uid].placed(rec.cell_of(c)) for uid, c in returns.items()}
        case sev.ShamRallied(march=mid, unit=uid, home=home, path=path, mp=mp):
            shams = marches[mid]["shams"]
            unit = state.units[uid]
            end = rec.cell_of(path[-1]) if path else unit.cell
            if end == rec.cell_of(home):
                shams.pop(uid, None)
            else:  # stopped on its way: no marker, still away from home
                shams[uid] = {**shams[uid], "marker": "",
                              "cell": list(path[-1]) if path else shams[uid]["cell"]}
            if path:
                units = {uid: unit.moved_to(rec.cell_of(path[-1]), mp)}
        case sev.ShamMarkerRallied(march=mid, unit=uid, after=after):
            m = marches[mid]
            unit = state.units[uid]
            if not after and unit.cell == rec.cell_of(m["shams"][uid]["home"]):
                m["shams"].pop(uid, None)
            else:
                m["shams"][uid] = {**m["shams"][uid], "marker": after}
            m["rallied"] = {**m.get("rallied", {}), uid: [state.turn, state.step]}
            units = {uid: replace(unit, mp_spent=float(unit.movement))}
        # forced marches
        case sev.ForcedMarchSet(march=mid, mp=mp):
            marches[mid]["forced"] = mp
        case sev.ForceRested(march=mid):
            m = marches[mid]
            m["rest"] = False
            for uid in m["units"]:
                if uid in state.units:
                    rested = state.units[uid]
                    units[uid] = replace(rested, mp_spent=float(rested.movement))
        case _:
            pass  # events that change nothing (initiative failed, trigger announced, ...)
    out = rec.store(state, new)
    if made_true:
        out = _casualties_noted(out, made_true)
    return with_units(out, units) if units else out


def _casualties_noted(state: GameState, casualties: Mapping[str, int]) -> GameState:
    """Casualties a cancelled order's shams made true, added to the combat module's count of
    points each unit has lost for good, so that strength, stragglers and casualties still add
    up to the unit's starting strength (``rules.combat.ledger``)."""
    combat = dict(state.module_data.get("combat", {}))
    lost = dict(combat.get("casualties", {}))
    for uid, n in casualties.items():
        lost[uid] = int(lost.get(uid, 0)) + n
    combat["casualties"] = lost
    return with_module_data(state, "combat", combat)


def _revealed(state: GameState, record: Mapping[str, Any]) -> dict[str, Unit]:
    """The force's units with the secret stragglers taken off their strength."""
    out: dict[str, Unit] = {}
    for uid, count in record.get("stragglers", {}).items():
        unit = state.units.get(uid)
        if unit is None or not count:
            continue
        lost = min(int(count), unit.strength)
        out[uid] = replace(unit, strength=unit.strength - lost, stragglers=unit.stragglers + lost)
    return out


MODULE = register(SurpriseMove())
