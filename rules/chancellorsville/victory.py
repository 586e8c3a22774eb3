"""The victory option (rule text 002): the raid roll at the end, and the chart it picks.

If the raid went, the Federal player rolls one die at the end of the game: on the
``raid_outcome`` table, 1-2 reads the victory chart's Successful Raid column, 3-6 its No Raid
column; without the raid the No Raid column is read and nothing is rolled. The chart (a
``value`` table) is read with the Federal margin: Federal points minus Confederate points,
scored as the settings say (``VictorySpec``): each scored place to the side holding it at the
end, and points for every strength point of enemy units eliminated.

A place is held by the last side to have had a combat unit in it, or by its starting holder
until then (ruling CV-15). Who holds it is kept in the module's data, from umpire-only events.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.chancellorsville.settings import (
    NO_RAID,
    OUTCOME_COLUMN,
    OUTCOME_SUCCESS,
    SUCCESSFUL_RAID,
    RaidSettings,
)
from rules.forces.location import Eliminated
from rules.forces.words import COMBAT_KINDS
from rules.modules.data import data_of
from rules.scenario.markup import plain
from rules.state import GameState
from rules.turn.victory import PlaceHeld, SideScore

MODULE = "raid_victory"
#: The purpose of the raid roll in the log (``vedette verify`` shows it).
RAID_ROLL = "raid outcome"


def holders(state: GameState, settings: RaidSettings) -> dict[str, str]:
    """Who holds each scored place now, as kept in the module's data (the starting holder
    until a side has stood in it; a place held by nobody is left out)."""
    kept: Mapping[str, str] = data_of(state, MODULE).get("held", {})
    out = {v.place: v.holder for v in settings.victory.places if v.holder}
    out.update(kept)
    return out


def occupiers(state: GameState, settings: RaidSettings) -> dict[str, str]:
    """The scored places in which combat units of one side only stand now, with that side."""
    scored = {v.place for v in settings.victory.places}
    cells = {p.cell: p.name for p in state.loaded.board.places if p.name in scored}
    found: dict[str, set[str]] = {}
    for u in state.units.values():
        if u.cell is not None and u.cell in cells and u.kind in COMBAT_KINDS and u.strength > 0:
            found.setdefault(cells[u.cell], set()).add(u.side)
    return {place: next(iter(sides)) for place, sides in found.items() if len(sides) == 1}


def changed_hands(state: GameState, settings: RaidSettings) -> dict[str, str]:
    """The scored places whose holder is now another side than the one kept (sorted)."""
    now = holders(state, settings)
    return {p: s for p, s in sorted(occupiers(state, settings).items()) if now.get(p) != s}


@dataclass(frozen=True, slots=True)
class Score:
    """Each army's points, and the Federal margin the chart is read with."""

    federal: int
    confederate: int

    @property
    def margin(self) -> int:
        return self.federal - self.confederate


def score(state: GameState, settings: RaidSettings) -> Score:
    """The score now: places held, and the order-of-battle strength of enemy units eliminated
    (a unit the raid took away, or one withdrawn, was never lost: ruling CV-17)."""
    federal, confederate = scores(state, settings)
    return Score(federal.total, confederate.total)


def places_held(state: GameState, settings: RaidSettings) -> tuple[PlaceHeld, ...]:
    """Each scored place with its points and the name of the side holding it now."""
    held = holders(state, settings)
    return tuple(PlaceHeld(place=v.place, points=v.points,
                           holder=plain(state.side_name(held[v.place])) if v.place in held
                           else "")
                 for v in settings.victory.places)


def eliminated_strength(state: GameState, side: str) -> int:
    """The order-of-battle strength of ``side``'s units eliminated."""
    strength = {u.id: u.strength for u in state.loaded.scenario.units}
    return sum(strength.get(u.id, 0) for u in state.units.values()
               if u.side == side and isinstance(u.location, Eliminated))


def scores(state: GameState, settings: RaidSettings) -> tuple[SideScore, SideScore]:
    """The Federal and the Confederate points now, each with how they were counted."""
    held = holders(state, settings)
    per = settings.victory.per_strength

    def side_score(side: str, enemy: str) -> SideScore:
        lost = eliminated_strength(state, enemy)
        each = "point" if per == 1 else "points"
        counted = (f"{plain(state.side_name(enemy))} units of {lost} strength points "
                   f"eliminated; {per} {each} for each strength point")
        return SideScore(name=plain(state.side_name(side)),
                         places=sum(v.points for v in settings.victory.places
                                    if held.get(v.place) == side),
                         losses=per * lost, counted=counted)

    return (side_score(settings.federal, settings.confederate),
            side_score(settings.confederate, settings.federal))


def column_after(raid: bool, outcome: str) -> str:
    """The chart's column: Successful Raid after a raid whose roll read success, else No
    Raid."""
    return SUCCESSFUL_RAID if raid and outcome == OUTCOME_SUCCESS else NO_RAID


__all__ = ["MODULE", "OUTCOME_COLUMN", "RAID_ROLL", "Score", "changed_hands", "column_after",
           "eliminated_strength", "holders", "occupiers", "places_held", "score", "scores"]
