"""What every persistent button shares, and the bot behind an interaction.

A persistent button is a ``GameButton``: a ``discord.ui.DynamicItem`` whose custom id carries a
game and whatever else it needs. Each button keeps its own template, label and ``press``; the base
reads the template's groups back into the button (``groups``), notes the game for the error log,
and shows whatever a press raises through ``bot.errors.report``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord

from bot.errors import report

if TYPE_CHECKING:
    from bot.client import VedetteBot

Interaction = discord.Interaction[Any]
#: The base's own template: it matches no custom id (only its subclasses are registered).
NO_CUSTOM_ID = re.compile(r"(?!)")


def bot_of(interaction: Interaction) -> VedetteBot:
    """The bot an interaction came to."""
    bot: VedetteBot = interaction.client
    return bot


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=NO_CUSTOM_ID):
    """A button of one game whose custom id carries all it needs, so that it works after a
    restart. A subclass gives its ``template``, its ``groups`` and its ``press``."""

    #: The template's groups a button is made of, in the order its ``__init__`` takes them,
    #: each with how to read it.
    groups: ClassVar[tuple[tuple[str, Callable[[str], Any]], ...]] = ()

    def __init__(self, game_id: str, custom_id: str, label: str, style: discord.ButtonStyle,
                 *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, disabled=disabled,
                                           custom_id=custom_id))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> Self:
        return cls(*(read(match[name]) for name, read in cls.groups))

    async def callback(self, interaction: Interaction) -> None:
        interaction.extras["game_id"] = self.game_id
        try:
            await self.press(interaction, bot_of(interaction))
        except Exception as e:
            await report(interaction, e)

    async def press(self, interaction: Interaction, bot: VedetteBot) -> None:
        """What a click does; whatever it raises is shown to the clicker."""
        raise NotImplementedError
