"""Loading scenario files: a file loaded before is reused until it or its ruleset changes."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rules.problems import FileProblems
from umpire import catalog

FIXTURES = Path(__file__).parent / "fixtures"


def tiny(tmp_path: Path) -> Path:
    for name in ("tiny.toml", "tiny.ruleset.toml"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    return tmp_path / "tiny.toml"


def edit(path: Path, old: str, new: str) -> None:
    """Change a file and move its modification time on, as a later save would."""
    before = path.stat().st_mtime_ns
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    os.utime(path, ns=(before + 10**9, before + 10**9))


def test_an_unchanged_file_is_loaded_once(tmp_path: Path) -> None:
    path = tiny(tmp_path)
    assert catalog.load_file(path) is catalog.load_file(path)


def test_editing_the_scenario_or_its_ruleset_is_seen(tmp_path: Path) -> None:
    path = tiny(tmp_path)
    assert catalog.load_file(path).scenario.scenario.title == "Tiny Skirmish"
    edit(path, 'title = "Tiny Skirmish"', 'title = "Tinier Skirmish"')
    assert catalog.load_file(path).scenario.scenario.title == "Tinier Skirmish"
    edit(tmp_path / "tiny.ruleset.toml", "stacking_limit = 2", "stacking_limit = 3")
    assert catalog.load_file(path).ruleset.stacking_limit == 3


def test_a_file_removed_after_loading_is_reported(tmp_path: Path) -> None:
    path = tiny(tmp_path)
    catalog.load_file(path)
    (tmp_path / "tiny.ruleset.toml").unlink()
    with pytest.raises(FileProblems, match="not found next to it"):
        catalog.load_file(path)
