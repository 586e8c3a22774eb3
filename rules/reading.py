"""Reading a game's log back: its events and commands, whichever rule module wrote them.

Every module's command and event classes are registered by importing its declaration
(``rules.modules.catalog`` imports every spec), so a log written by any module reads back in a fresh
process, whether or not a game was created or a rule consulted first.
"""

from __future__ import annotations

from typing import Any

import rules.modules.catalog
import rules.turn.reaction  # (the reaction window's events)
import rules.turn.victory  # noqa: F401  (who holds the places, and the result)
from rules.commands import COMMAND_TYPES, GameCommand
from rules.events import EVENT_TYPES, GameEvent
from rules.scenario.nesting import loads_json


def parse_command(data: dict[str, Any]) -> GameCommand:
    """A command from its JSON form; raises ``ValueError`` (pydantic's) when malformed."""
    kind = data.get("kind")
    if kind not in COMMAND_TYPES:
        raise ValueError(f"unknown command {kind!r}")
    return COMMAND_TYPES[str(kind)].model_validate(data)


def event_from_json(text: str, audience: str) -> GameEvent:
    """An event read back from the log, whichever rule module wrote it; ``ValueError`` for a
    text that is not JSON, nests too deeply (``rules.scenario.nesting``) or is no known event."""
    data = loads_json(text)
    cls = EVENT_TYPES.get(data.get("type"))
    if cls is None:
        raise ValueError(f"unknown event type {data.get('type')!r} in the log")
    return cls.model_validate({**data, "audience": audience})
