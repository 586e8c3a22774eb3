"""Files nested too deeply to read: scenario and ruleset files, game records, and the JSON a
database file holds. Each is refused before it is parsed, in one line naming it, and nothing
changes: no ``RecursionError``, no traceback, and the other scenarios stay in the catalog."""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import sqlite3
import tomllib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.client import VedetteBot
from rules.reading import event_from_json
from rules.scenario.nesting import MAX_NESTING, TooDeep, loads_json, loads_toml
from rules.scenario.problems import FileProblems
from storage.clock import utc_now
from storage.db import connect
from storage.errors import StorageError
from storage.json_codec import decode
from storage.migrations import MIGRATIONS, migrate
from storage.pending_orders import PendingRow
from storage.store import Store
from tests.fakediscord import FakeDiscord, FakeUser, patched_discord, run_client
from tests.support.botkit import EPHEMERAL, TOKEN, text_of
from umpire.cli.db_copy import TABLES, CopyRefused, copy_database
from umpire.cli.main import main
from umpire.games import catalog
from umpire.reads.maps import MapMaker
from umpire.service import Umpire
from umpire.verify.record import FORMAT, VERSION

FIXTURES = Path(__file__).parents[1] / "fixtures"
#: Far past the depth that exhausts Python's stack in the TOML and JSON parsers.
DEEP = 5000
TOO_DEEP = f"more than {MAX_NESTING} levels deep"


def arrays(depth: int) -> str:
    return "[" * depth + "]" * depth


def scenario_folder(tmp_path: Path) -> Path:
    """A host's folder holding the tiny scenario and its ruleset."""
    folder = tmp_path / "host-scenarios"
    folder.mkdir()
    for name in ("tiny.toml", "tiny.ruleset.toml"):
        shutil.copy(FIXTURES / name, folder / name)
    return folder


def deep_scenario(folder: Path, name: str = "deep.toml") -> Path:
    path = folder / name
    path.write_text(f'[scenario]\nid = "deep"\ntitle = "Deep"\nruleset = "tiny.ruleset.toml"\n'
                    f"a = {arrays(DEEP)}\n", encoding="utf-8")
    return path


def no_traceback(text: str) -> None:
    assert "Traceback" not in text and "RecursionError" not in text


# -- the measure --------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    f"a = {arrays(DEEP)}",
    "a = " + "{ b = " * DEEP + "1" + " }" * DEEP,
    "x" + ".a" * DEEP + " = 1",  # a dotted key: its cost grows with the square of its parts
    "x" + ' . "a"' * DEEP + " = 1",
    "[x" + ".a" * DEEP + "]\n",
    "[[x" + ".a" * DEEP + "]]\n",
    # A table header and a dotted key under it, each short enough, nest too deep together.
    "[" + ".".join(["a"] * 40) + "]\n" + ".".join(["b"] * 40) + " = 1\n",
    # Strings that close with extra quotes, escaped quotes and comments hide no bracket.
    f'a = ["""x""""", {arrays(DEEP)}]',
    f'a = ["""x"""", {arrays(DEEP)}]',
    f"a = ['''x''''', {arrays(DEEP)}]",
    f'a = ["x\\"", {arrays(DEEP)}]',
    f"a = ['x\\\\', {arrays(DEEP)}]",
    f'a = [ # "\n{arrays(DEEP)}]',
    f'"k[" = {arrays(DEEP)}',
])
def test_toml_nested_too_deeply_is_refused_before_parsing(text: str) -> None:
    with pytest.raises(TooDeep, match=TOO_DEEP):
        loads_toml(text)


