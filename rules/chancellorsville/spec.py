"""The declarations of the two Chancellorsville modules (see ``rules.modules.spec``)."""

from rules.chancellorsville.cavalry_notice import CAVALRY_EVENTS
from rules.chancellorsville.events import EVENTS
from rules.chancellorsville.settings import RaidSettings
from rules.knowledge.information import InformationModel
from rules.modules.spec import ModuleSpec

HIDDEN_UNITS = "chancellorsville"
RAID_VICTORY = "raid_victory"

#: Whether the Federal cavalry rides off on the raid (chosen when the game is created).
RAID_OPTION = "raid"
#: Whether the end of the game reads the victory chart (with the raid roll when the raid went).
VICTORY_OPTION = "victory_roll"

SPEC: ModuleSpec = ModuleSpec(
    name=HIDDEN_UNITS,
    source="Chancellorsville hidden units and grid sighting (rule text 002)",
    # Counters are face down until sighted; the article allows another method of hidden
    # movement instead, which is the hidden model.
    models=frozenset({InformationModel.INVERTED, InformationModel.HIDDEN}),
    tables=("close_combat",),
    events=CAVALRY_EVENTS,
    # Cavalry rules A to G in any combat involving cavalry, H for Buford's division only.
    cavalry_rules=tuple("ABCDEFGH"),
)

RAID_SPEC: ModuleSpec = ModuleSpec(
    name=RAID_VICTORY,
    source="Chancellorsville raid option and its victory die roll (rule text 002)",
    events=EVENTS,
    tables=("victory", "raid_outcome"),
    options={RAID_OPTION: False, VICTORY_OPTION: True},
    settings=RaidSettings,
)
