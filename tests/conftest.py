"""Shared fixtures: the small test scenario, loaded; the fake Discord; a PostgreSQL server."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator

import pytest
from hypothesis import HealthCheck, settings

from rules.scenario.loader import LoadedScenario
from tests.fakediscord import FakeDiscord
from tests.support import pg_server
from tests.support.demos import Demos
from tests.support.tiny_games import load_tiny

#: Support modules whose fixtures any test may ask for by name (a fixture is never imported).
pytest_plugins = (
    "tests.support.botkit",
    "tests.support.combat",
    "tests.support.probe_module",
    "tests.support.hiding_module",
)

# The bot paces each message (``VEDETTE_SEND_PACE``, a quarter of a second by default) so that
# when it arrives tells nothing; the tests wait for messages by what they say, not by when, so
# they send at once unless they test the pacing itself (bots started as processes inherit it).
os.environ.setdefault("VEDETTE_SEND_PACE", "0")

# Hypothesis holds each example to 200 ms by default, and fails a test whose data took long to
# make: limits a loaded machine can break. The properties are what the tests check, not speed.
settings.register_profile("vedette", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("vedette")


@pytest.fixture
def tiny() -> LoadedScenario:
    return load_tiny()


@pytest.fixture(scope="session")
def demos(tmp_path_factory: pytest.TempPathFactory) -> Demos:
    return Demos(tmp_path_factory.mktemp("demos"))


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The local Discord stand-in, holding the bot to Discord's 3-second answer limit."""
    # Imported here, not at the top: a plugin module imported by this file before pytest loads
    # it as a plugin would not have its asserts rewritten.
    from tests.support.botkit import TOKEN

    async with FakeDiscord(token=TOKEN, callback_deadline=3.0) as fake:
        yield fake


# -- PostgreSQL (tests/support/pg_server.py)
# ---------------------------------------------------------
# Tests that use ``pg_url`` or ``pg_target`` are marked ``postgres`` (``pytest -m postgres``
# selects them). Without a server they skip, saying what is missing; with
# VEDETTE_REQUIRE_POSTGRES=1 (CI) a missing server fails them, and a run in which no PostgreSQL
# test passed fails.

_PG_FIXTURES = {"pg_url", "pg_target"}
_postgres_passed = 0


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "postgres: needs a PostgreSQL server (see tests/support/pg_server.py)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _PG_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.postgres)
    if hasattr(config, "workerinput"):
        # Under pytest-xdist the tests marked slow go first (in their order), so that the run
        # ends with short tests that the workers share out, not with one long test while the
        # other workers have nothing left to do.
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    global _postgres_passed
    if report.when == "call" and report.passed and "postgres" in report.keywords:
        _postgres_passed += 1


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # Under pytest-xdist each worker runs a share of the tests (and starts its own server);
    # the reports of them all reach the controlling process, which alone checks the count.
    worker = hasattr(session.config, "workerinput")
    if (pg_server.required() and not worker and exitstatus == 0
            and _postgres_passed == 0):
        session.exitstatus = 1
        print(f"\n{pg_server.ENV_REQUIRE}=1, but no PostgreSQL test passed in this run",
              file=sys.stderr)
    pg_server.stop()


@pytest.fixture(scope="session")
def pg_url() -> str:
    """The session's PostgreSQL server (``VEDETTE_TEST_POSTGRES``, or a throwaway one): a URL
    to its test database. Skips (fails, when required) if there is none."""
    try:
        return pg_server.server().url
    except pg_server.Unavailable as missing:
        if pg_server.required():
            pytest.fail(f"PostgreSQL is required ({pg_server.ENV_REQUIRE}=1): {missing}")
        pytest.skip(f"PostgreSQL test not run: {missing}")


@pytest.fixture
async def pg_target(pg_url: str) -> AsyncIterator[str]:
    """A fresh, empty schema on the session's server, as a ``postgresql://`` URL that
    ``Store.open`` accepts (its connections use that schema); dropped afterwards."""
    name, url = await pg_server.fresh_schema(pg_url)
    try:
        yield url
    finally:
        await pg_server.drop_schema(pg_url, name)
