"""Orders: ``/move``, ``/formation`` and ``/done``. They work in a DM with the bot and in the
game's channel (or a side's thread), where every answer is ephemeral. A call for orders whose
phase lets the side move carries a Move button, which opens a form for ``/move``'s two fields
(``vedette:give:move:<game>``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
import pydantic
from discord import app_commands
from discord.ext import commands

from bot import autocomplete as ac
from bot.buttons import GameButton, bot_of
from bot.cogs import Interaction, in_servers_and_dms, resolve_game
from bot.errors import Refused, report
from bot.game_choice import GameArg
from bot.replies import answer, thinking
from bot.views import BUTTON_MAKERS, GAME_ID, confirm_view, remember_preview
from rules import commands as cmd
from umpire.games.ready import MOVE_ACTION
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


async def give_move(bot: VedetteBot, interaction: Interaction, game_id: str, unit: str,
                    route: str) -> None:
    """Give the presser's move (``/move`` and the Move form alike): its preview to confirm, or
    the move itself for a player who does without previews."""
    user = interaction.user.id
    plan = await plan_move(bot.umpire, game_id, user, unit, route)
    if plan is not None:
        waiting = await bot.umpire.save_pending_move(game_id, user, unit, route)
        await answer(interaction, plan.text, image=plan.image, image_name="route.png",
                     view=confirm_view(game_id, waiting.id))
        await remember_preview(interaction, waiting.id)  # it expires with the phase
        return
    reply = await bot.umpire.handle(game_id, user, order(cmd.Move, unit=unit, route=route),
                                    request_id=str(interaction.id))
    await answer(interaction, reply.text)
    bot.outbox.kick(game_id)


# -- the Move button under a call for orders -----------------------------------------------------
class MoveFormButton(GameButton, template=re.compile(rf"vedette:give:move:(?P<game>{GAME_ID})")):
    """Under a call for orders whose phase lets the side move: opens the Move form. Whoever
    presses it gives their own order, for their own side, as ``/move`` would."""

    groups = (("game", str),)

    def __init__(self, game_id: str) -> None:
        super().__init__(game_id, f"vedette:give:move:{game_id}", "Move…",
                         discord.ButtonStyle.primary)

    async def press(self, interaction: Interaction, bot: VedetteBot) -> None:
        await interaction.response.send_modal(MoveForm(self.game_id, interaction.id))


def move_form_button(record: Mapping[str, Any]) -> discord.ui.Item[Any] | None:
    """The Move button a delivery's record names (``umpire.games.ready.move_button``)."""
    game = record.get("game")
    if not isinstance(game, str) or not re.fullmatch(GAME_ID, game):
        return None
    return MoveFormButton(game)


class MoveForm(discord.ui.Modal, title="Move a unit"):
    """One unit and its route, as ``/move`` takes them."""

    unit: discord.ui.TextInput[MoveForm] = discord.ui.TextInput(
        label="Unit", custom_id="unit", max_length=100,
        placeholder="one of your units, or one of your markers ('marker 4821')")
    route: discord.ui.TextInput[MoveForm] = discord.ui.TextInput(
        label="Route", custom_id="route", max_length=500,
        placeholder="map labels or place names; 'road' before one follows the road")

    def __init__(self, game_id: str, opened_by: int) -> None:
        # One custom id per form opened: the bot keeps open forms by their custom id alone,
        # so two players' forms under one id would answer only the last one opened.
        super().__init__(custom_id=f"vedette:move-form:{game_id}:{opened_by}")
        self.game_id = game_id

    async def on_submit(self, interaction: Interaction) -> None:
        interaction.extras["game_id"] = self.game_id
        try:
            await thinking(interaction)
            await give_move(bot_of(interaction), interaction, self.game_id, self.unit.value,
                            self.route.value)
        except Exception as e:
            await report(interaction, e)


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
        await give_move(self.bot, interaction, record.id, unit, route)

    async def cog_load(self) -> None:
        BUTTON_MAKERS[MOVE_ACTION] = move_form_button
        self.bot.add_dynamic_items(MoveFormButton)

    async def cog_unload(self) -> None:
        BUTTON_MAKERS.pop(MOVE_ACTION, None)
        self.bot.remove_dynamic_items(MoveFormButton)

    @in_servers_and_dms
    @app_commands.command(name="formation", description="Change one of your units' formation")
    @app_commands.describe(unit="One of your units", formation="e.g. line, column, limbered",
                           game=GAME_HELP)
    @app_commands.autocomplete(unit=ac.offered("formation"), formation=ac.formations)
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
