"""The declarations of the two Chancellorsville modules (see ``rules.modules.spec``)."""

from rules.chancellorsville.cavalry_notice import CAVALRY_EVENTS
from rules.chancellorsville.events import EVENTS
from rules.chancellorsville.settings import RaidSettings
from rules.knowledge.information import InformationModel
from rules.modules.spec import CreateFlag, ModuleSpec

HIDDEN_UNITS = "chancellorsville"
RAID_VICTORY = "raid_victory"

#: Whether the Federal cavalry rides off on the raid: the Federal player chooses at the start,
#: unless the host or the scenario sets it (ruling CV-39).
RAID_OPTION = "raid"
#: Under the raid, whether the Confederate units leave the board (else they stay on it face
#: down): the Confederate player chooses at the start, unless set (ruling CV-40).
OFF_BOARD_OPTION = "off_board"
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
    options={RAID_OPTION: False, OFF_BOARD_OPTION: False, VICTORY_OPTION: True},
    settings=RaidSettings,
    option_words={
        RAID_OPTION: {
            True: "the raid option is played: the Federal cavalry rides off on its raid before "
                  "the first turn, and the Confederates see every Federal unit face up",
            False: "no raid: the Federal cavalry stays, and both sides' counters stand face "
                   "down until sighted",
        },
        OFF_BOARD_OPTION: {
            True: "if the raid goes, the Confederate units are kept off the board and the Union "
                  "sees them only while they are sighted",
            False: "if the raid goes, the Confederate units stay on the board face down until "
                   "sighted",
        },
        VICTORY_OPTION: {
            True: "the victory chart is read at the end of the game (after the raid's die "
                  "roll, if the raid went)",
            False: "no victory chart at the end of the game",
        },
    },
    # Whether the Federal cavalry rode off changes what both sides see (ruling CV-31).
    announce_options=True,
    chosen_in_play={
        RAID_OPTION: "the Federal player chooses at the start, before the first turn, whether "
                     "his cavalry rides off on its raid (the choice is announced)",
        OFF_BOARD_OPTION: "if the raid goes, the Confederate player chooses at the start "
                          "whether his units stay on the board face down or leave it",
    },
    create_flags=(
        CreateFlag(option=RAID_OPTION, parameter="raid", after="auto_pass_alone",
                   description="Chancellorsville: set whether the Federal cavalry rides off "
                               "(default: the Federal player chooses at the start)"),
        CreateFlag(option=OFF_BOARD_OPTION, parameter="off_board", after="raid",
                   description="Chancellorsville raid: set whether the Confederates play off "
                               "the board (default: the Confederate player chooses)"),
        CreateFlag(option=VICTORY_OPTION, parameter="victory_roll", after="off_board",
                   description="Chancellorsville: read the victory chart at the end, after the "
                               "raid's die roll (default: yes)"),
    ),
)
