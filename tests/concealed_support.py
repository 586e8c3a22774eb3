"""Shared pieces of the concealed-forces tests: flank-march on the engine, and dice that are
the game's own except for the breeding roll, so that two games differ only in what is under a
marker."""

from __future__ import annotations

from pathlib import Path

from rules.scenario.loader import load
from tests.surprise_support import Dice, Game
from umpire.games.dice import SeededDice

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "flank-march.toml"
RULESET = ROOT / "scenarios" / "brigade-series.ruleset.toml"
SEED = bytes(range(32))
COLSTON = "Brig. Gen. Raleigh E. Colston"
DIVISION = "Colston's (Trimble's) Division"
#: A cell next to Colston's, out of the Union's sight and reach (a marker may step there).
NEXT_DOOR = "A1816"
BREEDING = "which of markers"


class Rigged(Dice):
    """The game's own seeded dice, except the breeding roll (which of the two markers holds
    the force), which is given: so that two games differ only in what is under a marker.
    ``holds`` is 1 for the lower id, 2 for the higher, rolled as the breeding d6 reads them
    (1-3 the lower, 4-6 the higher)."""

    def __init__(self, seed: bytes, game_id: str, holds: int) -> None:
        super().__init__()
        self.real = SeededDice(seed, game_id)
        self.holds = holds

    def __call__(self, seq: int, purpose: str, dice: str) -> int:
        if purpose.startswith(BREEDING):
            return 1 if self.holds == 1 else 6
        return self.real(seq, purpose, dice)


class FlankMarch:
    """Flank-march on the engine with the given dice."""

    def __init__(self, dice: Dice) -> None:
        self.game = Game(load(SCENARIO.read_text(), str(SCENARIO), RULESET.read_text(),
                              str(RULESET)), dice)

    def to_confederate_movement(self, turn: int) -> None:
        for _ in range(60):
            s = self.game.state
            if s.turn == turn and s.current.allows("move") and "confederate" in s.acting_sides():
                return
            self.game.step()
        raise AssertionError(f"never reached turn {turn}")


def flank_march(dice: Dice) -> FlankMarch:
    return FlankMarch(dice)
