"""A local fake Discord (REST + gateway on 127.0.0.1) for testing the bot with the real
discord.py client and no network. See ``server.py`` for an example."""

from .components import buttons_of, component_texts, custom_ids, gallery_items
from .harness import patched_discord, run_client
from .interactions import CallbackRecord, InteractionHandle
from .rest import Fault, Hold, RecordedFile, RecordedRequest
from .server import FakeDiscord
from .state import FakeChannel, FakeGuild, FakeRole, FakeUser, World, snowflake

__all__ = [
    "CallbackRecord",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeRole",
    "FakeUser",
    "Fault",
    "Hold",
    "InteractionHandle",
    "RecordedFile",
    "RecordedRequest",
    "World",
    "buttons_of",
    "component_texts",
    "custom_ids",
    "gallery_items",
    "patched_discord",
    "run_client",
    "snowflake",
]
