"""Maps drawn by hand as rows of characters, and the shipped sample scenarios loaded by name.

Scenarios where a side has nothing to do in a phase: two forces apart, or in a field.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal

from bench.boards import bench_ruleset
from rules.ground.board import Board
from rules.ground.gamemap import GameMap
from rules.ground.grid import make_grid
from rules.scenario.loader import LoadedScenario, load
from tests.support.combat import FIELD
from umpire.demo.main import SEEDS
from umpire.service import Umpire

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


ROOT = Path(__file__).resolve().parents[2]


SCENARIOS = ROOT / "scenarios"


def load_sample(name: str) -> LoadedScenario:
    """Load ``scenarios/<name>.toml`` with the ruleset its header names (relative to the file)."""
    path = SCENARIOS / f"{name}.toml"
    text = path.read_text(encoding="utf-8")
    ruleset_path = path.parent / tomllib.loads(text)["scenario"]["ruleset"]
    return load(text, str(path.relative_to(ROOT)),
                ruleset_path.read_text(encoding="utf-8"), str(ruleset_path.relative_to(ROOT)))


FIRE_PASSED = "Fire Phase passed: none of your units has a target in sight."


def field_file(tmp_path: Path, information: str = "open", options: str = "") -> Path:
    """The combat field under ``information``, with ``options`` in its header."""
    text = FIELD.read_text(encoding="utf-8").replace(
        'ruleset = "../../scenarios/', f'ruleset = "{FIELD.parent.parent.parent}/scenarios/')
    text = text.replace('information = "open"', f'information = "{information}"'
                        + (f"\noptions = {{ {options} }}" if options else ""))
    path = tmp_path / f"field-{information}.toml"
    path.write_text(text, encoding="utf-8")
    return path


# -- through the umpire --------------------------------------------------------------------------
def apart_file(tmp_path: Path, options: str = "") -> Path:
    """The field with the two sides' units far apart (nobody has a target), ``options`` in its
    header."""
    text = field_file(tmp_path, options=options).read_text(encoding="utf-8")
    for uid, cell in (("u-inf2", "A0102"), ("u-bat", "A0201"), ("u-cav", "A0202"),
                      ("c-inf", "A1208"), ("c-inf2", "A1207"), ("c-bat", "A1107"),
                      ("c-cav", "A1206")):
        block = text.split(f'id = "{uid}"', 1)
        head, tail = block[1].split('at = "', 1)
        text = block[0] + f'id = "{uid}"' + head + f'at = "{cell}' + tail[5:]
    text = text.replace('at = "A0504"', 'at = "A0101"')
    path = tmp_path / "apart.toml"
    path.write_text(text, encoding="utf-8")
    return path


async def flank_march_union_done(umpire: Umpire, folder: Path, union: int,
                                 confederate: int) -> None:
    """Game ``g1`` of the hidden flank march (``hidden_flank_march``) made, joined and started,
    its Union player done for the turn and its Confederate player done with the Command Phase:
    the Confederate Movement Phase is open."""
    await umpire.create_game(str(hidden_flank_march(folder)), union, game_id="g1",
                             seed=SEEDS["success"])
    await umpire.join("g1", union, "union")
    await umpire.join("g1", confederate, "confederate")
    await umpire.start("g1", union)
    await umpire.done("g1", union, until_turn=True)
    await umpire.done("g1", confederate)


def hidden_flank_march(folder: Path) -> Path:
    """The flank march with enemy units hidden until sighted (where a side sees every enemy
    counter anyway, nothing it sees is new), and so without Concealed Forces, as a scenario file
    in ``folder``."""
    scenarios = Path(__file__).parents[2] / "scenarios"
    text = (scenarios / "flank-march.toml").read_text(encoding="utf-8")
    for old, new in (('information = "concealed"', 'information = "hidden"'),
                     ('"concealed_forces", ', ""),
                     ('ruleset = "brigade-series', f'ruleset = "{scenarios}/brigade-series')):
        assert old in text, old
        text = text.replace(old, new, 1)
    path = folder / "hidden-flank-march.toml"
    path.write_text(text, encoding="utf-8")
    return path
