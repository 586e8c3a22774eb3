"""How the game is won: the scenario's victory conditions (``[victory]``), played.

A scored place is held by the last side to have had combat units alone in it, or by its
starting holder until then (ruling VIC-2, as CV-15 for the Chancellorsville chart); who holds
each is kept, for the umpire only, in ``PlacesTaken`` events, since no side may learn during
play that an enemy stood in a place it cannot see (ruling VIC-4). At the end each side scores
the places it holds and a point for every ``strength_per_point`` strength points its enemy lost
for good, counted as the end post counts losses (ruling VIC-3); the margin is read on the
chart, and ``VictoryReached`` tells everyone the result and every number that led to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict

from rules.events import GameEvent
from rules.forces.location import Withdrawn
from rules.forces.words import COMBAT_KINDS
from rules.modules.data import data_of, with_module_data
from rules.scenario.markup import plain
from rules.scenario.tables import Table, parse_roll_range
from rules.scenario.victory import VictoryConditions, VictoryPlace

if TYPE_CHECKING:
    from rules.outcome import Outcome
    from rules.state import GameState
    from rules.view import SideView

#: Where who holds each scored place is kept in ``GameState.module_data``.
DATA = "victory"


class PlacesTaken(GameEvent):
    """Who now holds the scored places that changed hands (place name -> side id)."""

    type: Literal["places_taken"] = "places_taken"
    audience: str = "umpire"
    held: dict[str, str]


class PlaceHeld(BaseModel):
    """A scored place at the end: its points and who held it (``holder`` its name, empty when
    nobody did)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    place: str
    points: int
    holder: str = ""


class SideScore(BaseModel):
    """One side's points at the end: for the places it held, and for the enemy's losses
    (``counted`` says how they were counted, in words)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    places: int
    losses: int
    counted: str

    @property
    def total(self) -> int:
        return self.places + self.losses


class ChartReading(BaseModel):
    """Which chart was read, in which column, at which value, and whether its numbers are the
    project's stand-ins (the ruleset says so)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    title: str
    column: str
    value: int
    row: str
    stand_in: bool


class VictoryReached(GameEvent):
    """The scenario's victory conditions read at the end of the game, with how: the places held,
    each side's points, the margin (``margin_for``'s points less the other's), and the chart's
    column and result. ``source`` and ``stand_in`` say whose conditions they are."""

    type: Literal["victory_reached"] = "victory_reached"
    source: str
    stand_in: bool
    places: tuple[PlaceHeld, ...]
    scores: tuple[SideScore, ...]
    margin_for: str
    margin: int
    chart: ChartReading
    result: str
    words: str

    def report(self, view: SideView) -> str:
        first, other = self.scores[0], self.scores[-1]
        lines = [f"**Victory.** Result: {result_words(self.result, self.words)}.",
                 f"Victory conditions: {self.source}."]
        lines += held_lines(self.places)
        lines.append("Points:")
        lines += [score_line(s) for s in self.scores]
        lines.append(f"Margin ({first.name} points less {other.name} points): "
                     f"{self.margin:+d}.")
        lines.append(chart_line(self.chart))
        lines += stand_in_lines(self.stand_in, self.chart.stand_in)
        return "\n".join(lines)


# -- words shared by every victory chart ---------------------------------------------------------
def result_words(code: str, words: str) -> str:
    """The chart's result as players read it: its meaning in bold, then the chart's code when
    the code says something else ("**Union marginal victory** (USA-M)"); a code that is its own
    meaning ("DRAW", "draw") is said once ("**Draw**")."""
    if not words:
        return f"**{code}**"
    said = words[0].upper() + words[1:]
    return f"**{said}**" if code.lower() == words.lower() else f"**{said}** ({code})"


def held_lines(places: Sequence[PlaceHeld]) -> list[str]:
    """The places held at the end, one line each."""
    if not places:
        return ["No place is scored."]
    return ["Places held at the end:"] + [
        f"- {p.place} ({p.points} point{'s' if p.points != 1 else ''}): "
        f"{p.holder or 'held by nobody'}" for p in places]


def score_line(s: SideScore) -> str:
    return (f"- {s.name}: {s.places} for places held + {s.losses} for losses inflicted "
            f"({s.counted}) = **{s.total} points**.")


def per_words(lost: int, per: int) -> str:
    """How many strength points make a point ("1 point for every 4 strength points")."""
    each = "each strength point" if per == 1 else f"every {per} strength points"
    return f"{lost} strength point{'s' if lost != 1 else ''}; 1 point for {each}"


def chart_line(chart: ChartReading) -> str:
    return (f"Chart read: {chart.title}, column {chart.column!r}, at a margin of "
            f"{chart.value:+d} (row {chart.row}).")


def chart_reading(table: Table, name: str, column: str, value: int,
                  stand_in: bool) -> ChartReading:
    """What reading ``table`` (the ruleset's table ``name``) at ``value`` in ``column`` was."""
    low, high = parse_roll_range(table.row_for(value).roll, *table.bounds)
    return ChartReading(title=table.title or name, column=column, value=value,
                        row=f"{low:+d} to {high:+d}" if low != high else f"{low:+d}",
                        stand_in=stand_in)


