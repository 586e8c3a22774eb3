"""The cost of concealment markers on the flank-march scenario (part of ``bench.sighting``).

Thirty Confederate markers (decoys, so that the units on the map are the same in both runs) are
placed where no Union unit sees them and at least three hexes from every Union unit. Timed, with
markers and without, every cache of sightings emptied before each run, but for the game's live
sighting, which a move finds where the command before it left it (each figure is the best of the
runs: on a shared machine the least time is the code's own cost):

* the full pass: both sides' sighting and the Concealed Forces reveal check over every marker;
* one move: a Union unit has stepped one hex, and ``positions_changed`` runs as after any move
  (sighting events, then each module's hook: the reveal check among them);
* a 12-hex walk of a Union unit, ``positions_changed`` given its way (every step watched,
  ruling INFO-18) against the same given its end only.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable
from pathlib import Path

from rules import engine
from rules import events as ev
from rules.concealed import records as rec
from rules.concealed.reveal.revealing import found_marker
from rules.concealed.reveal.spacing import KEEP_AWAY, cell_in_enemy_sight, nearest_enemy
from rules.ground.grid import Cell
from rules.knowledge import live_sighting
from rules.knowledge.sighted import _BY_UNITS, sight
from rules.orders.positions import positions_changed
from rules.outcome import Outcome
from rules.scenario.loader import load
from rules.state import GameState, initial_state, with_units
from umpire.games.dice import SeededDice

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
MARKERS = 30
SIDE = "confederate"
ENEMY = "union"
RUNS = 41


_dice = SeededDice(bytes(32), "bench")


def _fresh(before: GameState | None) -> None:
    """Every sighting cache emptied; with ``before``, the game's live sighting then brought to
    that state, as the command before it left it (``rules.knowledge.live_sighting``)."""
    live_sighting.clear()
    _BY_UNITS.clear()
    if before is not None:
        sight(before)
        _BY_UNITS.clear()


def _best_ms(*runs: tuple[Callable[[], object], GameState | None]) -> list[float]:
    """Each function's best time (the machine is shared: the least time is the code's own
    cost, the rest is waiting for the CPU), the runs taken in turn (so that a busy machine weighs on
    all alike), every sighting cache emptied before each run (the live sighting left at the
    state given beside the function, if any) and the garbage collector off during it."""
    times: list[list[float]] = [[] for _ in runs]
    gc.collect()
    for _ in range(RUNS):
        for (fn, before), kept in zip(runs, times, strict=True):
            _fresh(before)
            gc.disable()  # as timeit does: a collection of the whole process's garbage is noise
            start = time.perf_counter()
            fn()
            kept.append(time.perf_counter() - start)
            gc.enable()
    return [round(min(t) * 1000, 3) for t in times]


def game() -> GameState:
    scenario = SCENARIOS / "flank-march.toml"
    ruleset = SCENARIOS / "brigade-series.ruleset.toml"
    loaded = load(scenario.read_text(encoding="utf-8"), str(scenario),
                  ruleset.read_text(encoding="utf-8"), str(ruleset))
    return engine.start(initial_state(loaded), "bench", _dice).state


def with_markers(state: GameState, count: int, seed: int = 1) -> GameState:
    """The state with ``count`` Confederate decoys where the Union neither sees nor is near."""
    rng = random.Random(seed)
    grid = state.loaded.map.grid
    board = state.loaded.board
    out = Outcome(state, _dice)
    cells = [c for c in grid.cells() if board.on_a_sheet(c)]
    rng.shuffle(cells)
    placed = 0
    for cell in cells:
        if placed == count:
            break
        near = nearest_enemy(out.state, SIDE, cell)
        if (near is not None and near[1] < KEEP_AWAY) or cell_in_enemy_sight(out.state, SIDE, cell):
            continue
        if any(m.cell == cell for m in out.state.markers.values()):
            continue
        mid = out.new_marker_id(SIDE)
        out.add(ev.MarkerPlaced(audience="public", marker=mid, side=SIDE,
                                cell=(cell.col, cell.row)))
        placed += 1
    assert placed == count, placed
    # Each marker a decoy, filed as breeding files one.
    data = rec.edit(out.state)
    forces = data.setdefault("forces", {})
    for mid in out.state.markers:
        forces[mid] = {"side": SIDE, "kind": rec.ForceKind.DECOY.value, "commander": "",
                       "units": [], "concealed_turn": 1, "bred_turn": 1, "name": "decoy"}
    found = rec.store(out.state, data)
    assert found_marker(found) is None
    return found


def one_move(state: GameState, seed: int = 2) -> tuple[GameState, str]:
    """The state after a Union unit stepped one hex (into a free hex where it finds nothing)."""
    after, uid, _ = quiet_walk(state, 1, seed)
    return after, uid


def quiet_walk(state: GameState, hexes: int, seed: int = 3) -> tuple[GameState, str, list[Cell]]:
    """The state after a Union unit walked ``hexes`` hexes through free hexes, finding nothing,
    and its way, from where it started."""
    rng = random.Random(seed)
    grid = state.loaded.map.grid
    units = sorted(u.id for u in state.units_of(ENEMY) if u.cell is not None)
    occupied = {u.cell for u in state.units.values() if u.cell is not None}
    for _ in range(1000):
        unit = state.units[rng.choice(units)]
        assert unit.cell is not None
        way = [unit.cell]
        while len(way) <= hexes:
            free = [c for c in grid.neighbours(way[-1]) if c not in occupied
                    and c not in way and state.loaded.board.on_a_sheet(c)]
            if not free:
                break
            way.append(rng.choice(free))
        if len(way) == hexes + 1:
            after = with_units(state, {unit.id: unit.placed(way[-1])})
            if found_marker(after) is None:
                return after, unit.id, way
    raise SystemExit("no quiet walk found")


def run() -> dict[str, float]:
    plain = game()
    marked = with_markers(plain, MARKERS)
    full_plain, full_marked = _best_ms((lambda: (sight(plain), found_marker(plain)), None),
                                       (lambda: (sight(marked), found_marker(marked)), None))
    moved_plain, uid = one_move(plain)
    moved_marked = with_units(marked, {uid: moved_plain.units[uid]})
    assert found_marker(moved_marked) is None

    def update(state: GameState) -> None:
        positions_changed(Outcome(state, _dice), (uid,))

    move_plain, move_marked = _best_ms((lambda: update(moved_plain), plain),
                                       (lambda: update(moved_marked), marked))
    walked, walker, way = quiet_walk(plain, 12)
    at_end, watched = _best_ms(
        (lambda: positions_changed(Outcome(walked, _dice), (walker,)), plain),
        (lambda: positions_changed(Outcome(walked, _dice), (walker,), {walker: way}), plain))
    units = sum(1 for u in plain.units.values() if u.cell is not None)
    print(f"flank-march, a Union unit walks 12 hexes: positions_changed watching every step "
          f"{watched} ms vs its end only {at_end} ms ({watched / at_end:.2f}x), best of {RUNS}")
    print(f"flank-march ({units} units on the map), {MARKERS} Confederate markers vs none: "
          f"full pass with the reveal check {full_marked} vs {full_plain} ms "
          f"({full_marked / full_plain:.2f}x); after one move {move_marked} vs {move_plain} ms "
          f"({move_marked / move_plain:.2f}x), best of {RUNS}")
    return {
        "cf30_full_pass_ms_best": full_marked,
        "cf0_full_pass_ms_best": full_plain,
        "cf30_full_pass_ratio": round(full_marked / full_plain, 3),
        "cf30_one_move_ms_best": move_marked,
        "cf0_one_move_ms_best": move_plain,
        "cf30_one_move_ratio": round(move_marked / move_plain, 3),
        "twelve_hex_move_watched_ms_best": watched,
        "twelve_hex_move_end_only_ms_best": at_end,
    }
