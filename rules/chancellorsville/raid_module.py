"""The ``raid_victory`` rule module: the Federal cavalry raid and the victory roll.

* The raid: the Federal player elects it at the start, before the first turn, and once it goes
  the Confederate player chooses whether his units leave the board (``rules.chancellorsville.
  election``); the host or the scenario may set either beforehand (options ``raid`` and
  ``off_board``). Raiders set beforehand are never created (``left_out``); raiders elected at
  the start leave before any side sees anything. A public event says the raid went; the
  Confederates see every Federal unit face up (``open``) and the Federals see Confederate units
  face down where they stand (``inverted``) or, off the board, only while sighted, with ghosts
  of what they last saw (``hidden``). This replaces the hidden-units rule's face-down counters.
* The victory roll (option ``victory_roll``): at the end, the raid die (if the raid went) picks
  the chart's column, and the chart is read with the Federal margin; who holds each scored place
  is kept during play in umpire-only events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.chancellorsville import election, victory
from rules.chancellorsville.events import (
    EVENTS,
    CountersPlaced,
    PlacesHeld,
    RaidElected,
    VictoryDecided,
)
from rules.chancellorsville.raid import raid_goes, raiders
from rules.chancellorsville.settings import OUTCOME_COLUMN, RaidSettings
from rules.chancellorsville.spec import RAID_SPEC, RAID_VICTORY, VICTORY_OPTION
from rules.events import GameEvent
from rules.knowledge.information import InformationModel
from rules.modules.api import RuleModule, data_of
from rules.modules.registry import register
from rules.modules.settings import settings_of
from rules.state import GameState, with_module_data
from rules.turn.victory import chart_reading

if TYPE_CHECKING:
    from rules.outcome import Outcome
    from rules.scenario.loader import LoadedScenario
    from rules.turn.reaction import Question


def settings(loaded: LoadedScenario) -> RaidSettings:
    """The scenario's ``[settings.raid_victory]``."""
    return settings_of(loaded, RAID_VICTORY, RaidSettings)


def _raid(state: GameState) -> bool:
    return election.raid_chosen(state) is True


def _victory_roll(state: GameState) -> bool:
    return RAID_SPEC.option(state.loaded.scenario.scenario.options, VICTORY_OPTION) is True


class RaidVictory(RuleModule):
    spec = RAID_SPEC

    # -- the raid ----------------------------------------------------------------------------------
    def left_out(self, loaded: LoadedScenario) -> frozenset[str]:
        if not raid_goes(loaded.scenario.scenario.options):
            return frozenset()
        return raiders(loaded, settings(loaded))

    def on_game_start(self, out: Outcome) -> None:
        election.at_start(out, settings(out.state.loaded))
        if election.settled(out.state):
            self._track_places(out)

    def on_answer(self, out: Outcome, question: Question, choice: str, by_default: bool) -> None:
        election.answered(out, settings(out.state.loaded), question, choice, by_default)
        if election.settled(out.state):
            # Places are held from the start by the units that are in the game once the
            # raiders have left (ruling CV-15).
            self._track_places(out)

    def information_model(self, state: GameState, viewer: str,
                          model: InformationModel) -> InformationModel:
        """Until the choices are made, neither side sees anything of the enemy (ruling CV-41).
        With the raid, the Confederate sees the Federal units face up, and the Federal sees the
        Confederates face down where they stand, or only when sighted, with ghosts, when they
        are off the board (rulings CV-12, CV-40)."""
        s = settings(state.loaded)
        if viewer not in (s.federal, s.confederate):
            return model
        if not election.settled(state):
            return InformationModel.HIDDEN
        if not _raid(state):
            return model
        if viewer == s.confederate:
            return InformationModel.OPEN
        return InformationModel.HIDDEN if election.off_board(state) else InformationModel.INVERTED

    # -- who holds the places ----------------------------------------------------------------------
    def on_positions_changed(self, out: Outcome, units: tuple[str, ...]) -> None:
        if units:
            self._track_places(out)

    def _track_places(self, out: Outcome) -> None:
        """Record, for the umpire only, the scored places that changed hands (ruling CV-15)."""
        if not _victory_roll(out.state):
            return
        s = settings(out.state.loaded)
        if not s.victory.places:
            return
        changed = victory.changed_hands(out.state, s)
        if changed:
            out.add(PlacesHeld(audience="umpire", held=changed))

    def apply(self, state: GameState, event: GameEvent) -> GameState | None:
        if not isinstance(event, EVENTS):
            return None
        if isinstance(event, RaidElected | CountersPlaced):
            return election.fold(state, event, settings(state.loaded))
        if isinstance(event, PlacesHeld):
            data = dict(data_of(state, RAID_VICTORY))
            data["held"] = {**data.get("held", {}), **event.held}
            return with_module_data(state, RAID_VICTORY, data)
        return state  # the raid and the victory change no state: they tell

    # -- the end -----------------------------------------------------------------------------------
    def on_game_end(self, out: Outcome) -> None:
        state = out.state
        if not _victory_roll(state):
            return
        s = settings(state.loaded)
        raid = _raid(state)
        roll, outcome = 0, ""
        if raid:
            roll, outcome = out.roll(victory.RAID_ROLL, "1d6", "public", table="raid_outcome",
                                     column=OUTCOME_COLUMN)
        column = victory.column_after(raid, outcome)
        points = victory.score(out.state, s)
        chart = state.loaded.ruleset.tables["victory"]
        result = chart.lookup(points.margin, column)
        reading = chart_reading(chart, "victory", column, points.margin,
                                state.loaded.ruleset.stand_in)
        out.add(VictoryDecided(audience="public", raid=raid, roll=roll, column=column,
                               federal=points.federal, confederate=points.confederate,
                               margin=points.margin, result=result,
                               words=chart.results.get(result, result),
                               places=victory.places_held(out.state, s),
                               scores=victory.scores(out.state, s), chart=reading,
                               stand_in=s.victory.stand_in))


register(RaidVictory())
