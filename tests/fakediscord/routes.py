"""REST routes (relative to ``/api/v10``) other than the interaction ones. Each handler's
docstring names the Discord endpoint it stands in for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .messages import request_body, uploads, validate
from .rest import DiscordError, RecordedRequest, Reply, Router, no_content, unknown
from .state import DM, GUILD_TEXT, PRIVATE_THREAD, PUBLIC_THREAD, FakeChannel, FakeGuild, snowflake

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]

router = Router()


# --------------------------------------------------------------------- lookups


def _channel(fake: FakeDiscord, channel_id: str) -> FakeChannel:
    channel = fake.world.channels.get(int(channel_id)) if channel_id.isdigit() else None
    if channel is None:
        raise unknown("Channel", 10003)
    return channel


def _guild(fake: FakeDiscord, guild_id: str) -> FakeGuild:
    guild = fake.world.guilds.get(int(guild_id)) if guild_id.isdigit() else None
    if guild is None:
        raise unknown("Guild", 10004)
    return guild


def _message(fake: FakeDiscord, channel: FakeChannel, message_id: str) -> JSON:
    world = fake.world
    if message_id.isdigit() and int(message_id) in world.channel_message_ids.get(channel.id, []):
        return world.messages[int(message_id)]
    raise unknown("Message", 10008)


def _check_app(fake: FakeDiscord, application_id: str) -> None:
    if application_id != str(fake.world.application_id):
        raise unknown("Application", 10002)


# --------------------------------------------------------------------- gateway, users, app


@router.route("GET", "/gateway")
async def get_gateway(fake: FakeDiscord, request: RecordedRequest) -> Reply:
    """Get Gateway."""
    return Reply(200, {"url": fake.gateway_url})


@router.route("GET", "/gateway/bot")
async def get_gateway_bot(fake: FakeDiscord, request: RecordedRequest) -> Reply:
    """Get Gateway Bot: the URL plus the shard count AutoShardedClient uses."""
    limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
    body = {
        "url": fake.gateway_url,
        "shards": fake.gateway.shard_count,
        "session_start_limit": limit,
    }
    return Reply(200, body)


@router.route("GET", "/users/@me")
async def get_current_user(fake: FakeDiscord, request: RecordedRequest) -> Reply:
    """Get Current User (what ``Client.login`` calls)."""
    return Reply(200, fake.world.client_user_payload())


@router.route("GET", "/users/{user_id}")
async def get_user(fake: FakeDiscord, request: RecordedRequest, user_id: str) -> Reply:
    """Get User (``Client.fetch_user``)."""
    user = fake.world.users.get(int(user_id)) if user_id.isdigit() else None
    if user is None:
        raise unknown("User", 10013)
    return Reply(200, user.payload())


@router.route("GET", "/oauth2/applications/@me")
async def get_application(fake: FakeDiscord, request: RecordedRequest) -> Reply:
    """Get Current Bot Application Information (``Client.login`` → ``application_info``)."""
    return Reply(200, fake.world.application_payload())


@router.route("POST", "/users/@me/channels")
async def create_dm(fake: FakeDiscord, request: RecordedRequest) -> Reply:
    """Create DM. Always succeeds, even for users whose DMs are closed: it is sending that
    fails."""
    recipient = str(request_body(request).get("recipient_id", ""))
    if not recipient.isdigit() or int(recipient) not in fake.world.users:
        raise unknown("User", 10013)
    return Reply(200, fake.world.channel_payload(fake.world.open_dm(int(recipient))))


# --------------------------------------------------------------------- application commands


def _store_commands(fake: FakeDiscord, guild_id: int | None, commands: list[JSON]) -> list[JSON]:
    """Bulk overwrite: a command keeps its id if one of that name and type already existed."""
    world = fake.world
    previous = {(c["name"], c.get("type", 1)): c["id"] for c in world.commands.get(guild_id, [])}
    stored = []
    for command in commands:
        kind = command.get("type", 1)
        entry = {
            "default_member_permissions": None,
            "nsfw": False,
            "description": "",
            "options": [],
            **command,
            "id": previous.get((command["name"], kind)) or str(snowflake()),
            "application_id": str(world.application_id),
            "version": str(snowflake()),
            "type": kind,
        }
        if guild_id is not None:
            entry["guild_id"] = str(guild_id)
        stored.append(entry)
    world.commands[guild_id] = stored
    return stored


@router.route("GET", "/applications/{application_id}/commands")
async def get_global_commands(
    fake: FakeDiscord, request: RecordedRequest, application_id: str
) -> Reply:
    """Get Global Application Commands."""
    _check_app(fake, application_id)
    return Reply(200, fake.world.commands.get(None, []))


@router.route("PUT", "/applications/{application_id}/commands")
async def put_global_commands(
    fake: FakeDiscord, request: RecordedRequest, application_id: str
) -> Reply:
    """Bulk Overwrite Global Application Commands (``CommandTree.sync()``)."""
    _check_app(fake, application_id)
    return Reply(200, _store_commands(fake, None, list(request.json or [])))


@router.route("GET", "/applications/{application_id}/guilds/{guild_id}/commands")
async def get_guild_commands(
    fake: FakeDiscord, request: RecordedRequest, application_id: str, guild_id: str
) -> Reply:
    """Get Guild Application Commands."""
    _check_app(fake, application_id)
    guild = _guild(fake, guild_id)
    return Reply(200, fake.world.commands.get(guild.id, []))


@router.route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
async def put_guild_commands(
    fake: FakeDiscord, request: RecordedRequest, application_id: str, guild_id: str
) -> Reply:
    """Bulk Overwrite Guild Application Commands (``CommandTree.sync(guild=...)``)."""
    _check_app(fake, application_id)
    guild = _guild(fake, guild_id)
    return Reply(200, _store_commands(fake, guild.id, list(request.json or [])))


# --------------------------------------------------------------------- channels and messages


@router.route("GET", "/channels/{channel_id}")
async def get_channel(fake: FakeDiscord, request: RecordedRequest, channel_id: str) -> Reply:
    """Get Channel (``Client.fetch_channel``)."""
    return Reply(200, fake.world.channel_payload(_channel(fake, channel_id)))


@router.route("GET", "/channels/{channel_id}/messages")
async def get_messages(fake: FakeDiscord, request: RecordedRequest, channel_id: str) -> Reply:
    """Get Channel Messages (``channel.history``): newest first, ``before``/``after``/
    ``limit`` honoured."""
    channel = _channel(fake, channel_id)
    messages = fake.world.messages_in(channel.id)
    if "before" in request.query:
        messages = [m for m in messages if int(m["id"]) < int(request.query["before"])]
    if "after" in request.query:
        messages = [m for m in messages if int(m["id"]) > int(request.query["after"])]
    limit = int(request.query.get("limit", 50))
    newest_first = list(reversed(messages))
    if "after" in request.query:
        return Reply(200, newest_first[-limit:])
    return Reply(200, newest_first[:limit])


@router.route("GET", "/channels/{channel_id}/messages/{message_id}")
async def get_message(
    fake: FakeDiscord, request: RecordedRequest, channel_id: str, message_id: str
) -> Reply:
    """Get Channel Message (``channel.fetch_message``)."""
    channel = _channel(fake, channel_id)
    return Reply(200, _message(fake, channel, message_id))


@router.route("POST", "/channels/{channel_id}/messages")
async def create_message(fake: FakeDiscord, request: RecordedRequest, channel_id: str) -> Reply:
    """Create Message (``Messageable.send``), JSON or multipart with files. A DM to a user
    whose DMs are closed answers 403 / 50007 like Discord. With ``enforce_nonce``, a nonce the
    bot used within the last few minutes returns that earlier message instead of a new one."""
    world = fake.world
    channel = _channel(fake, channel_id)
    if channel.type == DM:
        assert channel.recipient_id is not None
        if not world.users[channel.recipient_id].dms_open:
            raise DiscordError(403, 50007, "Cannot send messages to this user")
    body = request_body(request)
    validate(body, request, creating=True)
    if body.get("enforce_nonce") and body.get("nonce") is not None:
        # Sent again within the window: Discord answers with the first message, posts nothing.
        earlier = world.message_by_nonce(world.bot, str(body["nonce"]))
        if earlier is not None:
            return Reply(200, earlier)
    message = world.new_message(channel, world.bot, body, uploads(world, channel, body, request))
    await fake.announce("MESSAGE_CREATE", message)
    return Reply(200, message)


@router.route("PATCH", "/channels/{channel_id}/messages/{message_id}")
async def edit_message(
    fake: FakeDiscord, request: RecordedRequest, channel_id: str, message_id: str
) -> Reply:
    """Edit Message. Only the bot's own messages can be edited (else 403 / 50005)."""
    channel = _channel(fake, channel_id)
    message = _message(fake, channel, message_id)
    if message["author"]["id"] != str(fake.world.bot.id):
        raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
    body = request_body(request)
    validate(body, request, creating=False, message=message)
    fake.world.edit_message(message, body, uploads(fake.world, channel, body, request))
    await fake.announce("MESSAGE_UPDATE", message)
    return Reply(200, message)


