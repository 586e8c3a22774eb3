"""Carrying a surprise move out: the road column, blocked hexes, the 6 MPs after one, detours.

The column (ruling SM-9): the lead element is the force's combat unit nearest the route's first
waypoint; the others follow it in order of how far they have to go to reach its starting cell,
each along its own cheapest way there and then along the lead element's trail, never past the
unit ahead of it, and never ending where the stacking limit is full (they pass through friends).
Every unit marches in road column (infantry in column, artillery limbered, cavalry mounted) and
has the same budget of MPs as the lead element; a unit not yet in road column first pays for the
change of formation out of that budget (ruling CORE-7), before its first step.

The lead element follows the route (SM, "Concealed Movement") until its MPs are spent, the route
ends, it runs into the enemy, or it enters a *blocked hex*: a cell at or within two hexes of an
enemy combat unit or one an enemy observer sees (``rules.sighting``: ``blocked_cells``, with
what the modules add: ``RuleModule.blocked_cells``, an enemy concealment marker's pickets and
sight, ruling CF-16). After a blocked hex the force may spend 6 more MPs, or what is left if
less; the rest is lost (ruling SM-10). In a triggered march (``half``) all movement ceases once
the head enters a blocked hex (SM, "Enemy Interference"): every unit of the force stops where it
stands at that moment, having spent no more MPs than the head had (ruling SM-12).

The head is also stopped wherever a module would stop a moving unit (``RuleModule.stop_reason``:
within sight or two hexes of an enemy concealed force, say). Then all movement ceases as in a
triggered march's blocked hex, and the march is over (ruling CF-18); the module reacts once the
column's move is made (``on_positions_changed``: the force is revealed).

Before the first blocked hex, the ranking leader may roll his initiative to go round it (SM,
"Initiative Use"): the umpire works out the detour (the cheapest way, avoiding every blocked and
enemy-held cell, back to a later cell of the route that is not blocked) and, on success, the
column takes it. The owner chooses at each blocked hex (``ask``) or gives a standing instruction
(``always`` / ``never``).

A run is kept in the march record as JSON-ready data and changed only by the module's events;
this module works out what the next events are.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rules.events import side_audience
from rules.forces.units import Unit
from rules.forces.words import STACKING_KINDS, Formation
from rules.ground.grid import Cell
from rules.knowledge.sighted import rule_for, sight, turn_visibility
from rules.modules.registry import in_force
from rules.orders.movement import formation_change_cost
from rules.orders.positions import positions_changed
from rules.orders.stops import Stop
from rules.state import GameState
from rules.surprise import events as sev
from rules.surprise import force as frc
from rules.surprise import interference, orders
from rules.surprise import records as rec
from rules.surprise.march.column import march_formation, route_path
from rules.surprise.march.paths import cheapest_path
from rules.surprise.march.stopping import (
    AFTER_BLOCKED_MP,
    BlockedHex,
    Blocker,
    MarchStop,
    NoDetour,
)
from rules.turn import reaction

if TYPE_CHECKING:
    from rules.outcome import Outcome

EPS = 1e-9

PAUSED, CHUNK, DONE = "paused", "chunk", "done"

#: The detour question's answers: try the leader's initiative, or march on into the blocked hex
#: (the default, when the phase ends unanswered).
TRY, GO_ON = "try", "go"
DETOUR_CHOICES = (TRY, GO_ON)


# -- beginning a run -----------------------------------------------------------------------------
def budget_for(state: GameState, record: Mapping[str, Any], kind: str) -> tuple[float, bool]:
    """The MPs the column may spend, and whether it is a triggered (half) march."""
    saved = float(record["accumulated_mp"])
    if kind in ("triggered", "reverse_discovered"):
        return saved / 2, True
    if kind == "collision":
        return saved, False
    return saved + frc.allowance(state, record["units"]) + int(record["forced"]), False


def plan(state: GameState, record: Mapping[str, Any], kind: str, interactive: bool
         ) -> tuple[dict[str, Any], dict[str, Formation]]:
    """The run as it begins, and the formation changes to road column."""
    gm = state.loaded.map
    budget, half = budget_for(state, record, kind)
    lead, path = route_path(state, record)
    units = frc.on_map(state, record["units"])
    formations = {u.id: march_formation(u) for u in units if u.formation != march_formation(u)}
    # Forming column costs what a change of formation costs, out of each unit's march budget.
    formed = {uid: formation_change_cost(state.units[uid]) for uid in formations}
    run: dict[str, Any] = {
        "kind": kind, "half": half, "interactive": interactive, "budget": budget,
        "cap": budget, "spent": 0.0, "formed": formed, "order": [], "starts": {},
        "approach": {}, "pos": {},
        "lead_start": None, "trail": [], "path": [rec.ref(c) for c in path],
        "blocked_at": None, "declined": [], "pending": None, "detour": [], "stopped": "",
        "done": False,
    }
    if lead is None or lead.cell is None:
        run.update(done=True, stopped="no unit of the force is on the map")
        return run, formations
    start = lead.cell
    costs: dict[str, float] = {}
    approach: dict[str, list[list[int]] | None] = {}
    for u in units:
        assert u.cell is not None
        if u.id == lead.id:
            continue
        found = cheapest_path(gm, u.cell, (start,), u.movement_class, march_formation(u))
        approach[u.id] = None if found is None else [rec.ref(c) for c in found[0]]
        costs[u.id] = 10**6 + gm.grid.distance(u.cell, start) if found is None else found[1]
    listed = {uid: n for n, uid in enumerate(record["units"])}
    others = sorted(costs, key=lambda uid: (costs[uid], listed.get(uid, 0)))
    run.update(order=[lead.id, *others],
               starts={u.id: rec.ref(u.cell) for u in units if u.cell is not None},
               approach={lead.id: [], **approach}, pos={u.id: -1 for u in units},
               lead_start=rec.ref(start), spent=formed.get(lead.id, 0.0))
    return run, formations


def start_run(out: Outcome, march_id: str, kind: str, interactive: bool) -> None:
    """Emit the ``MarchBegun`` event for a march (no movement yet), once its shammed units
    stand in their proper places again."""
    interference.lift_shams(out, march_id)
    record = rec.march(out.state, march_id)
    run, formations = plan(out.state, record, kind, interactive)
    out.add(sev.MarchBegun(audience=side_audience(str(record["side"])), march=march_id,
                           name=rec.name_of(out.state, march_id),
                           kind=kind, run=run, formations=formations))


# -- the lead element's walk ----------------------------------------------------------------------
def blocked_bits(state: GameState, side: str) -> int:
    """The cells (a bitset) where a surprise march of ``side`` reaches a blocked hex: the
    sighting pass's, and those the modules in force add (ruling CF-16)."""
    gm = state.loaded.map
    bits = sight(state)[side].blocked_cells
    for module in in_force(state.modules):
        for cell in module.blocked_cells(state, side):
            bits |= 1 << gm.idx(cell)
    return bits


