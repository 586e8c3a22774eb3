"""Benchmark of map pictures: a 4-sheet 68 x 44 hex board with about 300 units a side.

Figures: the first whole-board picture (terrain layer drawn cold), the median of later whole-board
pictures (terrain layer cached), the median window of radius 12, the median fitted window
(the phase DM's picture), and the median digest of the side's view (the key its pictures are
kept under, worked out for every ``/map``). Budgets: first <= 1.5 s, whole board <= 300 ms,
window and fitted window <= 60 ms; a whole board must stay under Discord's 8 MiB.

The first pictures are also drawn in a fresh process of their own (``cold_fitted_ms``: the
phase DM's window as a restarted bot's first picture; ``cold_board_ms``: then the whole
board), where nothing is loaded or kept yet: Pillow's formats, fonts, layouts and ground.
``ground_kept_mb``: what the board's whole layers take, kept compressed (``render.ground``).

Run ``uv run python -m bench.render``; the last line printed is one JSON object.
"""

from __future__ import annotations

import functools
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench.samples import as_enemy, sample_map, sample_units, sample_view
from render import clear_cache, render_map
from render.ground import kept_bytes, settle
from rules.ground.gamemap import GameMap
from rules.ground.grid import Cell
from rules.view import GHOST, IDENTIFIED, SideView
from umpire.reads.map_digest import drawn_part, view_digest

BUDGET_BOARD_MS = 300.0
BUDGET_FIRST_MS = 1500.0
BUDGET_WINDOW_MS = 60.0
DISCORD_LIMIT = 8 * 1024 * 1024


