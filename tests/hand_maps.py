"""Maps drawn by hand as rows of characters, and the shipped sample scenarios loaded by name."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal

from bench.boards import bench_ruleset
from rules.ground.board import Board
from rules.ground.gamemap import GameMap
from rules.ground.grid import make_grid
from rules.scenario.loader import LoadedScenario, load

LEGEND = {".": "clear", "w": "woods", "t": "town"}

def hand_map(
    terrain: list[str],
    elevation: list[str] | None = None,
    *,
    kind: Literal["hex", "square"] = "hex",
    orientation: Literal["flat", "pointy"] = "flat",
    parity: Literal["odd", "even"] = "odd",
    neighbours: Literal[4, 8] = 4,
) -> GameMap:
    """A one-sheet map from rows of terrain ('.' clear, 'w' woods, 't' town) and of elevation
    digits (all 0 when not given)."""
    height, width = len(terrain), len(terrain[0])
    grid = make_grid(kind, width, height, orientation, parity, neighbours)
    board = Board.build(grid, [("A", 0, 0)], width, height)
    rows = elevation or ["0" * width] * height
    return GameMap(
        board, bench_ruleset(),
        [LEGEND[ch] for row in terrain for ch in row],
        [int(ch) for row in rows for ch in row],
    )

FLAT5 = ["....."] * 5


ROOT = Path(__file__).resolve().parent.parent

SCENARIOS = ROOT / "scenarios"

def load_sample(name: str) -> LoadedScenario:
    """Load ``scenarios/<name>.toml`` with the ruleset its header names (relative to the file)."""
    path = SCENARIOS / f"{name}.toml"
    text = path.read_text(encoding="utf-8")
    ruleset_path = path.parent / tomllib.loads(text)["scenario"]["ruleset"]
    return load(text, str(path.relative_to(ROOT)),
                ruleset_path.read_text(encoding="utf-8"), str(ruleset_path.relative_to(ROOT)))
