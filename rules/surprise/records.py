"""The march records the Surprise Move module keeps, and how to read them from a state.

Everything lives in ``module_data["surprise_move"]`` as JSON-ready data::

    {"next": 3, "marches": {"union:m1": {...}, "confederate:m1": {...}},
     "initiative": {"jackson": 4}}

A march is numbered among its own side's marches only: a side's n-th march is its ``m<n>``
(``label``), whatever the enemy has ordered, so that no number a side sees counts the enemy's
secret orders. The key it is kept and named by in events is ``<side>:m<n>`` (games recorded
before per-side numbering keep their shared keys ``m<n>``, which are then also their labels).
``next`` only orders all marches (``seq``), for the umpire; no side ever sees it.

A march record holds the order (force, route, forced-march MPs, detour policy), where the order
stands (``status``), the MPs it has accumulated, the secret straggler roster, sham results shown
to the enemy, a new order that may cancel it, and, while the column is marching, its ``run``.
Only the module's own events change it (``rules.surprise.module.SurpriseMove.apply``).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from rules.ground.grid import Cell
from rules.modules.data import with_module_data

if TYPE_CHECKING:
    from rules.state import GameState

MODULE = "surprise_move"

class MarchState(StrEnum):
    """Where a march's order stands (a record's ``status``)."""

    #: The order is on its way to the force, or waiting for acceptance.
    SENT = "sent"
    #: Accepted: the force stays put and saves MPs, rolling each movement phase.
    ACCUMULATING = "accumulating"
    #: The enemy triggered it: half the MPs are spent at the start of the owner's next
    #: movement phase.
    TRIGGERED = "triggered"
    #: A new order was accepted and the owner chose to unwind the saved MPs.
    REVERSING = "reversing"
    #: The column is marching (possibly waiting for the owner's detour choice).
    RUNNING = "running"
    #: Finished: carried out.
    EXECUTED = "executed"
    #: Finished: called off by a new order.
    CANCELLED = "cancelled"
    #: Finished: the order never arrived or was refused.
    LOST = "lost"
    #: Finished: cancelled by a collision with another surprise move.
    COLLIDED = "collided"


SENT, ACCUMULATING, TRIGGERED, REVERSING, RUNNING = (
    MarchState.SENT, MarchState.ACCUMULATING, MarchState.TRIGGERED, MarchState.REVERSING,
    MarchState.RUNNING)
EXECUTED, CANCELLED, LOST, COLLIDED = (
    MarchState.EXECUTED, MarchState.CANCELLED, MarchState.LOST, MarchState.COLLIDED)

#: The force is under an accepted surprise order: it stays in place, and enemy moves near it or
#: attacks on it count.
ACCEPTED: frozenset[MarchState] = frozenset({ACCUMULATING, TRIGGERED, REVERSING})
#: Still doing something.
OPEN: frozenset[MarchState] = ACCEPTED | {SENT, RUNNING}

#: What each state is called in a march's description (keyed by the words, so a record's
#: stored status reads it directly).
STATUS_WORDS: dict[str, str] = {
    SENT: "order on its way / awaiting acceptance",
    ACCUMULATING: "accumulating MPs in place",
    TRIGGERED: "triggered by the enemy: half its MPs go at the start of your next movement phase",
    REVERSING: "reversing: unwinding its MPs",
    RUNNING: "marching",
    EXECUTED: "executed",
    CANCELLED: "cancelled",
    LOST: "order lost",
    COLLIDED: "cancelled by a collision with another surprise move",
}


def data(state: GameState) -> Mapping[str, Any]:
    found: Mapping[str, Any] = state.module_data.get(MODULE, {})
    return found


def marches(state: GameState) -> list[Mapping[str, Any]]:
    """Every march record, oldest first."""
    found: Mapping[str, Mapping[str, Any]] = data(state).get("marches", {})
    return sorted(found.values(), key=_order)


def _order(record: Mapping[str, Any]) -> int:
    """Where a march stands among all marches: its ``seq`` (given by the fold), or, in a
    snapshot made before there was one, the shared number of its key ``m<n>``."""
    if "seq" in record:
        return int(record["seq"])
    number = str(record["id"]).removeprefix("m")
    return int(number) if number.isdigit() else 0


def label(record: Mapping[str, Any]) -> str:
    """What the march's own side calls it: ``m<n>``, its n-th march."""
    return str(record.get("label") or record["id"])


