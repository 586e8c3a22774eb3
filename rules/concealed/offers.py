"""What Concealed Forces lets a side do now (``RuleModule.offers``): in the Command Phase, order
a unit detached from its division or back (ruling CF-25); in its own movement phase:
move a concealed force (its marker), and, before any unit or marker of the side has moved in the
phase, the start-of-phase orders (``rules.concealed.timing``): turn a force back into its units,
breed a decoy, release scouts, put a division under concealment. Once anything of the side has
moved, those are no longer offered, as they would be refused (ruling FLOW-63).

Each list is made by asking the order's own check of every candidate (``conceal_refusal``,
``marker_refusal``, ``scout_refusal``, ``breed_refusal``, ``unconceal_check``), so that a choice
offered is never refused for itself: the offers and the refusals cannot disagree (ruling
ORD-55). Read from the side's own units, markers and commands, and from the enemy counters its
view shows; whether its units are seen by the enemy (which would refuse the concealment) is not
looked at, since the side cannot know it for sure (ruling FLOW-12).
"""

from __future__ import annotations

from rules.concealed.breeding import breed_refusal
from rules.concealed.creating import conceal_refusal, may_lead
from rules.concealed.detaching import detach_timing, unit_refusal
from rules.concealed.marching import forced_refusal
from rules.concealed.moving import marker_can_step
from rules.concealed.records import force, own_marker
from rules.concealed.reveal.plans import plan_refusal, unplan_refusal
from rules.concealed.reveal.revealing import unconceal_check
from rules.concealed.scouts import scout_refusal
from rules.concealed.timing import BEFORE_ANY_MOVE, movement_begun, require_phase_start
from rules.forces.markers import Marker, markers_of
from rules.forces.units import Unit
from rules.refusal import Refusal
from rules.state import GameState
from rules.turn.offers import Offer
from rules.turn.sequence import Step
from rules.view import SideView

#: What each offer says (the side's call for orders lists them).
MOVE_WORDS = "move a concealed force (/move)"
CONCEAL_WORDS = "conceal a division (/conceal force)"
REVEAL_WORDS = "reveal a concealed force (/conceal reveal)"
BREED_WORDS = "breed a decoy (/conceal breed)"
SCOUT_WORDS = "release scouts (/conceal scout)"
DETACH_WORDS = ("detach a unit from its division, or send one back, from your next movement "
                "phase (/conceal detach)")


def marker_ref(marker: Marker) -> str:
    """A marker as an order names it."""
    return f"marker {marker.id}"


def concealed_offers(state: GameState, side: str, view: SideView, step: Step
                     ) -> tuple[Offer, ...]:
    if step.allows("order"):
        return _command_offers(state, side)
    if not step.allows("move"):
        return ()
    out: list[Offer] = []
    markers = tuple(marker_ref(m) for m in movable(state, side))
    if markers:
        out.append(Offer("move", MOVE_WORDS, markers, markers))
    if movement_begun(state, side):
        return tuple(out)
    for action, words, found in (("reveal", REVEAL_WORDS, revealing(state, side)),
                                 ("breed", BREED_WORDS, breeding(state, side)),
                                 ("scout", SCOUT_WORDS, scouting(state, side))):
        refs = tuple(marker_ref(m) for m in found)
        if refs:
            out.append(Offer(action, f"{words}, {BEFORE_ANY_MOVE}", refs, refs))
    leaders = concealers(state, side, view)
    if leaders:
        out.append(Offer("conceal", f"{CONCEAL_WORDS}, {BEFORE_ANY_MOVE}",
                         tuple(u.name for u in leaders), tuple(u.id for u in leaders)))
    return tuple(out)


def _command_offers(state: GameState, side: str) -> tuple[Offer, ...]:
    """The Command Phase: the units a detachment order may be given for (to detach, or to send
    back). Not something under way: the phase may still pass on standing orders (ruling
    FLOW-77)."""
    units = [*detachable(state, side), *detachable(state, side, detached=False)]
    if not units:
        return ()
    return (Offer("order", DETACH_WORDS, tuple(u.name for u in units),
                  tuple(u.id for u in units)),)


def own_forces(state: GameState, side: str) -> list[Marker]:
    """The side's markers that stand for a force of this module's (a decoy included)."""
    return [m for m in markers_of(state.markers, side) if force(state, m.id) is not None]


def movable(state: GameState, side: str) -> list[Marker]:
    """The side's markers some move order would be accepted for now: its phase and a step it
    can pay for."""
    if not _moving_now(state, side):
        return []
    return [m for m in own_forces(state, side) if marker_can_step(state, side, m)]