def _views() -> tuple[GameMap, SideView, SideView]:
    gm = sample_map(34, 22, sheets=(2, 2), seed=7)
    union = sample_units(gm, "union", 300, 1, cols=(0.0, 0.55))
    rebels = sample_units(gm, "confederate", 300, 2, cols=(0.45, 1.0))
    # The union side under the hidden model: it sees the western two thirds of the board, some
    # rebels in full, others as ghosts where last seen; the rest it does not know of at all.
    seen = frozenset(c for c in gm.grid.cells() if c.col < gm.grid.width * 2 // 3)
    in_sight = [u for u in rebels if u.cell in seen]
    lost = [u for u in rebels if u.cell not in seen][:40]
    blocked = frozenset(c for u in in_sight[:10] for c in gm.grid.within(u.cell, 2))
    side = sample_view(gm, "union", union + as_enemy(in_sight, IDENTIFIED)
                       + as_enemy(lost, GHOST, 2), information="hidden", seen=seen,
                       blocked=blocked)
    umpire = sample_view(gm, None, union + rebels)
    return gm, side, umpire


def _ms(f: Callable[[], object]) -> float:
    t = time.perf_counter()
    f()
    return (time.perf_counter() - t) * 1000.0


def cold_figures() -> dict[str, float]:
    """The first fitted window and whole board of a fresh process (``--cold``)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-m", "bench.render", "--cold"], env=env, check=True,
                          capture_output=True, text=True, cwd=Path(__file__).parent.parent)
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return figures


def first_pictures() -> dict[str, float]:
    """In this fresh process: the first fitted window, then the first whole board."""
    _, side, _ = _views()
    fitted_ms = _ms(functools.partial(render_map, side, fitted=True))
    board_ms = _ms(functools.partial(render_map, side))
    return {"cold_fitted_ms": round(fitted_ms, 1), "cold_board_ms": round(board_ms, 1)}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--cold"]:
        print(json.dumps(first_pictures()))
        return 0
    runs = 9
    cold = cold_figures()
    gm, side, umpire = _views()
    clear_cache()
    t = time.perf_counter()
    png = render_map(side)
    first_ms = (time.perf_counter() - t) * 1000.0
    board = [_ms(lambda: render_map(side)) for _ in range(runs)]
    umpire_ms = [_ms(lambda: render_map(umpire)) for _ in range(3)]
    centre = Cell(gm.grid.width // 3, gm.grid.height // 2)
    window_first_ms = _ms(functools.partial(render_map, side, around=centre, radius=12))
    # A second window at another place: a layer asked for a second box is drawn whole in the
    # background (render.ground), and later windows are cut from it.
    window_second_ms = _ms(functools.partial(render_map, side, around=Cell(2, 2), radius=12))
    settle()
    windows = []
    for k in range(runs):
        at = Cell((centre.col + 5 * k) % gm.grid.width, (centre.row + 3 * k) % gm.grid.height)
        windows.append(_ms(functools.partial(render_map, side, around=at, radius=12)))
    window_png = render_map(side, around=centre, radius=12)
    # The phase DM's picture: the window fitted to the side's units and known enemies.
    fitted_first_ms = _ms(functools.partial(render_map, side, fitted=True))
    fitted = [_ms(functools.partial(render_map, side, fitted=True)) for _ in range(runs)]
    fitted_png = render_map(side, fitted=True)
    # The key a side's picture is looked up by (umpire.reads.map_digest): paid on every /map, kept
    # or not.
    digests = [_ms(lambda: view_digest(drawn_part(side))) for _ in range(runs)]
    if args and args[0] == "--save":
        out = Path(args[1] if len(args) > 1 else ".")
        (out / "bench-board.png").write_bytes(png)
        (out / "bench-window.png").write_bytes(window_png)
        (out / "bench-umpire.png").write_bytes(render_map(umpire))
    result = {
        "board_ms_median": round(statistics.median(board), 1),
        "first_ms": round(first_ms, 1),
        "window_ms_median": round(statistics.median(windows), 1),
        "board_png_bytes": len(png),
        "umpire_ms_median": round(statistics.median(umpire_ms), 1),
        "window_png_bytes": len(window_png),
        "window_first_ms": round(window_first_ms, 1),
        "window_second_ms": round(window_second_ms, 1),
        "fitted_ms_median": round(statistics.median(fitted), 1),
        "fitted_first_ms": round(fitted_first_ms, 1),
        "fitted_png_bytes": len(fitted_png),
        "digest_ms_median": round(statistics.median(digests), 2),
        **cold,
        "ground_kept_mb": round(kept_bytes() / 2**20, 1),
    }
    units = sum(1 for _ in side.units)
    print(f"board {gm.grid.width} x {gm.grid.height} cells, {len(gm.board.sheets)} sheets; "
          f"side view with {units} counters, umpire view with {len(umpire.units)}")
    ok = {True: "ok", False: "OVER BUDGET"}
    print(f"first whole board (cold):  {first_ms:8.1f} ms   "
          f"(budget {BUDGET_FIRST_MS:.0f}) {ok[first_ms <= BUDGET_FIRST_MS]}")
    print(f"whole board, median of {runs}: {result['board_ms_median']:8.1f} ms   "
          f"(budget {BUDGET_BOARD_MS:.0f}) {ok[statistics.median(board) <= BUDGET_BOARD_MS]}")
    print(f"umpire's whole board:      {result['umpire_ms_median']:8.1f} ms")
    print(f"window r=12, median of {runs}: {result['window_ms_median']:6.1f} ms   "
          f"(budget {BUDGET_WINDOW_MS:.0f}) {ok[statistics.median(windows) <= BUDGET_WINDOW_MS]}")
    print(f"first window (draws its piece of the zoomed-in layer): {window_first_ms:.1f} ms; "
          f"a second elsewhere {window_second_ms:.1f} ms")
    print(f"phase DM window (fitted), median of {runs}: {result['fitted_ms_median']:6.1f} ms "
          f"(budget {BUDGET_WINDOW_MS:.0f}) {ok[statistics.median(fitted) <= BUDGET_WINDOW_MS]};"
          f" first {fitted_first_ms:.1f} ms; PNG {len(fitted_png) / 1024:.0f} KiB")
    print(f"in a fresh process: the first fitted window {cold['cold_fitted_ms']:.1f} ms, then "
          f"the whole board {cold['cold_board_ms']:.1f} ms")
    print(f"the board's whole layers, kept compressed: {result['ground_kept_mb']} MB")
    print(f"side view's digest (the key of its pictures), median of {runs}: "
          f"{result['digest_ms_median']:.2f} ms")
    print(f"whole-board PNG: {len(png) / 1024:.0f} KiB (limit {DISCORD_LIMIT // 1024} KiB) "
          f"{ok[len(png) < DISCORD_LIMIT]}; window PNG: {len(window_png) / 1024:.0f} KiB")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
