"""The rules engine: given a state, a side's command and the dice, the events that follow.

```decide`` never changes anything itself. It refuses a command it cannot accept with a
``Refusal`` whose words depend only on what the commanding side may know (an enemy unit's name
gets the same answer as a name that belongs to no unit), or returns the events, which the umpire
stores and folds. After every command the sides' sighting is brought up to date.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

import rules.modules.built  # noqa: F401  (every built module, registered)
from rules import commands as cmd
from rules import events as ev
from rules.forces.location import Arriving
from rules.forces.lookup import own_unit as own_unit  # re-exported
from rules.forces.markers import Marker, own_marker
from rules.forces.units import Unit
from rules.forces.words import STACKING_KINDS
from rules.ground.board import LabelError
from rules.ground.grid import Cell
from rules.knowledge.sighted import information_model, phase_report, sighting_events
from rules.modules.api import RuleModule
from rules.modules.registry import in_force, owner_of
from rules.orders.movement import (
    MoveError,
    MoveResult,
    OrderPlan,
    StopHook,
    follow,
    formation_change_cost,
    plan_order,
)
from rules.orders.positions import positions_changed
from rules.orders.route import Route, RouteError, expand, parse_route
from rules.orders.stops import Stop
from rules.outcome import DiceSource as DiceSource  # re-exported: the umpire's dice
from rules.outcome import Outcome as Outcome  # re-exported: callers build on it from here
from rules.reading import parse_command
from rules.refusal import Refusal as Refusal  # re-exported: callers catch it from here
from rules.scenario.markup import plain
from rules.state import GameState
from rules.turn import reaction
from rules.turn.deadline import deadline_passed
from rules.turn.idle import passes_by_itself
from rules.turn.sequence import Step
from rules.turn.status import GameStatus
from rules.view import project

#: The reason given when the game ends because its last turn has been played.
LAST_TURN_PLAYED = "The last turn has been played."
START = "start"
END = "end"


def start(state: GameState, seed_sha256: str, dice: DiceSource, *, user: int | None = None,
          sources_commitment: str = "") -> Outcome:
    """Begin play: announce the dice commitment (and the commitment to the scenario's and
    ruleset's texts) and open the first phase."""
    if state.status != GameStatus.SETUP:
        raise Refusal("the game has already started")
    out = Outcome(state, dice)
    out.add(ev.CommandAccepted(audience="umpire", kind=START, command={"kind": START},
                               host=True, user=user))
    out.add(ev.GameStarted(seed_sha256=seed_sha256, sources_commitment=sources_commitment))
    for module in in_force(out.state.modules):
        module.on_game_start(out)
    _begin_step(out, state.turn, 0)
    if not out.state.acting_sides():
        _advance(out)
    return out


def end(state: GameState, seed_hex: str, reason: str, dice: DiceSource, *,
        user: int | None = None) -> Outcome:
    """The host ends the game: the seed is revealed so that every roll can be checked."""
    if state.status == GameStatus.ENDED:
        raise Refusal("the game is already over")
    out = Outcome(state, dice)
    out.add(ev.CommandAccepted(audience="umpire", kind=END, command={"kind": END,
                                                                     "reason": reason},
                               host=True, user=user))
    if state.status != GameStatus.SETUP:
        # A game ended before it started has no result: nothing was played to score, and no
        # roll may be made on a seed whose commitment was never published.
        _game_ends(out)
    out.add(ev.GameEnded(audience="public", seed_hex=seed_hex, reason=reason))
    return out


def end_if_over(out: Outcome, seed_hex: str) -> bool:
    """When the command played the last phase, the game ends in the same batch of events, with
    the seed: a finished game can never be left unended."""
    if out.finished and out.state.status != GameStatus.ENDED:
        _game_ends(out)
        out.add(ev.GameEnded(audience="public", seed_hex=seed_hex, reason=LAST_TURN_PLAYED))
    return out.finished


def _game_ends(out: Outcome) -> None:
    """The modules' last word (victory rolls, scores), before the seed is revealed."""
    for module in in_force(out.state.modules):
        module.on_game_end(out)


def decide(state: GameState, side: str, command: cmd.Command, dice: DiceSource,
           host: bool = False, request_id: str | None = None, *, user: int | None = None
           ) -> Outcome:
    """The events that follow from ``side``'s command (``host`` for the host's tools).

    The first event records the command in full, with who gave it (``user``) and its
    ``request_id`` when there is one, so that the same request is never applied twice and the
    whole game can be decided again from its log; it comes first so that every later event,
    and every roll, keeps its place in the log.
    """
    out = Outcome(state, dice)
    out.add(ev.CommandAccepted(audience="umpire",
                               request="" if request_id is None else request_key(request_id),
                               kind=command.kind, command=command.model_dump(mode="json"),
                               side=side, host=host, user=user))
    if command.host_only:
        if not host:
            raise Refusal("only the game's host can do that")
        _host(out, command)
        return out
    if state.status == GameStatus.SETUP:
        raise Refusal("the game has not started yet")
    if state.status == GameStatus.PAUSED:
        raise Refusal("the game is paused by the host")
    if state.status == GameStatus.ENDED:
        raise Refusal("the game is over")
    match command:
        case cmd.Move():
            _move(out, side, command)
        case cmd.SetFormation():
            _formation(out, side, command)
        case cmd.Done():
            _done(out, side)
        case cmd.Answer(question=question, choice=choice):
            reaction.answer_own(out, side, question, choice)
        case _:
            module = owner_of(command)
            if module is None or module.name not in state.modules:
                raise Refusal("that order belongs to rules this game does not play")
            module.decide(out, side, command)
    return out


def redecide(state: GameState, accepted: ev.CommandAccepted, seed_hex: str, dice: DiceSource,
             *, sources_commitment: str = "") -> Outcome:
    """Decide a logged command again, as the umpire did: the same events must follow.
    ``sources_commitment`` is what the start commits to for the texts being checked.

    Raises ``Refusal`` when the rules refuse it, ``ValueError`` when the log does not hold the
    command in full (a log written before commands were kept)."""
    if accepted.command is None:
        raise ValueError(f"only the kind of the {accepted.kind!r} command was logged")
    if accepted.kind == START:
        return start(state, hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest(), dice,
                     user=accepted.user, sources_commitment=sources_commitment)
    if accepted.kind == END:
        return end(state, seed_hex, str(accepted.command.get("reason", "")), dice,
                   user=accepted.user)
    command = parse_command(accepted.command)
    out = decide(state, accepted.side, command, dice, accepted.host,
                 accepted.request or None, user=accepted.user)
    end_if_over(out, seed_hex)
    return out


def request_key(request_id: str) -> str:
    """How a request id is kept in the log: as given when short, else its SHA-256 (so that two
    long ids never collide on a common prefix)."""
    if len(request_id) <= 100:
        return request_id
    return "sha256:" + hashlib.sha256(request_id.encode()).hexdigest()


# -- orders ------------------------------------------------------------------------------------
def _require_action(state: GameState, side: str, action: str, verb: str) -> None:
    """Refuse an order given outside the side's own step for it, saying when that step comes
    (ruling ORD-4: from the turn sequence alone, which is public)."""
    step = state.current
    if not step.allows(action):
        raise Refusal(f"you cannot {verb} in the {step.title}{_yours_comes(state, side, action)}")
    if side not in step.acting(state.sides):
        raise Refusal(f"it is the {_step_name(state, step)}, not yours"
                      f"{_yours_comes(state, side, action)}")
    if side in state.done:
        raise Refusal("you have already finished this phase")


def _step_name(state: GameState, step: Step) -> str:
    """A step as the channel names it: "Union Movement Phase", "Command Phase"."""
    return f"{state.side_name(step.side)} {step.title}" if step.side else step.title


def _yours_comes(state: GameState, side: str, action: str) -> str:
    """When the side's next step for ``action`` comes (": your Movement Phase comes after
    it"), counted along the public turn sequence; empty if the side never has one."""
    steps = state.steps
    for ahead in range(1, len(steps) + 1):
        at = state.step + ahead
        step = steps[at % len(steps)]
        if not step.allows(action) or side not in step.acting(state.sides):
            continue
        if at >= len(steps) and state.turn >= state.last_turn:
            return f": this is the last turn, and the game ends before your next {step.title}"
        if ahead == 1:
            return f": your {step.title} comes after it"
        if at >= len(steps):
            return f": your {step.title} comes next turn"
        return (f": your {step.title} comes later this turn, after the "
                f"{_step_name(state, steps[at - 1])}")
    return ""


def _move(out: Outcome, side: str, command: cmd.Move) -> None:
    state = out.state
    _require_action(state, side, "move", "move")
    reaction.require_not_held(state, side)
    modules = in_force(state.modules)
    marker = _own_marker(state, side, command.unit)
    if marker is not None:
        if not any(module.move_marker(out, side, marker, command.route) for module in modules):
            raise Refusal(f"marker {marker.id} cannot be moved by an order")
        return
    order = order_plan(state, side, own_unit(state, side, command.unit), command.route)
    unit = order.unit
    enemy_cells = {u.cell for u in state.enemies_of(side) if u.cell is not None}
    for module in modules:
        enemy_cells |= module.closed_cells(state, side)
    # Whatever stops the unit on its way does not refuse: the move is made as far as it goes.
    result = follow(state.loaded.map, unit, order.plan, enemy_at=lambda c: c in enemy_cells,
                    friendly_count=order.friendly_count, stop=_stop_hook(state, modules))
    if not result.cells:
        # Contact with no cell to stand in on the way (the first step, or only full friendly
        # cells before it): the unit halts where it stands for the rest of the phase, so that
        # bumping into unseen enemies is never a free probe (ruling CORE-3).
        out.add(ev.UnitHalted(audience=ev.side_audience(side), unit=unit.id,
                              reason=result.stopped))
        return
    out.add(ev.UnitMoved(audience=ev.side_audience(side), unit=unit.id,
                         path=tuple((c.col, c.row) for c in result.cells), mp=result.mp,
                         stopped=result.stopped))
    positions_changed(out, (unit.id,))
    for module in modules:
        module.after_move(out, unit.id)


@dataclass(frozen=True)
class MoveOrder:
    """A move as the moving side's own knowledge settles it: the unit, the route read and
    expanded, each step priced and cut where the MPs run out (``rules.orders.movement.OrderPlan``),
    and the side's other units that count for stacking in each cell."""

    unit: Unit
    route: Route
    plan: OrderPlan
    friends: Mapping[Cell, int]

    def friendly_count(self, cell: Cell) -> int:
        return self.friends.get(cell, 0)

    def expected(self, state: GameState) -> MoveResult:
        """Where the unit ends if neither the enemy nor a rule stops it sooner: what a preview
        promises, by the very function the move is made with."""
        return follow(state.loaded.map, self.unit, self.plan, friendly_count=self.friendly_count)


def order_plan(state: GameState, side: str, unit: Unit, route_text: str) -> MoveOrder:
    """Settle an ordinary move of the side's own ``unit`` along ``route_text`` on what the side
    knows (never an enemy): the one reading of an order that both the move and its preview
    use. Raises ``Refusal`` for a unit that may not move, a route that cannot be read, a step
    that cannot be taken, or a module's limit on the unit's own route."""
    if unit.cell is None:
        raise Refusal(f"{unit.name} is not on the map")
    modules = in_force(state.modules)
    for module in modules:
        why = module.may_move(state, unit)
        if why:
            raise Refusal(why)
    gm = state.loaded.map
    try:
        route = parse_route(gm, route_text)
        path = expand(gm, route, unit.cell)
    except (RouteError, LabelError) as e:
        raise Refusal(str(e)) from None
    friends: dict[Cell, int] = {}
    for u in state.units_of(side):
        if u.cell is not None and u.id != unit.id and u.kind in STACKING_KINDS:
            friends[u.cell] = friends.get(u.cell, 0) + 1
    try:  # only what the side itself knows can refuse the order
        plan = plan_order(gm, unit, path, lambda c: friends.get(c, 0))
    except MoveError as e:
        raise Refusal(str(e)) from None
    for module in modules:
        why = module.route_refusal(state, unit, plan.path)
        if why:
            raise Refusal(why)
    return MoveOrder(unit, route, plan, friends)


def _own_marker(state: GameState, side: str, ref: str) -> Marker | None:
    """One of the side's markers named by its id (``4821``, ``marker 4821``, ``#4821``), when
    no unit of the side has that name; ``None`` otherwise (an enemy marker's id included)."""
    found = own_marker(state.markers, side, ref)
    key = ref.strip().lower()
    if found is None or any(key in (u.id.lower(), u.name.lower(), u.short.lower())
                            for u in state.units_of(side)):
        return None
    return found


def _stop_hook(state: GameState, modules: list[RuleModule]) -> StopHook | None:
    """The modules' reasons to stop a moving unit, asked in turn."""
    if not modules:
        return None

    def stop(unit: Unit, cell: Cell) -> Stop | None:
        for module in modules:
            reason = module.stop_reason(state, unit, cell)
            if reason is not None:
                return reason
        return None

    return stop


def _formation(out: Outcome, side: str, command: cmd.SetFormation) -> None:
    state = out.state
    _require_action(state, side, "formation", "change formation")
    reaction.require_not_held(state, side)
    unit = own_unit(state, side, command.unit)
    for module in in_force(state.modules):  # a change of formation is movement too
        why = module.may_move(state, unit)
        if why:
            raise Refusal(why)
    wanted = command.formation.strip().lower()
    if wanted not in unit.formations:
        raise Refusal(f"{unit.name} can be in: {', '.join(unit.formations)}")
    if wanted == unit.formation:
        raise Refusal(f"{unit.name} is already in {wanted}")
    cost = formation_change_cost(unit)
    if unit.mp_left < cost:
        raise Refusal(f"{unit.name} has no MPs left to change formation")
    out.add(ev.FormationChanged(audience=ev.side_audience(side), unit=unit.id, formation=wanted,
                                mp=cost))
    _update_sighting(out)


def _done(out: Outcome, side: str) -> None:
    state = out.state
    if side not in state.acting_sides():
        if side in state.done:
            raise Refusal("you have already finished this phase")
        raise Refusal(f"nothing is waiting for you in the {state.current.title}")
    reaction.require_not_held(state, side)
    out.add(ev.SideDone(audience="public", side=side))
    if not out.state.acting_sides():
        _advance(out)


# -- the turn sequence ---------------------------------------------------------------------------
def _advance(out: Outcome) -> None:
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
        _begin_step(out, turn, nxt)
        if out.state.acting_sides():
            return


def _begin_step(out: Outcome, turn: int, step: int) -> None:
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


def _update_sighting(out: Outcome) -> None:
    for e in sighting_events(out.state):
        out.add(e)


# -- host tools ----------------------------------------------------------------------------------
def _host(out: Outcome, command: cmd.Command) -> None:
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
            for side in state.acting_sides():
                out.add(ev.SideDone(audience="public", side=side))
            _advance(out)
        case cmd.DeadlinePassed(turn=turn, step=step):
            if state.status != GameStatus.ACTIVE:
                raise Refusal("the game is not in play")
            if (turn, step) != (state.turn, state.step):
                raise Refusal("that phase is already over")
            deadline_passed(out)
            _advance(out)
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
                raise Refusal(f"{unit.name} can be in: {', '.join(unit.formations)}")
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
