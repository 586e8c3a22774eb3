"""After units change place: sighting is brought up to date, then the modules are told.

Every rule that moves units (a move, arrivals, a retreat or advance after combat, a surprise
column, a host's correction) and the start of every step (a new turn's visibility) ends with
``positions_changed``; a rule that moves units along a way gives their paths, so that what the
troops saw on the way is recorded as well as what they see at its end. The modules'
``on_positions_changed`` hooks see the sides' sighting as it now is; if they change anything
(reveal a force, place a marker), sighting is brought up to date once more, so that no event a
module adds goes unseen by the troops who would see it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rules.knowledge.passing import Paths, passing_events
from rules.knowledge.sighted import sighting_events
from rules.modules.registry import in_force
from rules.state import GameState
from rules.turn import victory

if TYPE_CHECKING:
    from rules.outcome import Outcome


def positions_changed(out: Outcome, units: Iterable[str] = (),
                      paths: Paths | None = None) -> None:
    """Update sighting, then call every module's ``on_positions_changed(out, units)`` with the
    ids of the units that changed place (sorted; empty when only visibility changed).

    ``paths``: the cells each unit that moved entered on its way, in order: what the troops of
    every side saw of the way is recorded too (``rules.knowledge.passing``)."""
    moved = tuple(sorted(set(units)))
    lost: dict[str, tuple[str, ...]] = {}
    for e in sighting_events(out.state):
        out.add(e)
        lost[e.side] = e.lost
    if paths:
        news, turned = passing_events(out.state, paths, lost)
        for passing in news:
            out.add(passing)
        for side, units in turned.items():
            out.turned_on_the_way.setdefault(side, {}).update(
                {uid: tuple((c.col, c.row) for c in cells) for uid, cells in units.items()})
    if moved:
        victory.track(out)
    before = len(out.events)
    for module in in_force(out.state.modules):
        module.on_positions_changed(out, moved)
    if len(out.events) != before:
        for e in sighting_events(out.state):
            out.add(e)


def moved_units(before: GameState, after: GameState) -> tuple[str, ...]:
    """The units whose cell differs between two states (sorted by id)."""
    return tuple(sorted(uid for uid, unit in after.units.items()
                        if uid not in before.units or before.units[uid].cell != unit.cell))
