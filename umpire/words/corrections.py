"""The host's corrections: announced when made, listed in full when the game ends.

A correction changes a unit by hand, so it could quietly undo a roll. Everyone is therefore told
at once that a correction was made, by whom and to which side's unit (never which unit, where,
or what changed: that may be hidden from the other side); when the game ends, and in
``vedette verify``, every correction is listed in full.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.ground.grid import Cell
from rules.state import GameState
from storage.json_codec import JsonObject
from umpire.verify.record import LoggedEvent

#: Corrections listed in the end-of-game message (Discord's messages are short); the record
#: and ``vedette verify`` list them all.
MAX_LISTED = 15


@dataclass(frozen=True, slots=True)
class Correction:
    """A host's correction as the log holds it: where, which unit, what, why and by whom."""

    seq: int
    unit: str
    changes: JsonObject
    reason: str
    user: int | None


def corrections(events: Sequence[LoggedEvent]) -> list[Correction]:
    """Every correction in the log, each with the user of the command that made it."""
    out: list[Correction] = []
    user: int | None = None
    for e in events:
        if e.type == "command_accepted":
            found = e.payload.get("user")
            user = found if isinstance(found, int) else None
        elif e.type == "unit_corrected":
            changes = e.payload.get("changes")
            out.append(Correction(e.seq, str(e.payload.get("unit")),
                                  changes if isinstance(changes, dict) else {},
                                  str(e.payload.get("reason", "")), user))
    return out


def who(user: int | None, *, mention: bool) -> str:
    if user is None:
        return "the host"
    return f"<@{user}>" if mention else f"user {user}"


def words(state: GameState, c: Correction, *, mention: bool) -> str:
    """One correction in full (for the end of the game, when nothing is hidden any more)."""
    unit = state.units.get(c.unit)
    name = unit.name if unit else c.unit
    changed = []
    for key, value in c.changes.items():
        if key == "cell" and isinstance(value, list) and len(value) == 2:
            value = state.loaded.board.label(Cell(int(value[0]), int(value[1])))
        changed.append(f"{key} {value}")
    return (f"log event {c.seq}: {name}: {', '.join(changed)} ({c.reason}), by "
            f"{who(c.user, mention=mention)}")


def end_of_game_text(state: GameState, game_id: str, seed_hex: str | None,
                     found: Sequence[Correction]) -> str:
    """The message that goes with the game record when the game ends."""
    lines = [f"The game record of `{game_id}` is attached: the scenario and ruleset, every "
             f"command and event, and the seed (`{seed_hex}`). Anyone can re-adjudicate the "
             "whole game with `vedette verify --record <file>`."]
    if not found:
        lines.append("Corrections made by the host: none.")
        return "\n".join(lines)
    lines.append(f"Corrections made by the host ({len(found)}):")
    lines += [f"- {words(state, c, mention=True)}" for c in found[:MAX_LISTED]]
    if len(found) > MAX_LISTED:
        lines.append(f"… and {len(found) - MAX_LISTED} more, listed by `vedette verify`.")
    return "\n".join(lines)
