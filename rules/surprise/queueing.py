"""Setting a surprise move off (``/march execute``): a march whose order has been accepted,
still saving its MPs, is set to go at the start of its side's next movement phase. Any phase
will do, since the march goes no sooner for it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules.refusal import Refusal
from rules.state import GameState
from rules.surprise import events as sev
from rules.surprise import records as rec
from rules.surprise.cancellation import find_march
from rules.surprise.commands import ExecuteSurpriseMove

if TYPE_CHECKING:
    from rules.outcome import Outcome


def execute_refusal(state: GameState, side: str, march: str) -> Refusal | None:
    """Why the side's march named ``march`` may not be set off now (``None``: it may)."""
    try:
        _ready(state, side, march)
    except Refusal as why:
        return why
    return None


def decide_execute(out: Outcome, side: str, command: ExecuteSurpriseMove) -> None:
    record = _ready(out.state, side, command.march)
    out.add(sev.ExecutionQueued(audience=f"side:{side}", march=str(record["id"]),
                                name=str(record["name"])))


def _ready(state: GameState, side: str, march: str) -> Mapping[str, Any]:
    """The march, accepted and saving its MPs, not yet set to go; refused otherwise."""
    record = find_march(state, side, march)
    if record["status"] == rec.SENT:
        raise Refusal(f"the order for {record['name']} has not been accepted yet: there is "
                      "nothing to set off")
    if record["status"] != rec.ACCUMULATING:
        raise Refusal(f"surprise move {record['name']} is "
                      f"{rec.STATUS_WORDS.get(str(record['status']), record['status'])}")
    if record["execute_queued"]:
        raise Refusal(f"surprise move {record['name']} is already set to go")
    return record
