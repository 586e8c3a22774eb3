"""Orders: ``/move``, ``/formation`` and ``/done``. They work in a DM with the bot and in the
game's channel (or a side's thread), where every answer is ephemeral."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pydantic
from discord import app_commands
from discord.ext import commands

from bot import autocomplete as ac
from bot.cogs import Interaction, in_servers_and_dms, resolve_game
from bot.errors import Refused
from bot.game_choice import GameArg
from bot.replies import answer, thinking
from bot.views import confirm_view, remember_preview
from rules import commands as cmd
from umpire.reads.preview import plan_move

if TYPE_CHECKING:
    from bot.client import VedetteBot

GAME_HELP = "Which game (needed only if you are in several and not in the game's channel)"
ROUTE_HELP = ("Waypoints: map labels or place names; put 'road' before one to follow the road "
              "there, e.g. 'road Old Church A0506'")


def order(kind: type[cmd.Move] | type[cmd.SetFormation], **fields: Any) -> cmd.Command:
    """The command record, or a plain refusal when a field is out of bounds."""
    try:
        made: cmd.Command = kind(**fields)
    except pydantic.ValidationError:
        raise Refused("that order is too long or empty; shorten the unit name or the route") \
            from None
    return made


class OrdersCog(commands.Cog):
    def __init__(self, bot: VedetteBot) -> None:
        self.bot = bot

    @in_servers_and_dms
    @app_commands.command(name="move", description="Move one of your units along a route")
    @app_commands.describe(unit="One of your units, or one of your concealment markers "
                                "('marker 4821')", route=ROUTE_HELP, game=GAME_HELP)
    @app_commands.autocomplete(unit=ac.units, route=ac.route)
    async def move(self, interaction: Interaction, unit: app_commands.Range[str, 1, 100],
                   route: app_commands.Range[str, 1, 500], game: GameArg | None = None) -> None:
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        user = interaction.user.id
        plan = await plan_move(self.bot.umpire, record.id, user, unit, route)
        if plan is not None:
            waiting = await self.bot.umpire.save_pending_move(record.id, user, unit, route)
            await answer(interaction, plan.text, image=plan.image, image_name="route.png",
                         view=confirm_view(record.id, waiting.id))
            await remember_preview(interaction, waiting.id)  # it expires with the phase
            return
        reply = await self.bot.umpire.handle(record.id, user,
                                             order(cmd.Move, unit=unit, route=route),
                                             request_id=str(interaction.id))
        await answer(interaction, reply.text)
        self.bot.outbox.kick(record.id)

    @in_servers_and_dms
    @app_commands.command(name="formation", description="Change one of your units' formation")
    @app_commands.describe(unit="One of your units", formation="e.g. line, column, limbered",
                           game=GAME_HELP)
    @app_commands.autocomplete(unit=ac.unit_names, formation=ac.formations)
    async def formation(self, interaction: Interaction, unit: app_commands.Range[str, 1, 100],
                        formation: app_commands.Range[str, 1, 40],
                        game: GameArg | None = None) -> None:
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        reply = await self.bot.umpire.handle(
            record.id, interaction.user.id,
            order(cmd.SetFormation, unit=unit, formation=formation),
            request_id=str(interaction.id))
        await answer(interaction, reply.text)
        self.bot.outbox.kick(record.id)

    @in_servers_and_dms
    @app_commands.command(name="done", description="You have finished your part of this "
                                                   "phase")
    @app_commands.describe(game=GAME_HELP)
    async def done(self, interaction: Interaction, game: GameArg | None = None) -> None:
        """On a side shared by several players this records the player ready; the side
        finishes when the game's ``ready`` option says (``umpire.games.ready``)."""
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        reply = await self.bot.umpire.done(record.id, interaction.user.id,
                                           request_id=str(interaction.id))
        await answer(interaction, reply.text)
        self.bot.outbox.kick(record.id)


async def setup(bot: VedetteBot) -> None:
    """The extension's entry point (``VedetteBot.load_extension``)."""
    await bot.add_cog(OrdersCog(bot))
