"""Rule options chosen when a game is created: which are allowed, and how they are announced.

A rule module's option (its ``ModuleSpec.options``) may be chosen for a game only if the game
plays that module: choosing the raid for a scenario without the ``raid_victory`` module would
change nothing, and saying nothing about it would let a group believe it plays the raid (ruling
CV-30). A chosen value has the kind of the option's default, as in a scenario file. Options no
module declares must be the core's (``announce_finished``); any other is refused.

Everything chosen at creation is announced in the game's channel, in the words of the option's
module (``ModuleSpec.option_words``) or the core's (``OPTION_WORDS``); so are the options of a
module whose spec says so (``announce_options``) even when left at the scenario's values: whether
the Federal cavalry rode off on the Chancellorsville raid changes what both sides see, so both
are told (ruling CV-31).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.knowledge.public import ANNOUNCE_FINISHED
from rules.modules.catalog import SPEC_BY_NAME
from rules.modules.spec import OptionValue
from rules.scenario.loader import LoadedScenario
from rules.turn.idle import AUTO_PASS, AUTO_PASS_ALONE
from umpire.answers import UmpireError
from umpire.clock.phase_clock import DEADLINE_ACTION, DEADLINE_ACTIONS, DONE, PING
from umpire.games.ready import READY_CHOICES, READY_DEFAULT, READY_OPTION, READY_WORDS
from umpire.games.seats import HOST_UMPIRES
from umpire.words.status_post import MENTION_PLAYERS

#: What each announced core option means, by its value, in the players' words (a rule module's
#: options: its spec's ``option_words``).
OPTION_WORDS: dict[str, dict[OptionValue, str]] = {
    ANNOUNCE_FINISHED: {
        True: "each side's finish of a phase played at once is announced",
        False: "only a phase's end is announced",
    },
    DEADLINE_ACTION: {
        DONE: "at a phase's deadline, the sides still at it are marked done",
        PING: "at a phase's deadline, the host is told and the phase waits",
    },
    READY_OPTION: READY_WORDS,
    MENTION_PLAYERS: {
        True: "the turn's post in the channel mentions the players it calls to their orders",
        False: "the channel mentions nobody; the orders come by direct message only",
    },
    AUTO_PASS: {
        True: "a side with nothing it can do in a phase played at once passes it by itself",
        False: "every phase waits for each side's /done",
    },
    AUTO_PASS_ALONE: {
        True: "a side with nothing it can do passes its own phases by itself too (the enemy "
              "sees at once that it had nothing to do)",
        False: "a side's own phases wait for its /done, even with nothing to do",
    },
    HOST_UMPIRES: {
        True: "the host umpires: the host takes no side and reads every side's map, units and "
              "reports during the game; no player sees them before the end",
        False: "the host umpires nothing hidden: a host who plays sees only their own side",
    },
}

#: The core's options a host may choose, with the value each takes when not chosen.
CORE_OPTIONS: Mapping[str, OptionValue] = {ANNOUNCE_FINISHED: False, DEADLINE_ACTION: DONE,
                                           READY_OPTION: READY_DEFAULT, MENTION_PLAYERS: True,
                                           AUTO_PASS: True, AUTO_PASS_ALONE: False,
                                           HOST_UMPIRES: False}

#: Core options whose value is stored with every new game, chosen or not: a game recorded
#: before the option existed lacks it and must still play (and verify) as it was played then
#: (ruling FLOW-13).
STAMPED: tuple[str, ...] = (AUTO_PASS,)

#: The values a core option given as a word may take (any other is refused).
CORE_CHOICES: Mapping[str, tuple[str, ...]] = {DEADLINE_ACTION: DEADLINE_ACTIONS,
                                               READY_OPTION: READY_CHOICES}

_KIND = {bool: "true or false", int: "a whole number", str: "a word"}

#: Modules whose options are announced whether chosen or not (``ModuleSpec.announce_options``).
ALWAYS_ANNOUNCED: tuple[str, ...] = tuple(name for name, spec in SPEC_BY_NAME.items()
                                          if spec.announce_options)


def owner(key: str) -> str | None:
    """The rule module declaring the option ``key`` (``None``: a core option or none)."""
    return next((name for name, spec in SPEC_BY_NAME.items() if key in spec.options), None)


def in_force(loaded: LoadedScenario, without: Sequence[str]) -> tuple[str, ...]:
    """The scenario's modules the game plays."""
    return tuple(m for m in loaded.scenario.scenario.modules if m not in without)


