"""The host's orders: pause and resume, a question's or a phase's time run out, the end of a
phase forced, and a unit corrected by hand (only in play, each change checked against the map
and the ruleset).
"""

from __future__ import annotations

from rules import commands as cmd
from rules import events as ev
from rules.forces.units import Unit
from rules.ground.board import LabelError
from rules.orders.positions import positions_changed
from rules.outcome import Outcome
from rules.refusal import Refusal
from rules.scenario.markup import plain
from rules.state import GameState
from rules.turn import opening, reaction
from rules.turn.advance import advance
from rules.turn.deadline import deadline_passed
from rules.turn.status import GameStatus


def host_order(out: Outcome, command: cmd.Command) -> None:
    state = out.state
    match command:
        case cmd.Pause(paused=paused, reason=reason):
            if not state.status.in_play:
                raise Refusal("only a game in play can be paused or resumed")
            if (state.status == GameStatus.PAUSED) == paused:
                raise Refusal("the game is already " + ("paused" if paused else "running"))
            out.add(ev.GamePaused(audience="public", paused=paused, reason=reason))
        case cmd.AnswerTimeout(question=question):
            if state.status != GameStatus.ACTIVE:
                raise Refusal("the game is not in play")
            reaction.time_out(out, question)
        case cmd.ForceEndPhase():
            if state.status != GameStatus.ACTIVE:
                raise Refusal("the game is not in play")
            if opening.waiting(state) is not None:
                # Before the first turn no phase is open: ending "it" opens the first one,
                # each choice still awaited taking its default.
                opening.settle(out)
                return
            for side in state.acting_sides():
                out.add(ev.SideDone(audience="public", side=side))
            advance(out)
        case cmd.DeadlinePassed(turn=turn, step=step):
            if state.status != GameStatus.ACTIVE:
                raise Refusal("the game is not in play")
            opening.require_begun(state)
            if (turn, step) != (state.turn, state.step):
                raise Refusal("that phase is already over")
            deadline_passed(out)
            advance(out)
        case cmd.Correct(unit=name, changes=changes, reason=reason):
            # Only in play: before the start there is nothing to correct (the scenario is), and
            # after the end the seed is public, so a correction could only rewrite the result.
            if not state.status.in_play:
                raise Refusal("corrections can only be made while the game is in play")
            unit = state.units.get(name)
            if unit is None:
                raise Refusal(f"no unit has the id {name[:60]!r}")
            fixed = _check_correction(state, unit, changes)
            out.add(ev.UnitCorrected(audience="umpire", unit=unit.id, changes=fixed,
                                     reason=reason, name=unit.name, side=unit.side))
            out.add(ev.Told(audience=ev.side_audience(unit.side),
                            text=f"The umpire corrected {plain(unit.name)}: {plain(reason)}"))
            positions_changed(out, (unit.id,) if "cell" in fixed else ())


def _check_correction(state: GameState, unit: Unit, changes: dict[str, object]
                      ) -> dict[str, object]:
    fixed: dict[str, object] = {}
    board = state.loaded.board
    for key, value in changes.items():
        if key == "cell":
            try:
                cell = board.parse(str(value))
            except LabelError as e:
                raise Refusal(str(e)) from None
            if not state.loaded.map.enterable(cell):
                raise Refusal(f"{board.label(cell)} cannot be entered")
            fixed["cell"] = [cell.col, cell.row]
        elif key in ("strength", "stragglers"):
            if not isinstance(value, int) or value < 0:
                raise Refusal(f"{key} must be a whole number, 0 or more")
            fixed[key] = value
        elif key == "formation":
            if value not in unit.formations:
                raise Refusal(f"{unit.name} may be {' or '.join(f.said for f in unit.formations)}")
            fixed[key] = value
        elif key == "morale":
            states = [m.name for m in state.loaded.ruleset.combat.morale_states]
            if value not in states:
                raise Refusal(f"morale is one of: {', '.join(states)}")
            fixed[key] = value
        else:
            raise Refusal(f"{key!r} cannot be corrected (cell, strength, stragglers, formation, "
                          "morale can)")
    if not fixed:
        raise Refusal("nothing to correct")
    return fixed