def _head_stop(state: GameState, lead: Unit, cell: Cell) -> Stop | None:
    """Why a module would stop the head after it enters ``cell`` (as it would any moving
    unit), or ``None``."""
    for module in in_force(state.modules):
        reason = module.stop_reason(state, lead, cell)
        if reason is not None:
            return reason
    return None


def _enemy_cells(state: GameState, side: str) -> set[Cell]:
    out = {u.cell for u in state.enemies_of(side) if u.cell is not None}
    for module in in_force(state.modules):
        out |= module.closed_cells(state, side)
    return out


def find_detour(state: GameState, side: str, lead: Unit, here: Cell, path: Sequence[Cell],
                blocked: int, enemy: set[Cell]) -> list[Cell] | None:
    """The cheapest way from ``here`` round the blocked ``path[0]`` back to a later cell of the
    route that is not blocked, avoiding every blocked and enemy-held cell."""
    gm = state.loaded.map
    rejoin = {c for c in path[1:] if not blocked >> gm.idx(c) & 1 and c not in enemy}
    if not rejoin:
        return None

    def avoid(c: Cell) -> bool:
        return bool(blocked >> gm.idx(c) & 1) or c in enemy

    found = cheapest_path(gm, here, rejoin, lead.movement_class, lead.formation, avoid=avoid)
    return None if found is None or not found[0] else found[0]


