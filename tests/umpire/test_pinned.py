"""A game is pinned to the scenario and ruleset it was created from: editing, moving or deleting
the files afterwards never changes or breaks it."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from rules import commands as cmd
from storage.store import Store
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

FIXTURES = Path(__file__).parents[1] / "fixtures"
HOST, BLUE, GREY = 1, 10, 20
SEED = bytes(range(32))
GREY_BRIGADE = '''[[units]]
id = "grey-1"
side = "grey"
name = "Grey Brigade"
short = "G Bde"
kind = "infantry"
strength = 7
at = "B0704"
'''


def scenario_folder(root: Path) -> Path:
    folder = root / "scenarios"
    folder.mkdir(parents=True)
    for name in ("tiny.toml", "tiny.ruleset.toml"):
        shutil.copy(FIXTURES / name, folder / name)
    return folder


async def create(store: Store, folder: Path) -> None:
    umpire = Umpire(store, scenarios=folder, maps=MapMaker(enabled=False))
    await umpire.create_game("tiny", HOST, game_id="g1", seed=SEED)
    await umpire.join("g1", BLUE, "blue")
    await umpire.join("g1", GREY, "grey")
    await umpire.start("g1", HOST)
    await umpire.handle("g1", BLUE, cmd.Move(unit="blue-1", route="A0204"))


#: Commands given after each change to the files, by a freshly started umpire each time.
LATER: list[tuple[int, cmd.Command]] = [
    (BLUE, cmd.Move(unit="blue-2", route="A0104")),
    (BLUE, cmd.Done()),
    (GREY, cmd.Move(unit="grey-1", route="B0604")),
]


async def log(store: Store) -> list[tuple[str, object, str]]:
    return [(e.type, e.payload, e.audience) for e in await store.events("g1")]


async def test_editing_moving_and_deleting_the_files_never_changes_the_game(
        tmp_path: Path) -> None:
    reference_folder = scenario_folder(tmp_path / "reference")
    async with Store.open(tmp_path / "reference.db") as store:
        await create(store, reference_folder)
        umpire = Umpire(store, scenarios=reference_folder, maps=MapMaker(enabled=False))
        for user, command in LATER:
            await umpire.handle("g1", user, command)
        expected = await log(store)

    folder = scenario_folder(tmp_path / "played")
    scenario, ruleset = folder / "tiny.toml", folder / "tiny.ruleset.toml"
    original = scenario.read_bytes()
    async with Store.open(tmp_path / "played.db") as store:
        await create(store, folder)
        sources = await store.game_sources("g1")
        assert sources is not None
        assert sources.scenario_sha256 == hashlib.sha256(original).hexdigest()
        assert sources.ruleset_sha256 == hashlib.sha256(ruleset.read_bytes()).hexdigest()
        assert sources.scenario_name == "tiny.toml"

        def edit() -> None:  # the Grey Brigade leaves the scenario, and movement costs change
            text = scenario.read_text(encoding="utf-8")
            assert GREY_BRIGADE in text
            scenario.write_text(text.replace(GREY_BRIGADE, ""), encoding="utf-8")
            rules = ruleset.read_text(encoding="utf-8")
            clear = "cost = { foot = 1, horse = 1, wheeled = 1, leader = 1 }"
            assert clear in rules
            ruleset.write_text(rules.replace(clear, clear.replace("1", "3")), encoding="utf-8")

        def move() -> None:
            scenario.rename(folder / "renamed.toml")
            ruleset.rename(folder / "renamed.ruleset.toml")

        def delete() -> None:
            shutil.rmtree(folder)

        for change, (user, command) in zip((edit, move, delete), LATER, strict=True):
            change()
            fresh = Umpire(store, scenarios=folder, maps=MapMaker(enabled=False))
            await fresh.handle("g1", user, command)
            state = await fresh.repository.state_for("g1")
            assert "grey-1" in state.units
        assert await log(store) == expected
        assert await store.game_sources("g1") == sources
        replayed = await Umpire(store, maps=MapMaker(enabled=False)).repository.replay_all("g1")
        assert replayed.seq == len(expected)


async def test_a_stored_copy_never_changes(tmp_path: Path) -> None:
    import sqlite3

    folder = scenario_folder(tmp_path)
    async with Store.open(tmp_path / "v.db") as store:
        await create(store, folder)
    with sqlite3.connect(tmp_path / "v.db") as conn, pytest.raises(sqlite3.IntegrityError,
                                                                   match="never change"):
        conn.execute("UPDATE game_sources SET scenario_text = '' WHERE game_id = 'g1'")
