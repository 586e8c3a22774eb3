"""The surprise-move order as a written order: sent, delayed on the way, accepted or not.

* The order comes from the side's army commander (ruling SM-6). It travels the cheapest path a
  leader could ride from him to the force's headquarters (its ranking leader, else its lead
  element), at the ruleset's ``order_delay_mp_per_turn``; the delay is that many MPs divided by
  the rate, rounded up, in whole turns. An order given in person (the army commander is with the
  force, or the side has none on the map) has no delay.
* From the turn it arrives, it is rolled for at the end of each Command Phase on the ruleset's
  ``order_acceptance`` table, in its ``move`` column, with the ranking leader's rating (ruling
  SM-7): A accepted, R refused (the order is lost), anything else delayed to the next Command
  Phase.
* Instead, the ranking leader may take it on by initiative (one try a Command Phase): the order
  is then accepted at once, with no delay and no acceptance roll.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from rules.events import side_audience
from rules.forces.units import Unit
from rules.forces.words import Formation, MovementClass
from rules.ground.grid import Cell
from rules.orders.hints import expand_for, read_route
from rules.refusal import Refusal
from rules.state import GameState
from rules.surprise import events as sev
from rules.surprise import force as frc
from rules.surprise import records as rec
from rules.surprise import rolls
from rules.surprise.commands import OrderSurpriseMove
from rules.surprise.march.column import lead_element
from rules.surprise.march.paths import mp_distance
from rules.turn.sequence import is_night

if TYPE_CHECKING:
    from rules.outcome import Outcome

ACCEPTANCE = "order_acceptance"
INITIATIVE = "initiative"
GOOD_RATING = 8
POOR_RATING = 3


def require_command_phase(state: GameState, side: str) -> None:
    step = state.current
    if not step.allows("order"):
        raise Refusal(f"orders are written in the Command Phase, not in the {step.title}")
    if side not in step.acting(state.sides):
        raise Refusal(f"it is not your {step.title}")
    if side in state.done:
        raise Refusal("you have already finished this phase")


# -- distance and delay --------------------------------------------------------------------------
def army_commander(state: GameState, side: str) -> Unit | None:
    """The leader of the side's army (its top command), if he is on the map."""
    tops = [c for c in state.commands.values() if c.side == side and not c.parent]
    tops.sort(key=lambda c: frc.RANK.get(c.echelon, 9))
    for c in tops:
        leader = state.units.get(c.leader)
        if leader is not None and leader.cell is not None:
            return leader
    return None


def headquarters(state: GameState, unit_ids: list[str]) -> Unit:
    """Where orders for the force are delivered: its ranking leader, else its first unit."""
    leader = frc.ranking_leader(state, unit_ids)
    if leader is not None and leader.cell is not None:
        return leader
    return frc.on_map(state, unit_ids)[0]


def courier_mp(state: GameState, origin: Cell, target: Cell) -> float:
    """Leader MPs from ``origin`` to ``target`` along the cheapest way (enemy units ignored:
    ruling SM-6); the hex distance when no way exists."""
    gm = state.loaded.map
    found = mp_distance(gm, origin, target, MovementClass.LEADER, Formation.MOUNTED)
    return float(gm.grid.distance(origin, target)) if found is None else found


def delay_turns(mp: float, rate: int) -> int:
    """Whole turns an order spends on the way (the article's 20 MP at 10 a turn: 2)."""
    if mp <= 0 or rate <= 0:
        return 0
    return math.ceil(mp / rate - 1e-9)


def order_distance(state: GameState, side: str, unit_ids: list[str], extra_mp: float = 0.0
                   ) -> tuple[str, float, int]:
    """The issuing commander's id ("" in person), the MPs the order travels (with ``extra_mp``
    on top, the force's saved MPs for a new order: SM, "Voluntary Cancellation") and the turns
    of delay."""
    hq = army_commander(state, side)
    target = headquarters(state, unit_ids)
    if hq is None or hq.id in unit_ids or hq.cell is None or target.cell is None:
        return "", 0.0, 0
    mp = courier_mp(state, hq.cell, target.cell) + extra_mp
    return hq.id, mp, delay_turns(mp, state.loaded.ruleset.order_delay_mp_per_turn)