def blockers(state: GameState, side: str, cell: Cell) -> list[Blocker]:
    """The enemy counters that make ``cell`` a blocked hex for ``side``: each that fights within
    the blocked radius of it, nearest first, then each that observes and sees it, nearest
    first; an enemy marker of the modules' blocked cells counts as both (ruling CF-16). Facts
    for the owner's report only: its words name none the owner does not see (ruling SM-25)."""
    gm = state.loaded.map
    radius = state.loaded.ruleset.blocked_radius
    rule, vis = rule_for(state), turn_visibility(state)
    target = gm.idx(cell)
    counters = [(u.cell, u.combat, u.observer) for u in state.enemies_of(side)
                if u.cell is not None]
    if any(cell in module.blocked_cells(state, side) for module in in_force(state.modules)):
        counters += [(m.cell, True, True) for m in state.markers_list() if m.side != side]
    near: set[Cell] = set()
    seeing: set[Cell] = set()
    for where, fights, observes in counters:
        if fights and gm.grid.distance(where, cell) <= radius:
            near.add(where)
        elif observes and rule.visible_from(gm.idx(where), vis) >> target & 1:
            seeing.add(where)

    def order(c: Cell) -> tuple[int, int, int]:
        return gm.grid.distance(c, cell), c.col, c.row

    return ([Blocker(cell=rec.ref(c), near=True) for c in sorted(near, key=order)]
            + [Blocker(cell=rec.ref(c), near=False) for c in sorted(seeing - near, key=order)])


def _no_detour(record: Mapping[str, Any], run: Mapping[str, Any], cell: Cell,
               leader: Unit | None, way: list[Cell] | None) -> NoDetour | None:
    """Why the head entered the blocked hex ``cell`` rather than go round it (``way``: the
    detour found there, if one was looked for); ``None`` for a hex declined in a run recorded
    before the reasons were kept."""
    told: Mapping[str, str] = run.get("no_detour", {})
    if _key(cell) in told:
        return NoDetour(told[_key(cell)])
    if cell in {rec.cell_of(c) for c in run["declined"]}:
        return None
    if leader is None or leader.cell is None:
        return NoDetour.NO_LEADER
    if record["detour"] == "never":
        return NoDetour.NEVER
    if way is None:
        return NoDetour.NO_WAY
    # An ``ask`` order not asked: after a question went unanswered this phase, or in the turns
    # of a collision, which begin with no questions.
    unanswered = NoDetour.UNANSWERED.value in told.values()
    return NoDetour.NOT_ASKED if unanswered else NoDetour.COLLISION


def _key(cell: Cell) -> str:
    return f"{cell.col},{cell.row}"


def _stop_words(run: Mapping[str, Any]) -> str:
    if run["half"]:
        return "half its saved MPs are spent"
    if run["blocked_at"] is not None and run["cap"] < run["budget"] - EPS:
        return "the 6 MPs allowed after the blocked hex are spent"
    return "its MPs are spent"