@router.route("DELETE", "/channels/{channel_id}/messages/{message_id}")
async def delete_message(
    fake: FakeDiscord, request: RecordedRequest, channel_id: str, message_id: str
) -> Reply:
    """Delete Message."""
    channel = _channel(fake, channel_id)
    message = _message(fake, channel, message_id)
    fake.world.delete_message(message)
    await fake.announce("MESSAGE_DELETE", message)
    return no_content()


@router.route("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me")
async def add_reaction(
    fake: FakeDiscord, request: RecordedRequest, channel_id: str, message_id: str, emoji: str
) -> Reply:
    """Create Reaction (recorded only)."""
    _message(fake, _channel(fake, channel_id), message_id)
    return no_content()


@router.route("PUT", "/channels/{channel_id}/messages/pins/{message_id}")
async def pin_message(
    fake: FakeDiscord, request: RecordedRequest, channel_id: str, message_id: str
) -> Reply:
    """Pin Message."""
    _message(fake, _channel(fake, channel_id), message_id)["pinned"] = True
    return no_content()


@router.route("DELETE", "/channels/{channel_id}/messages/pins/{message_id}")
async def unpin_message(
    fake: FakeDiscord, request: RecordedRequest, channel_id: str, message_id: str
) -> Reply:
    """Unpin Message."""
    _message(fake, _channel(fake, channel_id), message_id)["pinned"] = False
    return no_content()


