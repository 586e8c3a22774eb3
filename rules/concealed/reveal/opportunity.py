"""Opportunity fire and reaction charges by a revealed force (Cf 2.1, ruling CF-11).

A real force that an enemy unit finds may fire and charge from the instant it is placed, even
at the very unit whose move found it. When the game option ``cf_opportunity_fire`` is on (the
default) and the combat module is in force, the owner is asked at once, in the reaction window
(``rules.turn.reaction``): ``fire`` (every deployed unit that can fire at the finder does,
together),
``charge`` (every deployed unit next to it attacks it in close combat, and stays where it is
whatever the result) or ``hold``, the default. The question holds the enemy's movement until it
is answered or its deadline passes (``cf_reaction_seconds``, at least one second: the finder's
side cannot end its phase while it waits).

The question is asked only when some deployed unit could act against the finder by what the
finder's side itself sees once the units are placed: where they stand, their kinds,
formations and morale, and the ground between. The fire and the charge are the combat
module's own (``rules.combat.fire.resolve_fire``, ``rules.combat.close_combat.resolve_assault``)
on the ruleset's normal tables, without their phase check: the finder's side receives exactly
what any other fire or close combat by those units would give it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
from rules.sighting.height import clear_line
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


def _option(state: GameState, key: str) -> Any:
    return SPEC.option(state.loaded.scenario.scenario.options, key)


def enabled(state: GameState) -> bool:
    """Whether revealed forces react: the option is on and the combat module is in force."""
    value = _option(state, OPPORTUNITY_OPTION)
    on = value if isinstance(value, bool) else str(value).strip().lower() in (
        "1", "yes", "on", "true")
    return on and any(m.name == COMBAT for m in in_force(state.modules))


def firers(state: GameState, units: list[Unit], target: Unit) -> list[Unit]:
    """The units that can fire at ``target`` now: on the map, combat units, in a formation and
    a morale state that fire, not yet fired this step, within range and with a clear line."""
    ruleset = state.loaded.ruleset
    rules = ruleset.combat
    if "fire" not in ruleset.tables or not rules.fire_results or target.cell is None:
        return []
    gm = state.loaded.map
    out = []
    for u in units:
        if not _may_act(state, u, "fire") or u.cell is None:
            continue
        if u.formation not in rules.fire_formations.get(u.kind, ()):
            continue
        if rules.band_at(u.kind, gm.grid.distance(u.cell, target.cell)) is None:
            continue
        if clear_line(gm, gm.idx(u.cell), gm.idx(target.cell)):
            out.append(u)
    return out


def chargers(state: GameState, units: list[Unit], target: Unit) -> list[Unit]:
    """The units that can charge ``target`` now: combat units next to it whose morale lets
    them assault, not yet assaulted this step, with no impassable hexside between."""
    ruleset = state.loaded.ruleset
    table = ruleset.tables.get("close_combat")
    if (table is None or table.kind == "plain" or not ruleset.combat.close_combat_results
            or target.cell is None):
        return []
    gm = state.loaded.map
    out = []
    for u in units:
        if not _may_act(state, u, "assault") or u.cell is None:
            continue
        if not gm.grid.adjacent(u.cell, target.cell):
            continue
        between = gm.hexside_between(u.cell, target.cell)
        if between is not None and ruleset.hexsides[between].impassable:
            continue
        out.append(u)
    return out


def _may_act(state: GameState, unit: Unit, action: str) -> bool:
    if unit.cell is None or not unit.combat or unit.strength <= 0:
        return False
    morale = state.loaded.ruleset.combat.state(unit.morale)
    if not (morale.may_fire if action == "fire" else morale.may_assault):
        return False
    if used(state, action, unit.id):
        return False
    return not any(m.may_fight(state, unit, action) for m in in_force(state.modules))


def offer(out: Outcome, marker_id: str, finder_id: str) -> None:
    """The force under ``marker_id`` has just deployed, found by ``finder_id``: ask its owner
    whether it fires or charges, if the option allows and any of its units could."""
    state = out.state
    finder = state.units.get(finder_id)
    if finder is None or finder.cell is None or not finder.combat or not enabled(state):
        return
    units = _deployed(state, marker_id)
    if not units:
        return
    side = units[0].side
    can_fire = firers(state, units, finder)
    can_charge = chargers(state, units, finder)
    choices = ((FIRE,) if can_fire else ()) + ((CHARGE,) if can_charge else ())
    if not choices:
        return
    where = state.loaded.board.describe(finder.cell)
    offered = []
    if can_fire:
        offered.append(f"fire ({', '.join(u.name for u in can_fire[:MOST_UNITS])})")
    if can_charge:
        offered.append(f"charge ({', '.join(u.name for u in can_charge[:MOST_UNITS])})")
    prompt = (f"Marker {marker_id}'s force is revealed by the enemy unit at {where}, and may "
              f"react at once: {' or '.join(offered)}, or hold (/conceal react). The enemy's "
              "movement waits.")
    seconds = int(_option(state, REACTION_SECONDS_OPTION))
    reaction.ask(out, MODULE, side, f"{marker_id}:{finder_id}", (*choices, HOLD), HOLD,
                 prompt, seconds=max(1, seconds), holds=True)


def on_answer(out: Outcome, question: Question, choice: str, by_default: bool) -> None:
    """The owner's answer: the fire or the charge is made now (a default holds)."""
    if by_default or choice == HOLD:
        return
    marker_id, _, finder_id = question.topic.partition(":")
    state = out.state
    finder = state.units.get(finder_id)
    if finder is None or finder.cell is None:
        raise Refusal("the enemy unit that found the force is no longer there: answer hold")
    units = _deployed(state, marker_id)
    acting = (firers if choice == FIRE else chargers)(state, units, finder)
    if not acting:
        verb = "fire at" if choice == FIRE else "charge"
        raise Refusal(f"none of marker {marker_id}'s units can {verb} that enemy unit now: "
                      "answer hold")
    names = tuple(u.id for u in acting[:MOST_UNITS])
    target = _target_name(state, question.side, finder.cell, finder)
    if choice == FIRE:
        resolve_fire(out, question.side, Fire(units=names, target=target))
    else:
        resolve_assault(out, question.side, Assault(units=names, target=target, advance=False))


def _target_name(state: GameState, side: str, cell: Cell, finder: Unit) -> str:
    """How the owner's side names the finder: by name when it sees it identified, else by its
    hex (``rules.combat.sides.resolve_target`` reads the side's own view)."""
    know = Knowledge(state, side)
    return finder.name if finder.id in know.identified else state.loaded.board.label(cell)


def _deployed(state: GameState, marker_id: str) -> list[Unit]:
    """The units that deployed from the marker, as they stand now."""
    ids: list[str] = data(state).get("deployed", {}).get(marker_id, [])
    return [state.units[u] for u in ids if u in state.units]
