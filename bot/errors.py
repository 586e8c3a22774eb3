"""The one error handler: what a player sees when a command fails, and what the log keeps.

A refusal from the umpire (``UmpireError``) is shown as it is: its words are written for the
person who asked. Discord's own argument checks are explained plainly. Anything else is a fault of
ours: it is logged with the game and the command, and the player is told only that something went
wrong, never a traceback or anything about the game they could not otherwise see.
"""

from __future__ import annotations

import logging
from typing import Any, TypeVar

import discord
import pydantic
from discord import app_commands

from rules.commands import GameCommand
from umpire.service import UmpireError

log = logging.getLogger("vedette.bot")

SOMETHING_WRONG = ("Something went wrong on the umpire's side; it has been logged. Nothing was "
                   "changed by this command unless its answer said so. Please try again in a "
                   "moment.")
STALE = "The umpire's commands have changed; wait a minute for Discord to update, then retry."


class Refused(UmpireError):
    """A refusal raised by the bot itself (wrong place, not the host, ...): shown as is."""


C = TypeVar("C", bound=GameCommand)


def order_record(kind: type[C], too_long: str, **fields: Any) -> C:
    """The command record of an order, or the plain refusal ``too_long`` when a field is out of
    bounds (Discord checks the lengths it was told of, but a forged interaction can send
    anything, and the record checks the rest)."""
    try:
        return kind(**fields)
    except pydantic.ValidationError:
        raise Refused(too_long) from None


def unwrap(error: BaseException) -> BaseException:
    """The exception behind discord.py's wrappers."""
    if isinstance(error, app_commands.CommandInvokeError):
        return unwrap(error.original)
    if isinstance(error, app_commands.TransformerError) and error.__cause__ is not None:
        return unwrap(error.__cause__)
    return error


def player_message(error: BaseException) -> str | None:
    """The words for the player, or ``None`` when the error is ours."""
    if isinstance(error, UmpireError):
        return str(error)[:1900] or "The umpire refused that."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Too fast: try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.MissingPermissions | app_commands.BotMissingPermissions):
        return str(error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return "That command works in a server channel, not in a DM."
    if isinstance(error, app_commands.CommandSignatureMismatch | app_commands.CommandNotFound):
        return STALE
    if isinstance(error, app_commands.TransformerError):
        return f"I could not read {str(error.value)[:100]!r} for that option."
    return None


def describe(interaction: discord.Interaction[Any]) -> tuple[str, str]:
    """The command (or button) and the game an interaction was about, for the log."""
    if interaction.command is not None:
        what = "/" + interaction.command.qualified_name
    else:
        data: dict[str, Any] = dict(interaction.data or {})
        what = f"component {data.get('custom_id', '?')}"
    game = str(interaction.extras.get("game_id", "-"))
    return what, game


async def report(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Tell the player (ephemerally) and log what needs logging."""
    cause = unwrap(error)
    what, game = describe(interaction)
    text = player_message(cause)
    if text is None:
        log.error("%s failed in game %s (user %s)", what, game, interaction.user.id,
                  exc_info=(type(cause), cause, cause.__traceback__))
        text = SOMETHING_WRONG
    else:
        log.info("%s refused in game %s (user %s): %s", what, game, interaction.user.id, text)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell user %s about a failed %s", interaction.user.id, what)


async def on_tree_error(interaction: discord.Interaction[Any],
                        error: app_commands.AppCommandError) -> None:
    """``CommandTree.on_error``: every slash command's failures end here."""
    await report(interaction, error)
