"""Helpers for the Surprise Move tests: the test ground, scripted dice, and a game driven
through the rules engine phase by phase."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from rules import commands as cmd
from rules import engine
from rules.engine import Outcome
from rules.events import GameEvent
from rules.forces.location import Withdrawn
from rules.ground.grid import Cell
from rules.scenario.loader import LoadedScenario, load
from rules.state import GameState, initial_state, with_units
from rules.surprise import records as rec
from rules.surprise.commands import (
    ExecuteSurpriseMove,
    OrderSurpriseMove,
)
from rules.view import project, public_view

FIXTURES = Path(__file__).parents[1] / "fixtures"
SCENARIO = FIXTURES / "surprise.toml"
RULESET = FIXTURES / "surprise.ruleset.toml"
FORCE = "1st Division, Blue Horse"
ROUTE = "road A2005"


SAMPLE_RULESET = FIXTURES.parent.parent / "scenarios" / "brigade-series.ruleset.toml"


def scenario_file(tmp_path: Path) -> Path:
    """The test ground as a scenario file in ``tmp_path`` (its ruleset named by full path), for
    games made through the umpire or the bot."""
    text = SCENARIO.read_text(encoding="utf-8").replace(
        'ruleset = "surprise.ruleset.toml"', f'ruleset = "{RULESET}"')
    path = tmp_path / "ground.toml"
    path.write_text(text, encoding="utf-8")
    return path


def load_ground(*edits: tuple[str, str], ruleset: Path = RULESET) -> LoadedScenario:
    """The test ground, with text edits to the scenario (and another ruleset)."""
    text = SCENARIO.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    return load(text, str(SCENARIO), ruleset.read_text(encoding="utf-8"), str(ruleset))


class Dice:
    """Scripted dice. ``queues`` maps a word of the roll's purpose (``acceptance``,
    ``accumulation``, ``initiative``, ``stragglers``) to the values to give, in order; other
    rolls (and exhausted queues) give ``default`` (per dice)."""

    def __init__(self, default: Mapping[str, int] | None = None,
                 **queues: Iterable[int]) -> None:
        self.default = {"1d6": 1, "2d6": 9, **(default or {})}
        self.queues = {k: list(v) for k, v in queues.items()}
        self.log: list[tuple[str, int]] = []

    def __call__(self, seq: int, purpose: str, dice: str) -> int:
        value = self.default.get(dice, 1)
        for key, values in self.queues.items():
            if key in purpose.lower() and values:
                value = values.pop(0)
                break
        self.log.append((purpose, value))
        return value

    def set(self, **queues: Iterable[int]) -> None:
        for k, v in queues.items():
            self.queues[k] = list(v)


def engine_refusal(state: GameState, side: str, command: cmd.Command) -> str | None:
    """The engine's refusal of the command on the state (nothing is kept), or ``None``."""
    try:
        engine.decide(state, side, command, Dice())
    except engine.Refusal as why:
        return str(why)
    return None


