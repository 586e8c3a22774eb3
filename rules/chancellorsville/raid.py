"""The raid option (rule text 002): which units ride off, worked out from the order of battle.

With the raid, every Federal unit whose movement factor is the raid's (8) leaves the game,
except the headquarters, the commands and units the settings keep (Pleasonton's division,
Morris' regiment); and the Confederate units that followed the raid (W. H. F. Lee's brigade)
leave too, headquarters again excepted: following a whole command takes its units, not the HQ
it is led from. Headquarters are leaders and HQs both (ruling CV-11), so that no command on
either side loses the unit it is led from. The ``raid`` unit tag plays no part: it only
documents the sample.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.chancellorsville.events import RaidRode
from rules.chancellorsville.settings import RaidSettings
from rules.chancellorsville.spec import RAID_OPTION, RAID_SPEC
from rules.forces.words import DEFAULT_MOVEMENT_CLASS, LEADER_KINDS
from rules.modules.spec import OptionValue
from rules.scenario.loader import LoadedScenario
from rules.scenario.models import UnitSpec


def raid_goes(options: Mapping[str, OptionValue]) -> bool:
    """Whether the raid was set to go before the game (the game's option ``raid``): its units
    are then never created. (Without the option, the Federal player chooses at the start:
    ``rules.chancellorsville.election``.)"""
    return RAID_SPEC.option(options, RAID_OPTION) is True


def movement_factor(loaded: LoadedScenario, spec: UnitSpec) -> int:
    """A unit's movement factor as the game gives it: its own, else its class's allowance."""
    if spec.movement is not None:
        return spec.movement
    mclass = spec.movement_class or DEFAULT_MOVEMENT_CLASS[spec.kind]
    return loaded.ruleset.movement_allowance.get(mclass, 0)


def _under(loaded: LoadedScenario, spec: UnitSpec, refs: frozenset[str]) -> bool:
    """Whether the unit is one of ``refs``, or belongs to one of them or to a command under
    one (a brigade of a division kept by its division's id)."""
    if spec.id in refs:
        return True
    parents = {c.id: c.parent for c in loaded.scenario.commands}
    command, seen = spec.command, set[str]()
    while command and command not in seen:
        if command in refs:
            return True
        seen.add(command)
        command = parents.get(command, "")
    return False


def raiders(loaded: LoadedScenario, settings: RaidSettings) -> frozenset[str]:
    """The ids of every unit the raid takes out of the game, both sides."""
    stays, follows = frozenset(settings.stays), frozenset(settings.follows)
    out: set[str] = set()
    for spec in loaded.scenario.units:
        if spec.side == settings.federal:
            if (movement_factor(loaded, spec) == settings.raid_movement
                    and spec.kind not in LEADER_KINDS and not _under(loaded, spec, stays)):
                out.add(spec.id)
        elif (spec.side == settings.confederate and spec.kind not in LEADER_KINDS
              and _under(loaded, spec, follows)):
            out.add(spec.id)
    return frozenset(out)


def raid_rode(loaded: LoadedScenario, settings: RaidSettings,
              off_board: bool | None = None) -> RaidRode:
    """The public news that the raid went: what stays with the Federal army, by the names of
    the commands and units the settings keep, and how many units rode off or followed; and,
    when it was set beforehand, whether the Confederates play off the board."""
    names = {c.id: c.name for c in loaded.scenario.commands}
    names.update({u.id: u.name for u in loaded.scenario.units})
    gone = raiders(loaded, settings)
    sides = {u.id: u.side for u in loaded.scenario.units if u.id in gone}
    return RaidRode(audience="public", stays=tuple(names[ref] for ref in settings.stays
                                                   if ref in names),
                    riders=sum(side == settings.federal for side in sides.values()),
                    followers=sum(side == settings.confederate for side in sides.values()),
                    off_board=off_board)
