"""Interactions: building INTERACTION_CREATE payloads, the handle a test awaits responses
through, and the routes Discord exposes for answering them (the callback endpoint and the
interaction webhook: ``@original`` and followups)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .messages import request_body, uploads, validate
from .rest import DiscordError, RecordedFile, RecordedRequest, Reply, no_content, unknown
from .routes import router
from .state import (
    DEFAULT_BOT_PERMISSIONS,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    FakeChannel,
    FakeGuild,
    FakeRole,
    FakeUser,
    World,
    snowflake,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]

# Interaction types.
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
# Callback (response) types.
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE = 1, 4, 5, 6
UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = 7, 8, 9
# Application command option types.
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN = 1, 2, 3, 4, 5
USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 6, 7, 8, 9, 10
# Message types.
DEFAULT_MESSAGE, CHAT_INPUT_COMMAND_MESSAGE = 0, 20

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


@dataclass
class CallbackRecord:
    """One POST to ``/interactions/{id}/{token}/callback``."""

    type: int
    data: JSON
    files: list[RecordedFile] = field(default_factory=list)

    @property
    def content(self) -> str | None:
        return self.data.get("content")

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def choices(self) -> list[JSON]:
        return list(self.data.get("choices") or [])


class InteractionHandle:
    """What ``FakeDiscord.send_interaction`` returns: the interaction as sent, and everything
    the bot answered to it."""

    def __init__(
        self,
        fake: FakeDiscord,
        payload: JSON,
        *,
        user: FakeUser,
        channel: FakeChannel,
        message_id: int | None = None,
    ) -> None:
        self.fake = fake
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.user = user
        self.channel = channel
        self.component_message_id = message_id  # the message a clicked component is on
        self.sent_at = time.monotonic()
        self.callbacks: list[CallbackRecord] = []
        self.original_id: int | None = None
        self.followup_ids: list[int] = []

    def __repr__(self) -> str:
        return f"<InteractionHandle id={self.id} type={self.type} callbacks={len(self.callbacks)}>"

    @property
    def acknowledged(self) -> bool:
        return bool(self.callbacks)

    @property
    def original(self) -> JSON | None:
        """The current state of the original response message (None if none, or deleted)."""
        if self.original_id is None or self.original_id in self.fake.world.deleted_message_ids:
            return None
        return self.fake.world.messages.get(self.original_id)

    @property
    def followups(self) -> list[JSON]:
        return [self.fake.world.messages[i] for i in self.followup_ids]

    async def response(self, timeout: float = 30.0) -> CallbackRecord:
        """The first (only) callback, waiting for the bot to send it."""
        what = f"callback for interaction {self.id}"
        await self.fake.wait_for(lambda: bool(self.callbacks), timeout=timeout, what=what)
        return self.callbacks[0]

    async def followup(self, index: int = 0, timeout: float = 30.0) -> JSON:
        """The ``index``-th followup message, waiting for it."""
        what = f"followup #{index} for interaction {self.id}"
        await self.fake.wait_for(lambda: len(self.followup_ids) > index, timeout=timeout, what=what)
        return self.fake.world.messages[self.followup_ids[index]]

    async def original_message(self, timeout: float = 30.0) -> JSON:
        """The original response once it exists and is no longer "thinking"."""

        def ready() -> bool:
            original = self.original
            return original is not None and not original["flags"] & LOADING

        what = f"finished original response for interaction {self.id}"
        await self.fake.wait_for(ready, timeout=timeout, what=what)
        assert self.original is not None
        return self.original


# --------------------------------------------------------------------- building payloads


def _find(options: list[JSON] | None, name: str) -> JSON | None:
    return next((o for o in options or [] if o["name"] == name), None)


def _infer_type(value: object) -> int:
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, int):
        return INTEGER
    if isinstance(value, float):
        return NUMBER
    if isinstance(value, FakeUser):
        return USER
    if isinstance(value, FakeChannel):
        return CHANNEL
    if isinstance(value, FakeRole):
        return ROLE
    return STRING


def _snowflake_of(value: object) -> int:
    if isinstance(value, FakeUser | FakeChannel | FakeRole):
        return value.id
    return int(str(value))


def _option(
    world: World,
    name: str,
    value: object,
    definition: JSON | None,
    resolved: dict[str, dict[str, JSON]],
    guild: FakeGuild | None,
    *,
    focused: bool,
) -> JSON:
    """One leaf option; users, channels and roles also go into ``resolved`` as Discord does."""
    kind = int(definition["type"]) if definition else _infer_type(value)
    if focused:
        # Autocomplete sends whatever the user has typed so far.
        return {"type": kind, "name": name, "value": value, "focused": True}
    if kind == MENTIONABLE:
        kind = ROLE if isinstance(value, FakeRole) else USER
    if kind == USER:
        user = world.users[_snowflake_of(value)]
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if guild is not None and user.id in guild.member_roles:
            member = world.member_payload(guild, user.id, with_user=False)
            member["permissions"] = str(world.permissions(guild, user.id))
            resolved.setdefault("members", {})[str(user.id)] = member
        value = str(user.id)
    elif kind == CHANNEL:
        channel = world.channels[_snowflake_of(value)]
        perms = world.permissions(guild, world.bot.id) if guild else DEFAULT_BOT_PERMISSIONS
        payload = world.channel_payload(channel) | {"permissions": str(perms)}
        resolved.setdefault("channels", {})[str(channel.id)] = payload
        value = str(channel.id)
    elif kind == ROLE:
        if guild is None:
            raise ValueError("role options only exist in guilds")
        role = guild.roles[_snowflake_of(value)]
        resolved.setdefault("roles", {})[str(role.id)] = role.payload()
        value = str(role.id)
    elif kind == INTEGER:
        value = int(value)  # type: ignore[call-overload]
    elif kind == NUMBER:
        value = float(value)  # type: ignore[arg-type]
    elif kind == BOOLEAN:
        value = bool(value)
    else:
        value = str(value)
    return {"type": kind, "name": name, "value": value}


def command_data(
    world: World,
    path: str,
    values: Mapping[str, object],
    *,
    guild: FakeGuild | None,
    focused: str | None = None,
) -> JSON:
    """The ``data`` of a chat-input command interaction. ``path`` is ``"name"``,
    ``"name sub"`` or ``"name group sub"``. Option types come from the synced command
    definitions when the bot has synced, else they are inferred from the Python values."""
    names = path.split()
    top = world.find_command(names[0], guild.id if guild else None)
    definitions: list[JSON] | None = top.get("options", []) if top else None
    for name in names[1:]:
        definition = _find(definitions, name)
        if top is not None and definition is None:
            raise ValueError(f"/{path}: the synced command has no subcommand {name!r}")
        definitions = definition.get("options", []) if definition else None
    if focused is not None and focused not in values:
        raise ValueError(f"focused option {focused!r} has no value")

    resolved: dict[str, dict[str, JSON]] = {}
    options = []
    for name, value in values.items():
        definition = _find(definitions, name)
        if top is not None and definition is None:
            raise ValueError(f"/{path}: the synced command has no option {name!r}")
        options.append(
            _option(world, name, value, definition, resolved, guild, focused=name == focused)
        )
    for depth in range(len(names) - 1, 0, -1):
        kind = SUB_COMMAND if depth == len(names) - 1 else SUB_COMMAND_GROUP
        options = [{"type": kind, "name": names[depth], "options": options}]

    data: JSON = {
        "id": str(top["id"]) if top else str(snowflake()),
        "name": names[0],
        "type": 1,
        "options": options,
    }
    if top is not None and top.get("guild_id"):
        data["guild_id"] = top["guild_id"]
    if resolved:
        data["resolved"] = resolved
    return data


def interaction_payload(
    world: World,
    *,
    type: int,
    data: JSON,
    user: FakeUser,
    channel: FakeChannel,
    message: JSON | None = None,
) -> JSON:
    """A full INTERACTION_CREATE ``d``: in a guild channel with ``member``, or in the bot's DM
    with ``user`` and ``context`` 1 (BOT_DM)."""
    payload: JSON = {
        "id": str(snowflake()),
        "application_id": str(world.application_id),
        "type": type,
        "data": data,
        "token": secrets.token_urlsafe(48),
        "version": 1,
        "locale": "en-US",
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "channel_id": str(channel.id),
    }
    guild = world.guild_of(channel)
    if guild is not None:
        if user.id not in guild.member_roles:
            raise ValueError(f"{user.username} is not a member of {guild.name}")
        user_perms = world.permissions(guild, user.id)
        payload |= {
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
            "guild_locale": "en-US",
            "member": world.member_payload(guild, user.id) | {"permissions": str(user_perms)},
            "channel": world.channel_payload(channel) | {"permissions": str(user_perms)},
            "app_permissions": str(world.permissions(guild, world.bot.id)),
            "context": 0,
            "authorizing_integration_owners": {"0": str(guild.id)},
        }
    else:
        payload |= {
            "user": user.payload(),
            "channel": world.channel_payload(channel),
            "app_permissions": str(DEFAULT_BOT_PERMISSIONS),
            "context": 1,
            "authorizing_integration_owners": {"0": "0"},
        }
    if message is not None:
        payload["message"] = message
    return payload


# --------------------------------------------------------------------- answering: routes


def _new_response_message(
    fake: FakeDiscord, handle: InteractionHandle, body: JSON, request: RecordedRequest
) -> JSON:
    world = fake.world
    metadata: JSON = {
        "id": str(handle.id),
        "type": handle.type,
        "user": handle.user.payload(),
        "authorizing_integration_owners": handle.payload["authorizing_integration_owners"],
    }
    if handle.component_message_id is not None:
        metadata["interacted_message_id"] = str(handle.component_message_id)
    extra = {
        "webhook_id": str(world.application_id),
        "application_id": str(world.application_id),
        "interaction_metadata": metadata,
    }
    kind = CHAT_INPUT_COMMAND_MESSAGE if handle.type == APPLICATION_COMMAND else DEFAULT_MESSAGE
    attachments = uploads(world, handle.channel, body, request)
    return world.new_message(handle.channel, world.bot, body, attachments, type=kind, extra=extra)


def _with_response(request: RecordedRequest) -> bool:
    return request.query.get("with_response", "").lower() in ("1", "true")


@router.route("POST", "/interactions/{interaction_id}/{token}/callback")
async def interaction_callback(
    fake: FakeDiscord, request: RecordedRequest, interaction_id: str, token: str
) -> Reply:
    """Create Interaction Response. Types: 1 pong, 4 message, 5 deferred message (a "thinking"
    message), 6 deferred update, 7 update the component's message, 8 autocomplete choices,
    9 modal. A second callback is refused with 40060, and one later than
    ``fake.callback_deadline`` seconds with 10062, as on Discord."""
    handle = fake.interactions_by_token.get(token)
    if handle is None or str(handle.id) != interaction_id:
        raise unknown("interaction", 10062)
    if handle.callbacks:
        raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
    deadline = fake.callback_deadline
    if deadline is not None and time.monotonic() - handle.sent_at > deadline:
        raise unknown("interaction", 10062)  # what Discord answers after its 3 s window
    body = request_body(request)
    kind, data = body.get("type"), body.get("data") or {}
    world = fake.world
    message: JSON | None = None
    created = False
    if kind == CHANNEL_MESSAGE:
        validate(data, request, creating=True)
        message, created = _new_response_message(fake, handle, data, request), True
    elif kind == DEFERRED_CHANNEL_MESSAGE:
        flags = int(data.get("flags") or 0) & EPHEMERAL
        message = _new_response_message(fake, handle, {"flags": flags}, request)
        message["flags"] |= LOADING
        created = True
    elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
        if handle.component_message_id is None:
            raise DiscordError(400, 40004, "Interaction response type not valid here.")
        message = world.messages[handle.component_message_id]
        if kind == UPDATE_MESSAGE:
            validate(data, request, creating=False, message=message)
            world.edit_message(message, data, uploads(world, handle.channel, data, request))
    elif kind == AUTOCOMPLETE_RESULT:
        if handle.type != AUTOCOMPLETE:
            raise DiscordError(400, 40004, "Interaction response type not valid here.")
    elif kind not in (PONG, MODAL):
        raise DiscordError(400, 50035, "Invalid Form Body")
    handle.callbacks.append(CallbackRecord(int(kind), data, request.files))
    if message is not None:
        handle.original_id = int(message["id"])
        if kind != DEFERRED_UPDATE:
            await fake.announce("MESSAGE_CREATE" if created else "MESSAGE_UPDATE", message)
    if not _with_response(request):
        return no_content()
    return Reply(200, _callback_response(handle, int(kind), message))


def _callback_response(handle: InteractionHandle, kind: int, message: JSON | None) -> JSON:
    """An InteractionCallbackResponse, as returned for ``?with_response=true``."""
    interaction: JSON = {"id": str(handle.id), "type": handle.type}
    resource: JSON = {"type": kind}
    if message is not None:
        interaction |= {
            "response_message_id": message["id"],
            "response_message_loading": bool(message["flags"] & LOADING),
            "response_message_ephemeral": bool(message["flags"] & EPHEMERAL),
        }
        if kind != DEFERRED_UPDATE:
            resource["message"] = message
    return {"interaction": interaction, "resource": resource}


def _webhook_handle(fake: FakeDiscord, application_id: str, token: str) -> InteractionHandle:
    """Interaction webhooks only exist once the interaction has been acknowledged."""
    handle = fake.interactions_by_token.get(token)
    if handle is None or application_id != str(fake.world.application_id):
        raise unknown("Webhook", 10015)
    if not handle.callbacks:
        raise unknown("Webhook", 10015)
    return handle


def _webhook_message(fake: FakeDiscord, handle: InteractionHandle, message_id: str) -> JSON:
    if message_id == "@original":
        wanted = handle.original_id
    elif message_id.isdigit() and int(message_id) in handle.followup_ids:
        wanted = int(message_id)
    else:
        wanted = None
    if wanted is None or wanted in fake.world.deleted_message_ids:
        raise unknown("Message", 10008)
    return fake.world.messages[wanted]


@router.route("POST", "/webhooks/{application_id}/{token}")
async def create_followup(
    fake: FakeDiscord, request: RecordedRequest, application_id: str, token: str
) -> Reply:
    """Create Followup Message. Right after a deferred (type 5) response this edits the
    "thinking" message instead of creating one, keeping its ephemerality (documented,
    deprecated Discord behaviour); the followup may make it a components v2 message (the
    deferral itself cannot)."""
    handle = _webhook_handle(fake, application_id, token)
    body = request_body(request)
    original = handle.original
    thinking = original if original is not None and original["flags"] & LOADING else None
    validate(body, request, creating=True, message=thinking)
    if thinking is not None:
        flags = int(body.get("flags") or 0) & IS_COMPONENTS_V2  # the only flag carried over
        body = {k: v for k, v in body.items() if k != "flags"} | {"flags": flags}
        message = fake.world.edit_message(
            thinking, body, uploads(fake.world, handle.channel, body, request)
        )
        await fake.announce("MESSAGE_UPDATE", message)
    else:
        message = _new_response_message(fake, handle, body, request)
        await fake.announce("MESSAGE_CREATE", message)
    handle.followup_ids.append(int(message["id"]))
    if request.query.get("wait", "").lower() in ("1", "true"):
        return Reply(200, message)
    return no_content()


@router.route("GET", "/webhooks/{application_id}/{token}/messages/{message_id}")
async def get_webhook_message(
    fake: FakeDiscord, request: RecordedRequest, application_id: str, token: str, message_id: str
) -> Reply:
    """Get Original Interaction Response (``@original``) / Get Followup Message."""
    handle = _webhook_handle(fake, application_id, token)
    return Reply(200, _webhook_message(fake, handle, message_id))


@router.route("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}")
async def edit_webhook_message(
    fake: FakeDiscord, request: RecordedRequest, application_id: str, token: str, message_id: str
) -> Reply:
    """Edit Original Interaction Response (ends a deferred "thinking" state) / Edit Followup."""
    handle = _webhook_handle(fake, application_id, token)
    message = _webhook_message(fake, handle, message_id)
    body = request_body(request)
    validate(body, request, creating=False, message=message)
    fake.world.edit_message(message, body, uploads(fake.world, handle.channel, body, request))
    await fake.announce("MESSAGE_UPDATE", message)
    return Reply(200, message)


@router.route("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}")
async def delete_webhook_message(
    fake: FakeDiscord, request: RecordedRequest, application_id: str, token: str, message_id: str
) -> Reply:
    """Delete Original Interaction Response / Delete Followup Message."""
    handle = _webhook_handle(fake, application_id, token)
    message = _webhook_message(fake, handle, message_id)
    fake.world.delete_message(message)
    await fake.announce("MESSAGE_DELETE", message)
    return no_content()
