"""Creating a concealed force (Cf 1.3).

At the start of his movement phase a player may put a concealment marker on a divisional
commander: the commander and every unit of his division leave the map for the marker, provided
all of them are in command and out of the enemy's line of sight. Units directly under the
division's corps (its artillery, the corps commander and HQ) may go under the same marker if
they are within the divisional commander's command range and out of sight. A cavalry brigade
that is independent, or detached from its division, may conceal alone. A unit detached from its
division (on a brigade goal) stays on the map and does not hold the rest back (ruling CF-3).

The marker stands where the commander stood. It may not stand within two hexes of an enemy unit
or marker, nor with a friendly unit that stays on the map or another marker (Cf 1.4). A force on
another module's order that holds it (an accepted surprise move) may not conceal (ruling CF-17).
Every check reads what the side sees: Concealed Forces is played under a model that shows every
enemy counter on the map (ruling CF-4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import events as ev
from rules.concealed import events as cev
from rules.concealed.commands import ConcealForce
from rules.concealed.pool import is_independent_cavalry
from rules.concealed.records import MODULE, ForceKind, is_detached
from rules.concealed.reveal.spacing import KEEP_AWAY, nearest_enemy, seen_by_enemy
from rules.concealed.timing import require_phase_start
from rules.forces.chain_of_command import command_range, in_command
from rules.forces.lookup import own_unit, own_unit_list
from rules.forces.units import Unit
from rules.forces.words import STACKING_KINDS, Echelon, UnitKind
from rules.ground.grid import Cell
from rules.modules.registry import in_force
from rules.orders.positions import positions_changed
from rules.refusal import Refusal
from rules.state import GameState

if TYPE_CHECKING:
    from rules.outcome import Outcome


def decide_conceal(out: Outcome, side: str, command: ConcealForce) -> None:
    state = out.state
    require_phase_start(state, side, "conceal a force")  # before the name is read
    # A leader is asked for: "Colston" is the general before his namesake brigade (ORD-52).
    leader = own_unit(state, side, command.leader, wanted=lambda u: u.is_leader)
    found = conceal_check(state, side, leader, command.join)
    if isinstance(found, Refusal):
        raise found
    kind, members, name = found
    where = leader.cell
    assert where is not None  # conceal_check refuses a leader off the map
    going = {u.id for u in members}
    marker = out.new_marker_id(side)
    out.add(ev.MarkerPlaced(audience="public", marker=marker, side=side,
                            cell=(where.col, where.row)))
    out.add(cev.ForceConcealed(audience=ev.side_audience(side), marker=marker, kind=kind,
                               commander=leader.id if kind is ForceKind.DIVISION else "",
                               units=tuple(sorted(going)), name=name))
    positions_changed(out, tuple(sorted(going)))


def conceal_refusal(state: GameState, side: str, leader: Unit, join: tuple[str, ...] = (),
                    *, sight: bool = True) -> Refusal | None:
    """Why ``leader`` may not conceal now with ``join`` (``None``: it may). With ``sight``
    off, whether the enemy sees the force is left out: the side's offers are read without it,
    since the side cannot know it for sure (ruling FLOW-12); the order itself checks it."""
    found = conceal_check(state, side, leader, join, sight=sight)
    return found if isinstance(found, Refusal) else None


def conceal_check(state: GameState, side: str, leader: Unit, join: tuple[str, ...] = (),
                  *, sight: bool = True) -> tuple[ForceKind, list[Unit], str] | Refusal:
    """What would go under the marker if ``leader`` concealed now with ``join``: the kind of
    force, its units (the leader first) and its name; or the refusal, with its reason. The one
    reading of a concealment that both the order and the side's offers use."""
    try:
        require_phase_start(state, side, "conceal a force")
        if leader.cell is None:
            raise Refusal(f"{leader.name} is not on the map")
        kind, members, name = _force(state, side, leader, join, sight)
        for unit in members:
            _require_free(state, unit)
        _require_room(state, side, leader.cell, {u.id for u in members})
    except Refusal as why:
        return why
    return kind, members, name


