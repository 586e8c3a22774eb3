"""Reading: ``/map``, ``/units``, ``/log`` and ``/inbox``, always answered to the player alone."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import autocomplete as ac
from bot.cogs import Interaction, in_servers_and_dms, resolve_game
from bot.game_choice import GameArg
from bot.paging import UnitsPageButton, clean_filter, units_message
from bot.replies import answer, send_notice, thinking
from bot.views import inbox_page
from umpire.reads.maps import MAX_RADIUS
from umpire.words.units import MAX_FILTER

if TYPE_CHECKING:
    from bot.client import VedetteBot

GAME_HELP = "Which game (needed only if you are in several and not in the game's channel)"
NO_PICTURES = "\n(Map pictures are switched off on this bot; /units lists where your units are.)"


class InfoCog(commands.Cog):
    def __init__(self, bot: VedetteBot) -> None:
        self.bot = bot

    @in_servers_and_dms
    @app_commands.command(name="map", description="Your side's map: what your troops know")
    @app_commands.describe(around="Centre a window on this map label or place",
                           radius="How many cells around the centre (default 8)",
                           whole="The whole board (otherwise the part where your troops are)",
                           stack="List every counter in this cell (a map label, e.g. A2309)",
                           game=GAME_HELP)
    @app_commands.autocomplete(around=ac.places)
    async def map(self, interaction: Interaction,
                  around: app_commands.Range[str, 1, 60] | None = None,
                  radius: app_commands.Range[int, 2, MAX_RADIUS] | None = None,
                  whole: bool = False,
                  stack: app_commands.Range[str, 1, 20] | None = None,
                  game: GameArg | None = None) -> None:
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        reply = await self.bot.umpire.my_map(record.id, interaction.user.id, around, radius,
                                             whole=whole, stack=stack)
        text = reply.text if reply.image is not None else reply.text + NO_PICTURES
        await answer(interaction, text, image=reply.image, image_name="map.png")

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(UnitsPageButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(UnitsPageButton)

    @in_servers_and_dms
    @app_commands.command(name="units", description="Your units by command: where, formation, "
                                                    "strength, MPs left")
    @app_commands.describe(filter="Only some: part of a unit's or command's name, or movable, "
                                  "arriving, eliminated",
                           game=GAME_HELP)
    async def units(self, interaction: Interaction,
                    filter: app_commands.Range[str, 1, MAX_FILTER] | None = None,
                    game: GameArg | None = None) -> None:
        record = await resolve_game(interaction, game)
        embed, view = await units_message(self.bot, record.id, interaction.user.id, 0,
                                          clean_filter(filter))
        kwargs: dict[str, Any] = {"embed": embed, "ephemeral": True}
        if view is not None:
            kwargs["view"] = view
        # Read from the side's view held in memory: quick enough to answer at once.
        await interaction.response.send_message(**kwargs)
        await send_notice(interaction)

    @in_servers_and_dms
    @app_commands.command(name="log", description="Recent announcements and your side's reports")
    @app_commands.describe(game=GAME_HELP)
    async def log(self, interaction: Interaction, game: GameArg | None = None) -> None:
        record = await resolve_game(interaction, game)
        reply = await self.bot.umpire.log_text(record.id, interaction.user.id)
        await answer(interaction, reply.text)

    @in_servers_and_dms
    @app_commands.command(name="inbox", description="Every private message to you in a game, "
                                                    "newest first")
    @app_commands.describe(game=GAME_HELP)
    async def inbox(self, interaction: Interaction, game: GameArg | None = None) -> None:
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        content, embeds, files, view = await inbox_page(self.bot, record.id,
                                                        interaction.user.id, 0)
        kwargs: dict[str, Any] = {"embeds": embeds, "ephemeral": True}
        if files:
            kwargs["files"] = files
        if view is not None:
            kwargs["view"] = view
        await interaction.followup.send(content or discord.utils.MISSING, **kwargs)
        await send_notice(interaction)


async def setup(bot: VedetteBot) -> None:
    """The extension's entry point (``VedetteBot.load_extension``)."""
    await bot.add_cog(InfoCog(bot))
