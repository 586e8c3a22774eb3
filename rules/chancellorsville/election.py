"""The raid's two choices, made at the start (rule text 002, rulings CV-39 to CV-41).

The article has the Union commander elect the raid, and then lets the Confederate player keep
his units off the board. Each is a question put to that side before the first turn
(``rules.turn.opening``): the Federal player answers ``raid`` or ``no-raid``; once the raid goes,
the Confederate player answers ``off-board`` or ``face-down``. Either may be set beforehand by
the host or the scenario (the options ``raid`` and ``off_board``), and is then not asked. Both
answers are public: the raid turns every Federal counter face up, and whether Confederate
counters stand on the board is plain to anyone looking at it. Until the choices are made no
side sees anything of the enemy, so nothing a side sees can follow a choice not yet made.
"""

from __future__ import annotations

from dataclasses import replace
from enum import Enum
from types import MappingProxyType

from rules.chancellorsville.events import CountersPlaced, RaidElected
from rules.chancellorsville.raid import raid_rode, raiders
from rules.chancellorsville.settings import RaidSettings
from rules.chancellorsville.spec import OFF_BOARD_OPTION, RAID_OPTION, RAID_SPEC, RAID_VICTORY
from rules.modules.data import data_of, with_module_data
from rules.outcome import Outcome
from rules.state import GameState
from rules.turn import reaction


class RaidChoice(Enum):
    """The Federal player's answer: send the cavalry on its raid, or keep it."""

    RAID = "raid"
    NO_RAID = "no-raid"


class CountersChoice(Enum):
    """The Confederate player's answer, once the raid goes: his units leave the board, or stay
    on it face down."""

    OFF_BOARD = "off-board"
    FACE_DOWN = "face-down"


#: The questions' topics.
RAID_TOPIC = "raid"
COUNTERS_TOPIC = "counters"

RAID_PROMPT = (
    "Before the first turn, the Federal commander chooses whether his cavalry rides off on its "
    "raid against Lee's communications. raid: every Federal unit of movement 8 except the "
    "headquarters and the commands the scenario keeps leaves the game, with the Confederate "
    "cavalry that follows it, and every Federal counter stands face up to the Confederates for "
    "the whole game. no-raid: the cavalry stays and both sides' counters stand face down until "
    "sighted. Your choice is announced to both sides.")
COUNTERS_PROMPT = (
    "The Federal cavalry has ridden off on its raid. Before the first turn, the Confederate "
    "player chooses where his units stand. off-board: they leave the board, and the Federals "
    "see a unit only while they sight it. face-down: they stay on the board face down, and "
    "the Federals see every counter where it stands, turned up while sighted. Your choice is "
    "announced to both sides.")


def _preset(state: GameState, key: str) -> bool | None:
    options = state.loaded.scenario.scenario.options
    return RAID_SPEC.option(options, key) is True if key in options else None


def raid_chosen(state: GameState) -> bool | None:
    """Whether the raid goes: set by the host or the scenario, else the Federal player's
    answer; ``None`` while he has not chosen."""
    preset = _preset(state, RAID_OPTION)
    if preset is not None:
        return preset
    value = data_of(state, RAID_VICTORY).get("raid")
    return None if value is None else bool(value)


def off_board(state: GameState) -> bool | None:
    """Whether the Confederate units are off the board under the raid: set beforehand, else
    the Confederate player's answer; ``None`` while he has not chosen."""
    preset = _preset(state, OFF_BOARD_OPTION)
    if preset is not None:
        return preset
    if _preset(state, RAID_OPTION) is True:
        # A raid set beforehand is played as such games always were: the Confederate units off
        # the board, unless ``off_board`` says otherwise (ruling CV-40), so their records still
        # verify.
        return True
    value = data_of(state, RAID_VICTORY).get("off_board")
    return None if value is None else bool(value)


def settled(state: GameState) -> bool:
    """Whether every choice is made: the raid's, and under the raid the Confederate's."""
    raid = raid_chosen(state)
    return raid is False or (raid is True and off_board(state) is not None)


def at_start(out: Outcome, s: RaidSettings) -> None:
    """The start: ask the Federal player, or (the raid set beforehand) say it went and ask the
    Confederate player what is still his to choose."""
    raid = raid_chosen(out.state)
    if raid is None:
        reaction.ask(out, RAID_VICTORY, s.federal, RAID_TOPIC, tuple(c.value for c in RaidChoice),
                     RaidChoice.NO_RAID.value, RAID_PROMPT, holds=False, before_play=True)
    elif raid:
        out.add(raid_rode(out.state.loaded, s, off_board(out.state)))
        _ask_counters(out, s)


def _ask_counters(out: Outcome, s: RaidSettings) -> None:
    if off_board(out.state) is None:
        reaction.ask(out, RAID_VICTORY, s.confederate, COUNTERS_TOPIC,
                     tuple(c.value for c in CountersChoice), CountersChoice.FACE_DOWN.value,
                     COUNTERS_PROMPT, holds=False, before_play=True)


def answered(out: Outcome, s: RaidSettings, question: reaction.Question, choice: str,
             by_default: bool) -> None:
    """A side's answer (or its default, when the host opened the first turn first)."""
    if question.topic == RAID_TOPIC:
        raid = choice == RaidChoice.RAID.value
        out.add(RaidElected(audience="public", raid=raid, by_default=by_default))
        if raid:
            out.add(raid_rode(out.state.loaded, s, off_board(out.state)))
            _ask_counters(out, s)
    elif question.topic == COUNTERS_TOPIC:
        out.add(CountersPlaced(audience="public",
                               off_board=choice == CountersChoice.OFF_BOARD.value,
                               by_default=by_default))


def fold(state: GameState, event: RaidElected | CountersPlaced, s: RaidSettings) -> GameState:
    """The choice kept in the module's data; the raiders taken out of the game as the raid
    goes, before any side has seen anything (ruling CV-13)."""
    data = dict(data_of(state, RAID_VICTORY))
    if isinstance(event, CountersPlaced):
        data["off_board"] = event.off_board
        return with_module_data(state, RAID_VICTORY, data)
    data["raid"] = event.raid
    state = with_module_data(state, RAID_VICTORY, data)
    if not event.raid:
        return state
    gone = raiders(state.loaded, s)
    return replace(state, units=MappingProxyType({k: u for k, u in state.units.items()
                                                  if k not in gone}))
