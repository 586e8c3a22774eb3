"""The pages of ``/units``: an embed a page, with Previous and Next buttons that keep working
after a restart (their custom ids carry the game, the page and the filter:
``vedette:units:<game>:<page>:<filter>``).

A page is always worked out for the person who presses, from their own side's view: a button
pressed by someone else than the one the list was for never shows them that person's list, nor
changes that person's message; it answers them, privately, with their own side's page.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.buttons import GameButton
from bot.messages import EMBED_COLOUR
from bot.replies import send_notice
from bot.views import GAME_ID
from umpire.words.units import MAX_FILTER, UnitsPage

if TYPE_CHECKING:
    from bot.client import VedetteBot

Interaction = discord.Interaction[Any]
#: The highest page a button may name (a list is far shorter).
MAX_PAGE = 9999


def clean_filter(text: str | None) -> str:
    """A filter as the buttons carry it: one line, at most ``MAX_FILTER`` characters."""
    return " ".join((text or "").split())[:MAX_FILTER]


def units_embed(game_id: str, page: UnitsPage, filter_text: str) -> discord.Embed:
    """One page of a player's units as an embed."""
    title = f"Your units: {page.side_name}, game {game_id}"
    embed = discord.Embed(title=title[:256], description=page.text, colour=EMBED_COLOUR)
    shown = f" · filter: {filter_text}" if filter_text else ""
    embed.set_footer(text=f"Page {page.number + 1} of {page.pages} · {page.count} unit(s)"
                          f"{shown}"[:2048])
    return embed


def units_view(game_id: str, page: UnitsPage, filter_text: str) -> discord.ui.View | None:
    """Previous and Next, where there is a page to turn to."""
    if page.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(UnitsPageButton(game_id, max(0, page.number - 1), filter_text, "Previous",
                                  disabled=page.number == 0))
    view.add_item(UnitsPageButton(game_id, min(page.pages - 1, page.number + 1), filter_text,
                                  "Next", disabled=page.number >= page.pages - 1))
    return view


async def units_message(bot: VedetteBot, game_id: str, user_id: int, page: int,
                        filter_text: str) -> tuple[discord.Embed, discord.ui.View | None]:
    """The embed and buttons of page ``page`` of ``user_id``'s own units."""
    found = await bot.umpire.units_page(game_id, user_id, page, filter_text)
    return units_embed(game_id, found, filter_text), units_view(game_id, found, filter_text)


def _owner(interaction: Interaction) -> int | None:
    """Who the message under the button was made for, as Discord tells it."""
    message = interaction.message
    meta = message.interaction_metadata if message is not None else None
    return meta.user.id if meta is not None else None


class UnitsPageButton(GameButton,
                      template=re.compile(rf"vedette:units:(?P<game>{GAME_ID}):"
                                          rf"(?P<page>\d{{1,4}}):(?P<filter>.{{0,{MAX_FILTER}}})")):
    """Turn to another page of ``/units`` (the presser's own list)."""

    groups = (("game", str), ("page", int), ("filter", str))

    def __init__(self, game_id: str, page: int, filter_text: str = "", label: str = "Page", *,
                 disabled: bool = False) -> None:
        super().__init__(
            game_id,
            f"vedette:units:{game_id}:{min(page, MAX_PAGE)}:{clean_filter(filter_text)}", label,
            discord.ButtonStyle.secondary, disabled=disabled)
        self.page = page
        self.filter_text = clean_filter(filter_text)

    async def press(self, interaction: Interaction, bot: VedetteBot) -> None:
        # A message whose owner Discord does not tell is treated as someone else's.
        mine = _owner(interaction) == interaction.user.id
        if mine:
            await interaction.response.defer()
        else:  # someone else's list: answer the presser apart, with their own
            await interaction.response.defer(ephemeral=True, thinking=True)
        embed, view = await units_message(bot, self.game_id, interaction.user.id, self.page,
                                          self.filter_text)
        if mine:
            await interaction.edit_original_response(
                content=None, embed=embed, view=view or discord.ui.View())
        else:
            kwargs: dict[str, Any] = {"embed": embed, "ephemeral": True}
            if view is not None:
                kwargs["view"] = view
            await interaction.followup.send(**kwargs)
            await send_notice(interaction)
