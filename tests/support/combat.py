"""Helpers for the combat tests: the combat field scenario, scripted dice, placing units and
jumping to a phase."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.client import VedetteBot
from rules.commands import Done
from rules.engine import Outcome, decide, start
from rules.events import GameEvent
from rules.forces.location import Withdrawn
from rules.forces.units import Unit
from rules.modules.api import RuleModule
from rules.modules.registry import MODULES, register
from rules.scenario.loader import LoadedScenario
from rules.state import GameState, initial_state, with_units
from storage.records import Recipient
from storage.store import Store
from tests.fakediscord import FakeUser
from umpire.demo.main import PLAYERS
from umpire.games import catalog

FIXTURES = Path(__file__).parents[1] / "fixtures"
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


SIDES = ("union", "confederate")

SEED = bytes(range(32))

async def to_phase(bot: VedetteBot, users: dict[str, FakeUser], phase: str, side: str) -> None:
    for _ in range(20):
        state = await bot.umpire.repository.state_for("g1")
        if state.current.phase.id == phase and state.current.side == side:
            return
        for acting in state.acting_sides():
            await bot.umpire.handle("g1", users[acting].id, Done())
    raise AssertionError(f"never reached {side} {phase}")


async def answered_texts(db: Path) -> list[str]:
    """The messages stored as already shown in the answers to the players' orders."""
    async with Store.open(db) as store:
        found = await store.deliveries_for(
            "demo", *(Recipient("player", str(uid)) for uid in PLAYERS.values()),
            limit=100_000)
    return [d.text for d in found if d.status == "sent" and d.attempts == 0]


# -- shields: sham results for the surprise-move module --------------------------------------------
class _Shield(RuleModule):
    name = "test_shield"
    answer: str | None = "sham"

    def combat_shield(self, state: GameState, target: Unit, attackers: tuple[Unit, ...],
                      distances: tuple[int, ...]) -> str | None:
        return self.answer if target.id == "c-inf" else None

@pytest.fixture
def shield() -> Iterator[_Shield]:
    module = _Shield()
    register(module)
    yield module
    MODULES.pop(module.name, None)
