"""Helpers for the combat tests: the combat field scenario, scripted dice, placing units and
jumping to a phase."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from rules.engine import Outcome, decide, start
from rules.events import GameEvent
from rules.forces.location import Withdrawn
from rules.scenario.loader import LoadedScenario
from rules.state import GameState, initial_state, with_units
from umpire.games import catalog

FIXTURES = Path(__file__).parent / "fixtures"
FIELD = FIXTURES / "combat.toml"


class Dice:
    """Scripted dice: each roll takes the first scripted value whose purpose starts with the
    given prefix (in order); ``default`` for anything else."""

    def __init__(self, *script: tuple[str, int], default: int | None = None) -> None:
        self.script = list(script)
        self.default = default
        self.calls: list[tuple[str, str]] = []

    def __call__(self, seq: int, purpose: str, dice: str) -> int:
        self.calls.append((purpose, dice))
        for n, (prefix, value) in enumerate(self.script):
            if purpose.startswith(prefix):
                del self.script[n]
                return value
        if self.default is None:
            raise AssertionError(f"no scripted roll for {purpose!r}")
        return self.default


def field(loaded: LoadedScenario | None = None) -> GameState:
    """The combat field, started (turn 1)."""
    loaded = loaded or catalog.load_file(FIELD)
    return start(initial_state(loaded), "test", Dice(default=1)).state


def at_step(state: GameState, phase: str, side: str | None) -> GameState:
    for i, step in enumerate(state.steps):
        if step.phase.id == phase and step.side == side:
            return replace(state, step=i, done=frozenset())
    raise AssertionError(f"no step {phase} for {side}")


def place(state: GameState, **where: str | None) -> GameState:
    """Units moved to labels (``None``: off the map)."""
    board = state.loaded.board
    return with_units(state, {
        uid: (state.units[uid].placed(board.parse(label)) if label
              else replace(state.units[uid], location=Withdrawn()))
        for uid, label in where.items()})


def change(state: GameState, uid: str, **fields: Any) -> GameState:
    return with_units(state, {uid: replace(state.units[uid], **fields)})


def clear_field(state: GameState, keep: Iterable[str]) -> GameState:
    """Every unit not in ``keep`` taken off the map."""
    kept = set(keep)
    return with_units(state, {uid: replace(u, location=Withdrawn())
                              for uid, u in state.units.items() if uid not in kept})


def run(state: GameState, side: str, command: Any, dice: Dice) -> Outcome:
    return decide(state, side, command, dice)


def of_type(events: Iterable[GameEvent], cls: type[GameEvent]) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]
