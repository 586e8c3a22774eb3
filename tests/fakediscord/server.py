"""``FakeDiscord``: an aiohttp server on 127.0.0.1 standing in for Discord's REST API
(``/api/v10/...``), its gateway websocket (``/``) and its attachment CDN (``/attachments/...``).

Typical use in a test (the client needs a small ``guild_ready_timeout``)::

    async with FakeDiscord() as fake:
        guild = fake.add_guild("Wargames")            # add the world before connecting:
        channel = fake.add_text_channel(guild, "umpire")  # it is sent in GUILD_CREATE
        alice = fake.add_user("alice", guild=guild)
        client = MyBot(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        with patched_discord(fake.base_url):
            async with run_client(client):
                handle = await fake.slash("ping", user=alice, channel=channel)
                assert (await handle.response()).content == "pong"
                assert fake.dms_to(alice) == []
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Any, Self

from aiohttp import web

from .gateway import Gateway
from .interactions import (  # importing it also registers the interaction routes
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionHandle,
    command_data,
    interaction_payload,
)
from .rest import Fault, Hold, RecordedRequest, dispatch
from .routes import router
from .state import EPHEMERAL, FakeChannel, FakeGuild, FakeRole, FakeUser, World

JSON = dict[str, Any]

API_PREFIX = "/api/v10"
MAX_UPLOAD = 64 * 1024 * 1024
POLL_INTERVAL = 0.01


class FakeDiscord:
    """A small, scriptable Discord. See the module docstring for an example.

    ``token`` (if given) must match the bot's token on REST and IDENTIFY; ``shards`` is what
    GET /gateway/bot reports and what IDENTIFY must use; ``heartbeat_interval_ms`` goes in
    HELLO; ``callback_deadline`` (Discord's is 3.0 s) makes late interaction callbacks fail
    with 404 / 10062 "Unknown interaction".

    ``latency`` (seconds, 0 by default; the attribute may be changed at any time) delays every
    REST answer: each request under ``/api/v10`` is acted on as it arrives (a message posted,
    an interaction answered, an edit applied, gateway events sent) and its answer goes back
    ``latency`` seconds later, so a client that waits for each answer before its next request
    pays one ``latency`` a request. Each ``RecordedRequest`` keeps when it arrived and when it
    was answered."""

    def __init__(
        self,
        *,
        bot_name: str = "Vedette",
        token: str | None = None,
        shards: int = 1,
        heartbeat_interval_ms: int = 41_250,
        callback_deadline: float | None = None,
        latency: float = 0.0,
    ) -> None:
        self.world = World(bot_name)
        self.token = token
        self.callback_deadline = callback_deadline
        self.latency = latency
        self.requests: list[RecordedRequest] = []
        self.unhandled: list[RecordedRequest] = []  # requests no route knew (answered 404)
        self.faults: list[Fault] = []
        self.holds: list[Hold] = []  # waiting for their request
        self.held: list[Hold] = []  # holding a response back (released on stop)
        self.interactions: dict[int, InteractionHandle] = {}
        self.interactions_by_token: dict[str, InteractionHandle] = {}
        self.gateway = Gateway(
            self.world,
            shard_count=shards,
            heartbeat_interval_ms=heartbeat_interval_ms,
            token=token,
            notify=self.notify,
        )
        self._waiters: set[asyncio.Future[None]] = set()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ----------------------------------------------------------------- lifecycle

    async def start(self) -> str:
        """Binds 127.0.0.1 on a free port; returns the base URL (``http://127.0.0.1:port``)."""
        app = web.Application(client_max_size=MAX_UPLOAD)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._api)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        app.router.add_get("/", self.gateway.handle)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self.world.cdn_base = self.base_url
        self.gateway.url = self.gateway_url
        return self.base_url

    async def stop(self) -> None:
        for hold in [*self.holds, *self.held]:
            hold.drop()  # whatever still waits never reaches the world the test looked at
        await self.gateway.close_all(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_url(self) -> str:
        """What ``discord.http.Route.BASE`` must be set to."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    async def _api(self, request: web.Request) -> web.StreamResponse:
        return await dispatch(self, router, request)

    async def _cdn(self, request: web.Request) -> web.StreamResponse:
        """The CDN serving uploaded attachments back (``Attachment.read()``)."""
        blob = self.world.blobs.get(int(request.match_info["attachment_id"]))
        if blob is None:
            raise web.HTTPNotFound()
        return web.Response(body=blob.data, content_type=blob.content_type)

    # ----------------------------------------------------------------- building the world

    @property
    def application_id(self) -> int:
        return self.world.application_id

    @property
    def bot_user(self) -> FakeUser:
        return self.world.bot

    def add_guild(self, name: str, *, bot_permissions: int | None = None) -> FakeGuild:
        """A guild the bot is in (sent in GUILD_CREATE on the next IDENTIFY)."""
        return self.world.add_guild(name, bot_permissions=bot_permissions)

    def add_text_channel(
        self, guild: FakeGuild, name: str, *, topic: str | None = None
    ) -> FakeChannel:
        return self.world.add_text_channel(guild, name, topic=topic)

    def add_role(self, guild: FakeGuild, name: str, permissions: int = 0) -> FakeRole:
        return self.world.add_role(guild, name, permissions)

    def add_user(
        self,
        username: str,
        *,
        guild: FakeGuild | None = None,
        roles: list[FakeRole] | None = None,
        dms_open: bool = True,
    ) -> FakeUser:
        """A user, optionally made a member of ``guild``."""
        user = self.world.add_user(username)
        user.dms_open = dms_open
        if guild is not None:
            self.world.add_member(guild, user, roles=roles)
        return user

    def add_member(
        self, guild: FakeGuild, user: FakeUser, *, roles: list[FakeRole] | None = None
    ) -> None:
        self.world.add_member(guild, user, roles=roles)

    def close_dms(self, user: FakeUser | int) -> None:
        """Sending to this user's DM channel now answers 403 with code 50007."""
        self.world.users[_id(user)].dms_open = False

    def dm_channel(self, user: FakeUser | int) -> FakeChannel:
        """The bot's DM channel with ``user`` (created if needed)."""
        return self.world.open_dm(_id(user))

    # ----------------------------------------------------------------- fault injection

    def fail_next(
        self,
        method: str,
        path: str | re.Pattern[str],
        *,
        status: int = 500,
        code: int = 0,
        message: str = "Injected failure",
        times: int = 1,
    ) -> Fault:
        """Answers the next ``times`` requests matching ``method`` and ``path`` (a glob such as
        ``/channels/*/messages``, or a compiled regex) with ``status`` and a Discord error body.
        Note that discord.py sleeps and retries on 500/502/504 (1s, then 3s, ...) and on 429."""
        fault = Fault(method.upper(), path, status, code, message, times)
        self.faults.append(fault)
        return fault

    def hold_next(
        self, method: str, path: str | re.Pattern[str], *, acted: bool = True
    ) -> Hold:
        """Holds the next request matching ``method`` and ``path`` (a glob or a compiled
        regex, as for ``fail_next``) until the returned ``Hold`` is released (or dropped, or
        the fake stops). With ``acted`` the request is acted on at once (a message posted, an
        interaction answered) and only the answer waits; without, the request itself waits,
        and ``drop()`` loses it. ``await hold.arrived()`` waits for the request; a test can
        then stop the client while it waits for Discord's answer."""
        hold = Hold(method.upper(), path, acted=acted)
        self.holds.append(hold)
        return hold

    # ----------------------------------------------------------------- gateway events

    async def announce(self, event: str, message: JSON) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE for a non-ephemeral message, as Discord would send."""
        if message["flags"] & EPHEMERAL:
            return
        guild_id = int(message["guild_id"]) if "guild_id" in message else None
        if event == "MESSAGE_DELETE":
            data: JSON = {"id": message["id"], "channel_id": message["channel_id"]}
            if guild_id is not None:
                data["guild_id"] = str(guild_id)
        else:
            data = dict(message)
        await self.gateway.dispatch(event, data, guild_id=guild_id)

    async def send_user_message(self, user: FakeUser, channel: FakeChannel, content: str) -> JSON:
        """A user posts a message (stored, and dispatched as MESSAGE_CREATE)."""
        message = self.world.new_message(channel, user, {"content": content}, [])
        await self.announce("MESSAGE_CREATE", message)
        self.notify()
        return message

    async def request_reconnect(self, shard: int | None = None) -> None:
        """Gateway op 7 (to ``shard`` only, if given): the client reconnects and RESUMEs."""
        await self.gateway.request_reconnect(shard)

    async def invalidate_sessions(self, shard: int | None = None) -> None:
        """Gateway op 9 (not resumable; to ``shard`` only, if given). discord.py
        re-IDENTIFYs after sleeping 5 s."""
        await self.gateway.invalidate_sessions(shard)

    def shard_of(self, channel: FakeChannel | None) -> int:
        """The shard Discord sends a channel's events and interactions to (None: a DM)."""
        return self.gateway.shard_for(channel.guild_id if channel is not None else None)

    # ----------------------------------------------------------------- interactions

    async def send_interaction(
        self,
        type: int,
        data: JSON,
        *,
        user: FakeUser,
        channel: FakeChannel | None = None,
        message: JSON | None = None,
    ) -> InteractionHandle:
        """Dispatches INTERACTION_CREATE. ``channel=None`` means the user's DM with the bot;
        ``message`` is the message a component sits on."""
        channel = channel or self.world.open_dm(user.id)
        if not self.gateway.is_connected(channel.guild_id):
            raise RuntimeError("no gateway connection: is the client connected?")
        payload = interaction_payload(
            self.world, type=type, data=data, user=user, channel=channel, message=message
        )
        message_id = int(message["id"]) if message is not None else None
        handle = InteractionHandle(self, payload, user=user, channel=channel, message_id=message_id)
        self.interactions[handle.id] = handle
        self.interactions_by_token[handle.token] = handle
        await self.gateway.dispatch("INTERACTION_CREATE", payload, guild_id=channel.guild_id)
        return handle

    async def slash(
        self,
        command: str,
        options: Mapping[str, object] | None = None,
        *,
        user: FakeUser,
        channel: FakeChannel | None = None,
    ) -> InteractionHandle:
        """Invokes ``/command`` (``"game order move"`` for subcommand groups) with options
        given by name; users, channels and roles may be passed as Fake objects."""
        guild = self.world.guild_of(channel) if channel else None
        data = command_data(self.world, command, options or {}, guild=guild)
        return await self.send_interaction(APPLICATION_COMMAND, data, user=user, channel=channel)

    async def autocomplete(
        self,
        command: str,
        options: Mapping[str, object],
        *,
        focused: str,
        user: FakeUser,
        channel: FakeChannel | None = None,
    ) -> InteractionHandle:
        """An autocomplete request while the user types into option ``focused``."""
        guild = self.world.guild_of(channel) if channel else None
        data = command_data(self.world, command, options, guild=guild, focused=focused)
        return await self.send_interaction(AUTOCOMPLETE, data, user=user, channel=channel)

    async def resend(self, handle: InteractionHandle) -> InteractionHandle:
        """The same interaction (same id, same data, same user) delivered to the bot again, as
        when the gateway replays an event after a resume; it gets a fresh token so that the bot
        can answer it, and a handle of its own."""
        if not self.gateway.is_connected(handle.channel.guild_id):
            raise RuntimeError("no gateway connection: is the client connected?")
        payload = dict(handle.payload, token=secrets.token_urlsafe(48))
        again = InteractionHandle(self, payload, user=handle.user, channel=handle.channel,
                                  message_id=handle.component_message_id)
        self.interactions_by_token[again.token] = again
        await self.gateway.dispatch("INTERACTION_CREATE", payload,
                                    guild_id=handle.channel.guild_id)
        return again

    async def click(
        self,
        message: JSON | int,
        custom_id: str,
        *,
        user: FakeUser,
        values: list[str] | None = None,
        component_type: int | None = None,
    ) -> InteractionHandle:
        """Clicks a button (or picks ``values`` in a string select) on a stored message."""
        stored = self.world.messages[int(message["id"]) if isinstance(message, dict) else message]
        channel = self.world.channels[int(stored["channel_id"])]
        kind = component_type or (3 if values is not None else 2)
        data: JSON = {"custom_id": custom_id, "component_type": kind}
        if values is not None:
            data["values"] = values
        return await self.send_interaction(
            MESSAGE_COMPONENT, data, user=user, channel=channel, message=dict(stored)
        )

    async def submit_modal(
        self,
        custom_id: str,
        values: Mapping[str, str],
        *,
        user: FakeUser,
        channel: FakeChannel | None = None,
    ) -> InteractionHandle:
        """Submits a modal whose text inputs (by custom_id) hold ``values``."""
        rows = [
            {"type": 1, "components": [{"type": 4, "custom_id": key, "value": value}]}
            for key, value in values.items()
        ]
        data = {"custom_id": custom_id, "components": rows}
        return await self.send_interaction(MODAL_SUBMIT, data, user=user, channel=channel)

    # ----------------------------------------------------------------- assertions helpers

    def messages_in(
        self, channel: FakeChannel | int, *, include_ephemeral: bool = False
    ) -> list[JSON]:
        """Live messages in a channel, oldest first (edits applied, deletions gone)."""
        return self.world.messages_in(_id(channel), include_ephemeral=include_ephemeral)

    def pings(self, message: JSON) -> list[str]:
        """Whom Discord notified for ``message``: ``"everyone"`` and user ids."""
        return self.world.pings(message)

    def dms_to(self, user: FakeUser | int) -> list[JSON]:
        """Messages the bot posted in its DM channel with ``user``."""
        channel_id = self.world.dm_channel_ids.get(_id(user))
        if channel_id is None:
            return []
        bot_id = str(self.world.bot.id)
        return [m for m in self.world.messages_in(channel_id) if m["author"]["id"] == bot_id]

    def requests_to(self, method: str, path: str | re.Pattern[str]) -> list[RecordedRequest]:
        """Recorded requests matching ``method`` (or ``"*"``) and a glob/regex ``path``."""
        return [r for r in self.requests if r.matches(method, path)]

    def commands(self, guild: FakeGuild | None = None) -> list[JSON]:
        """The application commands as last synced (globally, or for ``guild``)."""
        return self.world.commands.get(guild.id if guild else None, [])

    # ----------------------------------------------------------------- waiting

    def notify(self) -> None:
        """Wakes ``wait_for`` callers; called after every request and gateway event."""
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def wait_for(
        self, predicate: Callable[[], bool], *, timeout: float = 30.0, what: str = "condition"
    ) -> None:
        """Waits until ``predicate()`` holds. It is re-checked whenever the fake's state
        changes, and every few milliseconds (so it may also look at the client's state)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"fake Discord: no {what} within {timeout}s")
            waiter = loop.create_future()
            self._waiters.add(waiter)
            try:
                await asyncio.wait_for(waiter, min(remaining, POLL_INTERVAL))
            except TimeoutError:
                pass
            finally:
                self._waiters.discard(waiter)

    async def wait_for_request(
        self, method: str, path: str | re.Pattern[str], *, count: int = 1, timeout: float = 30.0
    ) -> RecordedRequest:
        """The ``count``-th request matching ``method``/``path``, waiting for it."""
        await self.wait_for(
            lambda: len(self.requests_to(method, path)) >= count,
            timeout=timeout,
            what=f"{method} {path} request #{count}",
        )
        return self.requests_to(method, path)[count - 1]


def _id(obj: FakeUser | FakeChannel | int) -> int:
    return obj if isinstance(obj, int) else obj.id
