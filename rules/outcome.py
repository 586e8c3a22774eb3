"""The events one command leads to, with the state they lead to and the dice they roll.

Every rule (the core's and each module's) adds its events to an ``Outcome``; the engine makes
one per command. It lives apart from the engine so that rule modules can build on it without
importing the engine, which imports them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rules import events as ev
from rules.state import GameState, apply

#: Derives a die roll from the log position of its event and its purpose.
DiceSource = Callable[[int, str, str], int]


@dataclass
class Outcome:
    """Events decided so far for one command, with the state they lead to."""

    state: GameState
    dice: DiceSource
    events: list[ev.Event] = field(default_factory=list)
    finished: bool = False

    def add(self, event: ev.Event) -> None:
        self.events.append(event)
        self.state = apply(self.state, event)

    def roll(self, purpose: str, dice: str, audience: str, *, table: str = "", column: str = "",
             modifiers: dict[str, int] | None = None) -> tuple[int, str]:
        """Roll for a purpose and log it; returns the natural roll and the table result."""
        seq = self.state.seq + 1
        value = self.dice(seq, purpose, dice)
        result = ""
        mods = modifiers or {}
        if table:
            t = self.state.loaded.ruleset.tables[table]
            result = t.lookup(value + sum(mods.values()), column)
        self.add(ev.DieRolled(audience=audience, purpose=purpose, dice=dice, value=value,
                              modifiers=mods, table=table, column=column, result=result))
        return value, result
