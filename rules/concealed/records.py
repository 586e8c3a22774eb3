"""The forces the Concealed Forces module keeps under its markers, and how to read them.

Everything lives in ``module_data["concealed_forces"]`` as JSON-ready data::

    {"forces": {"4821": {"side": "union", "kind": "division", "commander": "devens",
                         "units": ["devens", "von-gilsa", ...], "concealed_turn": 3,
                         "bred_turn": null,
                         "plan": {"von-gilsa": ["NE", "line"]}}},
     "spent": {"phase": [3, 2], "mp": {"4821": {"von-gilsa": 4.0}}},
     "found": {"union": [3]},
     "conceal_phase": {"union": [3, 2]},
     "detached": {"barlow": true},
     "detaching": {"von-gilsa": true},
     "scouts": {"von-gilsa-cav": {"marker": "4821", "from": [12, 7], "phase": [4, 1],
                                  "kind": "cavalry"}},
     "anonymous": ["von-gilsa-cav"],
     "released": {"4821": [4, 1]},
     "forced": {"phase": [4, 1], "mp": {"4821": 2}},
     "owed": {"4821": [{"turn": 4, "checks": {"von-gilsa": 2}}]},
     "deployed": {"4821": ["devens", "von-gilsa", ...]},
     "revealed_in": {"4821": [4, 1]}}

A force is filed under its marker's id. ``units`` are every unit inside it (its commander
among them); a decoy has none. ``concealed_turn`` is the turn the units went under cover (a
decoy's is the turn it was bred) and ``bred_turn`` the last turn the force bred or was bred (it
may breed again from the next turn). ``spent`` holds the MPs each member has used in the current
movement phase, ``found`` the turns in which each side's decoys were found and removed (such a
decoy is back in the pool from the next turn), ``conceal_phase`` the last phase in which a side
concealed a force (breeding must come first), ``detached`` the units their owner's orders
detached from their division (``false``: back with it), ``detaching`` the detachment orders
given in the side's Command Phase that take effect at the start of its next movement phase
(ruling CF-25). ``plan`` is the owner's deployment plan (``plans``: a unit's place
and formation), ``deployed`` the units each revealed force placed and ``revealed_in`` the
phase in which it was revealed (for the rest of that phase they may react at once:
``opportunity``). ``scouts`` are the units a force released (Cf 3.1): the marker
and hex they came from, the phase in which they did (their reach is limited in that phase) and
whether each is the ``cavalry`` unit or a ``skirmisher``; ``anonymous`` the released cavalry
that no enemy unit on the map has seen yet (shown to the enemy without its identity);
``released`` the last phase in which each force released scouts (once a phase). ``forced``
holds the forced-march MPs each force may add in the current phase, and ``owed`` the forced
march straggler checks noted for a force until it is revealed (option
``cf_march_stragglers = "on_reveal"``), by turn, with each unit's forced-march MPs. No side but
the owner ever reads any of it (the enemy's view asks only whether a unit is ``anonymous``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from rules.forces.markers import Marker
from rules.forces.markers import own_marker as find_marker
from rules.modules.data import data_of, with_module_data

if TYPE_CHECKING:
    from rules.state import GameState

MODULE = "concealed_forces"

#: The scenario tag of a unit that starts detached from its division (on a brigade goal).
DETACHED_TAG = "detached"
#: The scenario tag of an independent cavalry brigade (it conceals alone and counts for a decoy).
INDEPENDENT_TAG = "independent"
#: The scenario tag of a skirmisher unit (released as a scout).
SKIRMISHER_TAG = "skirmisher"


class ForceKind(StrEnum):
    """What is under a concealment marker."""

    #: A divisional commander with his division (and corps units that joined it).
    DIVISION = "division"
    #: A lone cavalry brigade (independent, or detached on a brigade goal).
    CAVALRY = "cavalry"
    #: Nothing: a decoy.
    DECOY = "decoy"


def data(state: GameState) -> Mapping[str, Any]:
    return data_of(state, MODULE)


def forces(state: GameState) -> Mapping[str, Mapping[str, Any]]:
    """Every concealed force, by its marker's id."""
    found: Mapping[str, Mapping[str, Any]] = data(state).get("forces", {})
    return found


