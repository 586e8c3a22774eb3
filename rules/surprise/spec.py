"""The Surprise Move module's declaration (see ``rules.modules.spec``)."""

from rules.modules.spec import ModuleSpec
from rules.surprise.commands import COMMANDS
from rules.surprise.events import EVENTS
from rules.surprise.records import MODULE

#: How two surprise moves in collision march (ruling SM-17): ``first`` or ``alternate``.
COLLISION_OPTION = "surprise_collision"

SPEC: ModuleSpec = ModuleSpec(
    name=MODULE,
    source="Surprise Move (rule text 000)",
    max_visibility=20,  # "Visibility Limits": weather may shorten it, nothing lengthens it
    commands=COMMANDS,
    events=EVENTS,
    actions=frozenset({"order"}),
    tables=("mp_accumulation", "straggler", "initiative", "order_acceptance"),
    options={COLLISION_OPTION: "first"},
)
