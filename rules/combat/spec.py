"""The combat module's declaration (see ``rules.modules.spec``)."""

from rules.combat.commands import Assault, Fire, Rally
from rules.combat.events import EVENTS
from rules.modules.spec import ModuleSpec

SPEC: ModuleSpec = ModuleSpec(
    name="combat",
    source="the series' fire, close combat, morale and straggler rules (ruleset tables)",
    commands=(Fire, Assault, Rally),
    events=EVENTS,
    actions=frozenset({"fire", "close_combat", "combat", "rally"}),
    # Fire, morale and stragglers are optional: without them combat is close combat alone.
    tables=("close_combat",),
    phase_commands={
        "fire": ("/fire",),
        "close_combat": ("/assault",),
        "combat": ("/fire", "/assault"),
        "rally": ("/rally",),
    },
)
