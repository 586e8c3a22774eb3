"""Settings from the environment and a ``.env`` file in the working folder."""

from __future__ import annotations

import os
from importlib.metadata import PackageNotFoundError, metadata
from pathlib import Path

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from storage.sql import Backend, database_kind


class Settings(BaseSettings):
    # An empty setting (``VEDETTE_DEV_GUILD=`` as .env.example has it) is one not given.
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore",
                                      env_ignore_empty=True)

    discord_token: str = Field("", alias="DISCORD_TOKEN")
    #: The database target: a SQLite file path, or a ``postgresql://`` URL.
    db: str = Field("vedette.db", alias="VEDETTE_DB")
    #: A server the slash commands are pushed to, where they show at once (and only there).
    dev_guild: int | None = Field(None, alias="VEDETTE_DEV_GUILD")
    #: With a dev guild, push the commands globally too, so that they work in DMs.
    global_commands: bool = Field(False, alias="VEDETTE_GLOBAL_COMMANDS")
    log_level: str = Field("INFO", alias="VEDETTE_LOG_LEVEL")
    scenarios: Path | None = Field(None, alias="VEDETTE_SCENARIOS")
    #: Seconds a process holds a game's outbox without renewing it (``umpire.outbox.drain``).
    outbox_lease: float = Field(60.0, alias="VEDETTE_OUTBOX_LEASE", gt=0, le=3600)
    #: Seconds each message waits, from the command that queued it (or its audience's previous
    #: message being answered), before it goes to Discord (``bot.transport``): the moment a
    #: message arrives is then the same whatever work the bot did meanwhile for other audiences.
    send_pace: float = Field(0.25, alias="VEDETTE_SEND_PACE", ge=0, le=5)
    discord_api_base: str = Field("", alias="DISCORD_API_BASE")
    discord_gateway_url: str = Field("", alias="DISCORD_GATEWAY_URL")
    # Which of Discord's shards this process connects (bot.shards reads them, with a clear
    # error for a bad value): kept as text so that a typo is explained, not a traceback.
    shards: str = Field("", alias="VEDETTE_SHARDS")
    shard_count: str = Field("", alias="VEDETTE_SHARD_COUNT")
    #: The address of the folder the guides are published in (``/help`` links to
    #: ``<it>/playing.md``); by default the project's ``Documentation`` URL, if it has one.
    docs_url: str = Field(default_factory=lambda: project_docs_url(), alias="VEDETTE_DOCS_URL")
    #: Processes that draw the maps (``umpire.reads.map_workers``), beside the bot's own: by
    #: default one for each processor but the bot's, at least one and at most four. 0: the
    #: maps are drawn in threads of the bot's process, where they slow every command down.
    map_workers: int = Field(default_factory=lambda: default_map_workers(),
                             alias="VEDETTE_MAP_WORKERS", ge=0, le=32)

    @field_validator("docs_url")
    @classmethod
    def _no_trailing_slash(cls, v: str) -> str:
        return v.strip().rstrip("/")

    #: A folder where sighting tables are kept between runs (``storage.cache.tables``), safe to
    #: delete; empty: beside a SQLite file (``vedette.db-cache``), else ``vedette-cache`` in the
    #: working folder; ``off``: nowhere, built after every restart.
    cache: str = Field("", alias="VEDETTE_CACHE")

    @property
    def cache_folder(self) -> Path | None:
        """Where sighting tables are kept between runs (``None``: nowhere)."""
        given = self.cache.strip()
        if given.lower() == "off":
            return None
        if given:
            return Path(given)
        db = self.db_file
        return db.with_name(f"{db.name}-cache") if db is not None else Path("vedette-cache")

    @property
    def db_file(self) -> Path | None:
        """The SQLite file ``VEDETTE_DB`` names; ``None`` when it is a PostgreSQL URL."""
        return database_file(self.db)


def default_map_workers() -> int:
    """One map worker for each processor this process may run on but one, from 1 to 4."""
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not every system says which processors may be used
        usable = os.cpu_count() or 1
    return max(1, min(4, usable - 1))


def database_file(target: str | Path) -> Path | None:
    """The SQLite file a database target names; ``None`` for a PostgreSQL URL."""
    return Path(target) if database_kind(target) is Backend.SQLITE else None


def project_docs_url() -> str:
    """The ``Documentation`` address in the project's metadata (``[project.urls]`` in
    pyproject.toml); empty when it has none."""
    try:
        urls: list[str] = metadata("vedette").get_all("Project-URL") or []
    except PackageNotFoundError:
        return ""
    for entry in urls:
        label, _, url = str(entry).partition(",")
        if label.strip().lower() == "documentation":
            return url.strip().rstrip("/")
    return ""
