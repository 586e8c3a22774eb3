"""``/host``: the host's tools during play: pause and resume, end the phase for those who have not
finished, set or extend the phases' deadline (``/host deadline``, announced in the game's
channel), correct a unit by hand with a reason kept in the log (only while the game is in play;
the unit is named as the host may name it, ``umpire.words.correctable``: their own side's while they
play, any when they umpire; the channel is told that a correction was made and by whom, and the
end of the game lists every correction in full), and give or take seats after the start (each
announced in the game's channel).

Only the host (or a member with Manage Server in the game's server) may use them; anyone else is
told so, whether or not they play in the game."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import autocomplete as ac
from bot import threads
from bot.cogs import Interaction, in_servers_and_dms, is_admin, resolve_game
from bot.errors import Refused
from bot.game_choice import GameArg, game_for_autocomplete
from bot.replies import answer, thinking
from rules import commands as cmd
from umpire.clock import phases as phase_deadlines

if TYPE_CHECKING:
    from bot.client import VedetteBot

GAME_HELP = "Which game (needed only if you host several and are not in the game's channel)"

log = logging.getLogger("vedette.bot")


async def correctable_units(interaction: Interaction, current: str) -> ac.Choices:
    """The units the host may correct (``Umpire.correctable_units``): their own side's while
    they play, every side's when they umpire; nothing for anyone else. Each choice's value is
    the unit's id, so that two units of one name cannot be confused."""
    game_id = await game_for_autocomplete(interaction)
    if game_id is None:
        return []
    bot: VedetteBot = interaction.client
    try:
        ref = await bot.umpire.game(game_id)
        if ref is None:
            return []
        found = await bot.umpire.correctable_units(game_id, interaction.user.id,
                                                   is_admin=is_admin(interaction, ref))
    except Exception:
        log.debug("no correctable units for game %s", game_id, exc_info=True)
        return []
    return ac.labelled(found, current)


@in_servers_and_dms
class HostCog(commands.GroupCog, group_name="host",
              group_description="The host's tools during play"):
    def __init__(self, bot: VedetteBot) -> None:
        self.bot = bot
        super().__init__()

    async def _host_command(self, interaction: Interaction, game: GameArg | None,
                            command: cmd.Command) -> None:
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        reply = await self.bot.umpire.handle(record.id, interaction.user.id, command,
                                             is_admin=is_admin(interaction, record),
                                             request_id=str(interaction.id))
        await answer(interaction, reply.text)
        self.bot.outbox.kick(record.id)

    @app_commands.command(name="pause", description="Pause the game (orders are refused)")
    @app_commands.describe(reason="Shown to everyone", game=GAME_HELP)
    async def pause(self, interaction: Interaction,
                    reason: app_commands.Range[str, 0, 300] = "",
                    game: GameArg | None = None) -> None:
        await self._host_command(interaction, game, cmd.Pause(paused=True, reason=reason))

    @app_commands.command(name="resume", description="Resume a paused game")
    @app_commands.describe(game=GAME_HELP)
    async def resume(self, interaction: Interaction, game: GameArg | None = None) -> None:
        await self._host_command(interaction, game, cmd.Pause(paused=False))

    @app_commands.command(name="endphase",
                          description="End the current phase for every side still in it")
    @app_commands.describe(game=GAME_HELP)
    async def endphase(self, interaction: Interaction, game: GameArg | None = None) -> None:
        await self._host_command(interaction, game, cmd.ForceEndPhase())

    @app_commands.command(name="deadline",
                          description="Set every phase's deadline, or give the current phase "
                                      "more time (announced); with neither, show it")
    @app_commands.describe(length="Each phase's time: 30m, 90m, 24h, 2d, 1d12h, or none",
                           extend="More time for the current phase only: 30m, 12h, 1d, ...",
                           game=GAME_HELP)
    async def deadline(self, interaction: Interaction,
                       length: app_commands.Range[str, 1, 20] | None = None,
                       extend: app_commands.Range[str, 1, 20] | None = None,
                       game: GameArg | None = None) -> None:
        if length is not None and extend is not None:
            raise Refused("give a length or an extension, not both")
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        admin = is_admin(interaction, record)
        umpire = self.bot.umpire
        if length is not None:
            reply = await phase_deadlines.set_length(umpire, record.id, interaction.user.id,
                                                     length, is_admin=admin)
        elif extend is not None:
            reply = await phase_deadlines.extend(umpire, record.id, interaction.user.id, extend,
                                                 is_admin=admin)
        else:
            reply = await phase_deadlines.describe(umpire, record.id, interaction.user.id,
                                                   is_admin=admin)
        await answer(interaction, reply.text)
        self.bot.outbox.kick(record.id)

    @app_commands.command(name="correct", description="During play, correct a unit by hand; "
                                                      "announced publicly, listed at the end")
    @app_commands.describe(unit="The unit (pick it from the list: your own side's, or any "
                                "if you umpire)",
                           field="What to correct", value="The new value (a label for cell)",
                           reason="Why (kept in the log)", game=GAME_HELP)
    @app_commands.autocomplete(unit=correctable_units)
    async def correct(self, interaction: Interaction, unit: app_commands.Range[str, 1, 100],
                      field: Literal["cell", "strength", "stragglers", "formation", "morale"],
                      value: app_commands.Range[str, 1, 40],
                      reason: app_commands.Range[str, 3, 300],
                      game: GameArg | None = None) -> None:
        new: str | int = value
        if field in ("strength", "stragglers"):
            if not value.strip().isdigit():
                raise Refused(f"{field} must be a whole number, 0 or more")
            new = int(value)
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        reply = await self.bot.umpire.correct(record.id, interaction.user.id, unit,
                                              {field: new}, reason,
                                              is_admin=is_admin(interaction, record),
                                              request_id=str(interaction.id))
        await answer(interaction, reply.text)
        self.bot.outbox.kick(record.id)

    @app_commands.command(name="seat", description="After the start: accept a request to join "
                                                   "(announced in the game's channel)")
    @app_commands.describe(user="Who asked to join (with /game join)",
                           side="The side they asked for", game=GAME_HELP)
    async def seat(self, interaction: Interaction, user: discord.User,
                   side: app_commands.Range[str, 1, 60], game: GameArg | None = None) -> None:
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        reply = await self.bot.umpire.seat(record.id, interaction.user.id, user.id,
                                           side.strip(), is_admin=is_admin(interaction, record))
        self.bot.outbox.kick(record.id)
        await threads.sync_side(self.bot, record, side.strip())
        await answer(interaction, reply.text)

    @app_commands.command(name="unseat", description="Take a player's seat away (announced in "
                                                     "the game's channel), or refuse a request")
    @app_commands.describe(user="The player, or who asked to join",
                           reason="Shown in the game's channel", game=GAME_HELP)
    async def unseat(self, interaction: Interaction, user: discord.User,
                     reason: app_commands.Range[str, 0, 300] = "",
                     game: GameArg | None = None) -> None:
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        player = await self.bot.umpire.player(record.id, user.id)
        reply = await self.bot.umpire.unseat(record.id, interaction.user.id, user.id, reason,
                                             is_admin=is_admin(interaction, record))
        self.bot.outbox.kick(record.id)
        if player is not None:
            await threads.sync_side(self.bot, record, player.side)
        await answer(interaction, reply.text)


async def setup(bot: VedetteBot) -> None:
    """The extension's entry point (``VedetteBot.load_extension``)."""
    await bot.add_cog(HostCog(bot))
