"""The Concealed Forces rule module (rule text 001): its commands, its events and its hooks."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules.commands import GameCommand
from rules.concealed import events as cev
from rules.concealed import marching, moving, pickets, scouts
from rules.concealed import records as rec
from rules.concealed.breeding import decide_breed, undo_stacked_breedings
from rules.concealed.commands import (
    BreedDecoy,
    ClearConcealPlan,
    ConcealForce,
    ConcealPlan,
    ForceMarch,
    MarkDetached,
    ReleaseScouts,
    Unconceal,
)
from rules.concealed.creating import decide_conceal
from rules.concealed.detaching import decide_detach, detachments_take_effect
from rules.concealed.moving import decide_marker_move
from rules.concealed.notes import note_for
from rules.concealed.offers import concealed_offers
from rules.concealed.reveal import opportunity, plans, revealing
from rules.concealed.reveal.in_reach import reach_stop
from rules.concealed.spec import SPEC
from rules.events import GameEvent
from rules.forces.location import InMarker
from rules.forces.markers import Marker
from rules.forces.units import Unit
from rules.forces.words import Formation
from rules.ground.grid import Cell
from rules.knowledge.levels import MarkerView
from rules.knowledge.notes import ModuleNote
from rules.knowledge.overlay import Ground
from rules.modules.api import RuleModule
from rules.modules.registry import register
from rules.orders.marker_order import MarkerOrder
from rules.orders.stops import Stop
from rules.refusal import Refusal
from rules.state import GameState, with_units
from rules.turn.offers import Offer
from rules.turn.sequence import Step
from rules.view import SideView

if TYPE_CHECKING:
    from rules.outcome import Outcome
    from rules.turn.reaction import Question


class ConcealedForces(RuleModule):
    spec = SPEC

    # -- commands ----------------------------------------------------------------------------------
    def decide(self, out: Outcome, side: str, command: GameCommand) -> None:
        match command:
            case ConcealForce():
                decide_conceal(out, side, command)
            case BreedDecoy():
                decide_breed(out, side, command)
            case Unconceal():
                revealing.decide_unconceal(out, side, command)
            case MarkDetached():
                decide_detach(out, side, command)
            case ReleaseScouts():
                scouts.decide_release(out, side, command)
            case ForceMarch():
                marching.decide_forced(out, side, command)
            case ConcealPlan():
                plans.decide_plan(out, side, command)
            case ClearConcealPlan():
                plans.decide_clear(out, side, command)
            case _:
                raise Refusal("that is not a concealed-forces order")

    def offers(self, state: GameState, side: str, view: SideView, step: Step
               ) -> tuple[Offer, ...]:
        return concealed_offers(state, side, view, step)

    def move_marker(self, out: Outcome, side: str, marker: Marker, route: str) -> bool:
        return decide_marker_move(out, side, marker, route)

    def marker_order(self, state: GameState, side: str, marker: Marker, route: str
                     ) -> MarkerOrder | None:
        return moving.marker_order(state, side, marker, route)

    # -- the fold ----------------------------------------------------------------------------------
    def apply(self, state: GameState, event: GameEvent) -> GameState | None:
        if not isinstance(event, cev.EVENTS):
            return None
        return fold(state, event)

    # -- movement and the reveal -------------------------------------------------------------------
    def stop_reason(self, state: GameState, unit: Unit, cell: Cell) -> Stop | None:
        found = revealing.stop_reason(state, unit, cell)
        return found if found is not None else reach_stop(state, unit, cell)

    def seen_stop(self, state: GameState, unit: Unit, cell: Cell) -> Stop | None:
        """A mover halts within reach of a force revealed in this phase (ruling CF-31), which
        the moving side sees (ruling CF-4)."""
        return reach_stop(state, unit, cell, foreseen=True)

    def foreseen_stop(self, unit: Unit, cell: Cell, markers: tuple[MarkerView, ...],
                      ground: Ground) -> Stop | None:
        return revealing.foreseen_stop(unit, cell, markers, ground)

    def blocked_cells(self, state: GameState, side: str) -> frozenset[Cell]:
        return pickets.blocked_by_markers(state, side)

    def on_positions_changed(self, out: Outcome, units: tuple[str, ...]) -> None:
        revealing.reveal_found(out, units)
        scouts.identify_seen(out)
        # Forces revealed in this phase may fire at any enemy that moves within reach (CF-28).
        opportunity.offer_movers(out, units)

    def route_refusal(self, state: GameState, unit: Unit, path: tuple[Cell, ...]) -> str | None:
        return scouts.route_refusal(state, unit, path)

    def on_answer(self, out: Outcome, question: Question, choice: str, by_default: bool) -> None:
        """A revealed force's owner chose to fire, charge or hold (rulings CF-11, CF-28)."""
        opportunity.on_answer(out, question, choice, by_default)

    # -- the turn ----------------------------------------------------------------------------------
    def on_step_begin(self, out: Outcome) -> None:
        """A side's movement phase begins: its detachment orders take effect (ruling CF-25)."""
        step = out.state.current
        if step.allows("move"):
            for side in step.acting(out.state.sides):
                detachments_take_effect(out, side)

    def on_step_end(self, out: Outcome) -> None:
        """The end of a phase: forced marches' checks, scouts that never left go back, and a
        breeding whose halves still share a hex is undone."""
        marching.end_of_phase(out)
        scouts.rejoin_stayers(out)
        undo_stacked_breedings(out)

    def on_game_end(self, out: Outcome) -> None:
        marching.settle_all(out)

    # -- what a side sees --------------------------------------------------------------------------
    def shows_anonymous(self, state: GameState, viewer: str, unit: Unit) -> bool:
        return scouts.shows_anonymous(state, viewer, unit)

    def marker_contents(self, state: GameState, side: str, marker: Marker
                        ) -> tuple[str, ...] | None:
        record = rec.force(state, marker.id)
        if record is None or record["side"] != side:
            return None
        return tuple(record["units"])

    def view_notes(self, state: GameState, side: str) -> ModuleNote | None:
        return note_for(state, side)


