"""``/march``: the Surprise Move orders. ``order`` (a force and its route), ``execute``,
``rally`` (shammed units walk back to their proper places), ``cancel`` (new orders: execute as
it stands, or reverse), ``forced`` (the forced-march MPs from now on), and ``status`` (your own
marches, with the route drawn on your map, and the detour buttons when the column waits at a
blocked hex).

Thin commands: each turns the interaction into a ``rules.surprise.commands`` record and calls
``Umpire.handle``; every answer goes to the asking player alone. The buttons are persistent (their
custom id carries all they need), so they work after a restart:

- Confirm / Cancel / Leave out under an order's preview (ruling ORD-20):
  ``vedette:order:ok|no|all:<game>:<pending id>``, ``vedette:order:out:<game>:<pending id>:<n>``.
- The detour choice under ``/march status``: ``vedette:march:try|go:<game>:<march>``.

The cog is an extension (``setup``); it registers its buttons when it is loaded.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import autocomplete as ac
from bot.autocomplete import matching
from bot.buttons import GameButton, bot_of
from bot.cogs import Interaction, give_order, resolve_game
from bot.errors import Refused, order_record
from bot.game_choice import GameArg, game_for_autocomplete
from bot.messages import build
from bot.replies import answer, send_notice, thinking
from bot.views import EXPIRED, GAME_ID, NOT_WAITING, remember_preview, still_open
from rules.commands import GameCommand
from rules.surprise.commands import (
    CancelSurpriseMove,
    ChooseDetour,
    ExecuteSurpriseMove,
    OrderSurpriseMove,
    RallyShammed,
    SetForcedMarch,
)
from umpire.modules.surprise import (
    MAX_LEAVE_OUT,
    MarchOrder,
    MarchPlan,
    PendingDetour,
    march_forces,
    march_names,
    march_rallying,
    march_status,
    plan_march,
    plan_without,
    save_plan,
)
from umpire.reads import pending
from umpire.service import UmpireError

if TYPE_CHECKING:
    from bot.client import VedetteBot

GAME_HELP = "Which game (needed only if you are in several and not in the game's channel)"
FORCE_HELP = ("Your units and commands, separated by commas; a command means it plus attached, "
              "e.g. 'II Corps, 1st Cavalry Brigade'")
ROUTE_HELP = ("The detailed route: waypoints (labels or places), 'road' before a waypoint to "
              "follow the road there, e.g. 'road Old Church A1210'")
MARCH_HELP = "Which of your surprise moves (needed only if you have several)"
ALREADY_CHOSEN = "That detour choice was already made with these buttons; it counts once."


#: The refusal of an order whose fields are out of bounds.
TOO_LONG = "that order is too long, empty or out of bounds"


async def forces(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The asking player's own commands and units that a surprise-move order could name now
    (``Umpire.march_choices``: on the map, on no march, in the Command Phase; never an
    enemy's): the last item of the list is completed, each value the ids separated by commas,
    shown by the names (a command's name may hold a comma: "1st Division, XI Corps
    (Devens)")."""
    return await _forces(interaction, current, free=True)


async def _forces(interaction: Interaction, current: str, *, free: bool
                  ) -> list[app_commands.Choice[str]]:
    game_id = await game_for_autocomplete(interaction)
    if game_id is None:
        return []
    umpire = bot_of(interaction).umpire
    try:
        known = await umpire.force_choices(game_id, interaction.user.id)
        offered = await march_forces(umpire, game_id, interaction.user.id) if free else known
    except Exception:
        return []
    return ac.unit_list_choices(current, known, offered)


