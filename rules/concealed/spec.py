"""The Concealed Forces module's declaration (see ``rules.modules.spec``)."""

from rules.concealed.commands import COMMANDS
from rules.concealed.events import EVENTS
from rules.concealed.records import MODULE
from rules.knowledge.information import InformationModel
from rules.modules.spec import ModuleSpec

#: When a concealed force's forced-march straggler checks are rolled (ruling CF-15):
#: ``each_turn`` (at the end of each phase it force-marched) or ``on_reveal`` (noted, and all
#: rolled when it is revealed or unconcealed).
MARCH_OPTION = "cf_march_stragglers"
#: Whether a revealed real force may fire and charge at once, for the rest of the phase, at
#: the enemy units that move within its reach (Cf 2.1, rulings CF-11, CF-28).
OPPORTUNITY_OPTION = "cf_opportunity_fire"
#: How long, in seconds, its owner has to answer, when a scenario sets it (at least 1). Left
#: out (the default, 0), the question lasts until the phase ends: its deadline, when the game
#: has one (ruling CF-30). The mover's side waits, and cannot end its phase, meanwhile.
REACTION_SECONDS_OPTION = "cf_reaction_seconds"

SPEC: ModuleSpec = ModuleSpec(
    name=MODULE,
    source="Concealed Forces (rule text 001)",
    # Its checks read enemy positions and enemy line of sight (ruling CF-4).
    models=frozenset({InformationModel.OPEN, InformationModel.CONCEALED}),
    commands=COMMANDS,
    # A unit is detached from its division by an order of the Command Phase (ruling CF-25).
    actions=frozenset({"order"}),
    events=EVENTS,
    tables=("straggler",),
    options={MARCH_OPTION: "each_turn", OPPORTUNITY_OPTION: True,
             REACTION_SECONDS_OPTION: 0},
    phase_commands={
        "order": ("/conceal detach",),
        "move": ("/conceal force", "/conceal breed", "/conceal reveal", "/conceal scout",
                 "/conceal forced", "/conceal plan"),
    },
)
