"""Running the bot (``vedette run``) and pushing its slash commands (``vedette sync``).

``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL``, when set, point discord.py at another REST base
and gateway (a proxy, or a local stand-in for tests). SIGTERM and Ctrl-C close the bot cleanly:
the drains in progress finish, the gateway is closed, the database is closed, and the exit code
is 0.

With a shard plan (``bot.shards``: ``--shards``/``--shard-count`` or ``VEDETTE_SHARDS``/
``VEDETTE_SHARD_COUNT``) the process connects only those of Discord's shards, with discord.py's
own ``AutoShardedClient``; without one it connects every shard Discord asks for, as it always
has. Discord refusing the plan (a count that is not the bot's, or a bot too big for one shard)
stops the bot with one line saying so.
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
from bot.shards import ShardPlan
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, keep_sighting_tables
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


def map_maker(workers: int = 0) -> MapMaker:
    """The bot's map maker, drawing in ``workers`` processes (0: in threads of its own)."""
    drawing = maps_available()
    if not drawing:
        log.warning("render.render_map is not available: map pictures are switched off")
    return MapMaker(enabled=drawing, workers=workers)


def _logging(settings: Settings) -> None:
    level = logging.getLevelName(settings.log_level.upper())
    discord.utils.setup_logging(level=level if isinstance(level, int) else logging.INFO)


#: Gateway close codes that mean the shard plan is wrong, and what the host should do.
INVALID_SHARD, SHARDING_REQUIRED = 4010, 4011
SHARD_REFUSALS = {
    INVALID_SHARD: ("Discord refused the shard plan: the shard count must be the same in every "
                    "process and what the bot was started with (--shard-count, "
                    "VEDETTE_SHARD_COUNT), each shard below it"),
    SHARDING_REQUIRED: ("Discord says the bot is in too many servers for this many shards; run "
                        "without --shards/--shard-count to take the count Discord asks for, or "
                        "give a larger --shard-count"),
}


def run_bot(settings: Settings, shards: ShardPlan | None = None) -> int:
    """Run until SIGTERM or Ctrl-C; the exit code. ``shards``: only those shards."""
    _logging(settings)
    apply_endpoints(settings)
    try:
        return asyncio.run(_serve(settings, shards))
    except KeyboardInterrupt:  # a second Ctrl-C while closing
        return 130
    except discord.LoginFailure:
        print("vedette: Discord refused the token; check DISCORD_TOKEN in .env.", file=sys.stderr)
        return 1
    except discord.ConnectionClosed as e:
        if e.code not in SHARD_REFUSALS:
            raise
        print(f"vedette: {SHARD_REFUSALS[e.code]}.", file=sys.stderr)
        return 1


async def _serve(settings: Settings, shards: ShardPlan | None = None) -> int:
    new = settings.db_file is not None and not settings.db_file.exists()
    # A restart reads each board's sighting tables back instead of building them again.
    keep_sighting_tables(settings.cache_folder)
    # The database is opened (and checked) before Discord is contacted: a database that cannot
    # serve stops the bot with one line (see umpire.cli.main.main), not after it has logged in.
    maps = map_maker(settings.map_workers)
    try:
        return await _serve_with(settings, shards, new, maps)
    finally:
        maps.close()


async def _serve_with(settings: Settings, shards: ShardPlan | None, new: bool, maps: MapMaker
                      ) -> int:
    async with Umpire.opened(settings.db, scenarios=settings.scenarios,
                             maps=maps, docs_url=settings.docs_url) as umpire:
        if new:
            log.warning("there was no database at %s: started a new one", settings.db)
        if shards is not None:
            log.info("serving %s", shards.describe())
        bot = VedetteBot(umpire, dev_guild=settings.dev_guild,
                         global_commands=settings.global_commands, shards=shards)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        async with bot:
            # Pillow's formats load in a worker thread while the bot logs in, not in the first
            # map's time (the games themselves are loaded after the outbox's first pass).
            warming = asyncio.create_task(umpire.maps.warm_up(), name="vedette-warm-up")
            running = asyncio.create_task(bot.start(settings.discord_token), name="vedette-bot")
            stopping = asyncio.create_task(stop.wait(), name="vedette-stop")
            done, _ = await asyncio.wait({running, stopping},
                                         return_when=asyncio.FIRST_COMPLETED)
            if stopping in done:
                log.info("closing on a signal")
                await bot.close()
            else:
                stopping.cancel()
            await warming
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
        bot = VedetteBot(umpire, dev_guild=settings.dev_guild,
                         global_commands=settings.global_commands, sync_commands=False)
        async with bot:
            await bot.login(settings.discord_token)
            count = await bot.sync_now()
    return count, bot.sync_places()
