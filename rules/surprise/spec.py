"""The Surprise Move module's declaration (see ``rules.modules.spec``)."""

from rules.modules.spec import CreateFlag, ModuleSpec
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
    phase_commands={
        "order": ("/march order", "/march cancel", "/march execute", "/march forced",
                  "/march status"),
        "move": ("/march rally", "/march status"),
    },
    option_words={
        COLLISION_OPTION: {
            "first": "two surprise moves that meet: the first started completes",
            "alternate": "two surprise moves that meet alternate 6 MPs",
        },
    },
    create_flags=(
        CreateFlag(option=COLLISION_OPTION, parameter="collision", after="scenario",
                   choices=("first", "alternate"),
                   description="Surprise move: when two hidden marches meet, the first started "
                               "completes (default), or they alternate 6 MPs"),
    ),
)
