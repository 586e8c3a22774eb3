"""The fake Discord's world: users, guilds, channels and messages, and the JSON shapes Discord
gives them on the wire.

Everything here is plain data; nothing talks to the network. Payload builders return dicts shaped
closely enough like real Discord objects that discord.py 2.7 parses them without complaint.
"""

from __future__ import annotations

import re
import struct
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000
#: How long Discord remembers a message's nonce for ``enforce_nonce`` ("a few minutes").
NONCE_WINDOW = 300.0

# Channel types (https://discord.com/developers/docs/resources/channel#channel-object-channel-types)
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)

# Message flags we keep when a message is created.
EPHEMERAL = 1 << 6
LOADING = 1 << 7
#: A "components v2" message: its components (containers, text displays, galleries...) are all
#: it shows; once set, the flag stays for the message's life.
IS_COMPONENTS_V2 = 1 << 15
# Suppress embeds, ephemeral, silent, components v2.
_CREATABLE_FLAGS = (1 << 2) | EPHEMERAL | (1 << 12) | IS_COMPONENTS_V2

# Permission bits.
ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 53) - 1
# Discord's default for @everyone in a new guild.
DEFAULT_EVERYONE_PERMISSIONS = 1_071_698_660_929
# What a typical bot invite grants: view, send (also in threads), embed, attach, history,
# reactions, external emoji, manage messages/threads, create threads.
DEFAULT_BOT_PERMISSIONS = (
    (1 << 6)
    | (1 << 10)
    | (1 << 11)
    | (1 << 13)
    | (1 << 14)
    | (1 << 15)
    | (1 << 16)
    | (1 << 18)
    | (1 << 34)
    | (1 << 35)
    | (1 << 36)
    | (1 << 38)
)


class SnowflakeFactory:
    """Time-based, strictly increasing snowflakes: ``ms_since_discord_epoch << 22 | counter``."""

    def __init__(self) -> None:
        self._last_ms = 0
        self._counter = 0

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        if ms > self._last_ms:
            self._last_ms, self._counter = ms, 0
        else:
            self._counter += 1
            if self._counter >= 1 << 12:
                self._last_ms, self._counter = self._last_ms + 1, 0
        return (self._last_ms << 22) | (1 << 17) | self._counter

    def fresh_millisecond(self) -> int:
        """A snowflake in a millisecond no earlier id used, so that ids made in a burst still
        differ in their timestamp bits (which is what shard routing looks at)."""
        self._last_ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, self._last_ms + 1)
        self._counter = 0
        return (self._last_ms << 22) | (1 << 17)


snowflake = SnowflakeFactory()


def iso_now() -> str:
    """An ISO 8601 timestamp in the form Discord uses."""
    return datetime.now(UTC).isoformat()


def png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG, read from its IHDR chunk; None if it is not a PNG."""
    if len(data) >= 24 and data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return None


@dataclass
class FakeUser:
    """A Discord user. ``dms_open=False`` makes DMs to them fail with 403 / 50007."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
        }


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class FakeChannel:
    """A guild text channel, a thread, or a DM channel (``recipient_id`` set)."""

    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    position: int = 0
    topic: str | None = None
    parent_id: int | None = None
    recipient_id: int | None = None
    owner_id: int | None = None
    invitable: bool = True
    auto_archive_duration: int = 1440
    thread_members: set[int] = field(default_factory=set)
    created_at: str = field(default_factory=iso_now)
    last_message_id: int | None = None
    message_count: int = 0

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    member_roles: dict[int, list[int]] = field(default_factory=dict)  # user id -> role ids
    joined_at: str = field(default_factory=iso_now)

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]


@dataclass
class StoredBlob:
    """An uploaded attachment's bytes, served back at its CDN url."""

    filename: str
    content_type: str
    data: bytes


_MENTION = re.compile(r"<@!?(\d+)>")