async def shammed(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The asking player's shammed units of the march in ``march:`` (empty: the one the order
    would take) that ``/march rally`` would take now (``march_rallying``: the order's own check
    of each unit, ruling ORD-60); never an enemy's, none for a player of the other side. The
    last item of the list is completed, each value the ids separated by commas."""
    game_id = await game_for_autocomplete(interaction)
    if game_id is None:
        return []
    umpire = bot_of(interaction).umpire
    march = str(getattr(interaction.namespace, "march", "") or "")
    try:
        known = await umpire.own_unit_choices(game_id, interaction.user.id)
        offered = await march_rallying(umpire, game_id, interaction.user.id, march)
    except Exception:
        return []
    return ac.unit_list_choices(current, known, offered)


def marches(order: MarchOrder) -> ac.Completer:
    """A completer of the asking player's own surprise moves under way that ``order`` would
    take now (every one of them for ``/march status``)."""
    async def complete(interaction: Interaction, current: str
                       ) -> list[app_commands.Choice[str]]:
        game_id = await game_for_autocomplete(interaction)
        if game_id is None:
            return []
        try:
            names = await march_names(bot_of(interaction).umpire, game_id,
                                      interaction.user.id, order)
        except Exception:
            return []
        return matching(names, current)
    return complete


# -- surprise-move orders ------------------------------------------------------------------------
class MarchOrderButton(GameButton,
                       template=re.compile(rf"vedette:order:(?P<action>ok|no|out|all):"
                                           rf"(?P<game>{GAME_ID}):(?P<pid>[0-9a-f]{{12}})"
                                           r"(?::(?P<n>\d{1,2}))?")):
    """Confirm, Cancel, or leave warned units out of a previewed surprise-move order (ruling
    ORD-20)."""

    groups = (("action", str), ("game", str), ("pid", str), ("n", lambda n: int(n or 0)))

    def __init__(self, action: str, game_id: str, pending_id: str, n: int = 0,
                 label: str = "") -> None:
        styles = {"ok": discord.ButtonStyle.success, "no": discord.ButtonStyle.secondary}
        suffix = f":{n}" if action == "out" else ""
        super().__init__(
            game_id, f"vedette:order:{action}:{game_id}:{pending_id}{suffix}",
            (label or {"ok": "Confirm", "no": "Cancel", "out": "Leave out",
                       "all": "Leave out all warned"}[action])[:80],
            styles.get(action, discord.ButtonStyle.primary))
        self.action = action
        self.pending_id = pending_id
        self.n = n

    async def press(self, interaction: Interaction, bot: VedetteBot) -> None:
        async with bot.lock(f"pending:{self.pending_id}"):
            march = await bot.umpire.pending_march(self.pending_id)
            committed = await still_open(bot, interaction, march, self.game_id)
            if committed is None or march is None:
                return
            if not committed:
                if self.action == "no":
                    await bot.umpire.settle_pending_move(march, pending.CANCELLED)
                    await interaction.response.edit_message(
                        content=f"Cancelled: surprise move {march.name} was not sent.",
                        embeds=[], attachments=[], view=None)
                    return
                if self.action in ("out", "all"):
                    await self._leave_out(interaction, bot, march)
                    return
            await interaction.response.defer()
            text = await _send_march(bot, march)
        await interaction.edit_original_response(content=text[:2000], embeds=[], attachments=[],
                                                 view=None)
        await send_notice(interaction)

    async def _leave_out(self, interaction: Interaction, bot: VedetteBot,
                         march: pending.PendingMarch) -> None:
        """The preview again without the unit (or all the warned units): a new pending order
        replaces this one, so the old buttons stop working."""
        if self.action == "out":
            if self.n >= len(march.warned):
                raise Refused(NOT_WAITING)
            left: tuple[str, ...] = (march.warned[self.n],)
        else:
            left = march.warned
        plan = await plan_without(bot.umpire, march, left)
        if plan is None:
            raise Refused(await bot.umpire.pending_expiry(march) or EXPIRED)
        saved = await save_plan(bot.umpire, plan)
        await bot.umpire.settle_pending_move(march, REVISED)
        await bot.umpire.pending_shown(saved.id, march.shown)
        parts = build(plan.text, plan.image, "march.png")
        await interaction.response.edit_message(content=parts.content, embeds=parts.embeds,
                                                attachments=parts.files,
                                                view=march_view(saved.game_id, plan))


#: A pending march replaced by its preview without some units.
REVISED = "revised"


async def _send_march(bot: VedetteBot, march: pending.PendingMarch) -> str:
    """Give the previewed order, then settle its pending order (see ``umpire.reads.pending``)."""
    try:
        reply = await bot.umpire.handle(march.game_id, march.user_id, march.order(),
                                        request_id=pending.request_id(march))
    except UmpireError as e:
        await bot.umpire.settle_pending_move(march, pending.REFUSED)
        return f"Not sent: {e}"
    await bot.umpire.settle_pending_move(march, pending.CONFIRMED)
    bot.outbox.kick(march.game_id)
    return reply.text


def march_view(game_id: str, plan: MarchPlan) -> discord.ui.View:
    """Confirm and Cancel, and a button to leave out each warned unit (and all of them)."""
    view = discord.ui.View(timeout=None)
    pid = plan.order.id
    view.add_item(MarchOrderButton("ok", game_id, pid))
    view.add_item(MarchOrderButton("no", game_id, pid))
    for n, (_, name) in enumerate(plan.warned[:MAX_LEAVE_OUT]):
        view.add_item(MarchOrderButton("out", game_id, pid, n, f"Leave out {name}"))
    if len(plan.warned) > 1:
        view.add_item(MarchOrderButton("all", game_id, pid,
                                       label=f"Leave out all {len(plan.warned)} warned"))
    return view


# -- the detour buttons ---------------------------------------------------------------------------
class DetourButton(GameButton,
                   template=re.compile(rf"vedette:march:(?P<choice>try|go):(?P<game>{GAME_ID}):"
                                       r"(?P<march>m\d{1,6})")):
    """Try the ranking leader's initiative to go round the blocked hex, or march into it."""

    groups = (("choice", str), ("game", str), ("march", str))

    def __init__(self, choice: str, game_id: str, march: str) -> None:
        attempt = choice == "try"
        super().__init__(
            game_id, f"vedette:march:{choice}:{game_id}:{march}",
            "Try a detour (initiative)" if attempt else "March into the blocked hex",
            discord.ButtonStyle.primary if attempt else discord.ButtonStyle.secondary)
        self.choice = choice
        self.march = march

    async def press(self, interaction: Interaction, bot: VedetteBot) -> None:
        await interaction.response.defer()
        reply = await bot.umpire.handle(
            self.game_id, interaction.user.id,
            ChooseDetour(march=self.march, attempt=self.choice == "try"),
            request_id=detour_request_id(interaction, self.march))
        bot.outbox.kick(self.game_id)
        if reply.repeated:  # the message already shows what was chosen: keep it
            await interaction.followup.send(ALREADY_CHOSEN, ephemeral=True)
            return
        await interaction.edit_original_response(content=reply.text[:2000], embeds=[],
                                                 attachments=[], view=None)
        await send_notice(interaction)


