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
