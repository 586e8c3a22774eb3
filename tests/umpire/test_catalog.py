"""Loading scenario files: a file loaded before is reused until it or its ruleset changes."""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

import pytest

from rules.scenario.problems import FileProblems
from umpire.games import catalog

FIXTURES = Path(__file__).parents[1] / "fixtures"


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


def test_a_scenario_that_is_not_utf8_is_left_out_of_the_list_with_a_log_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    tiny(tmp_path)
    (tmp_path / "latin.toml").write_bytes('[scenario]\ntitle = "Ch\u00e2teau"\n'.encode("latin-1"))
    (tmp_path / "later.toml").write_text('[scenario]\ntitle = "Later"\n', encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="vedette.catalog"):
        names = [(e.name, e.title) for e in catalog.listing(tmp_path)]
        catalog.listing(tmp_path)  # asked again at the next keystroke: logged once
    mine = [n for n in names if n[0] in ("latin", "later", "tiny")]
    assert mine == [("later", "Later"), ("tiny", "Tiny Skirmish")]
    assert ("flank-march", "Flank March: the Wilderness, 2 May 1863") in names  # shipped
    logged = [r.getMessage() for r in caplog.records if "latin.toml" in r.getMessage()]
    assert len(logged) == 1 and "not UTF-8" in logged[0]