def walk(state: GameState, record: Mapping[str, Any], limit: float | None
         ) -> tuple[dict[str, Any], str, list[Cell]]:
    """The lead element's walk from where the run stands. Returns the new run and what stopped
    it: ``stop`` (the run is over), ``chunk`` (``limit`` reached), ``ask`` or ``roll`` (a blocked
    hex is next and a detour, the third value, can be tried)."""
    run = copy.deepcopy(dict(record["run"]))
    if run["done"]:
        return run, "stop", []
    gm = state.loaded.map
    side = str(record["side"])
    lead = state.units[run["order"][0]]
    assert lead.cell is not None
    here = lead.cell
    blocked = blocked_bits(state, side)
    enemy = _enemy_cells(state, side)
    declined = {rec.cell_of(c) for c in run["declined"]}
    leader = state.units.get(str(record.get("leader") or ""))
    can_detour = (leader is not None and leader.cell is not None and record["detour"] != "never"
                  and run["blocked_at"] is None)
    while run["path"]:
        nxt = rec.cell_of(run["path"][0])
        if nxt in enemy:
            run["stopped"] = "it ran into the enemy"
            run["contact"] = rec.ref(nxt)
            break
        cost = gm.step_cost(here, nxt, lead.movement_class, lead.formation)
        if cost is None:
            run["stopped"] = f"{gm.board.describe(nxt)} cannot be entered"
            break
        if run["spent"] + cost > run["cap"] + EPS:
            run["stopped"] = _stop_words(run)
            break
        if limit is not None and run["spent"] + cost > limit + EPS:
            return run, "chunk", []
        is_blocked = bool(blocked >> gm.idx(nxt) & 1)
        detour: list[Cell] | None = None
        if is_blocked and run["blocked_at"] is None and nxt not in declined and can_detour:
            path = [rec.cell_of(c) for c in run["path"]]
            detour = find_detour(state, side, lead, here, path, blocked, enemy)
            if detour is not None:
                if record["detour"] == "always":
                    return run, "roll", detour
                if run["interactive"]:
                    return run, "ask", detour
        if is_blocked and run["blocked_at"] is None:
            # The facts of the report (ruling SM-25): why no detour, and what blocked the hex.
            run["blocked_hex"] = BlockedHex(
                cell=rec.ref(nxt), at_mp=run["spent"] + cost,
                allowed=0.0 if run["half"] else min(AFTER_BLOCKED_MP,
                                                    run["budget"] - run["spent"] - cost),
                radius=gm.ruleset.blocked_radius, blockers=blockers(state, side, nxt),
                no_detour=_no_detour(record, run, nxt, leader, detour),
                leader=leader.id if leader is not None else "",
                step=len(run["trail"])).model_dump(mode="json")
        run["spent"] += cost
        run["trail"].append(rec.ref(nxt))
        run["path"].pop(0)
        here = nxt
        first_blocked = is_blocked and run["blocked_at"] is None
        if first_blocked:
            run["blocked_at"] = run["spent"]
            run["cap"] = min(run["budget"], run["spent"] + AFTER_BLOCKED_MP)
        stop = _head_stop(state, lead, nxt)
        if stop is not None or (first_blocked and run["half"]):
            # All movement ceases: no unit of the force spends more than the head has.
            run["cap"] = run["spent"]
            run["stopped"] = stop.words if stop is not None else (
                f"it reached a blocked hex ({gm.board.describe(nxt)}): all movement ends")
            break
    else:
        run["stopped"] = run["stopped"] or "it reached the end of its route"
    run["done"] = True
    return run, "stop", []


# -- the column following --------------------------------------------------------------------------
def place_column(state: GameState, record: Mapping[str, Any], run: dict[str, Any]
                 ) -> dict[str, list[list[int]]]:
    """Where every unit of the column ends for the run as it stands: updates ``run["pos"]`` and
    returns each unit's cells entered since its last position."""
    gm = state.loaded.map
    side = str(record["side"])
    limit = gm.ruleset.stacking_limit
    members = set(run["order"])
    stack: Counter[Cell] = Counter(
        u.cell for u in state.units_of(side)
        if u.cell is not None and u.id not in members and u.kind in STACKING_KINDS)
    enemy = _enemy_cells(state, side)
    trail = [rec.cell_of(c) for c in run["trail"]]
    cap = run["cap"] if run["done"] else run["spent"]
    formed: Mapping[str, float] = run.get("formed", {})  # absent from runs recorded earlier
    moves: dict[str, list[list[int]]] = {}
    ahead: Cell | None = None
    for n, uid in enumerate(run["order"]):
        unit = state.units[uid]
        start = rec.cell_of(run["starts"][uid])
        approach = run["approach"].get(uid)
        if approach is None:
            full: list[Cell] = []
        else:
            full = [rec.cell_of(c) for c in approach] + trail
        k = -1
        if n == 0:
            k = len(trail) - 1
        else:
            spent, here = float(formed.get(uid, 0.0)), start
            for i, cell in enumerate(full):
                if cell in enemy:
                    break
                cost = gm.step_cost(here, cell, unit.movement_class,
                                    march_formation(unit))
                if cost is None or spent + cost > cap + EPS:
                    break
                spent, here, k = spent + cost, cell, i
            if ahead is not None and ahead in full:
                k = min(k, full.index(ahead))
        counts = unit.kind in STACKING_KINDS
        while counts and k >= 0 and stack[full[k]] >= limit:
            k -= 1
        k = max(k, int(run["pos"].get(uid, -1)))
        end = full[k] if k >= 0 else start
        if counts:
            stack[end] += 1
        old = int(run["pos"].get(uid, -1))
        if k > old:
            moves[uid] = [rec.ref(c) for c in full[old + 1:k + 1]]
        run["pos"][uid] = k
        ahead = end
    return moves


