"""``vedette db migrate`` on both backends, ``vedette backup`` refusing a PostgreSQL target, and
``VEDETTE_DB`` as a file path or a URL. The commands run as real processes."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from storage import SCHEMA_VERSION, Store
from storage.clock import utc_now
from storage.database import open_database
from storage.migrations import MIGRATIONS, migrate
from umpire.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def vedette(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)


async def old_database(target: str, version: int) -> None:
    """A database at schema ``version`` holding one game, as an older Vedette left it."""
    db = await open_database(target)
    try:
        await migrate(db, target, utc_now, tuple(m for m in MIGRATIONS if m.version <= version))
        async with db.write("old game") as conn:
            await conn.execute(
                "INSERT INTO games (id, scenario_id, scenario_path, host_user_id, seed,"
                " created_at, updated_at) VALUES ('g1', 's', 'p', 1, ?, ?, ?)",
                (bytes(32), "2026-01-01T00:00:00.000000+00:00",
                 "2026-01-01T00:00:00.000000+00:00"))
    finally:
        await db.close()


async def check_upgraded(target: str) -> None:
    async with Store.open(target) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert [g.id for g in await store.list_games()] == ["g1"]


def test_db_migrate_upgrades_a_sqlite_file_and_says_from_what(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    asyncio.run(old_database(str(db), 3))
    done = vedette("db", "migrate", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        f"vedette: database {db} upgraded from schema 3 to {SCHEMA_VERSION}")
    asyncio.run(check_upgraded(str(db)))
    again = vedette("db", "migrate", "--db", str(db))
    assert again.returncode == 0 and f"is at schema {SCHEMA_VERSION}" in again.stdout


def test_db_migrate_takes_vedette_db_from_the_environment(tmp_path: Path) -> None:
    db = tmp_path / "env.db"
    asyncio.run(old_database(str(db), 5))
    done = subprocess.run([sys.executable, "-m", "bot.cli", "db", "migrate"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**_env(), "VEDETTE_DB": str(db)})
    assert done.returncode == 0, done.stderr
    assert f"from schema 5 to {SCHEMA_VERSION}" in done.stdout


def test_db_migrate_refuses_a_missing_file_and_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "typo.db"
    done = vedette("db", "migrate", "--db", str(db))
    assert done.returncode == 1
    assert done.stderr.strip() == f"vedette db: no database at {db}"
    assert not db.exists()


def test_db_migrate_refuses_a_newer_schema_untouched(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    asyncio.run(old_database(str(db), SCHEMA_VERSION))
    import sqlite3

    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (?, 'future', '2030-01-01')",
                     (SCHEMA_VERSION + 1,))
    done = vedette("db", "migrate", "--db", str(db))
    assert done.returncode == 1
    assert "written by a newer Vedette" in done.stderr and "\n" not in done.stderr.strip()


def test_db_migrate_upgrades_a_postgresql_database(pg_target: str) -> None:
    asyncio.run(old_database(pg_target, 4))
    done = vedette("db", "migrate", "--db", pg_target)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        f"vedette: database {pg_target} upgraded from schema 4 to {SCHEMA_VERSION}")
    asyncio.run(check_upgraded(pg_target))


def test_db_migrate_names_a_server_it_cannot_reach_without_the_password() -> None:
    done = vedette("db", "migrate", "--db", "postgresql://vedette:s3cret@127.0.0.1:1/vedette")
    assert done.returncode == 1
    assert "cannot use PostgreSQL database postgresql://vedette@127.0.0.1:1/vedette" in (
        done.stderr)
    assert "s3cret" not in done.stderr + done.stdout


def test_backup_of_a_postgresql_database_points_to_pg_dump(tmp_path: Path) -> None:
    done = vedette("backup", "--db", "postgresql://vedette@127.0.0.1:1/vedette",
                   "--out", str(tmp_path / "b.db"))
    assert done.returncode == 2
    assert "pg_dump" in done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("target", ["postgresql://vedette:pw@db.example:5432/vedette",
                                    "postgres://vedette@localhost/vedette?sslmode=require"])
def test_vedette_db_may_be_a_url_kept_as_written(target: str, monkeypatch: pytest.MonkeyPatch
                                                 ) -> None:
    monkeypatch.setenv("VEDETTE_DB", target)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.db == target and settings.db_file is None


def test_vedette_db_as_a_path_is_the_sqlite_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VEDETTE_DB", "/srv/vedette/games.db")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.db_file == Path("/srv/vedette/games.db")


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "VEDETTE_DB"}


def test_verify_reads_a_postgresql_database_named_by_its_url(pg_target: str) -> None:
    """The URL reaches the store as written (a path would fold its ``//``): an empty
    database is reported as holding no game."""
    asyncio.run(old_database(pg_target, SCHEMA_VERSION))
    done = vedette("verify", "--db", pg_target, "--game", "nope")
    assert done.returncode == 2, done.stderr
    assert done.stdout.strip() == f"vedette verify: no game 'nope' in {pg_target}"
