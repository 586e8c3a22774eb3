"""Two surprise moves on the same cells at the same time (SM, "Surprise Move Collision").

When a march sets off, the umpire looks for an accepted surprise move of another side whose
route, or whose units, lie on the cells the setting-off column can reach this time (ruling
SM-17). The game option ``surprise_collision`` (chosen when the game is created, else the
scenario's own option) says what follows:

* ``first`` (the default): the march that started first completes; the other is cancelled and
  its saved MPs are lost. Only its owner is told.
* ``alternate``: every owner is told (nobody else), and the columns march in turns, 6 MPs
  at a time, the phasing one first. After every bout of either column, the first included, the
  heads are measured (ruling SM-3): within 6 MPs of each other, both forces are done, even if
  the second has not yet moved. A column that has finished drops out of the turns and the other
  goes on alone, still bout by bout and still measured after each bout, so that it stops short
  of the enemy column rather than marching into it. The other force spends only its saved MPs,
  and counts as having moved in its own next movement phase (whether or not it got a bout); the
  phasing force moves freely in its next one. No detour question is asked during the bouts
  ("ask" counts as "never"). With more than two sides every overlapping march takes part, and
  each pair of heads is measured.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

from rules.events import side_audience
from rules.ground.grid import Cell
from rules.state import GameState
from rules.surprise import events as sev
from rules.surprise import force as frc
from rules.surprise import records as rec
from rules.surprise.march import column
from rules.surprise.march import execution as exe
from rules.surprise.march.paths import mp_distance
from rules.surprise.spec import COLLISION_OPTION, SPEC

if TYPE_CHECKING:
    from rules.outcome import Outcome

FIRST, ALTERNATE = "first", "alternate"
BOUT_MP = 6.0
#: Why both columns stop (ruling SM-3).
WITHIN_WORDS = "its head came within 6 MPs of the enemy column"


def option(state: GameState) -> str:
    """How marches in collision take turns (ruling SM-17), as the module's declaration reads
    the scenario's options."""
    value = str(SPEC.option(state.loaded.scenario.scenario.options, COLLISION_OPTION)).lower()
    return ALTERNATE if value.startswith("alt") else FIRST


def reach(state: GameState, record: Mapping[str, Any], budget: float) -> set[Cell]:
    """The route cells the march's head can reach with ``budget`` MPs (ignoring blocks)."""
    lead, path = column.route_path(state, record)
    if lead is None or lead.cell is None:
        return set()
    gm = state.loaded.map
    out: set[Cell] = {lead.cell}
    spent, here = 0.0, lead.cell
    for cell in path:
        cost = gm.step_cost(here, cell, lead.movement_class, column.march_formation(lead))
        if cost is None or spent + cost > budget + exe.EPS:
            break
        spent, here = spent + cost, cell
        out.add(cell)
    return out


def overlapping(state: GameState, march_id: str, budget: float) -> list[Mapping[str, Any]]:
    record = rec.march(state, march_id)
    mine = reach(state, record, budget)
    found = []
    for other in rec.marches(state):
        if other["side"] == record["side"] or other["status"] not in rec.ACCEPTED:
            continue
        _, path = column.route_path(state, other)
        cells = set(path) | {u.cell for u in frc.on_map(state, other["units"]) if u.cell}
        if mine & cells:
            found.append(other)
    return found


def heads_within(state: GameState, a: str, b: str, mp: float = BOUT_MP) -> bool:
    """Whether the two columns' heads are within ``mp`` MPs of each other (either way)."""
    heads = []
    for march_id in (a, b):
        run = rec.march(state, march_id)["run"] or {}
        if not run.get("order"):
            return False  # no unit of that force on the map: no head to measure from
        heads.append(state.units[run["order"][0]])
    one, two = heads
    if one.cell is None or two.cell is None:
        return False
    gm = state.loaded.map
    return any(mp_distance(gm, x.cell, y.cell, x.movement_class, x.formation, max_cost=mp)
               is not None for x, y in ((one, two), (two, one)) if x.cell and y.cell)


def begin_with_collisions(out: Outcome, march_id: str, kind: str, interactive: bool) -> None:
    state = out.state
    budget, _ = exe.budget_for(state, rec.march(state, march_id), kind)
    others = overlapping(state, march_id, budget)
    if not others:
        exe.start_run(out, march_id, kind, interactive)
        exe.advance(out, march_id)
        return
    if option(state) == FIRST:
        for other in others:
            other_id = str(other["id"])
            audience = side_audience(str(other["side"]))
            out.add(sev.CollisionNoted(audience=audience, march=other_id,
                                       name=rec.name_of(out.state, other_id), mode=FIRST))
            out.add(sev.MarchEnded(audience=audience, march=other_id,
                                   name=rec.name_of(out.state, other_id), outcome=rec.COLLIDED,
                                   lost_mp=float(other["accumulated_mp"])))
        exe.start_run(out, march_id, kind, interactive)
        exe.advance(out, march_id)
        return
    # Every overlapping march takes part, each owner told of its own march only (ruling SM-17).
    mine = rec.march(state, march_id)
    out.add(sev.CollisionNoted(audience=side_audience(str(mine["side"])), march=march_id,
                               name=rec.name_of(out.state, march_id),
                               mode=ALTERNATE))
    other_ids = [str(other["id"]) for other in others]
    for other, other_id in zip(others, other_ids, strict=True):
        out.add(sev.CollisionNoted(audience=side_audience(str(other["side"])), march=other_id,
                                   name=rec.name_of(out.state, other_id),
                                   mode=ALTERNATE))
    exe.start_run(out, march_id, kind, False)
    for other_id in other_ids:
        exe.start_run(out, other_id, "collision", False)
    alternate(out, [march_id, *other_ids])


def alternate(out: Outcome, marches: Sequence[str]) -> None:
    """The bouts of 6 MPs, the phasing column first, then each in turn (ruling SM-3).

    After every bout of any column, the first included, the heads are measured: two heads
    within 6 MPs of each other, and both forces are done. A column that has finished (its MPs
    spent, its route's end, the enemy, the 6 MPs after a blocked hex) drops out of the turns,
    and the others go on, still bout by bout and still measured after each bout (its head
    still counts, where it stopped)."""
    limits = dict.fromkeys(marches, 0.0)
    going = list(marches)
    turn = 0
    while going:
        march_id = going[turn % len(going)]
        limits[march_id] += BOUT_MP
        if exe.advance(out, march_id, limits[march_id]) != exe.CHUNK:
            going.remove(march_id)  # finished (or waiting on its owner: it takes no more bouts)
        else:
            turn += 1
        close = {m for a, b in combinations(marches, 2) if heads_within(out.state, a, b)
                 for m in (a, b)}
        for still in [m for m in going if m in close]:
            exe.halt(out, still, WITHIN_WORDS)
            going.remove(still)
