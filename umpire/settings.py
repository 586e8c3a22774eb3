"""Settings from the environment and a ``.env`` file in the working folder."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from storage.sql import Backend, database_kind


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str = Field("", alias="DISCORD_TOKEN")
    #: The database target: a SQLite file path, or a ``postgresql://`` URL.
    db: str = Field("vedette.db", alias="VEDETTE_DB")
    dev_guild: int | None = Field(None, alias="VEDETTE_DEV_GUILD")
    log_level: str = Field("INFO", alias="VEDETTE_LOG_LEVEL")
    scenarios: Path | None = Field(None, alias="VEDETTE_SCENARIOS")
    #: Seconds a process holds a game's outbox without renewing it (``umpire.outbox``).
    outbox_lease: float = Field(60.0, alias="VEDETTE_OUTBOX_LEASE", gt=0, le=3600)
    discord_api_base: str = Field("", alias="DISCORD_API_BASE")
    discord_gateway_url: str = Field("", alias="DISCORD_GATEWAY_URL")

    @property
    def db_file(self) -> Path | None:
        """The SQLite file ``VEDETTE_DB`` names; ``None`` when it is a PostgreSQL URL."""
        return database_file(self.db)


def database_file(target: str | Path) -> Path | None:
    """The SQLite file a database target names; ``None`` for a PostgreSQL URL."""
    return Path(target) if database_kind(target) is Backend.SQLITE else None
