"""``/help``: the player's phase commands and what their side can do now, answered to them alone
(an ephemeral embed), in the game's channel or in DMs. Someone in no game, or playing no side in
the game asked about, gets the general commands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.cogs import Interaction, in_servers_and_dms, resolve_game
from bot.errors import Refused
from bot.game_choice import GameArg
from bot.replies import answer

if TYPE_CHECKING:
    from bot.client import VedetteBot


class HelpCog(commands.Cog):
    def __init__(self, bot: VedetteBot) -> None:
        self.bot = bot

    @in_servers_and_dms
    @app_commands.command(name="help", description="What you can do now, and the commands of "
                                                   "your phase")
    @app_commands.describe(game="Which game (needed only if you are in several and not in the "
                                "game's channel)")
    async def show_help(self, interaction: Interaction, game: GameArg | None = None) -> None:
        try:
            record = await resolve_game(interaction, game)
        except Refused:
            if game is not None:
                raise  # a game named that does not exist: say so
            found = None  # in no game (or several, none chosen): the general commands
        else:
            found = record.id
        reply = await self.bot.umpire.help_for(found, interaction.user.id)
        await answer(interaction, reply.text, image=reply.image, image_name=reply.image_name)


async def setup(bot: VedetteBot) -> None:
    """The extension's entry point (``VedetteBot.load_extension``)."""
    await bot.add_cog(HelpCog(bot))
