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
    discord_api_base: str = Field("", alias="DISCORD_API_BASE")
    discord_gateway_url: str = Field("", alias="DISCORD_GATEWAY_URL")
    # Which of Discord's shards this process connects (bot.shards reads them, with a clear
    # error for a bad value): kept as text so that a typo is explained, not a traceback.
    shards: str = Field("", alias="VEDETTE_SHARDS")
    shard_count: str = Field("", alias="VEDETTE_SHARD_COUNT")
