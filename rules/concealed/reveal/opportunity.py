"""Opportunity fire and reaction charges by a revealed force (Cf 2.1, rulings CF-11, CF-28 to
CF-31).

A real force that an enemy unit finds may fire and charge from the instant it is placed, under
the series' normal rules: for the rest of the phase in which it was revealed, its units may fire
at, or charge, any enemy unit that moves within their reach, the very unit whose move found it
included. When the game option ``cf_opportunity_fire`` is on (the default) and the combat module
is in force, the owner is asked at once, in the reaction window (``rules.turn.reaction``),
whenever an enemy combat unit ends a change of place (a move, a march, an arrival, a retreat or
advance, a force deploying) where some unit of a force revealed in this phase could act against
it, or halts where it comes within that reach on its way (``rules.concealed.reveal.in_reach``):
``fire`` (every such unit that can fire at it does, together), ``charge`` (every such unit next
to it attacks it in close combat, and stays where it is whatever the result) or ``hold``, the
default. Each revealed unit reacts once in the phase, by fire or by charge.

The question holds the enemy's movement until it is answered or its time is up: the phase's end
(its deadline, when the host set one), unless the scenario gives a reaction time of its own
(``cf_reaction_seconds``). It is asked only when some revealed unit could act against the mover
by the combat module's own checks (``rules.combat.checks``): where the units stand, their kinds,
formations and morale, whether they have already fired or charged in the phase, and the ground
between; a model that shows every enemy counter (ruling CF-4) shows the mover's side all of it.
The fire and the charge are the combat module's own (``rules.combat.fire.resolve_fire``,
``rules.combat.close_combat.resolve_assault``) on the ruleset's normal tables, without their
phase check: the mover's side receives exactly what any other fire or close combat by those
units would give it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

from rules.combat.checks import aim_refusal, fighter_refusal
from rules.combat.close_combat import resolve_assault
from rules.combat.commands import Assault, Fire
from rules.combat.fire import resolve_fire
from rules.combat.ledger import used
from rules.combat.sides import Knowledge
from rules.concealed.records import MODULE, data
from rules.concealed.spec import OPPORTUNITY_OPTION, REACTION_SECONDS_OPTION, SPEC
from rules.forces.units import Unit
from rules.ground.grid import Cell
from rules.modules.registry import in_force
from rules.refusal import Refusal
from rules.state import GameState
from rules.turn import reaction

if TYPE_CHECKING:
    from rules.outcome import Outcome
    from rules.turn.reaction import Question

FIRE = "fire"
CHARGE = "charge"
HOLD = "hold"
#: The combat module's name, as a scenario lists it.
COMBAT = "combat"
#: Fire and close combat orders name at most this many units.
MOST_UNITS = 8
#: Joins the markers a question's topic names.
JOIN = "+"


def _option(state: GameState, key: str) -> Any:
    return SPEC.option(state.loaded.scenario.scenario.options, key)


def enabled(state: GameState) -> bool:
    """Whether revealed forces react: the option is on and the combat module is in force."""
    value = _option(state, OPPORTUNITY_OPTION)
    on = value if isinstance(value, bool) else str(value).strip().lower() in (
        "1", "yes", "on", "true")
    return on and any(m.name == COMBAT for m in in_force(state.modules))


def reaction_seconds(state: GameState) -> int | None:
    """How long the owner has to answer: the scenario's ``cf_reaction_seconds`` when it sets
    one, else ``None``, until the phase ends (its deadline, when the game has one)."""
    seconds = int(_option(state, REACTION_SECONDS_OPTION))
    return seconds if seconds > 0 else None


# -- who may react -------------------------------------------------------------------------------
def revealed_this_phase(state: GameState) -> list[str]:
    """The markers whose real forces were revealed in the current phase, in the order they were
    revealed."""
    now = [state.turn, state.step]
    return [mid for mid, when in data(state).get("revealed_in", {}).items()
            if list(when) == now]


def deployed(state: GameState, marker_id: str) -> list[Unit]:
    """The units that deployed from the marker, as they stand now."""
    ids: list[str] = data(state).get("deployed", {}).get(marker_id, [])
    return [state.units[u] for u in ids if u in state.units]


def _reacted(state: GameState, unit: Unit) -> bool:
    """Whether the unit has already fired or charged in this phase: a revealed unit reacts once
    (ruling CF-29)."""
    return used(state, FIRE, unit.id) or used(state, "assault", unit.id)


def _able(state: GameState, unit: Unit, action: str, target: Unit, cell: Cell | None) -> bool:
    """Whether ``unit`` may ``action`` ("fire" or "assault") at ``target`` standing in
    ``cell``, by the checks the fire and assault orders make, and has not reacted yet in this
    phase."""
    if cell is None or unit.strength <= 0 or _reacted(state, unit):
        return False
    if fighter_refusal(state, unit, action) is not None:
        return False
    return aim_refusal(state, unit, action, cell, target.name) is None


def _fire_tables(state: GameState) -> bool:
    ruleset = state.loaded.ruleset
    return "fire" in ruleset.tables and bool(ruleset.combat.fire_results)


def _charge_tables(state: GameState) -> bool:
    ruleset = state.loaded.ruleset
    table = ruleset.tables.get("close_combat")
    return table is not None and table.kind != "plain" and bool(
        ruleset.combat.close_combat_results)


def firers(state: GameState, units: Iterable[Unit], target: Unit) -> list[Unit]:
    """The units that can fire at ``target`` now: the fire order would accept each of them
    (``fighter_refusal``, ``aim_refusal``), and none has reacted yet in this phase."""
    if not _fire_tables(state):
        return []
    return [u for u in units if _able(state, u, "fire", target, target.cell)]


def chargers(state: GameState, units: Iterable[Unit], target: Unit) -> list[Unit]:
    """The units that can charge ``target`` now: the assault order would accept each of them,
    and none has reacted yet in this phase."""
    if not _charge_tables(state):
        return []
    return [u for u in units if _able(state, u, "assault", target, target.cell)]


def reactions(state: GameState, unit: Unit, target: Unit, cell: Cell | None) -> frozenset[str]:
    """How ``unit`` could react to ``target`` were it standing in ``cell``: ``FIRE``,
    ``CHARGE``, both or neither; any of them would draw a question there."""
    ways = set()
    if _fire_tables(state) and _able(state, unit, "fire", target, cell):
        ways.add(FIRE)
    if _charge_tables(state) and _able(state, unit, "assault", target, cell):
        ways.add(CHARGE)
    return frozenset(ways)


def called(state: GameState, side: str, unit: Unit) -> str:
    """``unit`` as ``side`` names it: by name where it sees it identified."""
    return Knowledge(state, side).name(unit)


def reactors(state: GameState, mover: Unit) -> list[Unit]:
    """The units of every force revealed in this phase on a side other than ``mover``'s: those
    that may react to its movement (``[]`` when reactions are off)."""
    markers = revealed_this_phase(state)
    if not markers or not mover.combat or not enabled(state):
        return []
    return [u for mid in markers for u in deployed(state, mid) if u.side != mover.side]


# -- asking ----------------------------------------------------------------------------------------
def offer(out: Outcome, marker_id: str, finder_id: str) -> None:
    """The force under ``marker_id`` has just deployed, found by ``finder_id``: ask its owner
    whether its units, and those of any force of his revealed earlier in the phase, fire at the
    finder or charge it."""
    state = out.state
    finder = state.units.get(finder_id)
    units = deployed(state, marker_id)
    if finder is None or not units:
        return

    def opening() -> str:
        where = state.loaded.board.describe(finder.cell) if finder.cell is not None else ""
        return (f"Marker {marker_id}'s force is revealed by the enemy unit at {where}, and may "
                "react at once")

    _ask(out, units[0].side, finder, opening)


def offer_movers(out: Outcome, moved: Iterable[str]) -> None:
    """Enemy units have just changed place: for each one that ended within reach of a force
    revealed in this phase, ask that force's owner whether it fires or charges (ruling CF-28)."""
    state = out.state
    markers = revealed_this_phase(state)
    if not markers or not enabled(state):
        return
    sides = {u.side for mid in markers for u in deployed(state, mid)}
    for uid in moved:
        mover = state.units.get(uid)
        if mover is None or mover.cell is None:
            continue
        for side in sorted(sides - {mover.side}):
            _ask(out, side, mover, partial(_moved, state, side, mover))


