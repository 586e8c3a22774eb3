"""New orders for a force on a surprise move (SM, "Voluntary Cancellation").

New orders are written in a Command Phase. They travel like any order, but their delay counts
the force's saved MPs on top of the distance to its headquarters (the article's example: 20 MPs
away with 12 saved is 32 MPs, four turns at 10 MPs a turn). From the turn they arrive they are
rolled for at the end of each Command Phase; until they are accepted the march goes on, and may
still be set off. Once they are accepted, the owner's choice, made when sending them, applies:
``execute`` the march as it stands at the start of the next movement phase (the force then
follows its new orders: it is released), or ``reverse`` it, taking a turn's allowance off the
saved MPs with each passed accumulation roll until none is left (a failed roll is a discovery,
carried out as a triggered march).

New orders on their way outlast the march being set off, discovered or triggered: they still
arrive and are rolled for. Accepted then, they no longer change the march (``superseded``): a
march set off goes as it must, one carried out is over and has nothing left to unwind, and the
force follows its new orders from then on (ruling SM-14).

The ranking leader's initiative may change the orders at once, with no delay (one try a Command
Phase). A surprise order not yet accepted is simply countermanded (ruling SM-14).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules.events import side_audience
from rules.refusal import Refusal
from rules.state import GameState
from rules.surprise import events as sev
from rules.surprise import force as frc
from rules.surprise import records as rec
from rules.surprise.commands import CancelSurpriseMove
from rules.surprise.orders import (
    acceptance_roll,
    initiative_roll,
    may_try_initiative,
    order_distance,
    require_command_phase,
)

if TYPE_CHECKING:
    from rules.outcome import Outcome


def find_march(state: GameState, side: str, name: str,
               statuses: frozenset[rec.MarchState] = rec.OPEN
               ) -> Mapping[str, Any]:
    """One of the side's marches by id or name; with no name, its only one."""
    mine = rec.side_marches(state, side, statuses)
    key = name.strip().lower()
    if not key:
        if len(mine) == 1:
            return mine[0]
        if not mine:
            raise Refusal("you have no surprise move under way")
        names = ", ".join(f"{rec.label(m)} ({m['name']})" for m in mine)
        raise Refusal(f"which surprise move? You have {len(mine)}: {names}")
    for m in mine:
        if key in (rec.label(m).lower(), str(m["id"]).lower(), str(m["name"]).lower()):
            return m
    starts = [m for m in mine if str(m["name"]).lower().startswith(key)]
    if len(starts) == 1:
        return starts[0]
    raise Refusal(f"you have no surprise move under way called {name.strip()[:60]!r}")


def cancel_refusal(state: GameState, side: str, march: str) -> Refusal | None:
    """Why the side may not send new orders to its march named ``march`` now (``None``: it
    may); whether its leader may still try his initiative is the order's own choice, not the
    march's."""
    try:
        _cancellable(state, side, march)
    except Refusal as why:
        return why
    return None


def _cancellable(state: GameState, side: str, march: str) -> Mapping[str, Any]:
    """The march, in the side's Command Phase, still waiting for its order or saving its MPs
    with no new orders on their way; refused otherwise."""
    require_command_phase(state, side)
    record = find_march(state, side, march)
    if record["status"] == rec.RUNNING:
        raise Refusal(f"surprise move {record['name']} is already marching")
    if record["status"] == rec.TRIGGERED:
        raise Refusal(f"surprise move {record['name']} has been triggered: it must march")
    if record["status"] == rec.REVERSING:
        raise Refusal(f"surprise move {record['name']} is already reversing")
    if record["status"] != rec.SENT and record["cancel"]:
        raise Refusal(f"new orders for {record['name']} are already on their way")
    return record


def decide_cancel(out: Outcome, side: str, command: CancelSurpriseMove) -> None:
    state = out.state
    record = _cancellable(state, side, command.march)
    march_id = str(record["id"])
    audience = side_audience(side)
    if record["status"] == rec.SENT:
        out.add(sev.OrderLost(audience=audience, march=march_id,
                              name=rec.name_of(out.state, march_id),
                              why="countermanded before it was accepted; the force never acted "
                                  "on it"))
        return
    if command.by_initiative:
        leader = frc.ranking_leader(state, record["units"])
        if leader is None or leader.cell is None:
            raise Refusal("the force has no leader to take the initiative")
        if not may_try_initiative(state, leader):
            raise Refusal(f"{leader.name} has already tried his initiative this Command Phase")
        out.add(sev.InitiativeTried(audience=audience, leader=leader.id, turn=state.turn))
        if not initiative_roll(out, side, leader,
                               f"{leader.name}'s initiative: new orders for {record['name']}"):
            out.add(sev.InitiativeFailed(audience=audience, leader=leader.id,
                                         what=f"change the orders of {record['name']}"))
            return
        out.add(sev.CancelSent(audience=audience, march=march_id,
                               name=rec.name_of(out.state, march_id), mode=command.mode,
                               arrives_turn=state.turn, distance_mp=0.0, by_initiative=True))
        accept_cancel(out, march_id)
        return
    saved = float(record["accumulated_mp"])
    _, mp, delay = order_distance(state, side, list(record["units"]), extra_mp=saved)
    out.add(sev.CancelSent(audience=audience, march=march_id,
                           name=rec.name_of(out.state, march_id), mode=command.mode,
                           arrives_turn=state.turn + delay, distance_mp=round(mp, 2)))


def superseded(record: Mapping[str, Any]) -> sev.Superseded:
    """Why new orders accepted now no longer change the march: it has been ``set off`` (by
    choice or triggered: it goes as it must) or is ``over``; empty while it still waits in
    place, its MPs saved."""
    status = rec.state_of(record)
    if status in (rec.TRIGGERED, rec.RUNNING) or (status == rec.ACCUMULATING
                                                  and record["execute_queued"]):
        return "set off"
    if status not in (rec.ACCUMULATING, rec.REVERSING):
        return "over"
    return ""


def accept_cancel(out: Outcome, march_id: str) -> None:
    record = rec.march(out.state, march_id)
    side = str(record["side"])
    mode = str(record["cancel"]["mode"])
    late = superseded(record)
    out.add(sev.CancelAccepted(audience=side_audience(side), march=march_id,
                               name=rec.name_of(out.state, march_id), mode=mode,
                               superseded=late))
    if not late and mode == "reverse" and float(record["accumulated_mp"]) <= 0:
        out.add(sev.MarchEnded(audience=side_audience(side), march=march_id,
                               name=rec.name_of(out.state, march_id),
                               outcome=rec.CANCELLED))


def cancel_acceptance(out: Outcome) -> None:
    """End of a Command Phase: arrived new orders are rolled for, whether or not the march has
    been set off meanwhile (ruling SM-14)."""
    for record in rec.marches(out.state):
        cancel = record.get("cancel")
        if not cancel or int(cancel["arrives_turn"]) > out.state.turn:
            continue
        march_id = str(record["id"])
        side = str(record["side"])
        result = acceptance_roll(out, side, list(record["units"]),
                                 f"new orders for {record['name']}")
        if result == "A":
            accept_cancel(out, march_id)
        elif result == "R":
            out.add(sev.CancelLost(audience=side_audience(side), march=march_id,
                                   name=rec.name_of(out.state, march_id),
                                   why="they are refused and lost" + (
                                       "" if superseded(record) else "; the march goes on")))
