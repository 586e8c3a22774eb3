"""What each side's troops see now, and the ``Sighted`` events that keep each side's memory.

The sighting rule (line of sight by default) says which cells and enemy units a side sees; this
module turns the game state into its inputs, and the change since the side's memory into events.
"""

from __future__ import annotations

import functools
import threading
from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from rules import events as ev
from rules.forces.units import Unit
from rules.ground.grid import Cell, HexGrid, SquareGrid
from rules.knowledge.information import InformationModel
from rules.knowledge.live_sighting import synced
from rules.modules.registry import in_force
from rules.sighting.registry import DEFAULT_RULE, rule_named
from rules.sighting.rule import SightingRule
from rules.sighting.sighting_pass import Presence, SideSighting, Sighting
from rules.state import GameState
from rules.turn.sequence import sight_limit, visibility
from rules.turn.status import GameStatus

if TYPE_CHECKING:
    from rules.modules.api import RuleModule
    from rules.view import SideView

__all__ = ["SideSighting", "appearance", "bits_to_cells", "information_model", "known_name",
           "known_order", "live_sighting", "phase_report", "shows_anonymous", "sight",
           "sighting_events", "turn_visibility"]

#: The sighting rule of the last few maps, by map object (kept beside it, so that its id cannot
#: be reused while cached). The rule's tables are kept by the map's content
#: (``rules.sighting.built_tables``), so a rule dropped here comes back without a rebuild.
_RULES: OrderedDict[int, tuple[object, SightingRule]] = OrderedDict()
_RULES_KEPT = 16
_RULES_LOCK = threading.Lock()


def rule_for(state: GameState) -> SightingRule:
    """The scenario's sighting rule for the game's map, with its tables."""
    gm = state.loaded.map
    with _RULES_LOCK:
        cached = _RULES.get(id(gm))
        if cached is not None and cached[0] is gm:
            _RULES.move_to_end(id(gm))
            return cached[1]
    rule_name = str(state.loaded.scenario.scenario.options.get("sighting", DEFAULT_RULE))
    rule = rule_named(rule_name)(gm)
    with _RULES_LOCK:
        _RULES[id(gm)] = (gm, rule)
        while len(_RULES) > _RULES_KEPT:
            _RULES.popitem(last=False)
    return rule


def information_model(state: GameState, viewer: str) -> InformationModel:
    """The information model under which ``viewer`` sees its enemies at this moment: the
    scenario's choice for the side, as the rule modules in force may change it (a raid can
    turn one side's counters face up to the other). Every view, report and rule that depends
    on the model asks here."""
    model = state.loaded.scenario.information_for(viewer)
    for module in in_force(state.modules):
        model = module.information_model(state, viewer, model)
    return model


def presences(state: GameState) -> list[Presence]:
    return [
        Presence(u.id, u.side, state.loaded.map.idx(u.cell), u.combat, u.observer)
        for u in state.units.values() if u.cell is not None
    ]


#: The sighting of the last few sets of units themselves, by turn and scenario (the units are
#: kept alive beside it, so an id is never reused while cached): the units of a state never
#: change, and the events that only tell or remember (``Sighted``, ``Told``, rolls) keep them,
#: so a command's views, events and maps all find the same sighting here.
_BY_UNITS: dict[tuple[int, int, int, tuple[str, ...]], tuple[object, dict[str, SideSighting]]] = {}
_BY_UNITS_KEPT = 64
_BY_UNITS_LOCK = threading.Lock()  # commands and maps are worked out in worker threads


def sight(state: GameState) -> dict[str, SideSighting]:
    """Each side's sighting this moment, under the turn's visibility."""
    key = (id(state.units), state.turn, id(state.loaded), state.modules)
    with _BY_UNITS_LOCK:
        known = _BY_UNITS.get(key)
    if known is not None and known[0] is state.units:
        return dict(known[1])
    found = _sight(state)
    with _BY_UNITS_LOCK:
        if len(_BY_UNITS) >= _BY_UNITS_KEPT:
            del _BY_UNITS[next(iter(_BY_UNITS))]
        _BY_UNITS[key] = (state.units, found)
    return dict(found)


def turn_visibility(state: GameState) -> int:
    """How far the side's troops see this turn, in cells, under the modules in force (ruling
    LOS-8: the turn track's figure, else the ruleset's, capped by Surprise Move at 20; under
    ``clear_path`` as far as its paths run unless the turn limits it, ruling CV-6)."""
    return visibility(state.loaded.scenario, state.loaded.ruleset, state.turn, state.modules)


def turn_sight_limit(state: GameState) -> int | None:
    """The limit of this turn's sight as the players are told it, in cells (``None``: none,
    the ``clear_path`` rule seeing as far as its paths run)."""
    return sight_limit(state.loaded.scenario, state.loaded.ruleset, state.turn, state.modules)


def _sight(state: GameState) -> dict[str, SideSighting]:
    with live_sighting(state) as sighting:
        return sighting.result()


