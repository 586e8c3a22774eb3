"""Benchmark of line of sight and the sighting pass: ``uv run python -m bench.sighting``.

The board is 2 x 2 sheets of 34 x 22 hexes (68 x 44), elevation 0-5, about 30% woods and some
towns; each of two sides has 300 units (mostly combat units, some leaders, a few wagons). It
measures:

* load: building the line-of-sight tables for the ruleset's visibility (20), from a cold start
  of this process, and the memory that takes (tracemalloc, in a second, separate build); and
  reading the same tables back from the file a restarted bot keeps them in;
* a full pass for both sides once the tables are loaded;
* one unit moving and the sighting brought up to date incrementally (the result included);
* a 12-cell move watched at every step on a fresh sighting (``rules.sighting.along``);
* what the game runs after one move: its live sighting (``rules.knowledge.live_sighting``)
  brought to the new unit records, and after a 12-step move: that, then the move walked in it
  step by step (``game_move_ms_median``, ``move12_ms_median``);
* the naive reference's full pass, which is also checked to give the same answer;
* on the flank-march scenario, with 30 Confederate concealment markers (decoys, so that the
  units on the map are the same) and without: the full sighting pass with the Concealed Forces
  reveal check, and the work after one Union unit moves
  (``rules.orders.positions.positions_changed``:
  sighting brought up to date, then every module's hook, the reveal check among them).

It prints readable figures and, as its last line, one JSON object with the headline numbers.
"""

from __future__ import annotations

import gc
import json
import random
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Mapping
from functools import partial
from pathlib import Path

from bench import concealed
from bench.boards import as_units, bench_map, random_forces
from bench.timing import ms, timed
from rules.forces.lineage import replaced
from rules.forces.units import Unit
from rules.knowledge import live_sighting
from rules.knowledge.live_sighting import synced
from rules.sighting import geometry, tables
from rules.sighting.along import sighting_along, walk_along
from rules.sighting.built_tables import content_key, store_key
from rules.sighting.los import LineOfSight
from rules.sighting.reference import reference_sighting
from rules.sighting.sighting_pass import Presence, SideSighting, Sighting, full_pass
from storage.cache.tables import TableFiles

SEED = 1
PER_SIDE = 300
VISIBILITY = 20




def _clear_caches() -> None:
    geometry.hex_line.cache_clear()
    geometry.square_line.cache_clear()
    tables._height_keys.cache_clear()


def _popcount(bits: int) -> int:
    return bin(bits).count("1")


