"""The slash commands, one cog per concern: setting up games, giving orders, reading; and one
per rule module with commands, named as its package under ``rules/`` (``surprise.py`` for
``rules/surprise/``). Each file is an extension (``bot.client.EXTENSIONS``): its ``setup`` adds
its cog, and its cog adds its own persistent buttons. This file holds what they share."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot.errors import Refused
from bot.game_choice import resolve_game
from bot.replies import answer

if TYPE_CHECKING:
    from bot.client import VedetteBot
    from rules.commands import GameCommand
    from umpire.gameref import GameRef

Interaction = discord.Interaction[Any]

__all__ = ["Interaction", "give_order", "in_game_server", "in_servers_and_dms", "is_admin",
           "require_host", "resolve_game", "unit_list"]

T = TypeVar("T")

NOT_HOST = "only the game's host can do that"


def is_admin(interaction: Interaction, game: GameRef) -> bool:
    """Discord's Manage Server permission in the game's own server stands in for the host."""
    return (interaction.guild_id is not None and interaction.guild_id == game.guild_id
            and interaction.permissions.manage_guild)


def require_host(interaction: Interaction, game: GameRef) -> None:
    if interaction.user.id != game.host_user_id and not is_admin(interaction, game):
        raise Refused(NOT_HOST)


async def in_game_server(interaction: Interaction, game: GameRef) -> bool:
    """Whether the user is a member of the game's server: they asked in it, or Discord finds
    them among its members (a DM, or another server). A game with no server has no members."""
    if game.guild_id is None:
        return False
    if interaction.guild_id == game.guild_id:
        return True
    client = interaction.client
    try:
        guild = client.get_guild(game.guild_id) or await client.fetch_guild(game.guild_id)
        if guild.get_member(interaction.user.id) is None:
            await guild.fetch_member(interaction.user.id)
    except (discord.NotFound, discord.Forbidden):
        return False
    except discord.HTTPException:
        raise Refused("I could not check that you are a member of the game's server; try "
                      "again from one of its channels") from None
    return True


def unit_list(text: str) -> tuple[str, ...]:
    """The units named in a comma-separated list."""
    return tuple(part.strip() for part in text.split(",") if part.strip())


def in_servers_and_dms(command: T) -> T:
    """Offer a command in the server's channels and in DMs with the bot (not elsewhere)."""
    contexts = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    installs = app_commands.allowed_installs(guilds=True, users=False)
    return installs(contexts(command))


async def give_order(interaction: Interaction, game: str | None, command: GameCommand) -> None:
    """Give a player's order to the umpire for the game named (or the channel's), answer the
    player with the umpire's reply, and send the reports it led to. The interaction's id goes
    with it: an interaction delivered again is answered, never applied twice."""
    bot: VedetteBot = interaction.client
    record = await resolve_game(interaction, game)
    reply = await bot.umpire.handle(record.id, interaction.user.id, command,
                                    request_id=str(interaction.id))
    await answer(interaction, reply.text)
    bot.outbox.kick(record.id)
