"""Forced marches of concealed forces and the straggler checks they cost (Cf 3.2).

In his movement phase the owner may let a concealed force force-march: up to the ruleset's
``forced_march_max`` MPs are added to each of its units' allowance for the rest of the phase,
so that the marker goes as far as its slowest unit can with them. A decoy may force-march too
(else the enemy would know a marker by a march no decoy could make), and pays nothing. Each
unit that spent MPs beyond its own allowance owes a straggler check, on the straggler table's
column for the forced-march MPs it used (rounded up). By the option ``cf_march_stragglers`` the
checks are rolled when the phase ends (``each_turn``, the default), or noted and all rolled
when the force is revealed or unconcealed (``on_reveal``); checks still noted when the game
ends are rolled then. A force revealed in the phase it force-marched rolls that phase's checks
at once. The rolls are the combat module's secret ``straggler_check``, told to the owner only;
without the combat module the game keeps no stragglers, so no force may force-march (ruling
CF-15).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from rules import events as ev
from rules.combat.stragglers import straggler_check
from rules.concealed import events as cev
from rules.concealed.commands import ForceMarch
from rules.concealed.records import data, force, forced_mp, owed, own_marker, spent
from rules.concealed.spec import MARCH_OPTION, SPEC
from rules.forces.markers import Marker
from rules.refusal import Refusal
from rules.state import GameState
from rules.surprise.rolls import band_column

if TYPE_CHECKING:
    from rules.outcome import Outcome

EACH_TURN, ON_REVEAL = "each_turn", "on_reveal"
#: The module whose stragglers the checks make.
COMBAT = "combat"
#: The ruleset table the checks are read from.
STRAGGLERS = "straggler"
_EPS = 1e-9


def option(state: GameState) -> str:
    """When a concealed force's forced-march checks are rolled (ruling CF-15)."""
    value = str(SPEC.option(state.loaded.scenario.scenario.options, MARCH_OPTION)).lower()
    return ON_REVEAL if "reveal" in value else EACH_TURN


def forced_refusal(state: GameState, side: str, marker_text: str) -> Refusal | None:
    """Why the side's marker named may not force-march now (``None``: it may, for some number
    of MPs)."""
    try:
        _forcing(state, side, marker_text)
    except Refusal as why:
        return why
    return None


def _forcing(state: GameState, side: str, marker_text: str) -> Marker:
    """The side's concealment marker named, in its own movement phase, in a game that keeps
    stragglers; refused otherwise."""
    step = state.current
    if not step.allows("move") or side not in step.acting(state.sides):
        raise Refusal("a concealed force force-marches only in your own movement phase")
    if side in state.done:
        raise Refusal("you have already finished this phase")
    if COMBAT not in state.modules:
        raise Refusal("a forced march costs straggler checks, and this game keeps no "
                      "stragglers (its combat rules are not in force)")
    marker = own_marker(state, side, marker_text)
    if marker is None or force(state, marker.id) is None:
        raise Refusal(f"you have no concealment marker {marker_text.strip()[:40]!r}")
    return marker


def decide_forced(out: Outcome, side: str, command: ForceMarch) -> None:
    state = out.state
    marker = _forcing(state, side, command.marker)
    limit = state.loaded.ruleset.forced_march_max
    if command.mp < 0:
        raise Refusal("forced-march MPs cannot be negative")
    if command.mp > limit:
        raise Refusal(f"a forced march adds at most {limit} MPs a turn")
    if command.mp == forced_mp(state, marker.id):
        raise Refusal(f"marker {marker.id} already has {command.mp} forced-march MP(s) this "
                      "phase")
    used = max((mp for mp in checks_due(state, marker.id).values()), default=0)
    if command.mp < used:
        raise Refusal(f"marker {marker.id} has already used {used} forced-march MP(s) this "
                      "phase")
    out.add(cev.ForcedMarchSet(audience=ev.side_audience(side), marker=marker.id,
                               mp=command.mp))


def checks_due(state: GameState, marker_id: str) -> dict[str, int]:
    """The units of the force that spent MPs beyond their own allowance in this phase, with the
    forced-march MPs each used (rounded up, never above what was allowed)."""
    extra = forced_mp(state, marker_id)
    if extra <= 0:
        return {}
    due: dict[str, int] = {}
    for uid, mp in sorted(spent(state, marker_id).items()):
        unit = state.units.get(uid)
        if unit is None:  # a decoy's pace: nothing to straggle
            continue
        beyond = mp - unit.movement
        if beyond > _EPS:
            due[uid] = min(extra, math.ceil(beyond - _EPS))
    return due


def end_of_phase(out: Outcome) -> None:
    """The checks of every force that force-marched this phase: rolled now, or noted."""
    state = out.state
    f = data(state).get("forced", {})
    if list(f.get("phase", ())) != [state.turn, state.step]:
        return
    for mid in sorted(f.get("mp", {})):
        record = force(state, mid)
        due = checks_due(state, mid)
        if record is None or not due:
            continue
        if option(state) == ON_REVEAL:
            out.add(cev.MarchChecksNoted(audience=ev.side_audience(str(record["side"])),
                                         marker=mid, checks=due))
        else:
            _roll(out, sorted(due.items()), f"forced march of marker {mid}")


def settle(out: Outcome, marker_id: str, side: str) -> None:
    """When a force is revealed (or the game ends with it still concealed): roll every check it
    noted, and those of a forced march in this very phase."""
    checks = [(uid, int(mp)) for entry in owed(out.state, marker_id)
              for uid, mp in sorted(entry["checks"].items())]
    checks += sorted(checks_due(out.state, marker_id).items())
    if not checks:
        return
    _roll(out, checks, f"forced march of marker {marker_id}")
    out.add(cev.NotedChecksRolled(audience=ev.side_audience(side), marker=marker_id,
                                  count=len(checks)))


def settle_all(out: Outcome) -> None:
    """At the game's end: the noted checks of every force still concealed."""
    for mid, record in sorted(data(out.state).get("forces", {}).items()):
        settle(out, mid, str(record["side"]))


def _roll(out: Outcome, checks: list[tuple[str, int]], reason: str) -> None:
    table = out.state.loaded.ruleset.tables.get(STRAGGLERS)
    if table is None or COMBAT not in out.state.modules:
        return
    for uid, mp in checks:
        unit = out.state.units.get(uid)
        if unit is None:
            continue
        straggler_check(out, unit, band_column(table, mp), reason)
