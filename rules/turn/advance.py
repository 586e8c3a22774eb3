"""The turn sequence as it runs: a step closed (questions settled, the modules' word, each
side's phase report), the next step that needs someone opened (arrivals, sighting, the modules'
word), and sides with nothing to do passed by themselves.
"""

from __future__ import annotations

from rules import events as ev
from rules.forces.location import Arriving
from rules.knowledge.sighted import information_model, phase_report, sighting_events
from rules.modules.registry import in_force
from rules.orders.positions import positions_changed
from rules.outcome import Outcome
from rules.turn import reaction
from rules.turn.idle import passes_by_itself
from rules.view import project


def advance(out: Outcome) -> None:
    """Close the current step and open the next one that needs someone to act."""
    while True:
        reaction.settle_all(out)  # the step's end is every question's last deadline
        for module in in_force(out.state.modules):
            module.on_step_end(out)
        state = out.state
        for side in state.sides:
            # A side that sees every enemy gets no report: skip working out its view.
            text = ("" if information_model(state, side).shows_every_enemy
                    else phase_report(project(state, side)))
            if text:
                out.add(ev.Told(audience=ev.side_audience(side), text=text))
        nxt = state.step + 1
        turn = state.turn
        if nxt >= len(state.steps):
            nxt, turn = 0, turn + 1
            if turn > state.last_turn:
                out.finished = True
                return
        begin_step(out, turn, nxt)
        if out.state.acting_sides():
            return


def begin_step(out: Outcome, turn: int, step: int) -> None:
    s = out.state
    phase = s.steps[step]
    out.add(ev.PhaseBegan(audience="public", turn=turn, step=step, phase=phase.phase.id,
                          side=phase.side))
    arriving: dict[str, list[str]] = {}
    if step == 0:
        for u in out.state.units.values():
            if isinstance(u.location, Arriving) and u.location.turn <= turn:
                arriving.setdefault(u.side, []).append(u.id)
        for side, ids in arriving.items():
            out.add(ev.UnitsArrived(audience=ev.side_audience(side), units=tuple(sorted(ids))))
    positions_changed(out, [uid for ids in arriving.values() for uid in ids])
    for module in in_force(out.state.modules):
        module.on_step_begin(out)
    _pass_idle_sides(out)


def _pass_idle_sides(out: Outcome) -> None:
    """Each acting side with nothing it could do in the step that has just begun is done by
    itself, and told why (``rules.turn.idle``: decided from its own view, so that ``vedette
    verify`` decides it again and no hidden enemy unit decides it)."""
    for side in out.state.acting_sides():
        idle = passes_by_itself(out.state, side)
        if idle is not None:
            out.add(ev.SideDone(audience="public", side=side, by_itself=True))
            out.add(ev.Told(audience=ev.side_audience(side), text=idle.passed_text()))


def update_sighting(out: Outcome) -> None:
    for e in sighting_events(out.state):
        out.add(e)
