"""Which game a command is about: the ``game:`` option, the channel's game, or the player's own.

In order: a game named in the ``game:`` option; else the game bound to the channel (or to the
parent channel of a side's private thread); else the player's one game that is not over; else
the channel's newest finished game. A player
in several games is asked to pick one; the option's autocomplete offers their own games only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.buttons import bot_of
from bot.errors import Refused
from rules.turn.status import GameStatus

if TYPE_CHECKING:
    from bot.client import VedetteBot
    from umpire.gameref import GameRef

Interaction = discord.Interaction[Any]

MAX_CHOICES = 25


def home_channel_id(interaction: Interaction) -> int | None:
    """The guild channel the interaction happened in (a thread's parent), or ``None`` in a DM."""
    if interaction.guild_id is None:
        return None
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return channel.parent_id
    return interaction.channel_id


async def channel_game(bot: VedetteBot, channel_id: int | None) -> GameRef | None:
    """The newest game bound to a channel that is not over."""
    if channel_id is None:
        return None
    games = [g for g in await bot.umpire.games(channel_id=channel_id)
             if g.status != GameStatus.ENDED]
    return games[-1] if games else None


async def ended_channel_game(bot: VedetteBot, channel_id: int | None) -> GameRef | None:
    """The newest finished game of a channel (its reports, maps and replays stay readable)."""
    if channel_id is None:
        return None
    games = [g for g in await bot.umpire.games(channel_id=channel_id)
             if g.status == GameStatus.ENDED]
    return games[-1] if games else None


async def resolve_game(interaction: Interaction, picked: str | None) -> GameRef:
    """The game this interaction is about; raises ``Refused`` with a plain explanation."""
    bot = bot_of(interaction)
    game: GameRef | None
    if picked:
        game = await bot.umpire.game(picked.strip())
        if game is None:
            raise Refused(f"there is no game {picked.strip()[:40]!r}; /game status lists yours")
    else:
        game = await channel_game(bot, home_channel_id(interaction))
        if game is None:
            mine = await bot.umpire.games_of(interaction.user.id)
            ended = await ended_channel_game(bot, home_channel_id(interaction))
            if not mine and ended is not None:
                mine = [ended]  # after the end, the channel's game is still read
            if not mine:
                raise Refused("you are not in a game: join one with /game join in its channel, "
                              "or create one there with /game create")
            if len(mine) > 1:
                names = ", ".join(g.id for g in mine[:10])
                raise Refused(f"you are in several games ({names}): pick one with the game: "
                              "option")
            game = mine[0]
    interaction.extras["game_id"] = game.id
    return game


async def game_for_autocomplete(interaction: Interaction) -> str | None:
    """The game an autocomplete request is about, or ``None``: never raises, never slow."""
    picked = getattr(interaction.namespace, "game", None)
    try:
        game = await resolve_game(interaction, picked if isinstance(picked, str) else None)
    except Exception:
        return None
    return game.id


class GameOption(app_commands.Transformer):
    """The ``game:`` option: a game id, offered from the player's own games."""

    async def transform(self, interaction: Interaction, value: Any) -> str:
        game = await bot_of(interaction).umpire.game(str(value).strip())
        if game is None:
            raise Refused(f"there is no game {str(value).strip()[:40]!r}; /game status lists "
                          "yours")
        return game.id

    async def autocomplete(  # type: ignore[override]
            self, interaction: Interaction, value: int | float | str
    ) -> list[app_commands.Choice[str]]:
        bot = bot_of(interaction)
        typed = str(value).strip().lower()
        games = await bot.umpire.games_of(interaction.user.id)
        here = await channel_game(bot, home_channel_id(interaction))
        if here is not None and all(g.id != here.id for g in games):
            games.insert(0, here)
        out = []
        for g in games:
            label = f"{g.id}: {g.scenario_id} ({g.status})"
            if typed in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=g.id))
        return out[:MAX_CHOICES]


GameArg = app_commands.Transform[str, GameOption]
