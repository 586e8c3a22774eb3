"""The events of the Chancellorsville modules.

``RaidRode`` (public, at the start) says the raid went; it names no unit, since the removed
units are in no state at all (ruling CV-13). ``PlacesHeld`` (umpire only) keeps who holds each
place the victory score counts, which no player is told before the end (ruling CV-16).
``VictoryDecided`` (public, at the end) carries the raid roll, the column, the margin and the
result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from rules.chancellorsville.settings import NO_RAID
from rules.events import GameEvent

if TYPE_CHECKING:
    from rules.view import SideView


class RaidRode(GameEvent):
    """The Federal cavalry has ridden off on its raid before the first turn."""

    type: Literal["cv_raid_rode"] = "cv_raid_rode"

    def report(self, view: SideView) -> str:
        return ("The raid option is played: the Federal cavalry has ridden off against Lee's "
                "communications, all but Pleasonton's division and Morris' regiment, and the "
                "Confederate cavalry brigade that followed it has gone too. Those counters are "
                "out of the game. "
                "The Federal units are face up to the Confederates for the whole game; the "
                "Federals see Confederate units only while they are sighted.")


class PlacesHeld(GameEvent):
    """Who now holds the scored places that changed hands (place name -> side id)."""

    type: Literal["cv_places_held"] = "cv_places_held"
    held: dict[str, str]


class VictoryDecided(GameEvent):
    """The victory chart read at the end of the game. ``roll`` is the raid die (0: no roll,
    the raid was not sent), ``column`` the chart's column, ``margin`` the Federal margin
    (Federal points minus Confederate points), ``federal`` and ``confederate`` the points,
    ``result`` the chart's code and ``words`` its meaning."""

    type: Literal["cv_victory_decided"] = "cv_victory_decided"
    raid: bool
    roll: int = 0
    column: str
    federal: int
    confederate: int
    margin: int
    result: str
    words: str

    def report(self, view: SideView) -> str:
        if not self.raid:
            why = "The raid was not sent: the chart is read in its No Raid column."
        else:
            verdict = "succeeded" if self.column != NO_RAID else "came to nothing"
            why = (f"The Federal raid roll is {self.roll} on one die: the raid {verdict}, and "
                   f"the chart is read in its {self.column} column.")
        return (f"**Victory.** {why} Federal points {self.federal}, Confederate points "
                f"{self.confederate}: Federal margin {self.margin:+d}. Result: **{self.result}** "
                f"({self.words}).")


#: Every event the two modules fold or tell.
EVENTS: tuple[type[GameEvent], ...] = (RaidRode, PlacesHeld, VictoryDecided)
