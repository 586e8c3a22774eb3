"""A database file that cannot serve (missing, not SQLite, truncated, damaged, from a newer
Vedette, read-only) stops ``vedette verify`` and ``vedette run`` with one line saying why, a
non-zero exit code and no traceback; ``run`` stops before it contacts Discord. Each case runs the
real command in its own process."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from storage.errors import DatabaseDamaged, DatabaseTooNew
from storage.records import GameRecord, NewEvent
from storage.store import Store
from tests.fakediscord import FakeDiscord

TOKEN = "vedette-db-token"


def vedette_command() -> list[str]:
    """``vedette`` as ``uv run vedette`` runs it: the project environment's entry point."""
    script = Path(sys.executable).with_name("vedette")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot.cli"]


def as_unprivileged() -> list[str]:
    """A prefix that makes a command obey file permissions even when the tests run as root."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: a read-only file cannot be made")
    return ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]


def real_database(path: Path) -> Path:
    """A Vedette database holding one game with a long log (several pages)."""

    async def fill() -> None:
        async with Store.open(path) as store:
            await store.create_game(GameRecord(
                id="g1", scenario_id="tiny", scenario_path="tiny.toml", host_user_id=1,
                seed=bytes(range(32))))
            for seq in range(40):
                await store.commit("g1", seq, [NewEvent("told", {"text": "x" * 400})])

    # In a thread of its own: some callers are inside a running event loop.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, fill()).result()
    return path


def not_sqlite(path: Path) -> list[str]:
    path.write_bytes(b"these are not the games you are looking for\n" * 200)
    return []


def truncated(path: Path) -> list[str]:
    real_database(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return []


def damaged(path: Path) -> list[str]:
    """A page in the middle overwritten: the header and the size are still right."""
    real_database(path)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[3 * page: 4 * page] = b"\xde\xad" * (page // 2)
    path.write_bytes(bytes(data))
    return []


def newer(path: Path) -> list[str]:
    real_database(path)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("INSERT INTO schema_migrations (version, name, applied_at) "
                     "VALUES (999, 'from the future', '2030-01-01T00:00:00Z')")
    conn.close()  # the last connection closed: the -wal file is folded into the database
    return []


def read_only(path: Path) -> list[str]:
    real_database(path)
    path.chmod(0o444)
    return as_unprivileged()


def missing_folder(path: Path) -> list[str]:
    return []


CASES: dict[str, tuple[Callable[[Path], list[str]], str]] = {
    "not-sqlite": (not_sqlite, "is not a SQLite database"),
    "truncated": (truncated, "is truncated"),
    "damaged": (damaged, "is damaged"),
    "newer": (newer, "was written by a newer Vedette"),
    "read-only": (read_only, "is read-only"),
    "missing": (missing_folder, "no database"),
}


def bad_database(tmp_path: Path, case: str) -> tuple[Path, list[str], str]:
    make, words = CASES[case]
    path = tmp_path / ("gone" if case == "missing" else "") / "vedette.db"
    return path, make(path), words


def one_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    return lines[0]


@pytest.mark.parametrize("case", sorted(CASES))
def test_verify_says_what_is_wrong_in_one_line(tmp_path: Path, case: str) -> None:
    path, prefix, words = bad_database(tmp_path, case)
    before = path.read_bytes() if path.exists() else None
    done = asyncio.run(_run([*prefix, *vedette_command(), "verify", "--db", str(path)],
                            tmp_path, {}))
    code, output = done
    assert code != 0
    assert "Traceback" not in output
    line = one_line(output)
    assert words in line and str(path) in line, line
    assert (path.read_bytes() if path.exists() else None) == before  # left as it was


@pytest.mark.parametrize("case", sorted(CASES))
async def test_run_stops_on_the_database_before_discord(tmp_path: Path, case: str) -> None:
    path, prefix, words = bad_database(tmp_path, case)
    async with FakeDiscord(token=TOKEN) as fake:
        env = {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": fake.api_url,
               "DISCORD_GATEWAY_URL": fake.gateway_url, "VEDETTE_DB": str(path)}
        code, output = await _run([*prefix, *vedette_command(), "run"], tmp_path, env)
        assert fake.requests == []  # Discord was never contacted
    assert code != 0
    assert "Traceback" not in output
    line = one_line(output)
    assert line.startswith("vedette run: ") and words in line, line


async def _run(command: list[str], cwd: Path, extra: dict[str, str]) -> tuple[int, str]:
    """Run a command to its end; its exit code and its stdout and stderr together."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "VEDETTE_"))}
    env |= {"PYTHONUNBUFFERED": "1", **extra}
    process = await asyncio.create_subprocess_exec(
        *command, cwd=cwd, env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT)
    try:
        output, _ = await asyncio.wait_for(process.communicate(), 60)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode is not None
    return process.returncode, output.decode(errors="replace")


# -- the same checks, in process, for the errors' types ------------------------------------------
@pytest.mark.parametrize(("case", "error"), [("truncated", DatabaseDamaged),
                                             ("damaged", DatabaseDamaged),
                                             ("not-sqlite", DatabaseDamaged),
                                             ("newer", DatabaseTooNew)])
async def test_store_open_refuses_with_the_reason(tmp_path: Path, case: str,
                                                  error: type[Exception]) -> None:
    path, _, words = bad_database(tmp_path, case)
    with pytest.raises(error, match=words):
        await Store.open(path)


def test_a_read_only_folder_is_named(tmp_path: Path) -> None:
    """WAL mode writes ``-wal`` and ``-shm`` files next to the database: a writable file in a
    read-only folder cannot serve either."""
    folder = tmp_path / "shelf"
    folder.mkdir()
    path = real_database(folder / "vedette.db")
    folder.chmod(0o555)
    try:
        code, output = asyncio.run(_run(
            [*as_unprivileged(), *vedette_command(), "verify", "--db", str(path)], tmp_path, {}))
    finally:
        folder.chmod(0o755)
    assert code != 0 and "Traceback" not in output
    assert "is in a read-only folder" in one_line(output)


async def test_a_missing_file_in_a_writable_folder_is_created(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "new.db") as store:
        assert await store.list_games() == []
