"""``/settings``: a player's own settings, kept for every game they play. For now one: whether
each move is shown before it is given (``preview``, ruling ORD-2). Answered to the player alone,
in the game's channel or in DMs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.cogs import Interaction, in_servers_and_dms
from bot.replies import answer
from umpire.reads.player_settings import Preview
from umpire.reads.preview import LONG_ROUTE

if TYPE_CHECKING:
    from bot.client import VedetteBot

PREVIEW_WORDS = {
    Preview.ON: "on: every move is shown, with each step's cost and where it ends, before you "
                "confirm it",
    Preview.OFF: f"off: moves by road or longer than {LONG_ROUTE} cells are still shown before "
                 "you confirm them; shorter ones are given at once",
}


def described(value: Preview) -> str:
    return f"Move previews are {PREVIEW_WORDS[value]}."


class SettingsCog(commands.Cog):
    def __init__(self, bot: VedetteBot) -> None:
        self.bot = bot

    @in_servers_and_dms
    @app_commands.command(name="settings", description="Your own settings, for every game you "
                                                       "play (leave them out to see them)")
    @app_commands.describe(preview="Show every move before it is given (on), or only long ones "
                                   "and those by road (off)")
    @app_commands.choices(preview=[
        app_commands.Choice(name="on: every move is previewed", value=Preview.ON.value),
        app_commands.Choice(name=f"off: only moves by road or over {LONG_ROUTE} cells",
                            value=Preview.OFF.value),
    ])
    async def settings(self, interaction: Interaction, preview: str | None = None) -> None:
        umpire = self.bot.umpire
        user = interaction.user.id
        if preview is None:
            now = await umpire.preview_setting(user)
            await answer(interaction, f"{described(now)}\nChange it with `/settings preview:`.")
            return
        try:
            wanted = Preview(preview)
        except ValueError:  # Discord offers only the choices; anything else changes nothing
            now = await umpire.preview_setting(user)
            await answer(interaction, f"{preview[:20]!r} is not a preview setting: choose on or "
                                      f"off. {described(now)}")
            return
        now = await umpire.set_preview_setting(user, wanted)
        await answer(interaction, f"Saved, for all your games. {described(now)}")


async def setup(bot: VedetteBot) -> None:
    """The extension's entry point (``VedetteBot.load_extension``)."""
    await bot.add_cog(SettingsCog(bot))
