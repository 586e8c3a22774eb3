"""The Concealed Forces module's declaration (see ``rules.module_spec``)."""

from rules.concealed.commands import COMMANDS
from rules.concealed.events import EVENTS
from rules.concealed.records import MODULE
from rules.information import InformationModel
from rules.module_spec import ModuleSpec

SPEC: ModuleSpec = ModuleSpec(
    name=MODULE,
    source="Concealed Forces (rule text 001)",
    # Its checks read enemy positions and enemy line of sight (ruling CF-4).
    models=frozenset({InformationModel.OPEN, InformationModel.CONCEALED}),
    commands=COMMANDS,
    events=EVENTS,
    tables=("straggler",),
    options={},
)