def concealers(state: GameState, side: str, view: SideView) -> list[Unit]:
    """The side's units (on the map, as its view lists them) that may put their force under a
    concealment marker now: divisional commanders and lone cavalry brigades the order would
    take, the enemy's sight aside."""
    try:  # (what every unit's order would be refused for first: asked once)
        require_phase_start(state, side, "conceal a force")
    except Refusal:
        return []
    mine = [state.units[u.ref] for u in view.own_units() if u.ref in state.units]
    # (Most units may lead no concealment at all: the order's first question, asked alone.)
    return [u for u in mine if u.cell is not None and may_lead(state, u)
            and conceal_refusal(state, side, u, sight=False) is None]


def joiners(state: GameState, side: str, leader: Unit) -> list[Unit]:
    """The side's units that may join ``leader``'s concealment (units directly under his
    division's corps, in his command range), each as the order would take it."""
    if conceal_refusal(state, side, leader, sight=False) is not None:
        return []
    division = state.commands.get(leader.command)
    corps = division.parent if division is not None else ""
    return [u for u in state.units_of(side) if corps and u.command == corps
            and u.cell is not None and u.id != leader.id
            and conceal_refusal(state, side, leader, (u.id,), sight=False) is None]


def scouting(state: GameState, side: str) -> list[Marker]:
    """The side's markers that may release scouts now, and have some under them."""
    return [m for m in own_forces(state, side) if scouts_under(state, side, marker_ref(m))]


def scouts_under(state: GameState, side: str, marker_text: str) -> list[Unit]:
    """The units under the marker named that it may release as scouts now."""
    if scout_refusal(state, side, marker_text) is not None:
        return []
    return [u for u in _under(state, side, marker_text)
            if scout_refusal(state, side, marker_text, (u.id,)) is None]


def breeding(state: GameState, side: str) -> list[Marker]:
    """The side's markers that may breed a decoy now."""
    return [m for m in own_forces(state, side)
            if breed_refusal(state, side, marker_ref(m)) is None]


def revealing(state: GameState, side: str) -> list[Marker]:
    """The side's markers that may turn back into their units now."""
    return [m for m in own_forces(state, side)
            if not isinstance(unconceal_check(state, side, marker_ref(m)), Refusal)]


def forcing(state: GameState, side: str) -> list[Marker]:
    """The side's markers that may force-march now (``forced_refusal``)."""
    return [m for m in own_forces(state, side)
            if forced_refusal(state, side, marker_ref(m)) is None]


def planning(state: GameState, side: str) -> list[Marker]:
    """The side's markers with units under them that may be given a deployment plan."""
    return [m for m in own_forces(state, side) if plan_units(state, side, marker_ref(m))]


def plan_units(state: GameState, side: str, marker_text: str) -> list[Unit]:
    """The units under the marker named that may be given a deployment plan now."""
    return [u for u in _under(state, side, marker_text)
            if plan_refusal(state, side, marker_text, u.id) is None]


def unplanning(state: GameState, side: str) -> list[Marker]:
    """The side's markers with a deployment plan to withdraw."""
    return [m for m in own_forces(state, side)
            if unplan_refusal(state, side, marker_ref(m)) is None]


def planned_units(state: GameState, side: str, marker_text: str) -> list[Unit]:
    """The units under the marker named whose deployment plan may be withdrawn now."""
    return [u for u in _under(state, side, marker_text)
            if unplan_refusal(state, side, marker_text, u.id) is None]


def detachable(state: GameState, side: str, detached: bool = True) -> list[Unit]:
    """The side's units that may be ordered ``detached`` (or back with their division) now:
    the order's own two checks (``detach_refusal`` is the pair), its timing once, then each
    unit as the order finds it, so that no name is read (none outside the Command Phase)."""
    if detach_timing(state, side) is not None:
        return []
    return [u for u in state.units_of(side) if unit_refusal(state, u, detached) is None]


def _under(state: GameState, side: str, marker_text: str) -> list[Unit]:
    """The units under the side's marker named (none for a decoy or another's marker)."""
    marker = own_marker(state, side, marker_text)
    record = force(state, marker.id) if marker is not None else None
    return [] if record is None else [state.units[u] for u in record["units"]
                                      if u in state.units]


def _moving_now(state: GameState, side: str) -> bool:
    step = state.current
    return step.allows("move") and side in step.acting(state.sides) and side not in state.done
