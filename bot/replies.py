"""Answering an interaction: ephemeral by default (in a DM that changes nothing; in a channel it
keeps every answer to the person who asked), as the first response or as a followup when the
interaction was deferred, followed once by the DM notice if one is owed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot import dm_notice
from bot.messages import build

if TYPE_CHECKING:
    from bot.client import VedetteBot

Interaction = discord.Interaction[Any]


async def thinking(interaction: Interaction, *, ephemeral: bool = True) -> None:
    """Acknowledge now (Discord wants an answer within 3 seconds); the answer follows."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


async def answer(interaction: Interaction, text: str, *, image: bytes | None = None,
                 image_name: str | None = None, view: discord.ui.View | None = None,
                 ephemeral: bool = True, notice: bool = True) -> None:
    """Send ``text`` (and a picture) to the person who asked."""
    parts = build(text, image, image_name)
    kwargs: dict[str, Any] = {"embeds": parts.embeds, "ephemeral": ephemeral}
    if parts.files:
        kwargs["files"] = parts.files
    if view is not None:
        kwargs["view"] = view
    if interaction.response.is_done():
        await interaction.followup.send(parts.content or discord.utils.MISSING, **kwargs)
    else:
        await interaction.response.send_message(parts.content, **kwargs)
    if notice:
        await send_notice(interaction)


async def send_notice(interaction: Interaction) -> None:
    """The DM notice, if this user is owed it (always ephemeral)."""
    bot: VedetteBot = interaction.client
    text = await dm_notice.take_notice(bot.umpire, interaction.user.id)
    if text is None:
        return
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)
