"""The turn sequence: the ruleset's phases unrolled into steps, and the turn track's clock.

A phase played by ``each`` side becomes one step per side, in the order the scenario lists the
sides; a phase played by ``all`` is one step in which every side acts and which ends when all have
said they are done. A phase passes by itself when none of its actions can be taken under the
rule modules in force (the end of turn always; the fire phase when combat is not played).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.ruleset import Phase, Ruleset
from rules.scenario import Scenario, TurnSpec

DEFAULT_SEQUENCE: tuple[Phase, ...] = (
    Phase(id="command", name="Command Phase", side="all", actions=("order",)),
    Phase(id="movement", name="Movement and Close Combat Phase", side="each",
          actions=("move", "formation")),
    Phase(id="fire", name="Fire Phase", side="each", actions=("fire",)),
    Phase(id="end", name="End of Turn", side="all", actions=()),
)


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a turn: a phase, the side whose step it is (``None``: every side), and the
    actions that can be taken in it under the modules in force."""

    phase: Phase
    side: str | None
    actions: frozenset[str] = frozenset()

    @property
    def title(self) -> str:
        return self.phase.name

    def acting(self, sides: tuple[str, ...]) -> tuple[str, ...]:
        """The sides that act in this step."""
        if not self.actions:
            return ()
        return sides if self.side is None else (self.side,)

    def allows(self, action: str) -> bool:
        return action in self.actions


def steps(ruleset: Ruleset, sides: tuple[str, ...], available: frozenset[str]
          ) -> tuple[Step, ...]:
    """The steps of one turn; ``available`` are the actions the modules in force provide."""
    out: list[Step] = []
    for phase in ruleset.sequence or DEFAULT_SEQUENCE:
        actions = frozenset(phase.actions) & available
        if phase.side == "each":
            out += [Step(phase, s, actions) for s in sides]
        else:
            out.append(Step(phase, None, actions))
    return tuple(out)


def turn_spec(scenario: Scenario, turn: int) -> TurnSpec:
    """The turn track's entry for a turn (the last entry past the end)."""
    for t in scenario.turns:
        if t.turn == turn:
            return t
    return scenario.turns[-1]


def visibility(scenario: Scenario, ruleset: Ruleset, turn: int) -> int:
    """Hexes a unit can see in this turn: the track's figure, else the ruleset's default."""
    spec = turn_spec(scenario, turn)
    return spec.visibility if spec.visibility is not None else ruleset.visibility


def is_night(scenario: Scenario, turn: int) -> bool:
    """A full or partial night turn (twilight counts as partial night)."""
    return turn_spec(scenario, turn).light in ("night", "twilight")