def _require_room(state: GameState, side: str, where: Cell, going: set[str]) -> None:
    """The marker may stand where the leader is: far enough from the enemy (every enemy
    counter shows under this module: ruling CF-4), with no unit of the side staying there and
    no other of its markers."""
    board = state.loaded.board
    enemy = nearest_enemy(state, side, where)
    if enemy is not None and enemy[1] < KEEP_AWAY:
        raise Refusal(f"a concealed force must stand at least {KEEP_AWAY} hexes from the "
                      f"enemy: {board.describe(enemy[0])} is {enemy[1]} away")
    staying = [u for u in state.units_of(side) if u.cell == where and u.id not in going
               and u.kind in STACKING_KINDS]
    if staying:
        raise Refusal(f"{staying[0].name} would stay in {board.describe(where)}: a concealed "
                      "force stacks with no other unit but leaders and HQs")
    if any(m.side == side and m.cell == where for m in state.markers.values()):
        raise Refusal(f"another of your markers stands in {board.describe(where)}")


def may_lead(state: GameState, leader: Unit) -> bool:
    """Whether a concealment marker may go on the unit at all: a lone cavalry brigade
    (independent, or detached from its division) or a divisional commander. The first question
    the order asks (``conceal_check``), and what the side's offers sort its units by."""
    if leader.kind is UnitKind.CAVALRY:
        return is_independent_cavalry(leader) or is_detached(state, leader.id)
    division = state.commands.get(leader.command)
    return (division is not None and division.echelon is Echelon.DIVISION
            and division.leader == leader.id)


def _force(state: GameState, side: str, leader: Unit, join: tuple[str, ...], sight: bool
           ) -> tuple[ForceKind, list[Unit], str]:
    """What goes under the marker: the kind of force, its units (the leader first) and its
    name; refused with the reason when it may not conceal."""
    division = state.commands.get(leader.command)
    if leader.kind is UnitKind.CAVALRY:
        if join:
            raise Refusal("a lone cavalry brigade conceals by itself: no unit may join it")
        if not may_lead(state, leader):
            raise Refusal(f"{leader.name} is part of its division: only an independent "
                          "cavalry brigade, or one detached from its division, conceals alone")
        _require_unseen(state, side, leader, sight)
        return ForceKind.CAVALRY, [leader], leader.name
    if division is None or not may_lead(state, leader):
        raise Refusal(f"{leader.name} is not a divisional commander: a concealment marker goes "
                      "on a divisional commander or a lone cavalry brigade")
    members = [leader]
    _require_unseen(state, side, leader, sight)
    for unit in sorted(state.units_of(side), key=lambda u: u.id):
        if unit.command != division.id or unit.id == leader.id or unit.cell is None:
            continue
        if is_detached(state, unit.id):
            continue
        if not in_command(state, unit):
            raise Refusal(f"{unit.name} is out of command: the whole division must be in "
                          f"command to conceal (or detach it with /conceal detach, an order "
                          "of your Command Phase)")
        _require_unseen(state, side, unit, sight)
        members.append(unit)
    reach = command_range(state, leader, division.echelon)
    grid = state.loaded.map.grid
    assert leader.cell is not None
    for ref in own_unit_list(state, side, join) if join else ():  # names hold commas (ORD-10)
        unit = own_unit(state, side, ref)
        if unit in members:
            continue
        if unit.command != division.parent or not division.parent:
            raise Refusal(f"{unit.name} is not directly under the division's corps")
        if unit.cell is None:
            raise Refusal(f"{unit.name} is not on the map")
        if grid.distance(leader.cell, unit.cell) > reach:
            raise Refusal(f"{unit.name} is beyond {leader.name}'s command range ({reach} hexes)")
        _require_unseen(state, side, unit, sight)
        members.append(unit)
    return ForceKind.DIVISION, members, division.name


def _require_unseen(state: GameState, side: str, unit: Unit, sight: bool) -> None:
    if sight and seen_by_enemy(state, side, unit):
        raise Refusal(f"{unit.name} is in the enemy's line of sight: only units out of sight "
                      "may conceal")


def _require_free(state: GameState, unit: Unit) -> None:
    """No other module's order holds the unit (an accepted surprise move, say)."""
    for module in in_force(state.modules):
        if module.name == MODULE:
            continue
        why = module.may_move(state, unit)
        if why:
            raise Refusal(f"{unit.name} cannot conceal: {why}")
