"""Benchmark of the Chancellorsville ``clear_path`` sighting rule: ``uv run python -m
bench.cv_sighting``.

It measures, with the rule's tables loaded:

* on the ``chancellorsville-hidden`` sample, every unit on the map at the start: the tables'
  build time and the full pass for both sides (the first turn, with no range limit: CV-6);
* on the sighting benchmark's board (``bench.boards``: 2 x 2 sheets of 34 x 22 hexes, about 30%
  woods) with its highest open ground made hills and a few roads cut through it, 300 units a
  side: the tables' build time from a cold start and their memory (tracemalloc, in a second,
  separate build), the full pass for both sides, one unit moving and the sighting brought up to
  date (the result included), and the naive reference's full pass (``rules.sighting.
  path_reference``), which is also checked to give the same answer; then the tables' build,
  the full pass and one move again with no range limit (ruling CV-6).

It prints readable figures and, as its last line, one JSON object with the headline numbers.
"""

from __future__ import annotations

import gc
import json
import random
import statistics
import time
import tomllib
import tracemalloc
from functools import partial
from pathlib import Path

from bench.boards import bench_map, random_forces
from bench.timing import ms, timed
from rules.ground.gamemap import GameMap, edge
from rules.knowledge.sighted import presences
from rules.scenario.loader import load
from rules.scenario.ruleset import TerrainType
from rules.sighting.path_reference import reference_path_sighting
from rules.sighting.paths import ClearPath, Cover, cover_of
from rules.sighting.sighting_pass import Presence, SideSighting, Sighting, full_pass
from rules.state import initial_state
from rules.turn.sequence import NO_LIMIT, visibility

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
SEED = 1
PER_SIDE = 300
VISIBILITY = 20
#: Elevation at and above which open ground of the benchmark board is made a hill.
HILL_FROM = 4
ROADS = 12




def _popcount(bits: int) -> int:
    return bin(bits).count("1")


def sample() -> tuple[GameMap, list[Presence], int]:
    """The sample's map, every unit on it at the start, and the first turn's visibility."""
    path = SCENARIOS / "chancellorsville-hidden.toml"
    text = path.read_text(encoding="utf-8")
    ruleset = path.parent / tomllib.loads(text)["scenario"]["ruleset"]
    loaded = load(text, path.name, ruleset.read_text(encoding="utf-8"), ruleset.name)
    state = initial_state(loaded)
    return loaded.map, presences(state), visibility(loaded.scenario, loaded.ruleset, 1)


def big_board(seed: int = SEED) -> GameMap:
    """The sighting benchmark's board with hills (its highest open ground) and roads (random
    walks, cleared where they cut through the woods)."""
    gm = bench_map(seed)
    hill = TerrainType(name="Hill", cost=gm.ruleset.terrain["clear"].cost, hill=True)
    gm.ruleset = gm.ruleset.model_copy(
        update={"terrain": {**gm.ruleset.terrain, "hill": hill}})
    for i, e in enumerate(gm.elevation):
        if e >= HILL_FROM and gm.terrain[i] == "clear":
            gm.terrain[i] = "hill"
    rng = random.Random(seed)
    grid = gm.grid
    for _ in range(ROADS):
        at = rng.randrange(grid.size)
        for _ in range(rng.randrange(20, 60)):
            nxt = rng.choice(grid.neighbour_indices(at))
            gm.road_edges[edge(at, nxt)] = "road"
            at = nxt
            if gm.terrain[at] == "woods":
                gm.terrain[at] = "clear"  # the road is cut through the woods
    return gm


def _build(gm: GameMap, rng: int | None = VISIBILITY) -> tuple[ClearPath, float]:
    """The rule's tables for ``rng`` (``None``: as far as the paths run) and their build time."""
    gc.collect()
    start = time.perf_counter()
    rule = ClearPath(gm, rng)
    rule.prepare()
    return rule, time.perf_counter() - start


def _memory(gm: GameMap) -> tuple[float, float]:
    """MB kept by the tables and MB at the peak of their build (a separate, traced build)."""
    gc.collect()
    tracemalloc.start()
    probe = ClearPath(gm, VISIBILITY)
    probe.prepare()
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del probe
    return current / 2**20, peak / 2**20


def _moves(rule: ClearPath, vis: int, forces: list[Presence]) -> list[float]:
    """The times of 400 random moves of up to 4 cells, each with the sighting brought up to
    date; the result is checked against a fresh pass at the end."""
    grid = rule.grid
    rng = random.Random(SEED)
    sighting = Sighting(rule, vis, forces)
    here = {u.unit_id: u for u in forces}
    moves = []
    for _ in range(400):
        uid = rng.choice(sorted(here))
        p = here[uid]
        cell = grid.cell(p.cell)
        target = rng.choice([grid.index(c) for c in grid.within(cell, 4) if c != cell])
        start = time.perf_counter()
        sighting.move(uid, target)
        sighting.result()
        moves.append(time.perf_counter() - start)
        here[uid] = Presence(uid, p.side, target, p.combat, p.observer)
    assert sighting.result() == full_pass(rule, vis, here.values())
    return moves


