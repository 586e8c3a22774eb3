"""The events of the Chancellorsville modules."""

from __future__ import annotations

from rules.events import GameEvent

#: Every event the two modules fold or tell.
EVENTS: tuple[type[GameEvent], ...] = ()