def test_toml_at_the_limit_and_brackets_in_strings_and_comments_are_read() -> None:
    assert loads_toml(f"a = {arrays(MAX_NESTING)}")["a"] is not None
    assert loads_toml("a = " + "{ b = " * MAX_NESTING + "1" + " }" * MAX_NESTING)["a"]
    assert loads_toml(".".join(["a"] * MAX_NESTING) + " = 1")["a"]
    hidden = "[" * DEEP + "{" * DEEP
    text = (f'a = "{hidden}"\nb = \'{hidden}\'\nc = """\n{hidden}\n"""\nd = \'\'\'{hidden}\'\'\''
            f"\n# {hidden}\ne = [{', '.join(['1.5'] * DEEP)}]\n")
    assert loads_toml(text)["a"] == hidden
    with pytest.raises(TooDeep):
        loads_toml(f"a = {arrays(MAX_NESTING + 1)}")


def test_json_nested_too_deeply_is_refused_before_parsing() -> None:
    for text in (arrays(DEEP), '{"a":' * DEEP + "1" + "}" * DEEP, "[" * DEEP):
        with pytest.raises(TooDeep, match=TOO_DEEP):
            loads_json(text)
    assert loads_json(arrays(MAX_NESTING))
    with pytest.raises(TooDeep):
        loads_json(arrays(MAX_NESTING + 1))
    hidden = json.dumps(["[" * DEEP, '\\"{' * DEEP])
    assert loads_json(hidden) == json.loads(hidden)
    with pytest.raises(ValueError, match=TOO_DEEP):  # an event read back from a log
        event_from_json('{"type": "die_rolled", "x": ' + arrays(DEEP) + "}", "public")


def test_every_shipped_file_is_well_within_the_limit() -> None:
    files = sorted((catalog.SHIPPED).glob("*.toml")) + sorted(FIXTURES.glob("*.toml"))
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert loads_toml(text) == tomllib.loads(text), path


# -- scenario and ruleset files ------------------------------------------------------------------
def test_scenario_check_names_a_deep_scenario_without_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = scenario_folder(tmp_path)
    deep = deep_scenario(folder)
    assert main(["scenario", "check", str(deep), str(folder / "tiny.toml")]) == 1
    out = capsys.readouterr().out
    assert f"{deep}: 1 problem(s)\n  {deep}: (file): nests arrays, tables or dotted keys " \
           f"{TOO_DEEP}" in out
    assert f"{folder / 'tiny.toml'}: ok" in out  # the next file is checked all the same
    no_traceback(out)


