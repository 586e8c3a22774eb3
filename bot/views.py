"""Buttons that keep working after a restart: their custom ids carry all they need (a game id, a
pending order's id, a page), and the bot registers them as dynamic items at start-up.

- Confirm / Cancel under a move's preview: ``vedette:move:ok|no:<game>:<pending id>``.

A preview's buttons work only in the phase it was shown in (ruling ORD-22); when the phase ends
the bot edits the preview to say it expired (``expire_previews``). A click on a button of no
order of the clicker's gets one answer whatever the reason (``NOT_WAITING``).
- Newer / Older under an inbox page: ``vedette:inbox:<game>:<page>``.
- Done under a side's orders message: ``vedette:done:<game>:<side>:<turn>:<step>``.
- A choice under a question put at once: ``vedette:answer:<game>:<question>:<choice>``.
- A hot spot's map under a dossier's gallery: ``vedette:map:<game>:<cell>:<radius>``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.buttons import GameButton, bot_of
from bot.errors import Refused
from bot.messages import build, image_file
from bot.replies import answer, send_notice, thinking
from rules import commands as cmd
from umpire.games import ready
from umpire.games.questions import ANSWER_ACTION
from umpire.outbox.drain import Picture
from umpire.reads import pending
from umpire.service import UmpireError

if TYPE_CHECKING:
    from bot.client import VedetteBot

Interaction = discord.Interaction[Any]
log = logging.getLogger("vedette.views")
#: The answer to a click on a button of no order of the clicker's (none, another's, forged).
NOT_WAITING = ("no order of yours is waiting on this button (it may have been given, cancelled "
               "or expired): give it again")
EXPIRED = "This preview has expired: nothing was ordered; give the order again."
#: How long Discord lets an interaction's answer be edited through its token (less a margin).
TOKEN_LIFE = timedelta(minutes=14)
GAME_ID = r"[A-Za-z0-9_-]{1,40}"
SIDE_ID = r"[a-z][a-z0-9_-]{0,29}"
INBOX_PER_PAGE = 5


# -- moves ---------------------------------------------------------------------------------------
class MoveButton(GameButton,
                 template=re.compile(rf"vedette:move:(?P<action>ok|no):(?P<game>{GAME_ID}):"
                                     r"(?P<pid>[0-9a-f]{12})")):
    """Confirm or Cancel a previewed move."""

    groups = (("action", str), ("game", str), ("pid", str))

    def __init__(self, action: str, game_id: str, pending_id: str) -> None:
        confirm = action == "ok"
        super().__init__(
            game_id, f"vedette:move:{action}:{game_id}:{pending_id}",
            "Confirm" if confirm else "Cancel",
            discord.ButtonStyle.success if confirm else discord.ButtonStyle.secondary)
        self.action = action
        self.pending_id = pending_id

    async def press(self, interaction: Interaction, bot: VedetteBot) -> None:
        async with bot.lock(f"pending:{self.pending_id}"):
            move = await bot.umpire.pending_move(self.pending_id)
            committed = await still_open(bot, interaction, move, self.game_id)
            if committed is None or move is None:
                return
            if self.action == "ok" and not committed:
                outdated = await bot.umpire.pending_outdated(move)
                if outdated is not None:
                    await bot.umpire.settle_pending_move(move, pending.REFUSED)
                    await interaction.response.edit_message(content=outdated, embeds=[],
                                                            attachments=[], view=None)
                    return
            if self.action != "ok" and not committed:
                await bot.umpire.settle_pending_move(move, pending.CANCELLED)
                await interaction.response.edit_message(
                    content=f"Cancelled: {move.unit} was not ordered to {move.route}.",
                    embeds=[], attachments=[], view=None)
                await send_notice(interaction)
                return
            await interaction.response.defer()
            text = await _confirm(bot, move)
        await interaction.edit_original_response(content=text[:2000], embeds=[], attachments=[],
                                                 view=None)
        await send_notice(interaction)


async def still_open(bot: VedetteBot, interaction: Interaction,
                      order: pending.Pending | None, game_id: str) -> bool | None:
    """The checks a click on any preview's button makes first: refused for no order of the
    clicker's in this game (one answer for a forged id, another player's and another game's,
    so that none learns anything) and for an order already settled. Then whether the order is
    already in the log (confirmed just before a crash: it stands, whatever the phase is now);
    ``None`` when its phase is over and the click has been answered so."""
    if order is None or order.game_id != game_id or order.user_id != interaction.user.id:
        raise Refused(NOT_WAITING)
    if order.status == pending.EXPIRED:
        raise Refused(await bot.umpire.pending_expiry(order) or EXPIRED)
    if order.status != pending.OPEN:
        raise Refused(f"this order was already {order.status}")
    if await bot.umpire.accepted(order.game_id, pending.request_id(order)):
        return True
    expired = await bot.umpire.pending_expiry(order)
    if expired is not None:
        await interaction.response.edit_message(content=expired, embeds=[], attachments=[],
                                                view=None)
        return None
    return False


async def _committed(bot: VedetteBot, move: pending.PendingMove) -> bool:
    """Whether the umpire already accepted this pending order's move (confirmed just before a
    crash that left the order open)."""
    return await bot.umpire.accepted(move.game_id, pending.request_id(move))


async def _confirm(bot: VedetteBot, move: pending.PendingMove) -> str:
    """Commit a confirmed move, then settle its pending order (in that order: see
    ``umpire.reads.pending``); the words for the player. A Cancel that comes too late (the move was
    committed before a restart) confirms it, since the move is already in the log."""
    # Committed before a restart, and not settled: say so rather than claim a new move.
    done_before = await _committed(bot, move)
    try:
        reply = await bot.umpire.handle(move.game_id, move.user_id,
                                        cmd.Move(unit=move.unit, route=move.route),
                                        request_id=pending.request_id(move))
    except UmpireError as e:
        await bot.umpire.settle_pending_move(move, pending.REFUSED)
        return f"Not moved: {e}"
    await bot.umpire.settle_pending_move(move, pending.CONFIRMED)
    bot.outbox.kick(move.game_id)
    if done_before:
        return (f"Already ordered: {move.unit} to {move.route} (confirmed before a restart; "
                "it was applied once).")
    return f"Ordered: {move.unit} to {move.route}.\n{reply.text}"


# -- previews that expire with their phase ------------------------------------------------------
async def remember_preview(interaction: Interaction, pending_id: str) -> None:
    """Note where a preview was shown, so that it can be edited when its phase ends: the
    interaction's token (good for 15 minutes, and the only way to edit an ephemeral answer) and
    the message and channel (a DM's message can be edited by its id later)."""
    bot = bot_of(interaction)
    shown: dict[str, Any] = {"app": str(interaction.application_id), "token": interaction.token,
                             "until": (interaction.created_at + TOKEN_LIFE).isoformat()}
    try:
        message = await interaction.original_response()
        shown |= {"message": str(message.id), "channel": str(message.channel.id)}
    except discord.HTTPException:
        pass
    await bot.umpire.pending_shown(pending_id, shown)


async def expire_previews(bot: VedetteBot, game_id: str) -> int:
    """Expire the game's previews whose phase is over and edit their messages to say so, where
    Discord still allows it; how many expired. A click on one is refused in any case."""
    expired = await bot.umpire.expire_pending(game_id)
    for move, words in expired:
        await _edit_shown(bot, move.shown, words)
    return len(expired)


async def _edit_shown(bot: VedetteBot, shown: Mapping[str, Any], words: str) -> None:
    message = str(shown.get("message", ""))
    try:
        until = datetime.fromisoformat(str(shown.get("until", "")))
    except ValueError:
        until = datetime.min.replace(tzinfo=UTC)
    try:
        if shown.get("token") and datetime.now(UTC) < until and message.isdigit():
            hook = discord.Webhook.partial(int(str(shown["app"])), str(shown["token"]),
                                           client=bot)
            await hook.edit_message(int(message), content=words, embeds=[], attachments=[],
                                    view=None)
            return
        channel = str(shown.get("channel", ""))
        if channel.isdigit() and message.isdigit():
            target = bot.get_partial_messageable(int(channel)).get_partial_message(int(message))
            await target.edit(content=words, embeds=[], attachments=[], view=None)
    except (discord.HTTPException, ValueError):
        # The message is gone or no longer editable (an ephemeral answer after 15 minutes):
        # its buttons are refused anyway.
        log.info("could not edit an expired preview", exc_info=True)


def confirm_view(game_id: str, pending_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(MoveButton("ok", game_id, pending_id))
    view.add_item(MoveButton("no", game_id, pending_id))
    return view


# -- the inbox -----------------------------------------------------------------------------------
STATUS_NOTE = {"sent": "", "pending": " (not sent yet)",
               "failed": " (could not be delivered; kept here)"}


async def inbox_page(bot: VedetteBot, game_id: str, user_id: int, page: int
                     ) -> tuple[str | None, list[discord.Embed], list[discord.File],
                                discord.ui.View | None]:
    """One page of a player's inbox: content, embeds, the maps on the page, and the paging
    buttons."""
    items, pages = await bot.umpire.inbox(game_id, user_id, page, per_page=bot.inbox_per_page)
    page = max(0, min(page, pages - 1))
    lines = [f"**Inbox, game {game_id}**: page {page + 1} of {pages}, newest first."]
    files: list[discord.File] = []
    for d in items:
        when = d.created_at.strftime("%Y-%m-%d %H:%M UTC") if d.created_at else ""
        map_note = ""
        if d.image is not None and len(files) < 10:
            files.append(image_file(d.image, f"{len(files) + 1}-{d.image_name or 'map.png'}"))
            map_note = f" (map {len(files)} attached)"
        note = STATUS_NOTE.get(d.status, "")
        if d.status == "failed" and d.kind == "side":
            note = " (sent while no one played your side; kept here)"
        lines.append(f"\n**{when}**{note}{map_note}\n{d.text}")
    if not items:
        lines.append("\nNothing yet.")
    parts = build("\n".join(lines))
    view: discord.ui.View | None = None
    if pages > 1:
        view = discord.ui.View(timeout=None)
        if page > 0:
            view.add_item(InboxButton(game_id, page - 1, "Newer"))
        if page < pages - 1:
            view.add_item(InboxButton(game_id, page + 1, "Older"))
    return parts.content, parts.embeds, files, view


class InboxButton(GameButton,
                  template=re.compile(rf"vedette:inbox:(?P<game>{GAME_ID}):(?P<page>\d{{1,6}})")):
    """Turn to another page of the inbox (the clicking player's own)."""

    groups = (("game", str), ("page", int))

    def __init__(self, game_id: str, page: int, label: str = "Page") -> None:
        super().__init__(game_id, f"vedette:inbox:{game_id}:{page}", label,
                         discord.ButtonStyle.secondary)
        self.page = page

    async def press(self, interaction: Interaction, bot: VedetteBot) -> None:
        await interaction.response.defer()
        content, embeds, files, view = await inbox_page(bot, self.game_id, interaction.user.id,
                                                        self.page)
        await interaction.edit_original_response(content=content, embeds=embeds,
                                                 attachments=files, view=view)


# -- the orders' Done button -------------------------------------------------------------------
DONE_TEMPLATE = re.compile(rf"vedette:done:(?P<game>{GAME_ID}):(?P<side>{SIDE_ID}):"
                           r"(?P<turn>\d{1,4}):(?P<step>\d{1,3})")


class DoneButton(GameButton, template=DONE_TEMPLATE):
    """Done under a side's orders message: the presser's ``/done`` for that step of play. A
    press for a step that is over, or by someone who does not command that side, changes
    nothing (the umpire checks both: ``Umpire.done``)."""

    groups = (("game", str), ("side", str), ("turn", int), ("step", int))

    def __init__(self, game_id: str, side: str, turn: int, step: int) -> None:
        super().__init__(game_id, f"vedette:done:{game_id}:{side}:{turn}:{step}", "Done",
                         discord.ButtonStyle.primary)
        self.side = side
        self.turn = turn
        self.step = step

    async def press(self, interaction: Interaction, bot: VedetteBot) -> None:
        await thinking(interaction)
        reply = await bot.umpire.done(self.game_id, interaction.user.id,
                                      request_id=str(interaction.id), side=self.side,
                                      turn=self.turn, step=self.step)
        await answer(interaction, reply.text)
        bot.outbox.kick(self.game_id)


# -- a question's choices -----------------------------------------------------------------------
#: Discord's bound on a custom id.
CUSTOM_ID_MAX = 100
ANSWER_TEMPLATE = re.compile(rf"vedette:answer:(?P<game>{GAME_ID}):"
                             rf"(?P<question>{SIDE_ID}:q\d{{1,6}}):(?P<choice>[A-Za-z0-9_-]{{1,40}})")


def answer_custom_id(game_id: str, question: str, choice: str) -> str | None:
    """The custom id of a choice's button, ``None`` when it would not fit Discord's bound or
    the template (the question's words still say how to answer by command)."""
    custom_id = f"vedette:answer:{game_id}:{question}:{choice}"
    if len(custom_id) > CUSTOM_ID_MAX or not ANSWER_TEMPLATE.fullmatch(custom_id):
        return None
    return custom_id


class AnswerButton(GameButton, template=ANSWER_TEMPLATE):
    """One choice under a question put to a side at once: the presser's answer
    (``rules.commands.Answer``), decided by the rules like a typed one. Whoever presses it is
    answered as a player of their own side: a player of another side, a press after the
    answer, or a forged id naming another question or a choice not offered, is refused and
    changes nothing."""

    groups = (("game", str), ("question", str), ("choice", str))

    def __init__(self, game_id: str, question: str, choice: str, default: bool = False) -> None:
        super().__init__(game_id, f"vedette:answer:{game_id}:{question}:{choice}",
                         choice.capitalize() + (" (default)" if default else ""),
                         discord.ButtonStyle.secondary if default
                         else discord.ButtonStyle.primary)
        self.question = question
        self.choice = choice

    async def press(self, interaction: Interaction, bot: VedetteBot) -> None:
        await thinking(interaction)
        reply = await bot.umpire.handle(self.game_id, interaction.user.id,
                                        cmd.Answer(question=self.question, choice=self.choice),
                                        request_id=str(interaction.id))
        await answer(interaction, reply.text)
        bot.outbox.kick(self.game_id)


def _answer_item(b: Mapping[str, Any]) -> AnswerButton | None:
    game, question, choice = b.get("game"), b.get("question"), b.get("choice")
    if not (isinstance(game, str) and isinstance(question, str) and isinstance(choice, str)):
        return None
    if answer_custom_id(game, question, choice) is None:
        return None
    return AnswerButton(game, question, choice, b.get("default") is True)


# -- maps of hot spots ---------------------------------------------------------------------------
CELL = r"[A-Za-z0-9._-]{1,20}"
MAP_TEMPLATE = re.compile(rf"vedette:map:(?P<game>{GAME_ID}):(?P<around>{CELL}):"
                          r"(?P<radius>[0-9]{1,2})")
#: The longest label Discord shows on a button.
MAX_LABEL = 80


class MapButton(GameButton, template=MAP_TEMPLATE):
    """The map of one hot spot of a dossier, as the presser's side knows it now: the answer
    ``/map around:`` gives, to the presser alone. Whoever presses it sees their own side's view
    (a player of another side, their own), so a forged cell shows nothing ``/map`` would not."""

    groups = (("game", str), ("around", str), ("radius", int))

    def __init__(self, game_id: str, around: str, radius: int, label: str = "") -> None:
        super().__init__(game_id, f"vedette:map:{game_id}:{around}:{radius}",
                         (label or f"Map near {around}")[:MAX_LABEL],
                         discord.ButtonStyle.secondary)
        self.around = around
        self.radius = radius

    async def press(self, interaction: Interaction, bot: VedetteBot) -> None:
        await thinking(interaction)
        reply = await bot.umpire.my_map(self.game_id, interaction.user.id, self.around,
                                        self.radius)
        await answer(interaction, reply.text, image=reply.image, image_name="map.png")


def map_buttons(game_id: str, pictures: Sequence[Picture]) -> list[discord.ui.Item[Any]]:
    """A button for each close-up of a gallery, named by its alt text's first words
    ("Contact near A2409"); none for a cell whose custom id would not fit."""
    items: list[discord.ui.Item[Any]] = []
    for p in pictures:
        if p.around is None or p.radius is None:
            continue
        if MAP_TEMPLATE.fullmatch(f"vedette:map:{game_id}:{p.around}:{p.radius}"):
            items.append(MapButton(game_id, p.around, p.radius, p.alt.partition(":")[0]))
    return items


#: How the buttons a cog brings are made from a delivery's records, by their ``action``: each
#: cog registers its own as it is loaded (``bot.cogs.orders``: the Move button).
BUTTON_MAKERS: dict[str, Callable[[Mapping[str, Any]], discord.ui.Item[Any] | None]] = {}


def delivery_items(buttons: Sequence[Mapping[str, Any]]) -> list[discord.ui.Item[Any]]:
    """The buttons a delivery carries, as Discord components. A record this bot does not know,
    or one whose custom id would not fit, is left out: the commands still do what any button
    does."""
    items: list[discord.ui.Item[Any]] = []
    for b in buttons:
        make = BUTTON_MAKERS.get(str(b.get("action")))
        if make is not None:
            if (made := make(b)) is not None:
                items.append(made)
            continue
        if b.get("action") == ANSWER_ACTION:
            if (choice := _answer_item(b)) is not None:
                items.append(choice)
            continue
        if b.get("action") != ready.DONE_ACTION:
            continue
        game, side, turn, step = b.get("game"), b.get("side"), b.get("turn"), b.get("step")
        if not (isinstance(game, str) and isinstance(side, str) and isinstance(turn, int)
                and isinstance(step, int)):
            continue
        custom_id = f"vedette:done:{game}:{side}:{turn}:{step}"
        if len(custom_id) <= 100 and DONE_TEMPLATE.fullmatch(custom_id):
            items.append(DoneButton(game, side, turn, step))
    return items


def delivery_view(buttons: Sequence[Mapping[str, Any]]) -> discord.ui.View | None:
    """The buttons a delivery carries, as a plain message's components (``None`` for none)."""
    items = delivery_items(buttons)
    if not items:
        return None
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