def force(state: GameState, marker_id: str) -> Mapping[str, Any] | None:
    return forces(state).get(marker_id)


def kind_of(record: Mapping[str, Any]) -> ForceKind:
    return ForceKind(str(record["kind"]))


def decoys_of(state: GameState, side: str) -> list[str]:
    """The marker ids of a side's decoys in play."""
    return sorted(mid for mid, f in forces(state).items()
                  if f["side"] == side and kind_of(f) is ForceKind.DECOY)


def is_detached(state: GameState, unit_id: str) -> bool:
    """Whether the unit is detached from its division now: tagged so in the scenario, or
    detached by an order of its owner that has taken effect (and not ended by a later one). An
    order still waiting for its movement phase changes nothing yet (ruling CF-25)."""
    marks: Mapping[str, bool] = data(state).get("detached", {})
    if unit_id in marks:
        return bool(marks[unit_id])
    unit = state.units.get(unit_id)
    return unit is not None and DETACHED_TAG in unit.tags


def detach_order(state: GameState, unit_id: str) -> bool | None:
    """The detachment order waiting to take effect for the unit: ``True`` to detach it,
    ``False`` to send it back to its division, ``None`` when none waits (ruling CF-25)."""
    waiting: Mapping[str, bool] = data(state).get("detaching", {})
    return bool(waiting[unit_id]) if unit_id in waiting else None


def detach_orders(state: GameState, side: str) -> Mapping[str, bool]:
    """The side's detachment orders waiting to take effect, by unit id."""
    waiting: Mapping[str, bool] = data(state).get("detaching", {})
    return {uid: bool(d) for uid, d in sorted(waiting.items())
            if uid in state.units and state.units[uid].side == side}


def spent(state: GameState, marker_id: str) -> Mapping[str, float]:
    """The MPs each member of the force has used in the current phase (a decoy's one member
    is ``""``)."""
    s = data(state).get("spent", {})
    if list(s.get("phase", ())) != [state.turn, state.step]:
        return {}
    found: Mapping[str, float] = s.get("mp", {}).get(marker_id, {})
    return found


def found_this_turn(state: GameState, side: str) -> int:
    """How many of a side's decoys were found and removed this turn (back next turn)."""
    turns: list[int] = data(state).get("found", {}).get(side, [])
    return sum(1 for t in turns if t == state.turn)


def concealed_this_phase(state: GameState, side: str) -> bool:
    return list(data(state).get("conceal_phase", {}).get(side, ())) == [state.turn, state.step]


def scouts(state: GameState) -> Mapping[str, Mapping[str, Any]]:
    """Every released scout, by unit id."""
    found: Mapping[str, Mapping[str, Any]] = data(state).get("scouts", {})
    return found


def is_anonymous(state: GameState, unit_id: str) -> bool:
    """Whether the unit is a released cavalry scout the enemy has not identified yet."""
    return unit_id in data(state).get("anonymous", ())


def released_this_phase(state: GameState, marker_id: str) -> bool:
    return list(data(state).get("released", {}).get(marker_id, ())) == [state.turn, state.step]


def forced_mp(state: GameState, marker_id: str) -> int:
    """The forced-march MPs the force may add to each unit's allowance in this phase."""
    f = data(state).get("forced", {})
    if list(f.get("phase", ())) != [state.turn, state.step]:
        return 0
    return int(f.get("mp", {}).get(marker_id, 0))


def owed(state: GameState, marker_id: str) -> list[Mapping[str, Any]]:
    """The forced-march straggler checks noted for the force, turn by turn."""
    found: list[Mapping[str, Any]] = data(state).get("owed", {}).get(marker_id, [])
    return found


def edit(state: GameState) -> dict[str, Any]:
    """A deep copy of the module's data to change in a fold."""
    return copy.deepcopy(dict(data(state)))


def store(state: GameState, new: Mapping[str, Any]) -> GameState:
    return with_module_data(state, MODULE, new)



def own_marker(state: GameState, side: str, ref: str) -> Marker | None:
    """One of the side's own markers by the id a player gives
    (``rules.forces.markers.own_marker``)."""
    return find_marker(state.markers, side, ref)
