"""The events of the Chancellorsville modules.

``RaidElected`` (public, at the start) is the Federal player's choice whether to send the raid,
and ``CountersPlaced`` the Confederate player's, once the raid goes, whether to keep his units
on the board face down or off it (rulings CV-39, CV-40). ``RaidRode`` (public, at the start)
says the raid went; it names no unit, since the removed
units are in no state at all (ruling CV-13). ``PlacesHeld`` (umpire only) keeps who holds each
place the victory score counts, which no player is told before the end (ruling CV-16).
``VictoryDecided`` (public, at the end) carries the raid roll, the column, the margin and the
result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from rules.chancellorsville.settings import NO_RAID
from rules.events import GameEvent
from rules.turn.victory import (
    ChartReading,
    PlaceHeld,
    SideScore,
    chart_line,
    held_lines,
    result_words,
    score_line,
    stand_in_lines,
)

if TYPE_CHECKING:
    from rules.view import SideView


class RaidElected(GameEvent):
    """The Federal player has chosen, before the first turn, whether the raid goes (ruling
    CV-39). ``by_default``: he had not answered when the host opened the first turn."""

    type: Literal["cv_raid_elected"] = "cv_raid_elected"
    raid: bool
    by_default: bool = False

    def report(self, view: SideView) -> str:
        said = (("The Federal player sends the cavalry raid." if self.raid else
                 "The Federal player keeps his cavalry: no raid.") if not self.by_default else
                "The host opened the first turn before the Federal player had chosen: "
                + ("the raid goes." if self.raid else "no raid."))
        return said if self.raid else f"{said} Both sides' counters stand face down until sighted."


class CountersPlaced(GameEvent):
    """The Confederate player's choice, once the raid goes, before the first turn (ruling
    CV-40): ``off_board``, his units leave the board and are placed only while the Federals
    sight them; else they stay on the board face down, turned up while sighted."""

    type: Literal["cv_counters_placed"] = "cv_counters_placed"
    off_board: bool
    by_default: bool = False

    def report(self, view: SideView) -> str:
        where = ("off the board: the Federals see a Confederate unit only while they sight it"
                 if self.off_board else "on the board face down: the Federals see every "
                 "Confederate counter where it stands, face down until sighted")
        if self.by_default:
            return ("The host opened the first turn before the Confederate player had chosen: "
                    f"his units stay {where}.")
        return f"The Confederate player keeps his units {where}."


class RaidRode(GameEvent):
    """The Federal cavalry has ridden off on its raid before the first turn. ``stays`` names
    the Federal commands and units the settings keep with the army (they stay in play, face
    up); ``riders`` and ``followers`` count the Federal and Confederate units taken out of the
    game. No removed unit is named: the counters are simply not there (ruling CV-13).
    ``off_board``: where the Confederate units stand, when that was set before the game
    (``None``: the Confederate player is asked, or a log from before he could be)."""

    type: Literal["cv_raid_rode"] = "cv_raid_rode"
    stays: tuple[str, ...] = ()
    riders: int = 0
    followers: int = 0
    off_board: bool | None = None

    def report(self, view: SideView) -> str:
        kept = (f", all but {_and(self.stays)}," if self.stays else "")
        followed = (f" {_units(self.followers)} of the Confederate cavalry followed it."
                    if self.followers else "")
        return (f"The raid option is played: the Federal cavalry{kept} has ridden off against "
                f"Lee's communications ({_units(self.riders)}).{followed} Those counters are "
                "out of the game. "
                "The Federal units are face up to the Confederates for the whole game"
                + ("; the Federals see Confederate units only while they are sighted."
                   if self.off_board else
                   "; the Confederate counters stay on the board face down until sighted."
                   if self.off_board is False else "."))


def _units(n: int) -> str:
    return "1 unit" if n == 1 else f"{n} units"


def _and(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class PlacesHeld(GameEvent):
    """Who now holds the scored places that changed hands (place name -> side id)."""

    type: Literal["cv_places_held"] = "cv_places_held"
    held: dict[str, str]


class VictoryDecided(GameEvent):
    """The victory chart read at the end of the game. ``roll`` is the raid die (0: no roll,
    the raid was not sent), ``column`` the chart's column, ``margin`` the Federal margin
    (Federal points minus Confederate points), ``federal`` and ``confederate`` the points,
    ``result`` the chart's code and ``words`` its meaning. ``places``, ``scores``, ``chart`` and
    ``stand_in`` say how the result was reached (a log written before they were kept has
    none, and its result is told as it was)."""

    type: Literal["cv_victory_decided"] = "cv_victory_decided"
    raid: bool
    roll: int = 0
    column: str
    federal: int
    confederate: int
    margin: int
    result: str
    words: str
    places: tuple[PlaceHeld, ...] = ()
    scores: tuple[SideScore, ...] = ()
    chart: ChartReading | None = None
    stand_in: bool = False

    def report(self, view: SideView) -> str:
        if not self.raid:
            why = "The raid was not sent: the chart is read in its No Raid column."
        else:
            verdict = "succeeded" if self.column != NO_RAID else "came to nothing"
            why = (f"The Federal raid roll is {self.roll} on one die: the raid {verdict}, and "
                   f"the chart is read in its {self.column} column.")
        said = (f"**Victory.** {why} Federal points {self.federal}, Confederate points "
                f"{self.confederate}: Federal margin {self.margin:+d}. Result: "
                f"{result_words(self.result, self.words)}.")
        if self.chart is None:
            return said
        lines = [said, *held_lines(self.places), "Points:",
                 *(score_line(s) for s in self.scores), chart_line(self.chart),
                 *stand_in_lines(self.stand_in, self.chart.stand_in)]
        return "\n".join(lines)


#: Every event the two modules fold or tell.
EVENTS: tuple[type[GameEvent], ...] = (RaidElected, CountersPlaced, RaidRode, PlacesHeld,
                                       VictoryDecided)