def _describe(result: dict[str, SideSighting]) -> None:
    for side, r in result.items():
        print(f"  {side}: sees {_popcount(r.seen_cells)} cells and {len(r.seen_units)} enemy "
              "units")


def main() -> None:
    # -- the sample --------------------------------------------------------------------------------
    gm, units, vis = sample()
    grid = gm.grid
    covers = [cover_of(gm, i) for i in range(grid.size)]
    print(f"sample: {grid.width} x {grid.height} = {grid.size} hexes, "
          f"{covers.count(Cover.WOODS)} woods, {covers.count(Cover.WOODS_ROAD)} road hexes in "
          f"the woods; {len(units)} units on the map; "
          f"{'no range limit' if vis >= NO_LIMIT else f'visibility {vis}'}")
    rule, sample_build_s = _build(gm, None)
    print(f"sample tables: {sample_build_s:.3f} s for range {rule.built_range}")
    sample_full = timed(lambda: full_pass(rule, vis, units), 100)
    sample_ms = ms(statistics.median(sample_full))
    _describe(full_pass(rule, vis, units))
    print(f"sample full pass: median {sample_ms} ms, max {ms(max(sample_full))} ms "
          f"over {len(sample_full)} runs")
    sample_agree = full_pass(rule, vis, units) == reference_path_sighting(gm, vis, units)
    print(f"sample: same answer as the reference: {sample_agree}")

    # -- the big board -----------------------------------------------------------------------------
    big = big_board()
    grid = big.grid
    forces = random_forces(big, SEED, PER_SIDE)
    covers = [cover_of(big, i) for i in range(grid.size)]
    print(f"board: {grid.width} x {grid.height} = {grid.size} hexes, "
          f"{covers.count(Cover.WOODS)} woods, {sum(t == 'hill' for t in big.terrain)} hills, "
          f"{covers.count(Cover.WOODS_ROAD)} road hexes in the woods; {len(forces)} units, "
          f"{len({u.cell for u in forces if u.observer})} distinct observer cells")
    big_rule, build_s = _build(big)
    print(f"board tables: {build_s:.3f} s (cold) for range {big_rule.built_range}")
    kept_mb, peak_mb = _memory(big)
    print(f"board tables memory: {kept_mb:.1f} MB kept, {peak_mb:.1f} MB at the peak of the build")

    full = timed(lambda: full_pass(big_rule, VISIBILITY, forces), 60)
    big_ms = ms(statistics.median(full))
    result = full_pass(big_rule, VISIBILITY, forces)
    _describe(result)
    print(f"board full pass: median {big_ms} ms, max {ms(max(full))} ms over {len(full)} runs")
    for short in (6, 1):
        full_pass(big_rule, short, forces)  # a shorter visibility masks its cells once
        other = timed(partial(full_pass, big_rule, short, forces), 30)
        print(f"board full pass (visibility {short}): median {ms(statistics.median(other))} ms")

    moves = _moves(big_rule, VISIBILITY, forces)
    move_ms = ms(statistics.median(moves))
    print(f"one move: median {move_ms} ms, 95th percentile "
          f"{ms(sorted(moves)[int(len(moves) * 0.95)])} ms over {len(moves)} moves "
          "(equal to a fresh pass afterwards)")

    # -- the big board with no range limit (ruling CV-6) ------------------------------------------
    open_rule, open_build_s = _build(big, None)
    print(f"board tables, no range limit: {open_build_s:.3f} s (cold) for range "
          f"{open_rule.built_range}")
    open_full = timed(lambda: full_pass(open_rule, NO_LIMIT, forces), 60)
    open_ms = ms(statistics.median(open_full))
    _describe(full_pass(open_rule, NO_LIMIT, forces))
    print(f"board full pass, no range limit: median {open_ms} ms")
    open_moves = _moves(open_rule, NO_LIMIT, forces)
    open_move_ms = ms(statistics.median(open_moves))
    print(f"one move, no range limit: median {open_move_ms} ms, 95th percentile "
          f"{ms(sorted(open_moves)[int(len(open_moves) * 0.95)])} ms")

    start = time.perf_counter()
    reference = reference_path_sighting(big, VISIBILITY, forces)
    naive_ms = ms(time.perf_counter() - start)
    agree = reference == result
    print(f"naive reference full pass: {naive_ms} ms (one run); same answer: {agree}; "
          f"{naive_ms / big_ms:.0f} times the fast pass")
    if not (agree and sample_agree):
        raise SystemExit("the fast sighting pass disagrees with the reference")

    print(json.dumps({
        "full_pass_ms_median": sample_ms,
        "one_move_ms_median": move_ms,
        "big_full_pass_ms_median": big_ms,
        "naive_full_pass_ms_median": naive_ms,
        "speedup_vs_naive": round(naive_ms / big_ms, 1),
        "sample_build_s": round(sample_build_s, 3),
        "big_build_s": round(build_s, 3),
        "big_table_mb": round(kept_mb, 2),
        "big_table_peak_mb": round(peak_mb, 2),
        "big_build_no_limit_s": round(open_build_s, 3),
        "big_full_pass_no_limit_ms_median": open_ms,
        "one_move_no_limit_ms_median": open_move_ms,
        "sample_units": len(units),
        "big_units": len(forces),
    }))


if __name__ == "__main__":
    main()