# --------------------------------------------------------------------- threads


@router.route("POST", "/channels/{channel_id}/threads")
async def start_thread(fake: FakeDiscord, request: RecordedRequest, channel_id: str) -> Reply:
    """Start Thread without Message (``TextChannel.create_thread``), public or private."""
    parent = _channel(fake, channel_id)
    if parent.type != GUILD_TEXT:
        raise DiscordError(400, 50024, "Cannot execute action on this channel type")
    body = request_body(request)
    kind = int(body.get("type") or PRIVATE_THREAD)
    if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
        raise DiscordError(400, 50035, "Invalid Form Body")
    thread = fake.world.create_thread(
        parent,
        str(body.get("name") or "thread"),
        type=kind,
        invitable=bool(body.get("invitable", True)),
        archive=int(body.get("auto_archive_duration") or 1440),
    )
    payload = fake.world.channel_payload(thread)
    await fake.gateway.dispatch(
        "THREAD_CREATE", payload | {"newly_created": True}, guild_id=thread.guild_id
    )
    return Reply(201, payload)


@router.route("PUT", "/channels/{channel_id}/thread-members/{user_id}")
async def add_thread_member(
    fake: FakeDiscord, request: RecordedRequest, channel_id: str, user_id: str
) -> Reply:
    """Add Thread Member (``Thread.add_user``)."""
    thread = _channel(fake, channel_id)
    guild = fake.world.guild_of(thread)
    if thread.type not in (PUBLIC_THREAD, PRIVATE_THREAD) or guild is None:
        raise DiscordError(400, 50024, "Cannot execute action on this channel type")
    if not user_id.isdigit() or int(user_id) not in guild.member_roles:
        raise unknown("Member", 10007)
    thread.thread_members.add(int(user_id))
    return no_content()


@router.route("DELETE", "/channels/{channel_id}/thread-members/{user_id}")
async def remove_thread_member(
    fake: FakeDiscord, request: RecordedRequest, channel_id: str, user_id: str
) -> Reply:
    """Remove Thread Member."""
    thread = _channel(fake, channel_id)
    member_id = fake.world.bot.id if user_id == "@me" else int(user_id)
    thread.thread_members.discard(member_id)
    return no_content()


# --------------------------------------------------------------------- guilds


@router.route("GET", "/guilds/{guild_id}")
async def get_guild(fake: FakeDiscord, request: RecordedRequest, guild_id: str) -> Reply:
    """Get Guild (``Client.fetch_guild``)."""
    return Reply(200, fake.world.guild_payload(_guild(fake, guild_id)))


@router.route("GET", "/guilds/{guild_id}/channels")
async def get_guild_channels(fake: FakeDiscord, request: RecordedRequest, guild_id: str) -> Reply:
    """Get Guild Channels."""
    guild = _guild(fake, guild_id)
    channels = [fake.world.channel_payload(fake.world.channels[c]) for c in guild.channel_ids]
    return Reply(200, channels)


@router.route("GET", "/guilds/{guild_id}/members/{user_id}")
async def get_member(
    fake: FakeDiscord, request: RecordedRequest, guild_id: str, user_id: str
) -> Reply:
    """Get Guild Member (``Guild.fetch_member``)."""
    guild = _guild(fake, guild_id)
    if not user_id.isdigit() or int(user_id) not in guild.member_roles:
        raise unknown("Member", 10007)
    return Reply(200, fake.world.member_payload(guild, int(user_id)))


@router.route("GET", "/guilds/{guild_id}/members")
async def list_members(fake: FakeDiscord, request: RecordedRequest, guild_id: str) -> Reply:
    """List Guild Members (ordered by id; ``after``/``limit`` honoured)."""
    guild = _guild(fake, guild_id)
    after = int(request.query.get("after", 0))
    limit = int(request.query.get("limit", 1))
    ids = sorted(uid for uid in guild.member_roles if uid > after)[:limit]
    return Reply(200, [fake.world.member_payload(guild, uid) for uid in ids])
