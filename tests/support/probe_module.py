"""A small rule module for tests only: it hooks every moment of play the engine offers and
writes down what it saw, so that tests can check when and with what each hook is called.

- ``on_game_start``: notes ``start`` (and how many sighting events came before it), and takes
  the unit named in ``withdraw_at_start`` out of play (a choice made before turn 1).
- ``on_game_end``: rolls 1d6 for the probe's victory (``out.roll``, public) and scores it.
- ``on_positions_changed``: notes the units that moved.
- ``stop_reason``: stops a unit that enters the ``tripwire`` cell (a new kind of stop).
- ``after_move``: a unit of ``asker`` ending its move in the ``alarm`` cell makes the module ask
  the other side, at once, whether its pickets ``fire`` or ``hold`` (default ``hold``), with
  ``seconds`` to answer; the answer is noted.

Register it with the ``probe`` fixture of the tests that use it (``registered()``).

The probe module's fixture and scenario: a rule module that records every hook the engine
calls, and the way to a question it asks.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

import pytest

from rules import commands as cmd
from rules.events import GameEvent
from rules.forces.location import Withdrawn
from rules.forces.units import Unit
from rules.ground.grid import Cell
from rules.modules.api import RuleModule
from rules.modules.data import data_of, with_module_data
from rules.modules.registry import MODULES, register
from rules.orders.stops import Stop, StopKind
from rules.outcome import Outcome
from rules.state import GameState, with_units
from rules.turn.reaction import Question, ask
from tests.support.tiny_games import FIXTURES
from umpire.service import Umpire

NAME = "probe"


#: The probe's own kind of stop: a module's new reason is a ``Stop`` like any other.
TRIPWIRE = Stop(StopKind.RULE, "it tripped the probe's wire")


class ProbeNoted(GameEvent):
    type: Literal["probe_noted"] = "probe_noted"
    note: str
    units: tuple[str, ...] = ()


class ProbeWithdrew(GameEvent):
    type: Literal["probe_withdrew"] = "probe_withdrew"
    unit: str


class ProbeScored(GameEvent):
    type: Literal["probe_scored"] = "probe_scored"
    roll: int


class Probe(RuleModule):
    name = NAME

    def __init__(self) -> None:
        self.tripwire: Cell | None = None
        self.alarm: Cell | None = None
        self.asker = "blue"
        self.seconds: int | None = None
        self.holds = True
        self.raise_in_stop: Exception | None = None
        self.withdraw_at_start: str | None = None

    def apply(self, state: GameState, event: GameEvent) -> GameState | None:
        data = dict(data_of(state, NAME))
        match event:
            case ProbeNoted(note=note, units=units):
                data["notes"] = [*data.get("notes", []), [note, list(units)]]
            case ProbeScored(roll=roll):
                data["score"] = roll
            case ProbeWithdrew(unit=uid):
                return with_units(state, {uid: replace(state.units[uid], location=Withdrawn())})
            case _:
                return None
        return with_module_data(state, NAME, data)

    def on_game_start(self, out: Outcome) -> None:
        sighted = sum(1 for e in out.events if e.type == "sighted")
        out.add(ProbeNoted(audience="umpire", note=f"start after {sighted} sightings"))
        if self.withdraw_at_start:
            out.add(ProbeWithdrew(audience="umpire", unit=self.withdraw_at_start))

    def on_game_end(self, out: Outcome) -> None:
        value, _ = out.roll("probe victory", "1d6", "public")
        out.add(ProbeScored(audience="public", roll=value))

    def on_positions_changed(self, out: Outcome, units: tuple[str, ...]) -> None:
        if units:
            out.add(ProbeNoted(audience="umpire", note="moved", units=units))

    def stop_reason(self, state: GameState, unit: Unit, cell: Cell) -> Stop | None:
        if self.raise_in_stop is not None:
            raise self.raise_in_stop
        return TRIPWIRE if cell == self.tripwire else None

    def after_move(self, out: Outcome, unit_id: str) -> None:
        unit = out.state.units[unit_id]
        if unit.side != self.asker or unit.cell != self.alarm:
            return
        other = next(s for s in out.state.sides if s != unit.side)
        ask(out, NAME, other, unit_id, ("fire", "hold"), "hold",
            "An enemy column is in sight of your pickets.", seconds=self.seconds,
            holds=self.holds)

    def on_answer(self, out: Outcome, question: Question, choice: str, by_default: bool) -> None:
        out.add(ProbeNoted(audience="umpire", note=f"{question.id} {choice}"
                           + (" by default" if by_default else ""), units=(question.topic,)))


def notes(state: GameState) -> list[tuple[str, tuple[str, ...]]]:
    return [(n, tuple(u)) for n, u in data_of(state, NAME).get("notes", [])]


def score(state: GameState) -> Any:
    return data_of(state, NAME).get("score")


@contextmanager
def registered() -> Iterator[Probe]:
    """The probe, registered for the duration (and forgotten after)."""
    probe = register(Probe())
    assert isinstance(probe, Probe)
    try:
        yield probe
    finally:
        MODULES.pop(NAME, None)


HOST, BLUE, GREY = 1, 10, 20


@pytest.fixture
def probe() -> Iterator[Probe]:
    with registered() as module:
        yield module


# -- vedette verify re-derives the end hook's roll -------------------------------------------------
def probe_scenario(tmp_path: Path) -> str:
    text = (FIXTURES / "tiny.toml").read_text(encoding="utf-8")
    text = text.replace('information = "open"\n', 'information = "open"\nmodules = ["probe"]\n')
    shutil.copy(FIXTURES / "tiny.ruleset.toml", tmp_path / "tiny.ruleset.toml")
    path = tmp_path / "probe.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


# -- the umpire's clock ----------------------------------------------------------------------------
async def _question_asked(umpire: Umpire, probe: Probe, tmp_path: Path, game_id: str) -> None:
    """A game in which Blue's move has just put Grey a question with a 60-second clock."""
    await umpire.create_game(probe_scenario(tmp_path), HOST, game_id=game_id, channel_id=None)
    await umpire.join(game_id, BLUE, "blue")
    await umpire.join(game_id, GREY, "grey")
    await umpire.start(game_id, HOST)
    probe.alarm = (await umpire.repository.state_for(game_id)).loaded.board.parse("A0304")
    await umpire.handle(game_id, BLUE, cmd.Move(unit="1st Brigade", route="A0304"))