def main() -> None:
    gm = bench_map(SEED)
    units = random_forces(gm, SEED, PER_SIDE)
    grid = gm.grid
    kinds = {
        "combat": sum(u.combat for u in units),
        "leaders": sum(u.observer and not u.combat for u in units),
        "wagons": sum(not u.observer for u in units),
    }
    woods = sum(t == "woods" for t in gm.terrain) / grid.size
    print(f"board: {grid.width} x {grid.height} = {grid.size} hexes, elevation "
          f"{min(gm.elevation)}-{max(gm.elevation)}, {woods:.0%} woods, "
          f"{sum(t == 'town' for t in gm.terrain)} town hexes")
    print(f"units: {len(units)} ({', '.join(f'{n} {k}' for k, n in kinds.items())}), "
          f"{len({u.cell for u in units if u.observer})} distinct observer cells")

    # Load, cold: no line shapes cached in this process yet.
    gc.collect()
    start = time.perf_counter()
    rule = LineOfSight(gm, VISIBILITY)
    rule.prepare()
    load_s = time.perf_counter() - start
    print(f"load: {load_s:.3f} s for tables up to {rule.built_range} hexes")

    # The same tables read back from the files a restarted bot keeps them in.
    with tempfile.TemporaryDirectory() as folder:
        files = TableFiles(Path(folder))
        key = store_key(LineOfSight, content_key(gm), rule.built_range)
        files.save(key, rule.table(rule.built_range), grid.size)
        reads = timed(lambda: files.load(key, grid.size), 5)
        assert files.load(key, grid.size) == rule.table(rule.built_range)
    disk_ms = ms(statistics.median(reads))
    print(f"the same tables read back from their file: median {disk_ms} ms over {len(reads)} "
          "reads")

    # Memory of a second cold build, measured apart (tracemalloc slows allocation down).
    _clear_caches()
    gc.collect()
    tracemalloc.start()
    probe = LineOfSight(gm, VISIBILITY)
    probe.prepare()
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del probe
    table_mb = peak / 2**20
    print(f"memory: {current / 2**20:.1f} MB kept, {table_mb:.1f} MB at the peak of the build")

    # Full pass of both sides, tables loaded.
    full = timed(lambda: full_pass(rule, VISIBILITY, units), 60)
    full_ms = ms(statistics.median(full))
    result = full_pass(rule, VISIBILITY, units)
    for side, r in result.items():
        print(f"  {side}: sees {_popcount(r.seen_cells)} cells and {len(r.seen_units)} enemy "
              f"units; {_popcount(r.blocked_cells)} blocked cells "
              f"({_popcount(r.near_enemy_cells)} near the enemy, "
              f"{_popcount(r.enemy_watched_cells)} watched)")
    print(f"full pass (visibility {VISIBILITY}): median {full_ms} ms, "
          f"max {ms(max(full))} ms over {len(full)} runs")
    for vis in (6, 0):
        full_pass(rule, vis, units)  # first use of a shorter visibility masks its cells once
        other = timed(partial(full_pass, rule, vis, units), 30)
        print(f"full pass (visibility {vis}): median {ms(statistics.median(other))} ms")

    # One unit moves; the sighting is brought up to date.
    rng = random.Random(SEED)
    sighting = Sighting(rule, VISIBILITY, units)
    here = {u.unit_id: u for u in units}
    moves = []
    for _ in range(400):
        uid = rng.choice(sorted(here))
        p = here[uid]
        cell = grid.cell(p.cell)
        steps = [grid.index(c) for c in grid.within(cell, 4) if c != cell]
        target = rng.choice(steps)
        start = time.perf_counter()
        sighting.move(uid, target)
        sighting.result()
        moves.append(time.perf_counter() - start)
        here[uid] = Presence(uid, p.side, target, p.combat, p.observer)
    move_ms = ms(statistics.median(moves))
    assert sighting.result() == full_pass(rule, VISIBILITY, here.values())
    print(f"one move: median {move_ms} ms, 95th percentile "
          f"{ms(sorted(moves)[int(len(moves) * 0.95)])} ms over {len(moves)} moves "
          "(equal to a fresh pass afterwards)")

    # A 12-cell move watched at every step (``rules.sighting.along``), as the game does after a
    # move: a pass where the move starts, then one update a step.
    walks = []
    for _ in range(60):
        uid = rng.choice(sorted(here))
        way = [here[uid].cell]
        for _ in range(12):
            way.append(rng.choice(grid.neighbour_indices(way[-1])))
        walks.append({uid: way})
    along = timed(lambda: sighting_along(rule, VISIBILITY, here.values(), walks[rng.randrange(
        len(walks))]), 60)
    along_ms = ms(statistics.median(along))
    print(f"a 12-cell move watched at every step: median {along_ms} ms, max "
          f"{ms(max(along))} ms over {len(along)} moves (a pass where it starts, then 12 "
          "updates)")

    # What the game runs after one move: its live sighting (``rules.knowledge.live_sighting``)
    # brought to the new unit records, made as ``rules.state.with_units`` makes them.
    live_sighting.clear()
    records: Mapping[str, Unit] = as_units(grid, list(here.values()))
    sides = ("blue", "red")
    radius = gm.ruleset.blocked_radius

    def game_sight(now: Mapping[str, Unit]) -> dict[str, SideSighting]:
        with synced(rule, VISIBILITY, radius, sides, now) as sighting:
            return sighting.result()

    game_sight(records)
    ids = sorted(records)
    game_moves = []
    for _ in range(400):
        uid = rng.choice(ids)
        unit = records[uid]
        assert unit.cell is not None
        records = replaced(records, {uid: unit.placed(rng.choice(
            [c for c in grid.within(unit.cell, 4) if c != unit.cell]))})
        start = time.perf_counter()
        game_sight(records)
        game_moves.append(time.perf_counter() - start)
    game_move_ms = ms(statistics.median(game_moves))
    assert game_sight(records) == full_pass(rule, VISIBILITY, [
        Presence(u.id, u.side, gm.idx(u.cell), u.combat, u.observer)
        for u in records.values() if u.cell is not None])
    print(f"one move as the game runs it (its live sighting brought to the new records): median "
          f"{game_move_ms} ms, 95th percentile "
          f"{ms(sorted(game_moves)[int(len(game_moves) * 0.95)])} ms over {len(game_moves)} "
          "moves (equal to a fresh pass afterwards)")

    # A 12-step move as the game runs it: the live sighting brought to where it ends, then the
    # move walked in it step by step (``rules.knowledge.passing``).
    walked12 = []
    for _ in range(60):
        uid = rng.choice(ids)
        unit = records[uid]
        assert unit.cell is not None
        way = [gm.idx(unit.cell)]
        for _ in range(12):
            way.append(rng.choice(grid.neighbour_indices(way[-1])))
        records = replaced(records, {uid: unit.placed(grid.cell(way[-1]))})
        start = time.perf_counter()
        with synced(rule, VISIBILITY, radius, sides, records) as sighting:
            sighting.result()
            walk_along(sighting, {uid: way})
        walked12.append(time.perf_counter() - start)
    move12_ms = ms(statistics.median(walked12))
    print(f"a 12-step move as the game runs it (its end, then every step): median {move12_ms} "
          f"ms, max {ms(max(walked12))} ms over {len(walked12)} moves")

    # The naive reference: every pair traced on its own.
    naive = []
    reference = None
    for _ in range(3):
        start = time.perf_counter()
        reference = reference_sighting(gm, VISIBILITY, units)
        naive.append(time.perf_counter() - start)
    naive_ms = ms(statistics.median(naive))
    agree = reference == result
    print(f"naive reference full pass: median {naive_ms} ms over {len(naive)} runs "
          f"(first {naive[0]:.1f} s, computing line shapes); same answer: {agree}")
    if not agree:
        raise SystemExit("the fast sighting pass disagrees with the reference")

    markers = concealed.run()
    print(json.dumps({
        "full_pass_ms_median": full_ms,
        "one_move_ms_median": move_ms,
        "twelve_cell_move_ms_median": along_ms,
        "game_move_ms_median": game_move_ms,
        "move12_ms_median": move12_ms,
        "load_s": round(load_s, 3),
        "tables_from_disk_ms_median": disk_ms,
        "table_mb": round(table_mb, 2),
        "naive_full_pass_ms_median": naive_ms,
        **markers,
    }))


if __name__ == "__main__":
    main()
