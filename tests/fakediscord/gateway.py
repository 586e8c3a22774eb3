"""The fake gateway: a websocket at ``/`` speaking Discord's gateway protocol (v10, JSON).

Sharding is Discord's: GET /gateway/bot reports the shard count, IDENTIFY must carry
``[shard_id, shard_count]`` with that count (else close 4010), each shard has its own session
(and RESUMEs its own), and a guild's events and interactions go to shard
``(guild_id >> 22) % shard_count``, DMs to shard 0, whichever connection (or process) holds it.
``routed`` records every dispatch with the shard it went to.

It sends HELLO, answers IDENTIFY with READY and one GUILD_CREATE per guild on the shard,
acknowledges heartbeats, replays missed dispatches on RESUME (or sends INVALID_SESSION when it
cannot), answers REQUEST_GUILD_MEMBERS with a single chunk, and numbers every dispatch.
``compress=zlib-stream`` (which discord.py asks for) is honoured with one shared zlib stream per
connection, each message ending in a Z_SYNC_FLUSH marker as discord.py's inflater expects.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .state import World

JSON = dict[str, Any]

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME, RECONNECT = 0, 1, 2, 3, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11

INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
MAX_REPLAY = 1000
CLEAN_CLOSE_CODES = (1000, 1001)


class GatewayConnection:
    """One websocket. Sends are serialised so the zlib stream stays in order."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.compress = compress
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self._lock = asyncio.Lock()
        self.session: GatewaySession | None = None

    async def send(self, payload: JSON) -> None:
        text = json.dumps(payload)
        async with self._lock:
            if self.ws.closed:
                return
            with contextlib.suppress(ConnectionError):
                if self._zlib is None:
                    # Anything but zlib-stream (e.g. zstd-stream) gets plain text frames,
                    # which discord.py accepts whatever it asked for.
                    await self.ws.send_str(text)
                else:
                    data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)


@dataclass(frozen=True)
class Routed:
    """One dispatch and the shard it was routed to."""

    shard: int
    event: str
    data: JSON


@dataclass
class GatewaySession:
    """An IDENTIFYed session: survives its websocket so that it can be RESUMEd."""

    session_id: str
    shard: tuple[int, int]
    intents: int
    seq: int = 0
    sent: list[JSON] = field(default_factory=list)
    connection: GatewayConnection | None = None