# -- rolls ---------------------------------------------------------------------------------------
def rating_modifiers(state: GameState, leader: Unit | None, table_mods: dict[str, int]
                     ) -> dict[str, int]:
    mods: dict[str, int] = {}
    rating = leader.initiative if leader is not None else None
    if rating is not None and rating >= GOOD_RATING and "leader_rating_good" in table_mods:
        mods["leader_rating_good"] = table_mods["leader_rating_good"]
    if rating is not None and rating <= POOR_RATING and "leader_rating_poor" in table_mods:
        mods["leader_rating_poor"] = table_mods["leader_rating_poor"]
    if is_night(state.loaded.scenario, state.turn) and "night" in table_mods:
        mods["night"] = table_mods["night"]
    return mods


def acceptance_roll(out: Outcome, side: str, unit_ids: list[str], what: str) -> str:
    """Roll for an arrived order; returns ``"A"``, ``"R"`` or ``"D"``."""
    table = out.state.loaded.ruleset.tables[ACCEPTANCE]
    column = "move" if "move" in table.columns else table.columns[0]
    leader = frc.ranking_leader(out.state, unit_ids)
    mods = rating_modifiers(out.state, leader, dict(table.modifiers))
    _, result = out.roll(f"acceptance of {what}", table.dice, side_audience(side),
                         table=ACCEPTANCE, column=column, modifiers=mods)
    first = result.strip()[:1].upper()
    return first if first in ("A", "R") else "D"


def initiative_roll(out: Outcome, side: str, leader: Unit, purpose: str,
                    bonuses: dict[str, int] | None = None) -> bool:
    """The leader's initiative roll; ``bonuses`` (+ helps, - hurts) are turned towards or
    against success on the ruleset's table (ruling SM-5). Night is a penalty when the table
    names it."""
    table = out.state.loaded.ruleset.tables[INITIATIVE]
    column = rolls.band_column(table, leader.initiative or 0)
    success = _success_code(table.results, table.rows[0].results)
    mods: dict[str, int] = {}
    for name, bonus in (bonuses or {}).items():
        mods[name] = rolls.toward_success(table, column, success, bonus)
    if is_night(out.state.loaded.scenario, out.state.turn) and "night" in table.modifiers:
        mods["night"] = rolls.toward_success(table, column, success, -abs(table.modifiers["night"]))
    _, result = out.roll(purpose, table.dice, side_audience(side), table=INITIATIVE,
                         column=column, modifiers=mods)
    return result == success


def _success_code(results: dict[str, str], first_row: tuple[str, ...]) -> str:
    """The result that means "initiative taken": ``I`` on the stand-in table; else the result
    whose meaning speaks of taking initiative; else the first row's."""
    if "I" in results or not results:
        return "I"
    for code, meaning in results.items():
        if "taken" in meaning.lower() or "success" in meaning.lower():
            return code
    return first_row[0]


def may_try_initiative(state: GameState, leader: Unit) -> bool:
    tried = rec.data(state).get("initiative", {})
    return int(tried.get(leader.id, 0)) != state.turn