def detour_request_id(interaction: Interaction, march: str) -> str:
    """The request id of a choice made with the buttons of one message: the same for both
    buttons and every click on them (a double click, a click on each, an interaction delivered
    again), so that one message's buttons choose once. Buttons with no message (never sent by
    Discord) fall back to the interaction's own id."""
    message = interaction.message
    if message is None:
        return str(interaction.id)
    return f"detour:{message.id}:{march}"


def detour_view(game_id: str, pending: tuple[PendingDetour, ...]) -> discord.ui.View | None:
    if not pending:
        return None
    view = discord.ui.View(timeout=None)
    for p in pending[:2]:
        view.add_item(DetourButton("try", game_id, p.march))
        view.add_item(DetourButton("go", game_id, p.march))
    return view


# -- the commands ---------------------------------------------------------------------------------
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class SurpriseCog(commands.GroupCog, group_name="march",
               group_description="Surprise moves: hidden marches that save their MPs"):
    def __init__(self, bot: VedetteBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(DetourButton, MarchOrderButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(DetourButton, MarchOrderButton)

    async def _give(self, interaction: Interaction, game: str | None,
                    command: GameCommand) -> None:
        await thinking(interaction)
        await give_order(interaction, game, command)

    @app_commands.command(name="order", description="Command Phase: send a surprise-move order "
                                                    "to a force")
    @app_commands.describe(force=FORCE_HELP, route=ROUTE_HELP,
                           forced="Forced-march MPs added each turn (secret straggler checks); "
                                  "change them later with /march forced",
                           detour="Before a blocked hex: ask me, always try initiative, or never",
                           initiative="The force's leader takes it on by initiative (no delay)",
                           name="What to call this march in your messages", game=GAME_HELP)
    @app_commands.autocomplete(force=forces, route=ac.route)
    async def order(self, interaction: Interaction, force: app_commands.Range[str, 1, 500],
                    route: app_commands.Range[str, 1, 500],
                    forced: app_commands.Range[int, 0, 12] = 0,
                    detour: Literal["ask", "always", "never"] = "ask",
                    initiative: bool = False,
                    name: app_commands.Range[str, 1, 60] | None = None,
                    game: GameArg | None = None) -> None:
        command = order_record(OrderSurpriseMove, TOO_LONG, force=force, route=route,
                               forced=forced, detour=detour, by_initiative=initiative,
                               name=name or "")
        await thinking(interaction)
        game_record = await resolve_game(interaction, game)
        # Previewed first (ruling ORD-20): Confirm sends exactly what is shown.
        plan = await plan_march(self.bot.umpire, game_record.id, interaction.user.id, command)
        if plan is None:  # not the side's Command Phase: the umpire answers
            await give_order(interaction, game, command)
            return
        saved = await save_plan(self.bot.umpire, plan)
        await answer(interaction, plan.text, image=plan.image, image_name="march.png",
                     view=march_view(game_record.id, plan))
        await remember_preview(interaction, saved.id)

    @app_commands.command(name="execute", description="Set a surprise move off at the start of "
                                                      "your next movement phase")
    @app_commands.describe(march=MARCH_HELP, game=GAME_HELP)
    @app_commands.autocomplete(march=marches(MarchOrder.EXECUTE))
    async def execute(self, interaction: Interaction,
                      march: app_commands.Range[str, 1, 100] | None = None,
                      game: GameArg | None = None) -> None:
        command = order_record(ExecuteSurpriseMove, TOO_LONG, march=march or "")
        await self._give(interaction, game, command)

    @app_commands.command(name="rally", description="Your movement phase: shammed units rally "
                                                    "from their sham markers, then walk home")
    @app_commands.describe(units="Which shammed units, separated by commas (default: all of "
                                 "the march's)", march=MARCH_HELP, game=GAME_HELP)
    @app_commands.autocomplete(units=shammed, march=marches(MarchOrder.RALLY))
    async def rally(self, interaction: Interaction,
                    units: app_commands.Range[str, 1, 500] | None = None,
                    march: app_commands.Range[str, 1, 100] | None = None,
                    game: GameArg | None = None) -> None:
        command = order_record(RallyShammed, TOO_LONG, march=march or "", units=units or "")
        await self._give(interaction, game, command)

    @app_commands.command(name="cancel", description="Command Phase: new orders for a force on "
                                                     "a surprise move")
    @app_commands.describe(mode="Once accepted: carry the march out as it stands, or reverse it",
                           march=MARCH_HELP,
                           initiative="The force's leader changes its orders by initiative",
                           game=GAME_HELP)
    @app_commands.autocomplete(march=marches(MarchOrder.CANCEL))
    async def cancel(self, interaction: Interaction, mode: Literal["execute", "reverse"],
                     march: app_commands.Range[str, 1, 100] | None = None,
                     initiative: bool = False, game: GameArg | None = None) -> None:
        command = order_record(CancelSurpriseMove, TOO_LONG, march=march or "", mode=mode,
                               by_initiative=initiative)
        await self._give(interaction, game, command)

    @app_commands.command(name="forced", description="Forced-march MPs a surprise move adds each "
                                                     "turn from now on")
    @app_commands.describe(mp="MPs added each turn until you choose again (0: none); secret "
                              "straggler checks", march=MARCH_HELP, game=GAME_HELP)
    @app_commands.autocomplete(march=marches(MarchOrder.FORCED))
    async def forced(self, interaction: Interaction, mp: app_commands.Range[int, 0, 12],
                     march: app_commands.Range[str, 1, 100] | None = None,
                     game: GameArg | None = None) -> None:
        command = order_record(SetForcedMarch, TOO_LONG, march=march or "", mp=mp)
        await self._give(interaction, game, command)

    @app_commands.command(name="status", description="Your surprise moves, with the route on "
                                                     "your map")
    @app_commands.describe(march=MARCH_HELP, game=GAME_HELP)
    @app_commands.autocomplete(march=marches(MarchOrder.STATUS))
    async def status(self, interaction: Interaction,
                     march: app_commands.Range[str, 1, 100] | None = None,
                     game: GameArg | None = None) -> None:
        await thinking(interaction)
        game_record = await resolve_game(interaction, game)
        found = await march_status(self.bot.umpire, game_record.id, interaction.user.id, march)
        await answer(interaction, found.text, image=found.image, image_name="march.png",
                     view=detour_view(game_record.id, found.pending))


async def setup(bot: VedetteBot) -> None:
    """The extension's entry point (``VedetteBot.load_extension``)."""
    await bot.add_cog(SurpriseCog(bot))
