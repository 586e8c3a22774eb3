"""Forced-march MPs chosen turn by turn (SM, "Forced Marches"; ruling SM-24).

The owner may add forced-march MPs to the force's turn, up to the ruleset's
``forced_march_max``, and chooses them again whenever he likes: the order's own figure is the
first choice, and ``/march forced`` changes it for a march whose order is on its way, that saves
its MPs, or that unwinds them. The choice takes effect at the next accumulation or reversal roll,
or on the turn the march is set off, and stands until changed: a game played by post spans days,
and a choice that lapsed each turn would cost a force its MPs whenever its owner was away.

A triggered march spends half its saved MPs and no turn's allowance, so it has no forced march;
a march already under way or finished has nothing left to choose.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules.events import side_audience
from rules.refusal import Refusal
from rules.state import GameState
from rules.surprise import events as sev
from rules.surprise import records as rec
from rules.surprise.cancellation import find_march
from rules.surprise.commands import SetForcedMarch

if TYPE_CHECKING:
    from rules.outcome import Outcome

#: Where a march's forced marching may still be chosen.
CHOOSING: frozenset[rec.MarchState] = frozenset({rec.SENT, rec.ACCUMULATING, rec.REVERSING})


def decide_forced(out: Outcome, side: str, command: SetForcedMarch) -> None:
    """Refuse a bad choice plainly; else record the new forced-march MPs (any phase)."""
    state = out.state
    limit = state.loaded.ruleset.forced_march_max
    if command.mp < 0:
        raise Refusal("forced-march MPs cannot be negative")
    if command.mp > limit:
        raise Refusal(f"a forced march adds at most {limit} MPs a turn")
    record = _choosing(state, side, command.march)
    name = str(record["name"])
    if int(record["forced"]) == command.mp:
        raise Refusal(f"surprise move {name} already adds {command.mp} forced-march MP(s) a "
                      "turn")
    march_id = str(record["id"])
    out.add(sev.ForcedMarchSet(audience=side_audience(side), march=march_id,
                               name=rec.name_of(state, march_id), mp=command.mp))


def forced_refusal(state: GameState, side: str, march: str) -> Refusal | None:
    """Why the side may not choose the forced-march MPs of its march named ``march`` now
    (``None``: it may, for some number of MPs)."""
    try:
        _choosing(state, side, march)
    except Refusal as why:
        return why
    return None


def _choosing(state: GameState, side: str, wanted: str) -> Mapping[str, Any]:
    """The march, if its forced marching may still be chosen; refused otherwise."""
    record = _march(state, side, wanted)
    name = str(record["name"])
    status = rec.state_of(record)
    if status == rec.TRIGGERED:
        raise Refusal(f"surprise move {name} has been triggered: it spends half its saved MPs "
                      "and no turn's allowance, so there is no forced march to add")
    if status == rec.RUNNING:
        raise Refusal(f"surprise move {name} is already marching")
    if status not in CHOOSING:
        raise Refusal(f"surprise move {name} is {rec.STATUS_WORDS.get(status, status)}: its "
                      "forced marching is over")
    return record


def _march(state: GameState, side: str, wanted: str) -> Mapping[str, Any]:
    """The side's own march named ``wanted``: among those under way, else (named) among its
    finished ones, so that a finished march is refused for what it is. Another side's march reads
    as no march at all."""
    try:
        return find_march(state, side, wanted)
    except Refusal:
        if not wanted.strip():
            raise
        return find_march(state, side, wanted, frozenset(rec.MarchState))
