"""The host's choice of delivery: DMs (the default) or one private thread per side.

A side's thread is made in the game's channel the first time something is sent to the side, with
the side's players added; a player who joins later is added when they join. The thread ids are
kept in the game's options. Private threads can be read by members with the Manage Threads
permission, which is why the host is warned when choosing them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

import discord

from umpire import catalog
from umpire.outbox import DeliveryRejected

if TYPE_CHECKING:
    from bot.client import VedetteBot
    from storage.records import GameRecord

DMS = "dms"
THREADS = "threads"
ARCHIVE_MINUTES: Literal[10080] = 10080  # a week, Discord's longest


def mode(game: GameRecord) -> str:
    return THREADS if game.options.get("delivery") == THREADS else DMS


def thread_ids(game: GameRecord) -> dict[str, str]:
    ids = game.options.get("threads")
    return {str(k): str(v) for k, v in ids.items()} if isinstance(ids, dict) else {}


async def set_mode(bot: VedetteBot, game: GameRecord, chosen: str) -> GameRecord:
    options = {**game.options, "delivery": chosen}
    return await bot.store.update_game(game.id, options=options)


def side_name(game: GameRecord, side: str) -> str:
    try:
        loaded = catalog.load_file(Path(game.scenario_path))
    except Exception:
        return side
    return next((s.name for s in loaded.scenario.sides if s.id == side), side)


async def _existing(bot: VedetteBot, thread_id: str | None) -> discord.Thread | None:
    if not thread_id:
        return None
    channel = bot.get_channel(int(thread_id))
    if channel is None:
        try:
            channel = await bot.fetch_channel(int(thread_id))
        except discord.NotFound:
            return None
    return channel if isinstance(channel, discord.Thread) else None


async def side_thread(bot: VedetteBot, game: GameRecord, side: str
                      ) -> tuple[discord.Thread, GameRecord]:
    """The side's private thread, made (with the side's players in it) if need be; and the game
    as stored afterwards."""
    async with bot.lock(f"threads:{game.id}"):
        game = await bot.store.get_game(game.id) or game
        ids = thread_ids(game)
        thread = await _existing(bot, ids.get(side))
        if thread is not None:
            return thread, game
        if game.channel_id is None:
            raise DeliveryRejected("the game has no channel for threads", permanent=True)
        parent = bot.get_channel(game.channel_id) or await bot.fetch_channel(game.channel_id)
        if not isinstance(parent, discord.TextChannel):
            raise DeliveryRejected("the game's channel cannot hold private threads",
                                   permanent=True)
        thread = await parent.create_thread(
            name=f"{side_name(game, side)} - game {game.id}"[:100],
            type=discord.ChannelType.private_thread, invitable=False,
            auto_archive_duration=ARCHIVE_MINUTES)
        for player in await bot.store.players(game.id):
            if player.side == side:
                await thread.add_user(discord.Object(id=player.user_id))
        ids[side] = str(thread.id)
        game = await bot.store.update_game(game.id, options={**game.options, "threads": ids})
        return thread, game


async def add_player(bot: VedetteBot, game: GameRecord, side: str, user_id: int) -> None:
    """Add a newly joined player to their side's thread, if it exists already."""
    if mode(game) != THREADS:
        return
    thread = await _existing(bot, thread_ids(game).get(side))
    if thread is not None:
        await thread.add_user(discord.Object(id=user_id))
