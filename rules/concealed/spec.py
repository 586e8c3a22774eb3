"""The Concealed Forces module's declaration (see ``rules.module_spec``)."""

from rules.concealed.commands import COMMANDS
from rules.concealed.events import EVENTS
from rules.concealed.records import MODULE
from rules.module_spec import ModuleSpec

#: Whether a revealed real force may fire and charge at once at the unit that found it
#: (Cf 2.1, ruling CF-11).
OPPORTUNITY_OPTION = "cf_opportunity_fire"
#: How long, in seconds, its owner has to answer (0: until the step ends).
REACTION_SECONDS_OPTION = "cf_reaction_seconds"

SPEC: ModuleSpec = ModuleSpec(
    name=MODULE,
    source="Concealed Forces (rule text 001)",
    commands=COMMANDS,
    events=EVENTS,
    tables=("straggler",),
    options={OPPORTUNITY_OPTION: True, REACTION_SECONDS_OPTION: 300},
)