def _moved(state: GameState, side: str, mover: Unit) -> str:
    """How a later mover's question opens: the unit as the asked side names it, and where."""
    who = called(state, side, mover)
    where = state.loaded.board.describe(mover.cell) if mover.cell is not None else ""
    return (f"{who[:1].upper()}{who[1:]} moved to {where}, within reach of your troops revealed "
            "in this phase, which may react at once")


def _ask(out: Outcome, side: str, target: Unit, opening: Callable[[], str]) -> None:
    """Ask ``side`` whether its units revealed in this phase fire at or charge ``target``, if
    any of them could and no question about ``target`` is open already. ``opening``: the
    question's first words, worked out only when it is asked."""
    state = out.state
    if target.cell is None or not target.combat or not enabled(state):
        return
    if any(q.topic.rpartition(":")[2] == target.id
           for q in reaction.open_questions(state, side=side, module=MODULE)):
        return
    markers = [mid for mid in revealed_this_phase(state)
               if any(u.side == side for u in deployed(state, mid))]
    units = [u for mid in markers for u in deployed(state, mid)]
    can_fire = firers(state, units, target)
    can_charge = chargers(state, units, target)
    choices = ((FIRE,) if can_fire else ()) + ((CHARGE,) if can_charge else ())
    if not choices:
        return
    offered = []
    if can_fire:
        offered.append(f"fire ({', '.join(u.name for u in can_fire[:MOST_UNITS])})")
    if can_charge:
        offered.append(f"charge ({', '.join(u.name for u in can_charge[:MOST_UNITS])})")
    prompt = (f"{opening()}: {' or '.join(offered)}, or hold (/conceal react). The enemy's "
              "movement waits.")
    acting = {u.id for u in (*can_fire, *can_charge)}
    topic = JOIN.join(mid for mid in markers
                      if any(u.id in acting for u in deployed(state, mid)))
    reaction.ask(out, MODULE, side, f"{topic}:{target.id}", (*choices, HOLD), HOLD, prompt,
                 seconds=reaction_seconds(state), holds=True)