class Game:
    """A game on the engine: ``do`` a command, ``to`` a phase (every acting side says done)."""

    def __init__(self, loaded: LoadedScenario | None = None, dice: Dice | None = None,
                 without: tuple[str, ...] = ()) -> None:
        self.loaded = loaded or load_ground()
        self.dice = dice or Dice()
        out = engine.start(initial_state(self.loaded, without), "sha", self.dice)
        self.state = out.state
        self.events: list[GameEvent] = list(out.events)

    @property
    def board(self) -> Any:
        return self.loaded.board

    def cell(self, label: str) -> Cell:
        return self.loaded.board.parse(label)

    def label(self, unit_id: str) -> str:
        cell = self.state.units[unit_id].cell
        return self.board.label(cell) if cell is not None else "-"

    def do(self, side: str, command: cmd.Command) -> Outcome:
        out = engine.decide(self.state, side, command, self.dice)
        self.state = out.state
        self.events += out.events
        return out

    def step(self) -> None:
        """Every acting side says it is done (one step passes)."""
        for side in self.state.acting_sides():
            self.do(side, cmd.Done())

    def at(self, turn: int, phase: str, side: str | None = None) -> bool:
        cur = self.state.current
        return (self.state.turn == turn and cur.phase.id == phase
                and (side is None or cur.side == side))

    def to(self, turn: int, phase: str, side: str | None = None, limit: int = 200) -> None:
        """Play on (everyone done) until that step is current."""
        for _ in range(limit):
            if self.at(turn, phase, side):
                return
            if self.state.status != "active":
                break
            self.step()
        raise AssertionError(f"never reached turn {turn} {phase} {side}")

    def place(self, **where: str | None) -> None:
        """Put units at labels (or off the map) by hand."""
        changed = {uid: (self.state.units[uid].placed(self.cell(lab)) if lab
                         else replace(self.state.units[uid], location=Withdrawn()))
                   for uid, lab in where.items()}
        self.state = with_units(self.state, changed)

    def march(self, label: str = "m1", side: str | None = None) -> Mapping[str, Any]:
        """One of a side's marches by its label (its own numbering); by default the side of the
        game's first march."""
        if side is None:
            side = str(rec.marches(self.state)[0]["side"])
        return rec.find(self.state, side, label)

    def reports(self, side: str, since: int = 0) -> list[str]:
        """The words of module events and side reports addressed to ``side``."""
        out = []
        for e in self.events[since:]:
            if e.audience in (f"side:{side}", "public"):
                # Worded from the audience's view, as the umpire words it.
                view = public_view(self.state) if e.audience == "public" else project(
                    self.state, side)
                text = e.report(view)
                if text:
                    out.append(text)
        return out

    def types(self, since: int = 0) -> list[str]:
        return [e.type for e in self.events[since:]]


def with_state(game: Game, state: GameState) -> Game:
    game.state = state
    return game


def same_view(one: Game, two: Game, side: str) -> bool:
    """Whether the side's views of two games are the same (each game loads its own copy of
    the same board, so the board is taken from one for both)."""
    a, b = project(one.state, side), project(two.state, side)
    return replace(a, game_map=b.game_map) == b


ALTERNATE = ('modules = ["surprise_move"]',
             'modules = ["surprise_move"]\noptions = { surprise_collision = "alternate" }')

def two_marches(*edits: tuple[str, str]) -> Game:
    """Blue's division east and Grey's brigade west on the same road, both accepted; Blue sets
    off in turn 3."""
    game = Game(load_ground(*edits), Dice(initiative=[2]))
    game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE, by_initiative=True))
    game.do("grey", OrderSurpriseMove(force="Grey Brigade, General Ash", route="road A0705",
                                      detour="never"))  # Ash is the army: given in person
    game.to(3, "command")
    assert game.march("m1", "grey")["status"] == rec.ACCUMULATING
    game.do("blue", ExecuteSurpriseMove())
    return game


def accepted(dice: Dice | None = None, turn: int = 1, **more: object) -> Game:
    """A game whose Blue force took its order by initiative in turn ``turn``."""
    game = Game(dice=dice or Dice())
    game.dice.queues.setdefault("initiative", [])
    game.dice.queues["initiative"].insert(0, 2)
    game.to(turn, "command")
    fields: dict[str, object] = {"force": FORCE, "route": ROUTE, "by_initiative": True, **more}
    game.do("blue", OrderSurpriseMove(**fields))  # type: ignore[arg-type]
    assert game.march()["status"] == rec.ACCUMULATING
    return game


def horse_near(game: Game) -> None:
    """Bring the Grey Horse within a ride of the Blue force's tail (by hand); it triggers by
    moving to A0103, two hexes from the 3rd Brigade and away from the column's road east."""
    game.place(**{"grey-cav": "A0101"})


def combat_game(*, on_order: bool = True) -> Game:
    """The test ground with the combat module (sample ruleset); the Blue force takes its order
    by initiative in turn 1 (or not). Fire rolls 10 and the morale roll 6: no losses, and the
    target is disorganized and falls back two cells."""
    loaded = load_ground(('modules = ["surprise_move"]', 'modules = ["surprise_move", "combat"]'),
                         ruleset=SAMPLE_RULESET)
    game = Game(loaded, Dice(initiative=[2], fire=[10], morale=[6]))
    if on_order:
        game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE, by_initiative=True))
    return game
