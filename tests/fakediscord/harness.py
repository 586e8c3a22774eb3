"""Pointing the real discord.py at a FakeDiscord, and running a client against it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import TypeVar

import discord
import discord.gateway
import discord.http
import yarl

from .server import API_PREFIX

ClientT = TypeVar("ClientT", bound=discord.Client)


@contextlib.contextmanager
def patched_discord(base_url: str) -> Iterator[None]:
    """Sends discord.py's REST calls (``Route.BASE``, read whenever a Route is built — the
    interaction webhooks use it too) and its gateway connection (``DEFAULT_GATEWAY``, used by
    ``Client.connect`` and after INVALID_SESSION; ``AutoShardedClient`` takes the URL from
    GET /gateway/bot instead) to the fake at ``base_url`` (``http://127.0.0.1:port``)."""
    root = base_url.rstrip("/").removesuffix(API_PREFIX)
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = root + API_PREFIX
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        root.replace("http://", "ws://", 1) + "/"
    )
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


@contextlib.asynccontextmanager
async def run_client(
    client: ClientT, *, token: str = "fake-token", timeout: float = 30.0
) -> AsyncIterator[ClientT]:
    """Logs ``client`` in, connects it in a task, waits for ``on_ready``, and closes it on
    exit. Build the client with a small ``guild_ready_timeout`` (e.g. 0.05): discord.py waits
    that long after the last GUILD_CREATE before it is ready. Use inside ``patched_discord``."""
    await client.login(token)
    connect = asyncio.create_task(client.connect(reconnect=True), name="fake-discord-connect")
    ready = asyncio.create_task(client.wait_until_ready())
    try:
        done, _ = await asyncio.wait(
            {connect, ready}, timeout=timeout, return_when="FIRST_COMPLETED"
        )
        if connect in done:
            connect.result()  # re-raise why it stopped
            raise RuntimeError("client.connect() returned before the client was ready")
        if ready not in done:
            raise TimeoutError(f"client not ready within {timeout}s")
        yield client
    finally:
        ready.cancel()
        await client.close()
        await asyncio.wait_for(connect, timeout)  # re-raises if the connection died