# -- the order -----------------------------------------------------------------------------------
def lead_and_path(state: GameState, side: str, units: list[Unit], route_text: str
                  ) -> tuple[Unit, list[Cell]]:
    """The lead element of ``side``'s force and the cells its route enters (see
    ``column.lead_element``). A road leg no road carries is refused with a hint that keeps
    clear of the enemy the side knows of, as a unit's is (ruling ORD-46)."""
    gm = state.loaded.map
    route = read_route(gm, route_text)
    lead = lead_element(state, [u.id for u in units], route)
    assert lead.cell is not None
    path = expand_for(state, side, route, lead.cell)
    if not path:
        raise Refusal(f"the route does not lead {lead.name} anywhere: give waypoints beyond "
                      f"{gm.board.describe(lead.cell)}")
    here = lead.cell
    for n, cell in enumerate(path, start=1):
        if not gm.board.on_a_sheet(cell):
            raise Refusal(f"step {n} of the route (from {gm.board.describe(here)}) leaves the map")
        if gm.step_cost(here, cell, MovementClass.FOOT, Formation.COLUMN) is None:
            raise Refusal(f"step {n} of the route ({gm.board.describe(here)} to "
                          f"{gm.board.describe(cell)}) cannot be marched")
        here = cell
    return lead, path


def decide_order(out: Outcome, side: str, command: OrderSurpriseMove) -> None:
    state = out.state
    require_command_phase(state, side)
    units, name = frc.resolve(state, side, command.force)
    name = command.name.strip() or name
    limit = state.loaded.ruleset.forced_march_max
    if command.forced > limit:
        raise Refusal(f"a forced march adds at most {limit} MPs a turn")
    lead_and_path(state, side, units, command.route)
    ids = [u.id for u in units]
    leader = frc.ranking_leader(state, ids)
    march_id, march_label = rec.next_id(state, side)
    record: dict[str, Any] = {
        "id": march_id, "label": march_label, "side": side, "name": name, "units": ids,
        "leader": leader.id if leader else "", "route": command.route.strip(),
        "forced": command.forced, "detour": command.detour, "status": rec.SENT,
        "ordered_turn": state.turn, "by_initiative": command.by_initiative,
        "accumulated_mp": 0.0, "attempts": 0, "execute_queued": False,
        "stragglers": {}, "shams": {}, "cancel": None, "run": None, "rest": False,
        "hq": "", "distance_mp": 0.0, "arrives_turn": state.turn,
    }
    if command.by_initiative:
        if leader is None:
            raise Refusal("the force has no leader to take the initiative")
        if not may_try_initiative(state, leader):
            raise Refusal(f"{leader.name} has already tried his initiative this Command Phase")
        out.add(sev.InitiativeTried(audience=side_audience(side), leader=leader.id,
                                    turn=state.turn))
        if not initiative_roll(out, side, leader,
                               f"{leader.name}'s initiative: surprise move {name}"):
            out.add(sev.InitiativeFailed(audience=side_audience(side), leader=leader.id,
                                         what=f"take on surprise move {name}"))
            return
        out.add(sev.MarchOrdered(audience=side_audience(side), march=march_id, record=record))
        out.add(sev.MarchAccepted(audience=side_audience(side), march=march_id,
                                  name=rec.name_of(out.state, march_id), turn=state.turn))
        return
    hq, mp, delay = order_distance(state, side, ids)
    record.update(hq=hq, distance_mp=round(mp, 2), arrives_turn=state.turn + delay)
    out.add(sev.MarchOrdered(audience=side_audience(side), march=march_id, record=record))


def accept_arrived_orders(out: Outcome) -> None:
    """At the end of the Command Phase, arrived surprise orders are rolled for acceptance (new
    orders that may cancel a march come next: ``cancellation.cancel_acceptance``)."""
    for m in rec.marches(out.state):
        if m["status"] != rec.SENT or int(m["arrives_turn"]) > out.state.turn:
            continue
        side = str(m["side"])
        result = acceptance_roll(out, side, list(m["units"]), f"surprise move {m['name']}")
        if result == "A":
            out.add(sev.MarchAccepted(audience=side_audience(side), march=str(m["id"]),
                                      name=rec.name_of(out.state, str(m["id"])),
                                      turn=out.state.turn))
        elif result == "R":
            out.add(sev.OrderLost(audience=side_audience(side), march=str(m["id"]),
                                  name=rec.name_of(out.state, str(m["id"])),
                                  why="the order is refused and lost; send it again"))