class World:
    """Everything the fake Discord knows: one application and its bot user, plus guilds,
    channels, users and messages. Mutated by REST handlers; read by tests."""

    def __init__(self, bot_name: str = "Vedette") -> None:
        self.application_id = snowflake()
        # Modern applications share their id with their bot user.
        self.bot = FakeUser(id=self.application_id, username=bot_name, bot=True)
        self.owner = FakeUser(id=snowflake(), username="app-owner")
        self.users: dict[int, FakeUser] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.dm_channel_ids: dict[int, int] = {}  # user id -> DM channel id
        self.messages: dict[int, JSON] = {}  # every message ever created, by id (live state)
        self.channel_message_ids: dict[int, list[int]] = {}  # creation order, deletions removed
        self.deleted_message_ids: set[int] = set()
        self.commands: dict[int | None, list[JSON]] = {}  # guild id (None = global) -> commands
        self.blobs: dict[int, StoredBlob] = {}  # attachment id -> bytes
        self.cdn_base = "http://127.0.0.1"  # set by the server once it knows its port
        # (author id, nonce) -> (monotonic time, message id): Create Message with
        # ``enforce_nonce`` returns the earlier message instead of posting it again.
        self.nonces: dict[tuple[int, str], tuple[float, int]] = {}
        self.nonce_window = NONCE_WINDOW

    # ----------------------------------------------------------------- building the world

    def add_user(self, username: str, *, global_name: str | None = None) -> FakeUser:
        user = FakeUser(id=snowflake(), username=username, global_name=global_name)
        self.users[user.id] = user
        return user

    def add_guild(
        self, name: str, *, owner: FakeUser | None = None, bot_permissions: int | None = None
    ) -> FakeGuild:
        """A guild the bot is already in, with @everyone and a managed bot role."""
        guild_id = snowflake.fresh_millisecond()
        owner = owner or self.owner
        guild = FakeGuild(id=guild_id, name=name, owner_id=owner.id)
        guild.roles[guild_id] = FakeRole(guild_id, "@everyone", DEFAULT_EVERYONE_PERMISSIONS)
        perms = DEFAULT_BOT_PERMISSIONS if bot_permissions is None else bot_permissions
        bot_role = FakeRole(snowflake(), self.bot.username, perms, position=1, managed=True)
        guild.roles[bot_role.id] = bot_role
        self.guilds[guild_id] = guild
        self.add_member(guild, self.bot, roles=[bot_role])
        self.add_member(guild, owner)
        return guild

    def add_role(self, guild: FakeGuild, name: str, permissions: int = 0) -> FakeRole:
        role = FakeRole(snowflake(), name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        return role

    def add_member(
        self, guild: FakeGuild, user: FakeUser, *, roles: list[FakeRole] | None = None
    ) -> None:
        self.users.setdefault(user.id, user)
        guild.member_roles[user.id] = [r.id for r in roles or []]

    def add_text_channel(
        self, guild: FakeGuild, name: str, *, topic: str | None = None
    ) -> FakeChannel:
        channel = FakeChannel(
            id=snowflake(),
            type=GUILD_TEXT,
            name=name,
            guild_id=guild.id,
            position=len(guild.channel_ids),
            topic=topic,
        )
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    def open_dm(self, user_id: int) -> FakeChannel:
        """The bot's DM channel with a user, created on first use (as Discord does)."""
        channel_id = self.dm_channel_ids.get(user_id)
        if channel_id is None:
            channel = FakeChannel(id=snowflake(), type=DM, recipient_id=user_id)
            self.channels[channel.id] = channel
            self.dm_channel_ids[user_id] = channel.id
            return channel
        return self.channels[channel_id]

    def create_thread(
        self, parent: FakeChannel, name: str, *, type: int, invitable: bool, archive: int
    ) -> FakeChannel:
        thread = FakeChannel(
            id=snowflake(),
            type=type,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.bot.id,
            invitable=invitable,
            auto_archive_duration=archive,
            thread_members={self.bot.id},
        )
        self.channels[thread.id] = thread
        return thread

    # ----------------------------------------------------------------- queries

    def guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id else None

    def permissions(self, guild: FakeGuild, user_id: int) -> int:
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        perms = guild.everyone.permissions
        for role_id in guild.member_roles.get(user_id, []):
            perms |= guild.roles[role_id].permissions
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def find_command(self, name: str, guild_id: int | None) -> JSON | None:
        """A synced command by name: the guild's own first, then the global ones."""
        for scope in (guild_id, None) if guild_id else (None,):
            for command in self.commands.get(scope, []):
                if command["name"] == name:
                    return command
        return None

    def messages_in(self, channel_id: int, *, include_ephemeral: bool = False) -> list[JSON]:
        ids = self.channel_message_ids.get(channel_id, [])
        messages = [self.messages[i] for i in ids]
        if include_ephemeral:
            return messages
        return [m for m in messages if not m["flags"] & EPHEMERAL]

    # ----------------------------------------------------------------- payloads

    def client_user_payload(self) -> JSON:
        return self.bot.payload() | {
            "verified": True,
            "mfa_enabled": False,
            "email": None,
            "locale": "en-US",
            "flags": 0,
        }

    def application_payload(self) -> JSON:
        """GET /oauth2/applications/@me."""
        return {
            "id": str(self.application_id),
            "name": self.bot.username,
            "description": "",
            "icon": None,
            "rpc_origins": [],
            "bot_public": False,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "bot": self.client_user_payload(),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(self.guilds),
        }

    def member_payload(self, guild: FakeGuild, user_id: int, *, with_user: bool = True) -> JSON:
        payload: JSON = {
            "nick": None,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in guild.member_roles[user_id]],
            "joined_at": guild.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            payload["user"] = self.users[user_id].payload()
        return payload

    def channel_payload(self, channel: FakeChannel) -> JSON:
        last = str(channel.last_message_id) if channel.last_message_id else None
        if channel.type == DM:
            assert channel.recipient_id is not None
            return {
                "id": str(channel.id),
                "type": DM,
                "last_message_id": last,
                "flags": 0,
                "recipients": [self.users[channel.recipient_id].payload()],
            }
        base: JSON = {
            "id": str(channel.id),
            "type": channel.type,
            "guild_id": str(channel.guild_id),
            "name": channel.name,
            "parent_id": str(channel.parent_id) if channel.parent_id else None,
            "last_message_id": last,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if channel.type in THREAD_TYPES:
            return base | {
                "owner_id": str(channel.owner_id),
                "message_count": channel.message_count,
                "total_message_sent": channel.message_count,
                "member_count": len(channel.thread_members),
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": channel.auto_archive_duration,
                    "archive_timestamp": channel.created_at,
                    "locked": False,
                    "invitable": channel.invitable,
                    "create_timestamp": channel.created_at,
                },
            }
        return base | {
            "position": channel.position,
            "topic": channel.topic,
            "nsfw": False,
            "permission_overwrites": [],
        }

    def guild_payload(self, guild: FakeGuild) -> JSON:
        """A guild as REST returns it (GET /guilds/{id})."""
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "features": [],
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "approximate_member_count": len(guild.member_roles),
            "approximate_presence_count": 0,
        }

    def guild_create_payload(self, guild: FakeGuild, *, all_members: bool) -> JSON:
        """GUILD_CREATE. Without the GUILD_MEMBERS intent Discord only sends the bot's member."""
        member_ids = list(guild.member_roles) if all_members else [self.bot.id]
        threads = [
            self.channel_payload(c)
            for c in self.channels.values()
            if c.guild_id == guild.id and c.type in THREAD_TYPES
        ]
        return self.guild_payload(guild) | {
            "joined_at": guild.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(guild.member_roles),
            "members": [self.member_payload(guild, uid) for uid in member_ids],
            "channels": [self.channel_payload(self.channels[c]) for c in guild.channel_ids],
            "threads": threads,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # ----------------------------------------------------------------- messages

    def mentioned_users(self, content: str) -> list[JSON]:
        ids = dict.fromkeys(int(m) for m in _MENTION.findall(content))
        return [self.users[i].payload() for i in ids if i in self.users]

    def pings(self, message: JSON) -> list[str]:
        """Whom Discord notifies for a new message: ``"everyone"`` and user ids, as its content
        and ``allowed_mentions`` decide (no ``allowed_mentions``: every mention pings)."""
        content = message.get("content") or ""
        users = [str(u) for u in dict.fromkeys(int(m) for m in _MENTION.findall(content))]
        crowd = "@everyone" in content or "@here" in content
        allowed = message.get("allowed_mentions")
        if allowed is None:
            return (["everyone"] if crowd else []) + users
        parse = set(allowed.get("parse") or [])
        listed = {str(u) for u in allowed.get("users") or []}
        out = ["everyone"] if crowd and "everyone" in parse else []
        return out + [u for u in users if "users" in parse or u in listed]

    def attachment_payload(self, channel_id: int, filename: str, data: bytes, ctype: str) -> JSON:
        """Stores an upload and describes it the way Discord's CDN would."""
        attachment_id = snowflake()
        self.blobs[attachment_id] = StoredBlob(filename, ctype, data)
        url = f"{self.cdn_base}/attachments/{channel_id}/{attachment_id}/{filename}"
        payload: JSON = {
            "id": str(attachment_id),
            "filename": filename,
            "size": len(data),
            "url": url,
            "proxy_url": url,
            "content_type": ctype,
        }
        if (dims := png_size(data)) is not None:
            payload["width"], payload["height"] = dims
        return payload

    def new_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        body: JSON,
        attachments: list[JSON],
        *,
        type: int = 0,
        extra: JSON | None = None,
    ) -> JSON:
        """Creates and stores a message from a create-message style request body."""
        content = body.get("content") or ""
        message: JSON = {
            "id": str(snowflake()),
            "channel_id": str(channel.id),
            "author": author.payload(),
            "content": content,
            "timestamp": iso_now(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": self.mentioned_users(content),
            "mention_roles": [],
            "attachments": attachments,
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": type,
            "flags": int(body.get("flags") or 0) & _CREATABLE_FLAGS,
        }
        if channel.guild_id:
            message["guild_id"] = str(channel.guild_id)
        if "allowed_mentions" in body:
            # Not part of Discord's message object: kept so that tests can see what was asked.
            message["allowed_mentions"] = body["allowed_mentions"]
        message["mention_everyone"] = "everyone" in self.pings(message)
        if body.get("message_reference"):
            message["message_reference"] = body["message_reference"]
        if body.get("nonce") is not None:
            message["nonce"] = str(body["nonce"])
            self.nonces[(author.id, str(body["nonce"]))] = (time.monotonic(), int(message["id"]))
        message.update(extra or {})
        self.store_message(channel, message)
        return message

    def message_by_nonce(self, author: FakeUser, nonce: str) -> JSON | None:
        """The author's message created with this nonce within the last ``nonce_window``
        seconds and not deleted since (what Discord returns for ``enforce_nonce``)."""
        found = self.nonces.get((author.id, nonce))
        if found is None or time.monotonic() - found[0] > self.nonce_window:
            return None
        if found[1] in self.deleted_message_ids:
            return None
        return self.messages.get(found[1])

    def store_message(self, channel: FakeChannel, message: JSON) -> None:
        message_id = int(message["id"])
        self.messages[message_id] = message
        self.channel_message_ids.setdefault(channel.id, []).append(message_id)
        channel.last_message_id = message_id
        channel.message_count += 1

    def edit_message(self, message: JSON, body: JSON, uploaded: list[JSON]) -> JSON:
        """Applies an edit-message body in place: only the fields present change. An
        ``attachments`` list keeps the existing attachments it names plus new uploads."""
        for key in ("content", "embeds", "components"):
            if key in body:
                message[key] = (
                    body[key] if body[key] is not None else ([] if key != "content" else "")
                )
        if "content" in body:
            message["mentions"] = self.mentioned_users(message["content"])
        if "allowed_mentions" in body:
            message["allowed_mentions"] = body["allowed_mentions"]
        if "flags" in body and body["flags"] is not None:
            # An existing message's ephemerality cannot change, and a v2 message stays v2
            # (an edit that drops the flag is refused before it gets here).
            keep = message["flags"] & (EPHEMERAL | IS_COMPONENTS_V2)
            message["flags"] = keep | (int(body["flags"]) & _CREATABLE_FLAGS & ~EPHEMERAL)
        message["flags"] &= ~LOADING  # any edit ends a deferred response's "thinking" state
        if "attachments" in body:
            wanted = {str(a.get("id")) for a in body["attachments"] or []}
            message["attachments"] = [a for a in message["attachments"] if a["id"] in wanted]
        message["attachments"] = message["attachments"] + uploaded
        message["edited_timestamp"] = iso_now()
        return message

    def delete_message(self, message: JSON) -> None:
        message_id = int(message["id"])
        channel_ids = self.channel_message_ids.get(int(message["channel_id"]), [])
        if message_id in channel_ids:
            channel_ids.remove(message_id)
        self.deleted_message_ids.add(message_id)