def check(loaded: LoadedScenario, without: Sequence[str],
          chosen: Mapping[str, OptionValue]) -> None:
    """Refuse (``UmpireError``) an option of a module the game does not play, or a value of
    the wrong kind; nothing is created then."""
    played = in_force(loaded, without)
    for key, value in chosen.items():
        module = owner(key)
        if module is None:
            if key not in CORE_OPTIONS:
                raise UmpireError(f"there is no game option {key[:40]!r}")
            if type(value) is not type(CORE_OPTIONS[key]):
                raise UmpireError(f"the option {key!r} is {_KIND[type(CORE_OPTIONS[key])]}, "
                                  f"not {value!r}")
            allowed = CORE_CHOICES.get(key)
            if allowed is not None and value not in allowed:
                raise UmpireError(f"the option {key!r} is one of {', '.join(allowed)}, "
                                  f"not {str(value)[:40]!r}")
            continue
        spec = SPEC_BY_NAME[module]
        if module not in played:
            raise UmpireError(
                f"the option {key!r} belongs to the rule module {module!r} ({spec.source}), "
                f"which scenario {loaded.id!r} does not play; create the game without it")
        default = spec.options[key]
        if type(value) is not type(default):
            raise UmpireError(f"the option {key!r} is {_KIND[type(default)]}, not {value!r}")


def announcement(loaded: LoadedScenario, without: Sequence[str],
                 chosen: Mapping[str, OptionValue]) -> str:
    """The create post's line of rule options ("" if there is nothing to say). ``loaded`` is
    the scenario as read from its file; ``chosen`` what the host chose over it."""
    played = in_force(loaded, without)
    keys = list(chosen)
    for module in ALWAYS_ANNOUNCED:
        if module in played:
            keys += [k for k in SPEC_BY_NAME[module].options if k not in keys]
    if not keys:
        return ""
    parts = []
    for key in keys:
        in_play = _chosen_in_play(loaded, key, chosen)
        if in_play:
            parts.append(in_play)
            continue
        value = _value(loaded, key, chosen)
        words = _words(key).get(value, f"{key.replace('_', ' ')}: {_value_words(value)}")
        parts.append(f"{words} ({'chosen by the host' if key in chosen else 'the scenario'})")
    return "Rule options: " + "; ".join(parts) + "."


def _words(key: str) -> Mapping[OptionValue, str]:
    """What the option ``key`` means by value: its module's words, or the core's."""
    module = owner(key)
    if module is not None:
        return SPEC_BY_NAME[module].option_words.get(key, {})
    return OPTION_WORDS.get(key, {})


def _chosen_in_play(loaded: LoadedScenario, key: str,
                    chosen: Mapping[str, OptionValue]) -> str:
    """What the create post says of an option that a player chooses at the start, because
    neither the host nor the scenario set it ("" if it is set, or not chosen in play)."""
    module = owner(key)
    if module is None or key in chosen or key in loaded.scenario.scenario.options:
        return ""
    return SPEC_BY_NAME[module].chosen_in_play.get(key, "")


def _value_words(value: OptionValue) -> str:
    """An option's value as people say it (an option without words of its own)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _value(loaded: LoadedScenario, key: str,
           chosen: Mapping[str, OptionValue]) -> OptionValue:
    if key in chosen:
        return chosen[key]
    module = owner(key)
    if module is not None:
        return SPEC_BY_NAME[module].option(loaded.scenario.scenario.options, key)
    return loaded.scenario.scenario.options.get(key, "")


def stamped(loaded: LoadedScenario, chosen: Mapping[str, OptionValue]
            ) -> dict[str, OptionValue]:
    """The rule options to store with a new game: those chosen, and each of ``STAMPED`` at the
    value it takes when neither the host nor the scenario chose it."""
    header = loaded.scenario.scenario.options
    return {**{k: CORE_OPTIONS[k] for k in STAMPED if k not in chosen and k not in header},
            **chosen}


def core_option(options: Mapping[str, OptionValue], key: str) -> OptionValue:
    """The value of the core option ``key`` among a game's ``options`` (the scenario's, with
    the host's choices laid over them), or its default when neither chose it."""
    default = CORE_OPTIONS[key]
    value = options.get(key, default)
    return value if type(value) is type(default) else default
