"""Settings from the environment and a ``.env`` file in the working folder."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str = Field("", alias="DISCORD_TOKEN")
    db: Path = Field(Path("vedette.db"), alias="VEDETTE_DB")
    dev_guild: int | None = Field(None, alias="VEDETTE_DEV_GUILD")
    log_level: str = Field("INFO", alias="VEDETTE_LOG_LEVEL")
    scenarios: Path | None = Field(None, alias="VEDETTE_SCENARIOS")
    #: Seconds a process holds a game's outbox without renewing it (``umpire.outbox``).
    outbox_lease: float = Field(60.0, alias="VEDETTE_OUTBOX_LEASE", gt=0, le=3600)
    discord_api_base: str = Field("", alias="DISCORD_API_BASE")
    discord_gateway_url: str = Field("", alias="DISCORD_GATEWAY_URL")