# -- the answer ------------------------------------------------------------------------------------
def on_answer(out: Outcome, question: Question, choice: str, by_default: bool) -> None:
    """The owner's answer: the fire or the charge is made now (a default holds)."""
    if by_default or choice == HOLD:
        return
    markers, _, target_id = question.topic.rpartition(":")
    state = out.state
    target = state.units.get(target_id)
    if target is None or target.cell is None:
        raise Refusal("the enemy unit is no longer there: answer hold")
    units = [u for mid in markers.split(JOIN) for u in deployed(state, mid)]
    acting = (firers if choice == FIRE else chargers)(state, units, target)
    if not acting:
        verb = "fire at" if choice == FIRE else "charge"
        raise Refusal(f"none of your revealed units can {verb} that enemy unit now: "
                      "answer hold")
    names = tuple(u.id for u in acting[:MOST_UNITS])
    know = Knowledge(state, question.side)
    # How the side names the target: by name when it sees it identified, else by its hex
    # (``rules.combat.sides.resolve_target`` reads the side's own view).
    aim = target.name if target.id in know.identified else state.loaded.board.label(target.cell)
    if choice == FIRE:
        resolve_fire(out, question.side, Fire(units=names, target=aim))
    else:
        resolve_assault(out, question.side, Assault(units=names, target=aim, advance=False))
