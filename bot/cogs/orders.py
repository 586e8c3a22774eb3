"""Orders: ``/move``, ``/formation``, ``/done`` (for this phase or the rest of the turn, and its
Done for the turn button) and ``/standing``. They work in a DM with the bot and in the
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
from bot.views import BUTTON_MAKERS, GAME_ID, SIDE_ID, confirm_view, remember_preview
from rules import commands as cmd
from rules.orders.standing import StandingOrder
from umpire.games.ready import DONE_TURN_ACTION, MOVE_ACTION
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


# -- /done until: and the Done for the turn button -------------------------------------------------
UNTIL_PHASE = "phase"
UNTIL_TURN = "next-turn"
UNTIL_HELP = "Done for this phase (default), or for the rest of the turn"
UNTIL_CHOICES = [app_commands.Choice(name="this phase", value=UNTIL_PHASE),
                 app_commands.Choice(name="the rest of the turn", value=UNTIL_TURN)]
STANDING_CHOICES = [app_commands.Choice(name=o.words, value=o.value) for o in StandingOrder]

DONE_TURN = re.compile(rf"vedette:done-turn:(?P<game>{GAME_ID}):(?P<side>{SIDE_ID}):"
                       r"(?P<turn>\d{1,4}):(?P<step>\d{1,3})")


class DoneTurnButton(GameButton, template=DONE_TURN):
    """Beside Done under a side's orders message: the presser's ``/done until:next-turn`` for
    that step of play. A press for a step that is over, or by someone who does not command
    that side, changes nothing (``Umpire.done`` checks both, as for Done)."""

    groups = (("game", str), ("side", str), ("turn", int), ("step", int))

    def __init__(self, game_id: str, side: str, turn: int, step: int) -> None:
        super().__init__(game_id, f"vedette:done-turn:{game_id}:{side}:{turn}:{step}",
                         "Done for the turn", discord.ButtonStyle.secondary)
        self.side, self.turn, self.step = side, turn, step

    async def press(self, interaction: Interaction, bot: VedetteBot) -> None:
        await thinking(interaction)
        reply = await bot.umpire.done(self.game_id, interaction.user.id,
                                      request_id=str(interaction.id), side=self.side,
                                      turn=self.turn, step=self.step, until_turn=True)
        await answer(interaction, reply.text)
        bot.outbox.kick(self.game_id)


def done_turn_button(record: Mapping[str, Any]) -> discord.ui.Item[Any] | None:
    """The Done for the turn button a delivery's record names
    (``umpire.games.ready.done_button``)."""
    game, side, turn, step = (record.get(k) for k in ("game", "side", "turn", "step"))
    if not (isinstance(game, str) and isinstance(side, str) and isinstance(turn, int)
            and isinstance(step, int)):
        return None
    custom_id = f"vedette:done-turn:{game}:{side}:{turn}:{step}"
    if len(custom_id) > 100 or not DONE_TURN.fullmatch(custom_id):
        return None
    return DoneTurnButton(game, side, turn, step)


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
        BUTTON_MAKERS[DONE_TURN_ACTION] = done_turn_button
        self.bot.add_dynamic_items(MoveFormButton, DoneTurnButton)

    async def cog_unload(self) -> None:
        BUTTON_MAKERS.pop(MOVE_ACTION, None)
        BUTTON_MAKERS.pop(DONE_TURN_ACTION, None)
        self.bot.remove_dynamic_items(MoveFormButton, DoneTurnButton)

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
                                                   "phase (or of the whole turn)")
    @app_commands.describe(until=UNTIL_HELP, game=GAME_HELP)
    @app_commands.choices(until=UNTIL_CHOICES)
    async def done(self, interaction: Interaction, until: str = UNTIL_PHASE,
                   game: GameArg | None = None) -> None:
        """On a side shared by several players this records the player ready; the side
        finishes when the game's ``ready`` option says (``umpire.games.ready``). With
        ``until:next-turn`` the player is done for the rest of the turn too (ruling
        FLOW-70)."""
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        reply = await self.bot.umpire.done(record.id, interaction.user.id,
                                           request_id=str(interaction.id),
                                           until_turn=until == UNTIL_TURN)
        await answer(interaction, reply.text)
        self.bot.outbox.kick(record.id)

    standing = app_commands.Group(name="standing", description="Standing orders: what your "
                                  "units do in the later phases of a turn while you are done")

    @standing.command(name="set", description="Give a unit (or a leader, for his whole "
                                              "command) a standing order")
    @app_commands.describe(unit="One of your units, or a leader for his command",
                           order="What it does while you are done for the turn",
                           route="For 'continue the march': a new route (left out: the "
                                 "unit's last move's)",
                           game=GAME_HELP)
    @app_commands.choices(order=STANDING_CHOICES)
    @app_commands.autocomplete(unit=ac.unit_names)
    async def standing_set(self, interaction: Interaction,
                           unit: app_commands.Range[str, 1, 100], order: str,
                           route: app_commands.Range[str, 0, 500] = "",
                           game: GameArg | None = None) -> None:
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        reply = await self.bot.umpire.set_standing(record.id, interaction.user.id, unit, order,
                                                   route)
        await answer(interaction, reply.text)
        self.bot.outbox.kick(record.id)

    @standing.command(name="clear", description="Take a unit's standing order away")
    @app_commands.describe(unit="One of your units or leaders", game=GAME_HELP)
    @app_commands.autocomplete(unit=ac.unit_names)
    async def standing_clear(self, interaction: Interaction,
                             unit: app_commands.Range[str, 1, 100],
                             game: GameArg | None = None) -> None:
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        reply = await self.bot.umpire.clear_standing(record.id, interaction.user.id, unit)
        await answer(interaction, reply.text)

    @standing.command(name="list", description="Your side's standing orders")
    @app_commands.describe(game=GAME_HELP)
    async def standing_list(self, interaction: Interaction,
                            game: GameArg | None = None) -> None:
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        reply = await self.bot.umpire.standing_list(record.id, interaction.user.id)
        await answer(interaction, reply.text)


async def setup(bot: VedetteBot) -> None:
    """The extension's entry point (``VedetteBot.load_extension``)."""
    await bot.add_cog(OrdersCog(bot))
