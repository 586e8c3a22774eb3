"""The Concealed Forces module's declaration (see ``rules.module_spec``)."""

from rules.concealed.commands import COMMANDS
from rules.concealed.events import EVENTS
from rules.concealed.records import MODULE
from rules.module_spec import ModuleSpec

SPEC: ModuleSpec = ModuleSpec(
    name=MODULE,
    source="Concealed Forces (rule text 001)",
    commands=COMMANDS,
    events=EVENTS,
    tables=("straggler",),
    options={},
)