def live_sighting(state: GameState) -> AbstractContextManager[Sighting]:
    """The game's live sighting of its units now (``rules.knowledge.live_sighting``), held for
    the caller alone while its block runs."""
    return synced(rule_for(state), turn_visibility(state), state.loaded.ruleset.blocked_radius,
                  state.sides, state.units)


@functools.lru_cache(maxsize=64)
def bits_to_cells(bits: int, grid: HexGrid | SquareGrid) -> frozenset[Cell]:
    """The cells whose indexes are set in ``bits`` (kept for the last few sightings: every view
    of one moment asks for the same ones)."""
    cells = _all_cells(grid)
    digits = bin(bits)[:1:-1]  # lowest bit first
    out = []
    index = digits.find("1")
    while index >= 0:
        out.append(cells[index])
        index = digits.find("1", index + 1)
    return frozenset(out)


@functools.lru_cache(maxsize=8)
def _all_cells(grid: HexGrid | SquareGrid) -> tuple[Cell, ...]:
    return tuple(grid.cells())


def appearance(state: GameState, viewer: str, unit: Unit,
               modules: Sequence[RuleModule] | None = None) -> Unit:
    """The unit as ``viewer``'s troops see it: the one place that asks the modules in force
    (``RuleModule.appearance``), which may show an enemy a face that is not the truth (a sham
    result). The view, the side's memory and whatever is worked out from the side's picture of
    a unit (a second sham on it) follow this answer."""
    face = unit
    for module in in_force(state.modules) if modules is None else modules:
        face = module.appearance(state, viewer, face)
    return face


def shows_anonymous(state: GameState, viewer: str, unit: Unit,
                    modules: Sequence[RuleModule] | None = None) -> bool:
    """Whether an enemy unit shows to ``viewer`` as anonymous (its kind, not its identity): the
    one place that asks the modules in force (``RuleModule.shows_anonymous``). The view, the
    side's memory and every word built from it follow this answer. ``modules``: those in force,
    when the caller has them already (asked for each of many units)."""
    return any(m.shows_anonymous(state, viewer, unit)
               for m in (in_force(state.modules) if modules is None else modules))


def seen_payload(u: Unit, anonymous: bool = False) -> dict[str, Any]:
    """What a side's troops make out of an enemy unit they sight: everything on its counter, or,
    for an ``anonymous`` one, where it stands, its side, kind and formation, and no more."""
    assert u.cell is not None
    if anonymous:
        return {"cell": [u.cell.col, u.cell.row], "side": u.side, "name": "", "short": "",
                "kind": u.kind, "echelon": "", "strength": None, "formation": u.formation,
                "anonymous": True}
    return {"cell": [u.cell.col, u.cell.row], "side": u.side, "name": u.name, "short": u.short,
            "kind": u.kind, "echelon": u.echelon, "strength": u.strength,
            "formation": u.formation}


def known_name(seen: Mapping[str, Any]) -> str:
    """How a side names an enemy unit from what its troops made out of it (a sighting payload):
    its name, or for one seen only as anonymous, its kind ("an unidentified cavalry unit")."""
    name = str(seen.get("name") or "")
    if name and not seen.get("anonymous"):
        return name
    kind = str(seen.get("kind") or "")
    return f"an unidentified {kind} unit" if kind else "an unidentified enemy unit"


def known_order(seen: Mapping[str, Any]) -> tuple[int, str, int, int]:
    """A sort key for enemy units by what a side knows of them: identified ones first (their
    names are known), anonymous ones by what shows and where (never by who they are)."""
    cell = seen.get("cell") or (0, 0)
    return (1 if seen.get("anonymous") else 0, known_name(seen), int(cell[1]), int(cell[0]))


#: How a side's memory keys an enemy counter it sees only as anonymous: by where it stands and
#: what shows of it, never by which unit it is (ruling INFO-12).
ANONYMOUS_SLOT = "anon:"