class Gateway:
    """All gateway state of one FakeDiscord."""

    def __init__(
        self,
        world: World,
        *,
        shard_count: int,
        heartbeat_interval_ms: int,
        token: str | None,
        notify: Callable[[], None],
    ) -> None:
        self.world = world
        self.shard_count = shard_count
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.token = token
        self.notify = notify
        self.url = ""  # ws://127.0.0.1:port/ once the server is up
        self.connections: set[GatewayConnection] = set()
        self.sessions: dict[str, GatewaySession] = {}
        self.current: dict[int, GatewaySession] = {}  # shard id -> live session
        self.received: list[JSON] = []  # every non-heartbeat payload the client sent
        self.heartbeats = 0
        self.compressions: list[str | None] = []  # the ``compress`` asked for, per connection
        self.close_codes: list[int | None] = []  # how each finished connection was closed
        self.routed: list[Routed] = []  # every dispatch, with its shard

    # ----------------------------------------------------------------- routing of events

    def shard_for(self, guild_id: int | None) -> int:
        """Discord's rule: ``(guild_id >> 22) % num_shards``; DMs go to shard 0."""
        return 0 if guild_id is None else (guild_id >> 22) % self.shard_count

    def is_connected(self, guild_id: int | None = None) -> bool:
        """Whether the shard owning ``guild_id`` has a live websocket."""
        session = self.current.get(self.shard_for(guild_id))
        return session is not None and session.connection is not None

    async def dispatch(self, event: str, data: JSON, *, guild_id: int | None = None) -> bool:
        """Sends a DISPATCH to the session owning ``guild_id``. If its websocket is down the
        event is kept for RESUME. Returns False when there is no session at all."""
        session = self.current.get(self.shard_for(guild_id))
        if session is None:
            return False
        if event.startswith("MESSAGE_"):
            needed = INTENT_GUILD_MESSAGES if guild_id is not None else INTENT_DIRECT_MESSAGES
            if not session.intents & needed:
                return True
            data = self._without_content(session, data)
        await self._dispatch_to(session, event, data)
        return True

    def _without_content(self, session: GatewaySession, message: JSON) -> JSON:
        """Without the privileged MESSAGE_CONTENT intent, guild messages from others that do
        not mention the bot arrive with content, embeds, attachments and components blanked."""
        if session.intents & INTENT_MESSAGE_CONTENT or "guild_id" not in message:
            return message
        bot_id = str(self.world.bot.id)
        author = message.get("author", {}).get("id")
        mentioned = any(u["id"] == bot_id for u in message.get("mentions", []))
        if author in (bot_id, None) or mentioned:
            return message
        return message | {"content": "", "embeds": [], "attachments": [], "components": []}

    def routed_to(self, shard: int, event: str | None = None) -> list[JSON]:
        """The data of every dispatch routed to ``shard`` (only ``event``s, if given)."""
        return [r.data for r in self.routed
                if r.shard == shard and (event is None or r.event == event)]

    async def _dispatch_to(self, session: GatewaySession, event: str, data: JSON) -> None:
        self.routed.append(Routed(session.shard[0], event, data))
        session.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.sent.append(payload)
        del session.sent[:-MAX_REPLAY]
        if session.connection is not None:
            await session.connection.send(payload)

    # ----------------------------------------------------------------- test controls

    def _on_shard(self, shard: int | None) -> list[GatewayConnection]:
        return [c for c in self.connections
                if shard is None or (c.session is not None and c.session.shard[0] == shard)]

    async def request_reconnect(self, shard: int | None = None) -> None:
        """Sends op 7 RECONNECT on every live connection (of ``shard``, if given): the client
        should RESUME that shard's session."""
        for conn in self._on_shard(shard):
            await conn.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def invalidate_sessions(self, shard: int | None = None) -> None:
        """Sends op 9 INVALID_SESSION (not resumable; to ``shard``'s connections only, if
        given): the client must IDENTIFY again."""
        for conn in self._on_shard(shard):
            await conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            if conn.session is not None:
                self._forget(conn.session)

    async def close_all(self, code: int = 1001) -> None:
        for conn in list(self.connections):
            await conn.ws.close(code=code)

    def _forget(self, session: GatewaySession) -> None:
        self.sessions.pop(session.session_id, None)
        if self.current.get(session.shard[0]) is session:
            del self.current[session.shard[0]]

    # ----------------------------------------------------------------- the websocket

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """GET / upgraded to a websocket (query: ``v``, ``encoding``, ``compress``)."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = GatewayConnection(ws, request.query.get("compress"))
        self.compressions.append(conn.compress)
        self.connections.add(conn)
        try:
            hello = {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake-gateway"]}
            await conn.send({"op": HELLO, "d": hello, "s": None, "t": None})
            async for msg in ws:
                if msg.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    await self._receive(conn, json.loads(msg.data))
        finally:
            self.connections.discard(conn)
            session = conn.session
            if session is not None and session.connection is conn:
                session.connection = None
                # A 1000/1001 close ends the session, as on Discord. (discord.py's
                # Client.close() usually closes with 4000 instead - see close_codes.)
                if ws.close_code in CLEAN_CLOSE_CODES:
                    self._forget(session)
            self.close_codes.append(ws.close_code)
            self.notify()
        return ws

    async def _receive(self, conn: GatewayConnection, payload: JSON) -> None:
        op = payload.get("op")
        data: JSON = payload.get("d") or {}
        if op == HEARTBEAT:
            self.heartbeats += 1
            await conn.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
            return
        self.received.append(payload)
        if op == IDENTIFY:
            await self._identify(conn, data)
        elif op == RESUME:
            await self._resume(conn, data)
        elif op == REQUEST_MEMBERS:
            await self._request_members(conn, data)
        self.notify()

    async def _identify(self, conn: GatewayConnection, data: JSON) -> None:
        if self.token is not None and data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard_id, shard_count = data.get("shard") or (0, 1)
        if shard_count != self.shard_count or not 0 <= shard_id < shard_count:
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        session = GatewaySession(
            session_id=secrets.token_hex(16),
            shard=(shard_id, shard_count),
            intents=int(data.get("intents", 0)),
            connection=conn,
        )
        if (old := self.current.get(shard_id)) is not None:
            self._forget(old)
        self.sessions[session.session_id] = session
        self.current[shard_id] = session
        conn.session = session

        guilds = [g for g in self.world.guilds.values() if self.shard_for(g.id) == shard_id]
        ready = {
            "v": 10,
            "user": self.world.client_user_payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.url,
            "shard": [shard_id, shard_count],
            "application": {"id": str(self.world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "_trace": ["fake-gateway"],
        }
        await self._dispatch_to(session, "READY", ready)
        all_members = bool(session.intents & INTENT_GUILD_MEMBERS)
        for guild in guilds:
            payload = self.world.guild_create_payload(guild, all_members=all_members)
            await self._dispatch_to(session, "GUILD_CREATE", payload)

    async def _resume(self, conn: GatewayConnection, data: JSON) -> None:
        session = self.sessions.get(data.get("session_id") or "")
        seq = data.get("seq") or 0
        if session is None or session.connection is not None or seq > session.seq:
            await conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        session.connection = conn
        conn.session = session
        for payload in session.sent:
            if payload["s"] > seq:
                await conn.send(payload)
        await self._dispatch_to(session, "RESUMED", {"_trace": ["fake-gateway"]})

    async def _request_members(self, conn: GatewayConnection, data: JSON) -> None:
        guild = self.world.guilds.get(int(data["guild_id"]))
        if guild is None or conn.session is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = (data.get("query") or "").lower()
        members = [
            self.world.member_payload(guild, uid)
            for uid in guild.member_roles
            if (not wanted or uid in wanted)
            and self.world.users[uid].username.lower().startswith(query)
        ]
        limit = int(data.get("limit") or 0)
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": members[:limit] if limit else members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self._dispatch_to(conn.session, "GUILD_MEMBERS_CHUNK", chunk)
