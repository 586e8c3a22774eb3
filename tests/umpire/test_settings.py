"""The settings a host gives in ``.env``: the shipped ``.env.example``, copied as it is, reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from umpire.settings import Settings, project_docs_url

EXAMPLE = Path(__file__).parents[2] / ".env.example"


def test_the_example_env_file_reads_with_its_empty_settings_as_not_given(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("VEDETTE_DEV_GUILD", "VEDETTE_GLOBAL_COMMANDS", "VEDETTE_SCENARIOS",
                 "VEDETTE_DOCS_URL"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings(_env_file=EXAMPLE)  # type: ignore[call-arg]
    assert settings.dev_guild is None and settings.scenarios is None
    assert settings.global_commands is False
    assert settings.docs_url == project_docs_url()  # the project's own address, if it has one


def test_a_dev_guild_with_global_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VEDETTE_DEV_GUILD", "1234")
    monkeypatch.setenv("VEDETTE_GLOBAL_COMMANDS", "true")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.dev_guild == 1234 and settings.global_commands is True


def test_the_guides_address_is_kept_without_a_trailing_slash(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VEDETTE_DOCS_URL", "https://club.example/vedette/docs/")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.docs_url == "https://club.example/vedette/docs"


def test_map_workers_default_to_the_processors_left_over(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VEDETTE_MAP_WORKERS", raising=False)
    monkeypatch.setattr("os.sched_getaffinity", lambda _pid: {0, 1, 2})
    assert Settings(_env_file=None).map_workers == 2  # type: ignore[call-arg]
    monkeypatch.setattr("os.sched_getaffinity", lambda _pid: {0})
    assert Settings(_env_file=None).map_workers == 1  # type: ignore[call-arg]
    monkeypatch.setattr("os.sched_getaffinity", lambda _pid: set(range(64)))
    assert Settings(_env_file=None).map_workers == 4  # type: ignore[call-arg]


def test_map_workers_given_are_taken_and_a_bad_count_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VEDETTE_MAP_WORKERS", "0")
    assert Settings(_env_file=None).map_workers == 0  # type: ignore[call-arg]
    monkeypatch.setenv("VEDETTE_MAP_WORKERS", "-1")
    with pytest.raises(ValueError, match="VEDETTE_MAP_WORKERS"):
        Settings(_env_file=None)  # type: ignore[call-arg]
