"""Sighting tables kept in the cache folder between runs (``storage.cache``): a restart reads a
board's tables back instead of building them, a damaged or stale file is never read, a changed
board has files of its own, and a folder that cannot be written costs only the time to build."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.boards import random_map
from rules.ground.gamemap import GameMap
from rules.sighting import built_tables
from rules.sighting.built_tables import tables_for, use_store
from rules.sighting.los import LineOfSight
from rules.sighting.tables import build_visibility
from storage.cache.tables import MAGIC, SUFFIX, TableFiles
from umpire.settings import Settings


@pytest.fixture(autouse=True)
def no_kept_tables() -> Iterator[None]:
    """Each test starts as a fresh process would: nothing kept in memory, no store."""
    built_tables.forget()
    use_store(None)
    yield
    built_tables.forget()
    use_store(None)


class Counted:
    """``build_visibility``, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, game_map: GameMap, rng: int) -> list[int]:
        self.calls += 1
        return build_visibility(game_map, rng)


def board(seed: int = 5) -> GameMap:
    return random_map(seed, 12, 9, max_elevation=3, woods=0.3)


def restart() -> None:
    """What a restart loses: the tables kept in memory."""
    built_tables.forget()


def test_a_restart_reads_the_tables_back_instead_of_building_them(tmp_path: Path) -> None:
    use_store(TableFiles(tmp_path / "cache"))
    gm = board()
    build = Counted()
    first = tables_for(LineOfSight, gm, 6, build)
    assert build.calls == 1
    (kept,) = (tmp_path / "cache").glob(f"*{SUFFIX}")
    assert kept.name.startswith("los-6-")
    restart()
    again = tables_for(LineOfSight, board(), 6, build)  # another copy of the same board
    assert build.calls == 1 and again == first
    # The rule itself reads them so, and sees as it did.
    restart()
    rule = LineOfSight(board(), 6)
    assert [rule.visible_from(c, 6) for c in range(gm.grid.size)] == first


@pytest.mark.parametrize("damage", ["cut short", "changed", "another format", "empty"])
def test_a_damaged_file_is_never_read_and_is_built_again(tmp_path: Path, damage: str,
                                                        caplog: pytest.LogCaptureFixture
                                                        ) -> None:
    use_store(TableFiles(tmp_path))
    gm = board()
    build = Counted()
    truth = tables_for(LineOfSight, gm, 6, build)
    (kept,) = tmp_path.glob(f"*{SUFFIX}")
    data = kept.read_bytes()
    spoiled = {"cut short": data[:-7],
               "changed": data[:-1] + bytes([data[-1] ^ 0x10]),
               "another format": b"vedette sighting tables 0\n" + data[len(MAGIC):],
               "empty": b""}[damage]
    kept.write_bytes(spoiled)
    restart()
    with caplog.at_level(logging.WARNING, logger="storage"):
        assert tables_for(LineOfSight, gm, 6, build) == truth
    assert build.calls == 2
    assert "damaged or stale" in caplog.text
    assert kept.read_bytes() == data  # kept whole again
    restart()
    assert tables_for(LineOfSight, gm, 6, build) == truth and build.calls == 2


def test_a_changed_board_or_visibility_has_files_of_its_own(tmp_path: Path) -> None:
    use_store(TableFiles(tmp_path))
    build = Counted()
    one = tables_for(LineOfSight, board(5), 6, build)
    other = tables_for(LineOfSight, board(6), 6, build)
    farther = tables_for(LineOfSight, board(5), 8, build)
    assert build.calls == 3 and one != other
    assert len(list(tmp_path.glob(f"*{SUFFIX}"))) == 3
    restart()
    assert tables_for(LineOfSight, board(6), 6, build) == other
    assert tables_for(LineOfSight, board(5), 8, build) == farther
    assert build.calls == 3


def test_a_folder_that_cannot_be_written_costs_only_the_build(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    blocked = tmp_path / "not a folder"
    blocked.write_text("a file where the folder should be", encoding="utf-8")
    use_store(TableFiles(blocked))
    build = Counted()
    with caplog.at_level(logging.WARNING, logger="storage"):
        first = tables_for(LineOfSight, board(), 6, build)
    assert "could not keep sighting tables" in caplog.text
    restart()
    assert tables_for(LineOfSight, board(), 6, build) == first and build.calls == 2


def test_deleting_the_folder_only_means_building_again(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    use_store(TableFiles(folder))
    build = Counted()
    first = tables_for(LineOfSight, board(), 6, build)
    for kept in folder.iterdir():
        kept.unlink()
    folder.rmdir()
    restart()
    assert tables_for(LineOfSight, board(), 6, build) == first and build.calls == 2
    assert len(list(folder.glob(f"*{SUFFIX}"))) == 1


def settings(db: str, cache: str) -> Settings:
    return Settings(_env_file=None, VEDETTE_DB=db, VEDETTE_CACHE=cache)  # type: ignore[call-arg]


def test_where_the_tables_are_kept(tmp_path: Path) -> None:
    beside = settings(str(tmp_path / "club.db"), "")
    assert beside.cache_folder == tmp_path / "club.db-cache"
    postgres = settings("postgresql://vedette@127.0.0.1/vedette", "")
    assert postgres.cache_folder == Path("vedette-cache")
    assert settings("x.db", str(tmp_path / "tables")).cache_folder == tmp_path / "tables"
    assert settings("x.db", "off").cache_folder is None


def test_the_bot_keeps_each_boards_tables_where_the_settings_say(tmp_path: Path) -> None:
    """What ``vedette run`` does at start (``umpire.service.keep_sighting_tables``): the first
    sighting of a game then leaves its board's tables in the folder, and a restart reads them."""
    from bench.concealed import game
    from rules.knowledge import live_sighting
    from rules.knowledge.sighted import sight
    from umpire.service import keep_sighting_tables

    folder = settings(str(tmp_path / "club.db"), "").cache_folder
    assert folder is not None
    keep_sighting_tables(folder)
    live_sighting.clear()
    seen = sight(game())
    (kept,) = folder.glob(f"*{SUFFIX}")
    restart()
    live_sighting.clear()
    before = kept.stat().st_mtime_ns
    assert sight(game()) == seen
    assert kept.stat().st_mtime_ns == before  # read back, not written again