def test_a_deep_ruleset_is_a_problem_naming_the_ruleset(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = scenario_folder(tmp_path)
    ruleset = folder / "tiny.ruleset.toml"
    ruleset.write_text(ruleset.read_text(encoding="utf-8") + "\n[deep]\nx = "
                       + "{ y = " * DEEP + "1" + " }" * DEEP + "\n", encoding="utf-8")
    with pytest.raises(FileProblems) as problems:
        catalog.load_file(folder / "tiny.toml")
    [problem] = problems.value.problems
    assert problem.file == str(ruleset.resolve()) and TOO_DEEP in problem.message
    assert main(["scenario", "check", str(folder / "tiny.toml")]) == 1
    out = capsys.readouterr().out
    assert f"{ruleset.resolve()}: (file): nests" in out
    no_traceback(out)


def test_a_deep_scenario_is_left_out_of_the_list_and_the_others_stay(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder = scenario_folder(tmp_path)
    deep = deep_scenario(folder)
    # Nested tables in its header, made of dotted keys, are as deep as any brackets.
    (folder / "dotted.toml").write_text("[scenario]\ntitle" + ".a" * DEEP + " = 1\n",
                                        encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="vedette.catalog"):
        names = [entry.name for entry in catalog.listing(folder)]
    assert "tiny" in names and "flank-march" in names
    assert "deep" not in names and "dotted" not in names
    logged = [r.getMessage() for r in caplog.records if "deep.toml" in r.getMessage()]
    assert len(logged) == 1 and TOO_DEEP in logged[0]
    with pytest.raises(FileProblems, match=TOO_DEEP):
        catalog.load_file(catalog.find_named("deep", folder))
    with pytest.raises(FileProblems, match=TOO_DEEP):
        catalog.read_sources(deep)


@asynccontextmanager
async def bot_with(fake: FakeDiscord, db: Path, folder: Path) -> AsyncIterator[VedetteBot]:
    store = await Store.open(db)
    try:
        umpire = Umpire(store, scenarios=folder, maps=MapMaker(enabled=False))
        bot = VedetteBot(umpire, outbox_interval=0.2, guild_ready_timeout=0.05)
        with patched_discord(fake.base_url):
            async with run_client(bot, token=TOKEN):
                yield bot
    finally:
        await store.close()


async def test_a_deep_scenario_leaves_game_create_working(tmp_path: Path) -> None:
    folder = scenario_folder(tmp_path)
    deep_scenario(folder)
    async with FakeDiscord(token=TOKEN, callback_deadline=3.0) as fake:
        guild = fake.add_guild("Wargames Club")
        channel = fake.add_text_channel(guild, "skirmish")
        alice: FakeUser = fake.add_user("alice", guild=guild)
        async with bot_with(fake, tmp_path / "vedette.db", folder) as bot:
            handle = await fake.autocomplete("game create", {"scenario": ""},
                                             focused="scenario", user=alice, channel=channel)
            offered = [c["value"] for c in (await handle.response()).choices]
            assert "tiny" in offered and "flank-march" in offered and "deep" not in offered
            handle = await fake.slash("game create", {"scenario": "deep"}, user=alice,
                                      channel=channel)
            callback = await handle.response()
            message = (await handle.original_message() if callback.type == 5
                       else handle.original)
            assert message is not None and message["flags"] & EPHEMERAL
            answer = text_of(message)
            assert await bot.umpire.store.list_games() == []
    assert "deep.toml: (file): nests" in answer and TOO_DEEP in answer
    assert "Something went wrong" not in answer and str(folder) not in answer


# -- game records --------------------------------------------------------------------------------
def test_verify_refuses_a_deep_record_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "deep-record.json"
    record.write_text(f'{{"format": "{FORMAT}", "version": {VERSION}, "events": '
                      f"{arrays(DEEP)}}}", encoding="utf-8")
    assert main(["verify", "--record", str(record)]) == 2
    out = capsys.readouterr().out
    assert out == (f"vedette verify: {record} is not a game record Vedette can read: it nests "
                   f"arrays and objects {TOO_DEEP} (Vedette reads at most {MAX_NESTING})\n")


def test_a_record_whose_scenario_nests_too_deeply_is_reported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The scenario text inside a record is read as a scenario file is."""
    seed = bytes(32)
    scenario = f'[scenario]\nid = "deep"\na = {arrays(DEEP)}\n'
    ruleset = (FIXTURES / "tiny.ruleset.toml").read_text(encoding="utf-8")

    def sha(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    record: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "game": "g1",
        "scenario": {"name": "deep.toml", "sha256": sha(scenario), "text": scenario},
        "ruleset": {"name": "tiny.ruleset.toml", "sha256": sha(ruleset), "text": ruleset},
        "options": {"without": [], "rules": {}}, "seed": seed.hex(),
        "events": [
            {"seq": 1, "type": "game_started", "audience": "public",
             "payload": {"seed_sha256": hashlib.sha256(seed).hexdigest()}},
            {"seq": 2, "type": "game_ended", "audience": "public",
             "payload": {"seed_hex": seed.hex()}}]}
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["verify", "--record", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"the game's scenario cannot be loaded: deep.toml: (file): nests arrays, tables or " \
           f"dotted keys {TOO_DEEP}" in out
    no_traceback(out)


# -- database files ------------------------------------------------------------------------------
async def small_game(db: Path) -> None:
    """Game ``g1`` of the tiny scenario, started, with an order waiting for its Confirm."""
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(FIXTURES / "tiny.toml"), 1, game_id="g1", seed=bytes(32))
        await umpire.join("g1", 10, "blue")
        await umpire.join("g1", 20, "grey")
        await umpire.start("g1", 1)
        state = await umpire.repository.state_for("g1")
        await store.add_pending_order(PendingRow(
            "p-1", "g1", 10, "move", {"unit": "b1", "route": "0102"}, state.turn, state.step,
            "open", {}, datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)))


def deepen_event(db: Path, seq: int = 2) -> None:
    """Rewrite an event's payload as someone with the file could, past the append-only
    guard."""
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TRIGGER events_append_only")
        conn.execute("UPDATE events SET payload = ? WHERE game_id = 'g1' AND seq = ?",
                     (f'{{"x": {arrays(DEEP)}}}', seq))
    conn.close()


async def test_a_deep_payload_in_the_database_is_a_storage_error(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    await small_game(db)
    deepen_event(db)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE pending_orders SET body = ? WHERE id = 'p-1'",
                     (f'{{"unit": {arrays(DEEP)}}}',))
    conn.close()
    async with Store.open(db) as store:
        with pytest.raises(StorageError, match=f"payload of event 'g1'#2 nests .*{TOO_DEEP}"):
            await store.events("g1")
        with pytest.raises(StorageError, match="order of pending order 'p-1' nests"):
            await store.pending_order("p-1")
    with pytest.raises(StorageError, match="buttons of delivery 7 is not JSON"):
        decode("[1,", "buttons of delivery 7")


def test_verify_names_a_database_holding_a_deep_payload(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    db = tmp_path / "club.db"
    asyncio.run(small_game(db))
    deepen_event(db)
    assert main(["verify", "--db", str(db)]) == 2
    out = capsys.readouterr().out
    assert out.startswith(f"vedette verify: {db} cannot be read: payload of event 'g1'#2 nests")
    assert out.count("\n") == 1


async def test_db_copy_refuses_a_source_holding_a_deep_payload_and_writes_nothing(
        tmp_path: Path) -> None:
    source, copy = tmp_path / "club.db", tmp_path / "copy.db"
    await small_game(source)
    deepen_event(source)
    with pytest.raises(CopyRefused) as refused:
        await copy_database(source, copy)
    assert str(refused.value) == (
        f"{source} cannot be copied: its events.payload of the row with game_id 'g1', seq 2 "
        f"nests arrays and objects {TOO_DEEP} (Vedette reads at most {MAX_NESTING})")
    with sqlite3.connect(copy) as conn:
        for table in TABLES:
            assert conn.execute(f"SELECT count(*) FROM {table.name}").fetchone() == (0,)
    conn.close()


def test_vedette_db_copy_says_so_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    source = tmp_path / "club.db"
    asyncio.run(small_game(source))
    deepen_event(source)
    assert main(["db", "copy", "--from", str(source), "--to", str(tmp_path / "copy.db")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"vedette db copy: {source} cannot be copied: its events.payload")
    assert err.count("\n") == 1


async def test_an_old_pending_move_nested_too_deeply_is_left_behind_by_the_upgrade(
        tmp_path: Path) -> None:
    """Schema 8 carries old pending moves over from the bot's key-value rows; one that cannot
    be read stays where it was, and the upgrade goes on."""
    db = tmp_path / "old.db"
    conn = await connect(db)
    try:
        await migrate(conn, db, utc_now, tuple(m for m in MIGRATIONS if m.version <= 7))
        await conn.execute("INSERT INTO bot_state (key, value) VALUES (?, ?)",
                           ("pending-move:deep", f'{{"id": {arrays(DEEP)}}}'))
        await conn.commit()
    finally:
        await conn.close()
    async with Store.open(db) as store:
        assert await store.get_state("pending-move:deep") == f'{{"id": {arrays(DEEP)}}}'
        assert await store.pending_order("deep") is None
