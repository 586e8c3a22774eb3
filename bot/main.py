"""Running the bot (``vedette run``) and pushing its slash commands (``vedette sync``).

``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL``, when set, point discord.py at another REST base
and gateway (a proxy, or a local stand-in for tests). SIGTERM and Ctrl-C close the bot cleanly:
the drains in progress finish, the gateway is closed, the database is closed, and the exit code
is 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import signal
import sys

import discord
import discord.gateway
import discord.http
import yarl

from bot.client import VedetteBot
from umpire.maps import MapMaker
from umpire.service import Umpire
from umpire.settings import Settings

log = logging.getLogger("vedette.bot")


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py at ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL`` when they are set."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


def maps_available() -> bool:
    """Whether the map renderer is installed (map pictures are skipped without it)."""
    try:
        return hasattr(importlib.import_module("render"), "render_map")
    except ImportError:
        return False


def map_maker() -> MapMaker:
    drawing = maps_available()
    if not drawing:
        log.warning("render.render_map is not available: map pictures are switched off")
    return MapMaker(enabled=drawing)


def _logging(settings: Settings) -> None:
    level = logging.getLevelName(settings.log_level.upper())
    discord.utils.setup_logging(level=level if isinstance(level, int) else logging.INFO)


def run_bot(settings: Settings) -> int:
    """Run until SIGTERM or Ctrl-C; the exit code."""
    _logging(settings)
    apply_endpoints(settings)
    try:
        return asyncio.run(_serve(settings))
    except KeyboardInterrupt:  # a second Ctrl-C while closing
        return 130
    except discord.LoginFailure:
        print("vedette: Discord refused the token; check DISCORD_TOKEN in .env.", file=sys.stderr)
        return 1


async def _serve(settings: Settings) -> int:
    new = settings.db_file is not None and not settings.db_file.exists()
    # The database is opened (and checked) before Discord is contacted: a database that cannot
    # serve stops the bot with one line (see umpire.cli.main), not after it has logged in.
    async with Umpire.opened(settings.db, scenarios=settings.scenarios,
                             maps=map_maker()) as umpire:
        if new:
            log.warning("there was no database at %s: started a new one", settings.db)
        bot = VedetteBot(umpire, dev_guild=settings.dev_guild)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        async with bot:
            running = asyncio.create_task(bot.start(settings.discord_token), name="vedette-bot")
            stopping = asyncio.create_task(stop.wait(), name="vedette-stop")
            done, _ = await asyncio.wait({running, stopping},
                                         return_when=asyncio.FIRST_COMPLETED)
            if stopping in done:
                log.info("closing on a signal")
                await bot.close()
            else:
                stopping.cancel()
            await running  # re-raises why the bot stopped, if it failed
        log.info("closed")
    return 0


def sync_commands(settings: Settings) -> int:
    """Push the slash commands to Discord now (``vedette sync``)."""
    _logging(settings)
    apply_endpoints(settings)
    try:
        count, where = asyncio.run(_sync(settings))
    except discord.LoginFailure:
        print("vedette: Discord refused the token; check DISCORD_TOKEN in .env.", file=sys.stderr)
        return 1
    print(f"vedette: {count} slash commands pushed to {where}.")
    return 0


async def _sync(settings: Settings) -> tuple[int, str]:
    async with Umpire.opened(settings.db, scenarios=settings.scenarios,
                             maps=MapMaker(False)) as umpire:
        bot = VedetteBot(umpire, dev_guild=settings.dev_guild, sync_commands=False)
        async with bot:
            await bot.login(settings.discord_token)
            count = await bot.sync_now()
    where = f"guild {settings.dev_guild}" if settings.dev_guild else "all servers (global)"
    return count, where
