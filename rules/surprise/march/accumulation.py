"""Saving MPs in place: the MP Accumulation Table, rolled in secret each movement phase.

At the start of each of the owner's movement phases, from the turn of acceptance on, the umpire
rolls one die for each force on an accepted order (SM, restriction 3), on the ruleset's
``mp_accumulation`` table (the article's, unless the ruleset replaces it): the column is the
number of the turn being attempted (1, 2, 3, 4+), and night (full or partial: twilight counts,
ruling CORE-6) takes 1 off the roll. A pass adds the turn's allowance (the slowest combat unit's,
plus any forced-march MPs) to the saved MPs; a failure means the march is discovered, and it
marches at once (with this turn's allowance too: ruling SM-1).

The owner may instead have set the march off (``ExecutionQueued``): no roll is made.

A reversing force rolls the same way, and a pass takes a turn's allowance off the saved MPs
until none is left; a failure is a discovery, carried out as a triggered march (ruling SM-15).

Forced marching adds its MPs each turn (the figure the owner has chosen for the force by then:
the order's, or a later ``/march forced``, ruling SM-24), with a straggler check for every combat
unit of the force, rolled in secret; the losses wait on the umpire's roster until the march is
revealed (ruling SM-16).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules.events import side_audience
from rules.state import GameState
from rules.surprise import events as sev
from rules.surprise import force as frc
from rules.surprise import records as rec
from rules.surprise import rolls
from rules.surprise.march import setoff
from rules.surprise.march.straggling import forced_march_stragglers
from rules.turn.sequence import is_night

if TYPE_CHECKING:
    from rules.outcome import Outcome

TABLE = "mp_accumulation"


def accumulation_roll(out: Outcome, march_id: str) -> bool:
    """Roll for the next turn of the march; True for a pass."""
    record = rec.march(out.state, march_id)
    table = out.state.loaded.ruleset.tables[TABLE]
    attempt = int(record["attempts"]) + 1
    column = rolls.turn_column(table, attempt)
    mods: dict[str, int] = {}
    if is_night(out.state.loaded.scenario, out.state.turn):
        mods["night"] = int(table.modifiers.get("night", -1))
    _, result = out.roll(f"MP accumulation, surprise move {record['name']} (turn {attempt})",
                         table.dice, side_audience(str(record["side"])), table=TABLE,
                         column=column, modifiers=mods)
    return result.strip().upper().startswith("P")


def turn_allowance(state: GameState, record: Mapping[str, Any]) -> float:
    """A turn's MPs for the force: its slowest combat unit's allowance plus forced marching."""
    return float(frc.allowance(state, record["units"]) + int(record["forced"]))


def movement_phase_begins(out: Outcome, side: str) -> None:
    """The start of ``side``'s movement phase: each of its marches rolls, sets off, or rests."""
    for listed in rec.side_marches(out.state, side):
        march_id = str(listed["id"])
        record = rec.march(out.state, march_id)  # as it stands now
        audience = side_audience(side)
        if record.get("rest"):
            out.add(sev.ForceRested(audience=audience, march=march_id,
                                    name=rec.name_of(out.state, march_id)))
        status = record["status"]
        if status == rec.TRIGGERED:
            setoff.begin(out, march_id, "triggered")
        elif status == rec.ACCUMULATING:
            if record["execute_queued"]:
                setoff.begin(out, march_id, "voluntary")
            elif accumulation_roll(out, march_id):
                added = turn_allowance(out.state, record)
                forced_march_stragglers(out, march_id)
                out.add(sev.MPsAccumulated(
                    audience=audience, march=march_id,
                    name=rec.name_of(out.state, march_id), attempt=int(record["attempts"]) + 1,
                    added=added, total=float(record["accumulated_mp"]) + added))
            else:
                setoff.begin(out, march_id, "discovered")
        elif status == rec.REVERSING:
            reverse_step(out, march_id)


def reverse_step(out: Outcome, march_id: str) -> None:
    record = rec.march(out.state, march_id)
    side = str(record["side"])
    audience = side_audience(side)
    if not accumulation_roll(out, march_id):
        out.add(sev.MarchTriggered(audience=audience, march=march_id,
                                   name=rec.name_of(out.state, march_id),
                                   cause="it was discovered while reversing"))
        setoff.begin(out, march_id, "reverse_discovered")
        return
    saved = float(record["accumulated_mp"])
    removed = min(saved, turn_allowance(out.state, record))
    forced_march_stragglers(out, march_id)
    out.add(sev.MPsReversed(audience=audience, march=march_id,
                            name=rec.name_of(out.state, march_id),
                            attempt=int(record["attempts"]) + 1, removed=removed,
                            total=saved - removed))
    if saved - removed <= 0:
        out.add(sev.MarchEnded(audience=audience, march=march_id,
                               name=rec.name_of(out.state, march_id), outcome=rec.CANCELLED))