def fold(state: GameState, event: GameEvent) -> GameState:
    data = rec.edit(state)
    found: dict[str, Any] = data.setdefault("forces", {})
    moved: dict[str, Unit] = {}
    match event:
        case cev.ForceConcealed(marker=mid, kind=kind, commander=commander, units=units,
                                name=name):
            side = state.units[units[0]].side
            found[mid] = {"side": side, "kind": kind, "commander": commander,
                          "units": list(units), "concealed_turn": state.turn,
                          "bred_turn": None, "name": name}
            data.setdefault("conceal_phase", {})[side] = [state.turn, state.step]
            moved = {u: _inside(state.units[u], mid) for u in units}
        case cev.DecoyBred(parent=parent, kept=kept, decoy=decoy):
            record = found.pop(parent)
            # Each half knows its twin until the phase ends: they may not stay stacked.
            found[kept] = {**record, "bred_turn": state.turn, "twin": decoy}
            found[decoy] = {"side": record["side"], "kind": rec.ForceKind.DECOY.value,
                            "commander": "", "units": [], "concealed_turn": state.turn,
                            "bred_turn": state.turn, "name": "decoy", "twin": kept}
            moved = _follow(state, data, record, parent, kept)
        case cev.BreedingUndone(kept=kept, decoy=decoy, into=into):
            found.pop(decoy)
            record = {k: v for k, v in found.pop(kept).items() if k != "twin"}
            found[into] = record
            for key in ("spent", "forced"):
                data.get(key, {}).get("mp", {}).pop(decoy, None)
            moved = _follow(state, data, record, kept, into)
        case cev.ForceMoved(marker=mid, mp=mp):
            s = data.setdefault("spent", {})
            if list(s.get("phase", ())) != [state.turn, state.step]:
                s.clear()
                s["phase"] = [state.turn, state.step]
            s.setdefault("mp", {})[mid] = dict(mp)
        case cev.ForceRevealed(marker=mid, placed=placed):
            record = found.pop(mid)
            if not record["units"]:
                data.setdefault("found", {}).setdefault(record["side"], []).append(state.turn)
            for uid, cell, formation in placed:
                unit = state.units[uid]
                moved[uid] = unit.placed(Cell(*cell)).with_formation(Formation(formation))
            if placed:  # who may react for the rest of this phase (rulings CF-11, CF-28)
                data.setdefault("deployed", {})[mid] = [uid for uid, _, _ in placed]
                data.setdefault("revealed_in", {})[mid] = [state.turn, state.step]
        case cev.DeploymentPlanned(marker=mid) | cev.DeploymentPlanCleared(marker=mid):
            plans.fold(found[mid], event)
        case cev.DetachmentOrdered(unit=uid, detached=detached, withdrawn=withdrawn,
                                   lapsed=lapsed):
            waiting = data.setdefault("detaching", {})
            if withdrawn or lapsed:
                waiting.pop(uid, None)
            else:
                waiting[uid] = detached
        case cev.DetachmentMarked(unit=uid, detached=detached):
            data.setdefault("detached", {})[uid] = detached
            data.get("detaching", {}).pop(uid, None)
        case cev.ScoutsReleased(marker=mid, units=units, cell=cell, cavalry=cavalry):
            record = found[mid]
            record["units"] = [u for u in record["units"] if u not in units]
            phase = [state.turn, state.step]
            data.setdefault("released", {})[mid] = phase
            for uid in units:
                data.setdefault("scouts", {})[uid] = {
                    "marker": mid, "from": list(cell), "phase": phase,
                    "kind": scouts.CAVALRY if uid == cavalry else scouts.SKIRMISHER}
                moved[uid] = state.units[uid].placed(Cell(*cell))
            if cavalry:
                data.setdefault("anonymous", []).append(cavalry)
        case cev.ScoutsRejoined(marker=mid, units=units):
            found[mid]["units"] = [*found[mid]["units"], *units]
            for uid in units:
                data.get("scouts", {}).pop(uid, None)
                moved[uid] = _inside(state.units[uid], mid)
            data["anonymous"] = [u for u in data.get("anonymous", []) if u not in units]
        case cev.ScoutIdentified(unit=uid):
            data["anonymous"] = [u for u in data.get("anonymous", []) if u != uid]
        case cev.ForcedMarchSet(marker=mid, mp=mp):
            f = data.setdefault("forced", {})
            if list(f.get("phase", ())) != [state.turn, state.step]:
                f.clear()
                f["phase"] = [state.turn, state.step]
            f.setdefault("mp", {})[mid] = mp
        case cev.MarchChecksNoted(marker=mid, checks=checks):
            data.setdefault("owed", {}).setdefault(mid, []).append(
                {"turn": state.turn, "checks": dict(checks)})
        case cev.NotedChecksRolled(marker=mid):
            data.get("owed", {}).pop(mid, None)
            data.get("forced", {}).get("mp", {}).pop(mid, None)
    return with_units(rec.store(state, data), moved)


def _follow(state: GameState, data: dict[str, Any], record: dict[str, Any], old: str, new: str
            ) -> dict[str, Unit]:
    """What the force under marker ``old`` owes and may do follows it to marker ``new``: its
    MPs spent, forced march, checks owed, scouts; its units, which are returned, go under it."""
    spent = data.get("spent", {}).get("mp", {})
    if old in spent:
        spent[new] = spent.pop(old)
    for key in ("owed", "released"):
        if old in data.get(key, {}):
            data[key][new] = data[key].pop(old)
    forced = data.get("forced", {}).get("mp", {})
    if old in forced:
        forced[new] = forced.pop(old)
    for info in data.get("scouts", {}).values():
        if info["marker"] == old:
            info["marker"] = new
    return {u: _inside(state.units[u], new) for u in record["units"]}


def _inside(unit: Unit, marker_id: str) -> Unit:
    return replace(unit, location=InMarker(marker_id))


register(ConcealedForces())