def march(state: GameState, march_id: str) -> Mapping[str, Any]:
    found: Mapping[str, Any] = data(state)["marches"][march_id]
    return found


def name_of(state: GameState, march_id: str) -> str:
    """The march's name, as its own side gave it (events carry it for their reports)."""
    return str(march(state, march_id)["name"])


def state_of(record: Mapping[str, Any]) -> MarchState:
    """Where a march record's order stands."""
    return MarchState(record["status"])


def side_marches(state: GameState, side: str, statuses: Iterable[MarchState] | None = None
                 ) -> list[Mapping[str, Any]]:
    wanted = None if statuses is None else frozenset(statuses)
    return [m for m in marches(state)
            if m["side"] == side and (wanted is None or state_of(m) in wanted)]


def march_of_unit(state: GameState, unit_id: str,
                  statuses: Iterable[MarchState] = ACCEPTED | {RUNNING}
                  ) -> Mapping[str, Any] | None:
    """The march holding a unit (among those in ``statuses``), if any: the oldest, should
    there be several. (Asked for every enemy unit of every view: the marches are sorted only
    when more than one holds the unit.)"""
    found: Mapping[str, Mapping[str, Any]] = data(state).get("marches", {})
    holding = [m for m in found.values() if unit_id in m["units"]]
    if not holding:
        return None
    wanted = frozenset(statuses)
    return next((m for m in sorted(holding, key=_order) if state_of(m) in wanted), None)


def next_id(state: GameState, side: str) -> tuple[str, str]:
    """The key and the label of ``side``'s next march: one more than the highest number among
    its own marches, so that the enemy's orders never change it."""
    numbers = [int(n) for m in side_marches(state, side)
               if (n := label(m).removeprefix("m")).isdigit()]
    number = max(numbers, default=0) + 1
    return f"{side}:m{number}", f"m{number}"


def find(state: GameState, side: str, wanted: str) -> Mapping[str, Any]:
    """One of ``side``'s marches by its label or key (``KeyError`` if it has none such)."""
    for m in side_marches(state, side):
        if wanted in (label(m), str(m["id"])):
            return m
    raise KeyError(wanted)


def cell_of(ref: Any) -> Cell:
    return Cell(int(ref[0]), int(ref[1]))


def ref(cell: Cell) -> list[int]:
    return [cell.col, cell.row]


# -- changing the data (from ``apply`` only) ---------------------------------------------------
def edit(state: GameState) -> dict[str, Any]:
    """A deep copy of the module's data, to change and store back with ``store``."""
    out: dict[str, Any] = copy.deepcopy(dict(data(state)))
    out.setdefault("next", 1)
    out.setdefault("marches", {})
    out.setdefault("initiative", {})
    return out


def store(state: GameState, new: Mapping[str, Any]) -> GameState:
    return with_module_data(state, MODULE, new)


def with_march(state: GameState, march_id: str, **changes: Any) -> GameState:
    new = edit(state)
    new["marches"][march_id].update(copy.deepcopy(changes))
    return store(state, new)


def sham_rallied_now(state: GameState, unit_id: str) -> bool:
    """Whether the unit spent its movement on a sham rally roll in the current step (ruling
    SM-23): like a real rally, that takes it nowhere."""
    return any(m.get("rallied", {}).get(unit_id) == [state.turn, state.step]
               for m in marches(state))
