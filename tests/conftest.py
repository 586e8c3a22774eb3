"""Shared fixtures: the small test scenario, loaded."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from rules.loader import LoadedScenario, load
from tests.botkit import TOKEN
from tests.fakediscord import FakeDiscord

FIXTURES = Path(__file__).parent / "fixtures"


def load_tiny(scenario_edit: tuple[str, str] | None = None) -> LoadedScenario:
    text = (FIXTURES / "tiny.toml").read_text(encoding="utf-8")
    if scenario_edit:
        assert scenario_edit[0] in text
        text = text.replace(*scenario_edit)
    ruleset = (FIXTURES / "tiny.ruleset.toml").read_text(encoding="utf-8")
    return load(text, "tiny.toml", ruleset, "tiny.ruleset.toml")


@pytest.fixture
def tiny() -> LoadedScenario:
    return load_tiny()


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The local Discord stand-in, holding the bot to Discord's 3-second answer limit."""
    async with FakeDiscord(token=TOKEN, callback_deadline=3.0) as fake:
        yield fake
