"""The turn sequence: the ruleset's phases unrolled into steps, and the turn track's clock.

A phase played by ``each`` side becomes one step per side, in the order the scenario lists the
sides; a phase played by ``all`` is one step in which every side acts and which ends when all have
said they are done. A phase passes by itself when none of its actions can be taken under the
rule modules in force (the end of turn always; the fire phase when combat is not played).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.modules.catalog import visibility_limit
from rules.scenario.bounds import MAX_BOARD_SIDE
from rules.scenario.models import Scenario, TurnSpec
from rules.scenario.ruleset import Phase, Ruleset
from rules.sighting.paths import ClearPath
from rules.sighting.registry import DEFAULT_RULE

#: The range that stands for none: farther than any two cells of a board can lie apart.
NO_LIMIT = 2 * MAX_BOARD_SIDE

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


def asked_visibility(scenario: Scenario, ruleset: Ruleset, turn: int) -> int:
    """The visibility the files ask for in this turn: the track's figure, else the ruleset's."""
    spec = turn_spec(scenario, turn)
    return spec.visibility if spec.visibility is not None else ruleset.visibility


def reads_path_limit(scenario: Scenario) -> bool:
    """Whether the scenario's sighting rule is ``clear_path``, which has no range of its own
    and reads a turn's ``clear_path_limit`` instead of the visibility (ruling CV-6)."""
    return scenario.scenario.options.get("sighting", DEFAULT_RULE) == ClearPath.name


def sight_limit(scenario: Scenario, ruleset: Ruleset, turn: int,
                modules: Iterable[str] | None = None) -> int | None:
    """How far a unit can see in this turn, in cells (``None``: no limit). Under ``clear_path``
    the turn's ``clear_path_limit``, else none: it sees as far as its paths run (ruling CV-6);
    under any other rule the track's visibility, else the ruleset's default. Never beyond the
    limit of the rule modules in force (``modules``; the scenario's own list when not given):
    Surprise Move caps it at 20 (ruling LOS-8)."""
    if reads_path_limit(scenario):
        asked: int | None = turn_spec(scenario, turn).clear_path_limit
    else:
        asked = asked_visibility(scenario, ruleset, turn)
    limit = visibility_limit(scenario.scenario.modules if modules is None else modules)
    if limit is None:
        return asked
    return limit if asked is None else min(asked, limit)


def visibility(scenario: Scenario, ruleset: Ruleset, turn: int,
               modules: Iterable[str] | None = None) -> int:
    """The range the sighting rule is asked for in this turn: ``sight_limit``, with ``NO_LIMIT``
    where it has none."""
    limit = sight_limit(scenario, ruleset, turn, modules)
    return NO_LIMIT if limit is None else limit


def visibility_warnings(scenario: Scenario, ruleset: Ruleset) -> tuple[str, ...]:
    """What a scenario author should hear about turns that ask to see farther than the rule
    modules allow (ruling LOS-8): one line for the turn track, one for the ruleset's default,
    each naming the turns. The scenario still loads and plays; play reads the limit."""
    out = list(_path_limit_warnings(scenario))
    limit = visibility_limit(scenario.scenario.modules)
    if limit is None:
        return tuple(out)
    track = [t for t in scenario.turns if t.visibility is not None and t.visibility > limit]
    if track:
        asked = sorted({t.visibility for t in track if t.visibility is not None})
        verb = "asks" if len(track) == 1 else "ask"
        out.append(f"{_turns([t.turn for t in track])} {verb} for visibility "
                   f"{', '.join(map(str, asked))}, beyond the Surprise Move limit of {limit} "
                   f"hexes: read as {limit}")
    if ruleset.visibility > limit:
        untold = [t.turn for t in scenario.turns if t.visibility is None]
        if untold:
            out.append(f"the ruleset's visibility {ruleset.visibility}, used by "
                       f"{_turns(untold)}, is beyond the Surprise Move limit of {limit} hexes: "
                       f"read as {limit}")
    return tuple(out)


def _path_limit_warnings(scenario: Scenario) -> tuple[str, ...]:
    """A figure the scenario's sighting rule does not read: a turn's ``visibility`` under
    ``clear_path``, a turn's ``clear_path_limit`` under any other rule (ruling CV-6)."""
    if reads_path_limit(scenario):
        unread = [t.turn for t in scenario.turns if t.visibility is not None]
        why = ("the clear_path sighting rule does not read it: give clear_path_limit for a "
               "night or weather limit")
        name = "visibility"
    else:
        unread = [t.turn for t in scenario.turns if t.clear_path_limit is not None]
        why = "only the clear_path sighting rule reads it"
        name = "clear_path_limit"
    if not unread:
        return ()
    verb = "sets" if len(unread) == 1 else "set"
    return (f"{_turns(unread)} {verb} {name}, but {why}",)


def _turns(numbers: list[int]) -> str:
    """Turn numbers in words: "turn 3", "turns 3, 5", "turns 1-5"."""
    numbers = sorted(set(numbers))
    if len(numbers) == 1:
        return f"turn {numbers[0]}"
    runs: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        runs.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return "turns " + ", ".join(runs)


def is_night(scenario: Scenario, turn: int) -> bool:
    """A full or partial night turn (twilight counts as partial night)."""
    return turn_spec(scenario, turn).light in ("night", "twilight")