def stand_in_lines(conditions: bool, chart: bool) -> list[str]:
    """Which of the conditions and the chart are the project's stand-ins (ruling VIC-1)."""
    if conditions and chart:
        return ["Both the victory conditions and the chart are Vedette's own stand-ins, not "
                "from any published game."]
    if conditions:
        return ["The victory conditions are Vedette's own stand-ins, not from any published "
                "game."]
    if chart:
        return ["The chart is a stand-in: Vedette's own numbers, not from any published game."]
    return []


# -- who holds the places ------------------------------------------------------------------------
def conditions_of(state: GameState) -> VictoryConditions | None:
    return state.loaded.scenario.victory


def holders(state: GameState, places: Sequence[VictoryPlace],
            kept: Mapping[str, str]) -> dict[str, str]:
    """Who holds each scored place: ``kept`` (the sides that took them), else its starting
    holder; a place nobody holds is left out."""
    out = {v.place: v.holder for v in places if v.holder}
    out.update({p: s for p, s in kept.items() if p in {v.place for v in places}})
    return out


def occupiers(state: GameState, places: Sequence[VictoryPlace]) -> dict[str, str]:
    """The scored places in which combat units of one side only stand now, with that side."""
    scored = {v.place for v in places}
    cells = {p.cell: p.name for p in state.loaded.board.places if p.name in scored}
    found: dict[str, set[str]] = {}
    for u in state.units.values():
        if u.cell is not None and u.cell in cells and u.kind in COMBAT_KINDS and u.strength > 0:
            found.setdefault(cells[u.cell], set()).add(u.side)
    return {place: next(iter(sides)) for place, sides in found.items() if len(sides) == 1}


def kept(state: GameState) -> Mapping[str, str]:
    held: Mapping[str, str] = data_of(state, DATA).get("held", {})
    return held


def track(out: Outcome) -> None:
    """Record, for the umpire only, the scored places that changed hands (ruling VIC-2)."""
    conditions = conditions_of(out.state)
    if conditions is None or not conditions.places:
        return
    now = holders(out.state, conditions.places, kept(out.state))
    changed = {p: s for p, s in sorted(occupiers(out.state, conditions.places).items())
               if now.get(p) != s}
    if changed:
        out.add(PlacesTaken(held=changed))


def fold(state: GameState, event: PlacesTaken) -> GameState:
    return with_module_data(state, DATA, {"held": {**kept(state), **event.held}})


# -- the end ---------------------------------------------------------------------------------
def strength_lost(state: GameState, side: str) -> int:
    """The strength points ``side`` lost for good: each combat unit's order-of-battle strength
    less what it has at the end, standing or straggling; a withdrawn unit lost nothing, and a
    unit stronger than it began (a host's correction) counts as no loss (ruling VIC-3)."""
    start = {u.id: u.strength for u in state.loaded.scenario.units}
    return sum(max(0, start.get(u.id, u.strength) - u.strength - u.stragglers)
               for u in state.units.values()
               if u.side == side and u.kind in COMBAT_KINDS
               and not isinstance(u.location, Withdrawn))


def reached(state: GameState, conditions: VictoryConditions) -> VictoryReached:
    """The victory conditions read on the state at the end."""
    first = conditions.margin_for
    other = next(s for s in state.sides if s != first)
    held = holders(state, conditions.places, kept(state))
    places = tuple(PlaceHeld(place=v.place, points=v.points,
                             holder=plain(state.side_name(held[v.place])) if v.place in held
                             else "")
                   for v in conditions.places)
    per = conditions.strength_per_point

    def score(side: str, enemy: str) -> SideScore:
        lost = strength_lost(state, enemy)
        counted = f"the {plain(state.side_name(enemy))} lost {per_words(lost, per)}"
        return SideScore(name=plain(state.side_name(side)),
                         places=sum(v.points for v in conditions.places
                                    if held.get(v.place) == side),
                         losses=lost // per, counted=counted)

    scores = (score(first, other), score(other, first))
    margin = scores[0].total - scores[1].total
    table = state.loaded.ruleset.tables[conditions.chart]
    result = table.lookup(margin, conditions.column)
    chart = chart_reading(table, conditions.chart, conditions.column, margin,
                          state.loaded.ruleset.stand_in)
    return VictoryReached(source=conditions.source, stand_in=conditions.stand_in, places=places,
                          scores=scores, margin_for=scores[0].name, margin=margin, chart=chart,
                          result=result, words=table.results.get(result, result))


def decide(out: Outcome) -> None:
    """At the end of a game whose scenario has victory conditions, tell everyone the result."""
    conditions = conditions_of(out.state)
    if conditions is not None:
        out.add(reached(out.state, conditions))


__all__ = ["DATA", "ChartReading", "PlaceHeld", "PlacesTaken", "SideScore", "VictoryReached",
           "chart_line", "chart_reading", "decide", "fold", "held_lines", "per_words", "reached",
           "result_words", "score_line", "stand_in_lines", "strength_lost", "track"]