# -- driving a run ---------------------------------------------------------------------------------
def _flush(out: Outcome, march_id: str, run: dict[str, Any]) -> None:
    """Move the column to where the run has brought it (one event), then update sighting and let
    the modules react to the moves."""
    record = rec.march(out.state, march_id)
    moves = place_column(out.state, record, run)
    starts = {uid: cell for uid in moves if (cell := out.state.units[uid].cell) is not None}
    out.add(sev.ColumnMarched(audience=side_audience(str(record["side"])), march=march_id,
                              name=rec.name_of(out.state, march_id),
                              moves=moves, run=run, why=why_stopped(run)))
    moved = [uid for uid, cells in moves.items() if cells]
    positions_changed(out, moved, {uid: [starts[uid], *(rec.cell_of(c) for c in cells)]
                                   for uid, cells in moves.items() if cells and uid in starts})
    for module in in_force(out.state.modules):
        for uid in moved:
            module.after_move(out, uid)


def why_stopped(run: Mapping[str, Any]) -> MarchStop | None:
    """The facts of the owner's report on a run that is over (``None`` while it goes on): the
    first blocked hex, the cells and MPs spent after it, the enemy-held cell it ran into."""
    if not run.get("done"):
        return None
    contact = run.get("contact")
    if not run.get("blocked_hex"):
        return MarchStop(contact=contact)
    blocked = BlockedHex.model_validate(run["blocked_hex"])
    return MarchStop(blocked=blocked, after=[list(c) for c in run["trail"][blocked.step + 1:]],
                     after_mp=round(float(run["spent"]) - blocked.at_mp, 2), contact=contact)


def advance(out: Outcome, march_id: str, limit: float | None = None) -> str:
    """Carry the run on until it is over (``DONE``), waits for the owner's detour choice
    (``PAUSED``) or reaches ``limit`` MPs (``CHUNK``)."""
    while True:
        record = rec.march(out.state, march_id)
        if record["status"] != rec.RUNNING:
            return DONE
        run, why, detour = walk(out.state, record, limit)
        if run["trail"] != record["run"]["trail"] or why == "stop":
            _flush(out, march_id, run)
        side = str(record["side"])
        if why == "stop":
            finish(out, march_id)
            return DONE
        if why == "chunk":
            return CHUNK
        cell = rec.ref(rec.cell_of(run["path"][0]))
        route = [rec.ref(c) for c in detour]
        if why == "ask":
            out.add(sev.DetourOffered(audience=side_audience(side), march=march_id,
                                      name=rec.name_of(out.state, march_id), cell=cell,
                                      detour=route))
            # The owner answers in the reaction window; the offer above says it in words. Its
            # own other units may still move meanwhile (the question does not hold them).
            reaction.ask(out, rec.MODULE, side, march_id, DETOUR_CHOICES, GO_ON, holds=False)
            return PAUSED
        taken = try_detour(out, march_id)
        out.add(sev.DetourResolved(audience=side_audience(side), march=march_id,
                                   name=rec.name_of(out.state, march_id), cell=cell,
                                   taken=taken, tried=True, detour=route if taken else []))


