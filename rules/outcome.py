"""The events one command leads to, with the state they lead to and the dice they roll.

Every rule (the core's and each module's) adds its events to an ``Outcome``; the engine makes
one per command. It lives apart from the engine so that rule modules can build on it without
importing the engine, which imports them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rules import events as ev
from rules.forces.markers import draw_marker_id
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
    #: Marker ids drawn by ``new_marker_id`` and not yet placed, by side.
    drawn_marker_ids: dict[str, list[str]] = field(default_factory=dict)
    #: What the command's moves turned face up on the way, by side and unit (ruling INFO-19):
    #: told once the command is done, after what it did (``rules.engine.decide``).
    turned_on_the_way: dict[str, dict[str, tuple[tuple[int, int], ...]]] = field(
        default_factory=dict)
    #: The state right after each event, in order (the wording of each event reads its moment).
    states: list[GameState] = field(default_factory=list)

    def add(self, event: ev.Event) -> None:
        self.events.append(event)
        self.state = apply(self.state, event)
        self.states.append(self.state)
        if isinstance(event, ev.MarkerPlaced | ev.MarkerSplit | ev.MarkersJoined):
            placed = ({event.marker} if isinstance(event, ev.MarkerPlaced)
                      else {event.into} if isinstance(event, ev.MarkersJoined)
                      else set(event.into))
            for ids in self.drawn_marker_ids.values():
                ids[:] = [i for i in ids if i not in placed]

    def new_marker_id(self, side: str) -> str:
        """A fresh id for a marker of ``side``, drawn from the game's dice
        (``rules.forces.markers.draw_marker_id``). Ids drawn here and not yet placed are kept apart,
        so that two draws before the events that place them (a split) give two ids."""
        pending = self.drawn_marker_ids.setdefault(side, [])
        taken = [*self.state.markers, *(i for ids in self.drawn_marker_ids.values() for i in ids)]
        ordinal = self.state.markers_drawn.get(side, 0) + len(pending)
        mid = draw_marker_id(self.dice, side, ordinal, taken)
        pending.append(mid)
        return mid

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
