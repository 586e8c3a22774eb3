"""Standing orders: what a unit (or a leader's whole command) does in the later phases of a turn
when its player has said they are done for the turn, and when a player is asked again.

A standing order is given to one of the side's own units, or to a leader for every unit of his
command (a unit's own order comes first). It is carried out by the umpire as the ordinary command
it becomes, decided by the same engine, so the same rules refuse it; one the rules refuse is
simply not given (ruling FLOW-72):

- ``hold``: nothing; the unit stays where it is.
- ``fire``: in the side's Fire Phase, fire at the nearest enemy counter the side now sees within
  the unit's reach and on a clear line (an identified unit by name, any other by its hex).
- ``rally``: in the side's Movement Phase, rally the unit if it is shaken.
- ``march``: in the side's Movement Phase, go on along the route given with the order (or, set
  without one, the route of the unit's last move), from where the unit stands, as far as the
  MPs allow (a move's route is cut at the last cell it can pay for); a unit at the route's end
  is given no move (``rules.orders.march_on``, ruling FLOW-76).

Which phases an order acts in, the command it becomes, and what asks a player again are read
from the side's own view and units only (``rules.view.project``): no hidden enemy decides them
(rulings FLOW-71, FLOW-73).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from rules import commands as cmd
from rules import events as ev
from rules.forces.chain_of_command import force
from rules.forces.units import Unit
from rules.knowledge.levels import GHOST, IDENTIFIED, OWN
from rules.orders.march_on import route_ahead
from rules.sighting.height import clear_line
from rules.state import GameState
from rules.turn.idle import side_options
from rules.turn.sequence import Step
from rules.view import SideView


class StandingOrder(StrEnum):
    """An order that stands until the player changes it."""

    HOLD = "hold"
    FIRE = "fire"
    RALLY = "rally"
    MARCH = "march"

    @property
    def words(self) -> str:
        """The order as players read it."""
        return _WORDS[self]

    @property
    def action(self) -> str:
        """The ruleset's action of the phases it acts in (``Step.allows``)."""
        return _ACTION[self]


_WORDS = {
    StandingOrder.HOLD: "hold",
    StandingOrder.FIRE: "fire at the nearest enemy in range",
    StandingOrder.RALLY: "rally if shaken",
    StandingOrder.MARCH: "continue the march",
}
_ACTION = {
    StandingOrder.HOLD: "move",
    StandingOrder.FIRE: "fire",
    StandingOrder.RALLY: "rally",
    StandingOrder.MARCH: "move",
}

#: The morale state a ``rally`` order answers.
SHAKEN = "shaken"


@dataclass(frozen=True, slots=True)
class Standing:
    """One standing order as stored: the unit or leader it is given to, the order, and for
    ``march`` its route."""

    unit: str
    order: StandingOrder
    route: str = ""


def orders_by_unit(state: GameState, side: str, given: Iterable[Standing]
                   ) -> dict[str, Standing]:
    """Each of the side's units on the map with the standing order it follows: its own, else
    that of the nearest leader above it who was given one. A leader's order covers the
    commands beneath his."""
    given = list(given)
    own = {s.unit: s for s in given}
    out: dict[str, Standing] = {}
    # Leaders' orders first, the higher echelons first, so that a lower one overrides them.
    leaders = [(s, state.units[s.unit]) for s in given
               if s.unit in state.units and state.units[s.unit].side == side
               and state.units[s.unit].is_leader]
    for standing, leader in sorted(leaders, key=lambda p: len(_above(state, p[1].command))):
        for unit in force(state, leader.command):
            if unit.side == side:
                out[unit.id] = standing
    for uid, standing in own.items():
        found = state.units.get(uid)
        if found is not None and found.side == side and not found.is_leader:
            out[uid] = standing
    return out


def _above(state: GameState, command: str) -> list[str]:
    """The commands above ``command``, nearest first."""
    chain: list[str] = []
    seen = {command}
    parent = state.commands[command].parent if command in state.commands else None
    while parent and parent not in seen:
        chain.append(parent)
        seen.add(parent)
        parent = state.commands[parent].parent if parent in state.commands else None
    return chain


