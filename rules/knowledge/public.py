"""What everyone is told of the turn's progress: the timing of a side's orders is information.

In a phase where every side gives its orders at once, saying in the game's channel which side
has finished first tells the others how long it took, and so something of what it did (a quick
finish is a quiet front). The channel therefore hears only that the phase is over, unless the
game option ``announce_finished`` (default off) asks for every side's finish to be announced as
it comes (ruling INFO-9). In a phase that one side plays alone its finish is the phase's end:
nothing is hidden by saying so.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.state import GameState
from rules.turn.status import GameStatus

#: The game option that announces each side's finish in a phase played at once.
ANNOUNCE_FINISHED = "announce_finished"

_YES = frozenset({"true", "yes", "on", "1"})


def announces_finished(options: Mapping[str, str | int | bool]) -> bool:
    """Whether the game's options ask for each side's finish to be announced (default: no). A
    host writes the option as a TOML boolean, or as yes/no, on/off, 1/0."""
    value = options.get(ANNOUNCE_FINISHED, False)
    if isinstance(value, str):
        return value.strip().lower() in _YES
    return bool(value)


def finish_is_public(state: GameState) -> bool:
    """Whether a side's finishing the current step is told to everyone now: always when one
    side plays the step alone, and in a step played at once only under the option."""
    return (state.current.side is not None
            or announces_finished(state.loaded.scenario.scenario.options))


def waiting_for(state: GameState) -> tuple[str, ...] | None:
    """The sides everyone may know are still to act in the current step, or ``None`` when that
    is not told (a step played at once, without ``announce_finished``: until the step ends,
    every side may still be at its orders)."""
    if state.status == GameStatus.ACTIVE and len(state.current.acting(state.sides)) > 1 \
            and not finish_is_public(state):
        return None
    return state.acting_sides()
