"""Which of the side's own orders closed a window of the phase: the start-of-phase orders of
Concealed Forces (reveal, breed, scout, conceal) come before any unit of the side moves, and on
a side shared by several players one player's move closes them for all (ruling FLOW-64).

The answer is read from the current phase's log, from the side's own orders and their own
events only: who gave the first order that moved something of the side, and what it moved, by
the side's own names. Nothing of another side is read, so it never names an enemy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules import events as ev
from rules.state import GameState
from storage.records import EventRecord
from umpire.games.seats import mention
from umpire.words.markers import marker_ref

#: The events by which a side's units or markers begin to move in a phase, and what each is.
_MOVING: Mapping[str, str] = {
    "unit_moved": "move", "unit_halted": "move", "formation_changed": "change of formation",
    "cf_moved": "move",
}


def closed_by(events: Sequence[EventRecord], state: GameState, side: str, asker: int) -> str:
    """Who closed the window and with what ("<@42>'s move of 1st Brigade", "your own move of
    marker 4821"), from the events of the current phase; empty when no order of the side's
    players did (a rule moved its units, say)."""
    giver: Mapping[str, Any] | None = None
    for record in events:
        if record.type == "command_accepted":
            giver = record.payload
            continue
        if (giver is None or giver.get("side") != side or giver.get("host")
                or record.audience != ev.side_audience(side) or record.type not in _MOVING):
            continue
        payload = record.payload
        if record.type == "formation_changed" and not payload.get("mp"):
            continue  # a leader's change of formation costs nothing: no movement begun
        user = giver.get("user")
        who = "your own" if user == asker else (f"{mention(user)}'s" if isinstance(user, int)
                                                 else "a side-mate's")
        return f"{who} {_MOVING[record.type]} of {_named(state, side, payload)}"
    return ""


def _named(state: GameState, side: str, payload: Mapping[str, Any]) -> str:
    """What the side's order moved, as the side itself names it."""
    if "marker" in payload:
        return marker_ref(str(payload["marker"]))
    unit = state.units.get(str(payload.get("unit", "")))
    return unit.name if unit is not None and unit.side == side else "one of your units"