def commands_now(state: GameState, side: str, view: SideView,
                 orders: Mapping[str, Standing]) -> list[cmd.Command]:
    """The commands the side's standing orders give in the current step, in the order of the
    side's units (ruling FLOW-72). Module commands (fire, rally) are given only when a rule
    module in force knows them."""
    step = state.current
    out: list[cmd.Command] = []
    for mine in view.own_units():
        standing = orders.get(mine.ref)
        unit = state.units.get(mine.ref)
        if standing is None or unit is None or unit.cell is None:
            continue
        command = _command(state, view, step, unit, standing)
        if command is not None:
            out.append(command)
    return out


def _command(state: GameState, view: SideView, step: Step, unit: Unit,
             standing: Standing) -> cmd.Command | None:
    order = standing.order
    if not step.allows(order.action) or order is StandingOrder.HOLD:
        return None
    kinds = cmd.COMMAND_TYPES
    if order is StandingOrder.MARCH:
        here = unit.cell
        ahead = route_ahead(state.loaded.map, standing.route, here) \
            if here is not None and standing.route else ""
        return cmd.Move(unit=unit.id, route=ahead) if ahead else None
    if order is StandingOrder.RALLY:
        return (kinds["rally"].model_validate({"unit": unit.id})
                if "rally" in kinds and unit.morale == SHAKEN else None)
    if "fire" not in kinds:
        return None
    target = nearest_target(state, view, unit)
    return None if target is None else kinds["fire"].model_validate(
        {"units": (unit.id,), "target": target})


def nearest_target(state: GameState, view: SideView, unit: Unit) -> str | None:
    """The nearest enemy counter the side sees now (no memory of one) within the unit's reach
    on a clear line: an identified unit by name, any other by its hex's label."""
    if unit.cell is None:
        return None
    gm = state.loaded.map
    reach = state.loaded.ruleset.combat.reach(unit.kind)
    here = unit.cell
    found: list[tuple[int, str]] = []
    for enemy in view.units:
        if enemy.level in (OWN, GHOST):
            continue
        distance = gm.grid.distance(here, enemy.cell)
        if distance > reach or not clear_line(gm, gm.idx(here), gm.idx(enemy.cell)):
            continue
        name = enemy.name if enemy.level == IDENTIFIED and enemy.name else \
            view.board.label(enemy.cell)
        found.append((distance, name))
    return min(found)[1] if found else None


# -- when a player is asked again ----------------------------------------------------------------
def asks_again(side: str, event: ev.Event) -> str:
    """Why ``event`` gives ``side`` something new to decide ("" if it does not), read only from
    what the side is told, and only of what the enemy knows it did (ruling FLOW-71): one of the
    side's units fired on or assaulted, a question put to it (a rule module's event says so
    itself: ``GameEvent.asks_again``). An enemy newly seen does not ask again: a phase the side
    plays alone would then end at once only when its troops had seen nothing new, and the
    enemy, watching it end, would learn what they saw (ruling FLOW-75)."""
    if isinstance(event, ev.GameEvent) and event.audience == ev.side_audience(side):
        return event.asks_again()
    return ""


# -- a Command Phase that passes by itself -----------------------------------------------------
def passes_on_standing_orders(state: GameState, side: str) -> bool:
    """Whether the current step may pass by itself for ``side`` once its players have set
    standing orders (ruling FLOW-74): a step every side plays at once whose only action is
    giving orders (the Command Phase), in which nothing the side can do is about something it
    has under way (a march, an order on its way, a detachment). Read from the side's own
    offers, which read only its view (ruling FLOW-11)."""
    step = state.current
    if step.side is not None or step.actions != frozenset({"order"}):
        return False
    if side not in step.acting(state.sides) or side in state.done:
        return False
    return not any(offer.under_way for offer in side_options(state, side).offers)