def sighting_events(state: GameState) -> list[ev.Sighted]:
    """For each side whose sight of the enemy changed, the ``Sighted`` event recording it.

    An identified unit is remembered by its id. A counter seen only as anonymous is remembered
    by its slot (its cell, side, kind and formation, and a number among identical ones), so
    that nothing in the side's memory, ghosts or news follows one anonymous unit from place to
    place. One that vanishes while a counter of the same look is newly seen is taken to have
    moved there (no ghost is left behind); one that vanishes otherwise leaves a ghost; a ghost
    goes when a counter of the same look stands in its slot again."""
    if state.status == GameStatus.SETUP:
        return []
    now = sight(state)
    out = []
    for side in state.sides:
        memory = state.memory.get(side, {})
        seen_now = now[side].seen_units
        seen: dict[str, dict[str, Any]] = {}
        slots: dict[str, dict[str, Any]] = {}
        for uid in sorted(seen_now):
            # As the side's troops see it: a rule module may show them a face that is not the
            # truth (a sham result), and the side's memory must agree with its map.
            face = appearance(state, side, state.units[uid])
            anonymous = shows_anonymous(state, side, face)
            payload = seen_payload(face, anonymous)
            if anonymous:
                slots[anonymous_slot(payload, slots)] = payload
                continue
            m = memory.get(uid)
            if m is None or not m.in_sight or dict(m.seen) != payload:
                seen[uid] = payload
        for key, payload in slots.items():
            m = memory.get(key)
            if m is None or not m.in_sight:
                seen[key] = payload
        lost: list[str] = []
        forgotten: list[str] = []
        # How many counters of each look were newly seen: as many vanished ones of that look
        # moved there, as far as the side can tell.
        moved = Counter(anonymous_look(p) for k, p in seen.items() if k.startswith(ANONYMOUS_SLOT))
        for key, m in sorted(memory.items()):
            if not m.in_sight or key in seen_now or key in slots:
                continue
            if key.startswith(ANONYMOUS_SLOT) and moved[anonymous_look(m.seen)] > 0:
                moved[anonymous_look(m.seen)] -= 1
                forgotten.append(key)
            else:
                lost.append(key)
        if seen or lost or forgotten:
            out.append(ev.Sighted(audience=ev.side_audience(side), side=side, seen=seen,
                                  lost=tuple(lost), forgotten=tuple(forgotten)))
    return out


def face_up(state: GameState, side: str, now: Mapping[str, Any] | None = None
            ) -> frozenset[str]:
    """The side's own units that an enemy side playing with face-down counters (the inverted
    model) now sees identified: on the table, its counters turned face up, which their owner
    sees too (ruling CV-38). Under the hidden model nothing is turned on the table, so an owner
    never learns whether the enemy sees him. ``now``: the sighting of the moment, when the
    caller has it."""
    observers = [o for o in state.sides if o != side
                 and information_model(state, o) is InformationModel.INVERTED]
    if not observers:  # no sighting to work out: nothing is ever turned
        return frozenset()
    now = sight(state) if now is None else now
    out: set[str] = set()
    for other in observers:
        for uid in now[other].seen_units:
            unit = state.units.get(uid)
            if unit is not None and unit.side == side and not shows_anonymous(
                    state, other, appearance(state, other, unit)):
                out.add(uid)
    return frozenset(out)


def faces_turned(before: GameState, after: GameState) -> list[ev.FaceTurned]:
    """For each side some of whose units a command turned face up, or let fall face down
    (``face_up`` in ``before`` against ``after``), the event telling it so: once, at the end of
    the command, with what it changed in all (ruling CV-38)."""
    if before.status != GameStatus.ACTIVE or after.status == GameStatus.SETUP:
        return []
    out = []
    for side in after.sides:
        was, now = face_up(before, side), face_up(after, side)
        if was != now:
            out.append(ev.FaceTurned(audience=ev.side_audience(side), side=side,
                                     up=tuple(sorted(now - was)), down=tuple(sorted(was - now))))
    return out


def anonymous_look(payload: Mapping[str, Any]) -> tuple[str, str, str]:
    """What shows of an anonymous counter, wherever it stands."""
    return (str(payload["side"]), str(payload["kind"]), str(payload["formation"]))


def anonymous_slot(payload: Mapping[str, Any], taken: Mapping[str, Any]) -> str:
    """The memory key of an anonymous counter: where it stands and what shows, numbered among
    identical counters in the same cell."""
    col, row = payload["cell"]
    base = f"{ANONYMOUS_SLOT}{col},{row}:{payload['side']}:{payload['kind']}:{payload['formation']}"
    n = 0
    while f"{base}:{n}" in taken:
        n += 1
    return f"{base}:{n}"


def end_of(phase: str) -> str:
    """The end of a phase in words: "End of the Fire Phase"; a phase whose name already speaks
    of an end (the "End of Turn") is named as it is, never "End of the End of Turn"."""
    return phase if phase.lower().startswith("end of") else f"End of the {phase}"


def phase_report(view: SideView) -> str:
    """The end-of-phase report for a side that sees its enemies only by sighting, from its own
    view: the enemy units in sight, and those lost from sight this turn, as its memory holds
    them. Empty when there is nothing to say or when the side sees every enemy anyway (open and
    concealed models)."""
    if view.information.shows_every_enemy:
        return ""
    board = view.board
    in_sight = sorted((u.name, board.label(u.cell)) for u in view.remembered(in_sight=True))
    lost = sorted((u.name, board.label(u.cell)) for u in view.remembered(in_sight=False)
                  if u.last_seen_turn == view.turn)
    if not in_sight and not lost:
        return ""
    lines = [f"**{end_of(view.phase)}**: what your troops saw."]
    if in_sight:
        lines.append("In sight: " + "; ".join(f"{n} at {c}" for n, c in in_sight))
    if lost:
        lines.append("Lost from sight: " + "; ".join(f"{n}, last at {c}" for n, c in lost))
    return "\n".join(lines)