def try_detour(out: Outcome, march_id: str) -> bool:
    """The ranking leader's initiative roll to go round a blocked hex (+1 with cavalry)."""
    record = rec.march(out.state, march_id)
    leader = out.state.units[str(record["leader"])]
    bonus = {"cavalry_with_force": 1} if frc.has_cavalry(out.state, record["units"]) else {}
    table = out.state.loaded.ruleset.tables["initiative"]
    if bonus:
        bonus = {"cavalry_with_force": abs(int(table.modifiers.get("cavalry_with_force", 1)))}
    return orders.initiative_roll(out, str(record["side"]), leader,
                           f"{leader.name}'s initiative: detour of surprise move "
                           f"{record['name']}", bonus)


def choose_detour(out: Outcome, march_id: str, attempt: bool) -> None:
    """The owner's answer to a detour offer; the march then goes on."""
    record = rec.march(out.state, march_id)
    run = record["run"]
    side = str(record["side"])
    taken = try_detour(out, march_id) if attempt else False
    out.add(sev.DetourResolved(audience=side_audience(side), march=march_id,
                               name=rec.name_of(out.state, march_id),
                               cell=list(run["pending"]), taken=taken, tried=attempt,
                               detour=list(run["detour"]) if taken else []))
    advance(out, march_id)


def finish(out: Outcome, march_id: str) -> None:
    """The run is over: the march is executed, and what is left of its MPs is lost. A force that
    marched in the enemy's phase (a collision) counts as having moved in its own next one."""
    record = rec.march(out.state, march_id)
    run = record["run"] or {}
    rest = run.get("kind") == "collision"
    budget = float(run.get("budget", 0.0))
    lost = max(0.0, budget - float(run.get("spent", 0.0)))
    # What a blocked hex took (ruling SM-27): the MPs beyond those it allowed after it.
    blocked = run.get("blocked_hex")
    allowed = float(blocked["allowed"]) if blocked else None
    beyond = max(0.0, budget - float(blocked["at_mp"]) - float(blocked["allowed"])) if blocked \
        else 0.0
    out.add(sev.MarchEnded(audience=side_audience(str(record["side"])), march=march_id,
                           name=rec.name_of(out.state, march_id),
                           outcome=rec.EXECUTED, lost_mp=round(lost, 2), rest=rest,
                           allowed_after_blocked=allowed,
                           beyond_blocked=round(min(beyond, lost), 2)))


def halt(out: Outcome, march_id: str, why: str) -> None:
    """Stop a run where it stands (two columns in collision within 6 MPs of each other)."""
    record = rec.march(out.state, march_id)
    run = copy.deepcopy(dict(record["run"]))
    run.update(done=True, stopped=why)
    _flush(out, march_id, run)
    finish(out, march_id)


def settle_pending(out: Outcome, march_id: str) -> None:
    """The phase ends with a detour question unanswered: the column marches on into the blocked
    hex, and any later blocked hex is entered without asking."""
    record = rec.march(out.state, march_id)
    side = str(record["side"])
    out.add(sev.DetourResolved(audience=side_audience(side), march=march_id,
                               name=rec.name_of(out.state, march_id),
                               cell=list(record["run"]["pending"]), taken=False, tried=False,
                               interactive=False))
    advance(out, march_id)


def apply_run_event(record: dict[str, Any], event: Any) -> None:
    """Fold a run event into a (copied) march record."""
    run = record["run"]
    match event:
        case sev.DetourOffered(cell=cell, detour=detour):
            run["pending"], run["detour"] = list(cell), [list(c) for c in detour]
        case sev.DetourResolved(cell=cell, taken=taken, detour=detour):
            run["pending"], run["detour"] = None, []
            if not event.interactive:
                run["interactive"] = False
            if taken and detour:
                path = [list(c) for c in run["path"]]
                end = list(detour[-1])
                j = path.index(end, 1) if end in path[1:] else len(path) - 1
                run["path"] = [list(c) for c in detour] + path[j + 1:]
            else:
                run["declined"].append(list(cell))
                # Why, for the report once the head enters it (ruling SM-26).
                why = (NoDetour.UNANSWERED if not event.interactive else
                       None if event.tried is None else
                       NoDetour.FAILED if event.tried else NoDetour.DECLINED)
                if why is not None:
                    run.setdefault("no_detour", {})[_key(rec.cell_of(cell))] = why.value
