"""What a rule module declares about itself, in one place: a ``ModuleSpec``.

Its name (as a scenario writes it in ``modules``), the rule text it comes from, the commands it
decides and the events it folds, the actions it lets players take in a ruleset's phases, the
ruleset tables it needs, its options with their defaults, and the information models it may be
played under; and the words its front end needs from the core (the slash commands of its
actions for ``/help``, its options' words for the create post, its options as parameters of
``/game create``). ``rules.modules.catalog`` lists every module's spec; a module's
``RuleModule`` carries the same spec. A spec is plain data and imports nothing but the command
and event classes and the information models, so that the scenario loader, the turn sequence
and the log reader can all read it without importing the rules engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from rules.commands import GameCommand
from rules.events import GameEvent
from rules.knowledge.information import InformationModel
from rules.modules.settings import ModuleSettings

#: A module option's value, as a scenario's ``options`` holds it.
OptionValue = str | int | bool


@dataclass(frozen=True, slots=True)
class CreateFlag:
    """One of a module's options offered as a parameter of ``/game create``: the host chooses
    it there (left out: the scenario's value). Its type is its default's (``ModuleSpec.options``):
    true or false, a whole number, or one of ``choices``."""

    #: The option, as ``ModuleSpec.options`` names it.
    option: str
    #: The parameter's name in ``/game create``.
    parameter: str
    #: What Discord shows under the parameter.
    description: str
    #: The ``/game create`` parameter it comes right after (Discord shows them in this order).
    after: str
    #: The words a word option may take, in the order Discord offers them (empty: any, or not
    #: a word option).
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ModuleSpec:
    """One rule module's declaration. A module that is only declared (no ``RuleModule``
    registered for it) is refused at game creation as not implemented yet."""

    name: str
    #: The rule text it comes from, in words.
    source: str
    commands: tuple[type[GameCommand], ...] = ()
    events: tuple[type[GameEvent], ...] = ()
    #: Actions (as named in a ruleset's phases) this module lets players take.
    actions: frozenset[str] = frozenset()
    #: Ruleset tables the module needs; a scenario playing it under a ruleset without them is
    #: refused when it is loaded.
    tables: tuple[str, ...] = ()
    #: Options a scenario may set in ``options``, with the value used when it does not.
    options: Mapping[str, OptionValue] = field(default_factory=lambda: MappingProxyType({}))
    #: The farthest any turn may see, in cells, while the module is in force (``None``: the
    #: module sets no limit). A turn track or ruleset asking for more is read as this.
    max_visibility: int | None = None
    #: The information models the module may be played under, for every side (empty: any). A
    #: scenario choosing another model for a side is refused when it is loaded.
    models: frozenset[InformationModel] = frozenset()
    #: The cavalry rules (by letter) the module's rule text refers to: the ruleset must list
    #: each under ``cavalry_rules`` (a stand-in at least), or the scenario is refused when it
    #: is loaded.
    cavalry_rules: tuple[str, ...] = ()
    #: The shape of the module's ``[settings.<name>]`` section in a scenario (``None``: the
    #: module takes no settings, and a scenario giving it some is refused when it is loaded).
    settings: type[ModuleSettings] | None = None
    #: The slash commands that perform each of its actions (or that it adds to a core action,
    #: ``move``), as ``/help`` lists them in a phase allowing that action, in this order.
    phase_commands: Mapping[str, tuple[str, ...]] = field(
        default_factory=lambda: MappingProxyType({}))
    #: What each of its options means, by value, in the players' words: the create post says
    #: it (an option or value without words is said as ``name: value``).
    option_words: Mapping[str, Mapping[OptionValue, str]] = field(
        default_factory=lambda: MappingProxyType({}))
    #: Whether the create post announces its options even when left at the scenario's values
    #: (an option that changes what both sides see, as the raid's: ruling CV-31).
    announce_options: bool = False
    #: Options that a player chooses at the start when neither the host nor the scenario sets
    #: them, with what the create post says of each then (the Federal player's raid: CV-39).
    chosen_in_play: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: Its options that ``/game create`` offers as parameters (the others only a scenario sets).
    create_flags: tuple[CreateFlag, ...] = ()

    def option(self, options: Mapping[str, OptionValue], key: str) -> OptionValue:
        """The value of one of this module's options in a scenario's ``options``."""
        if key not in self.options:
            raise KeyError(f"rule module {self.name!r} has no option {key!r}")
        return options.get(key, self.options[key])
