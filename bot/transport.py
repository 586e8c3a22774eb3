"""``DiscordTransport``: the umpire's deliveries of one game as Discord messages.

- ``public``: the game's channel.
- ``player``: a DM to the player; or, when the host chose private threads, the player's side's
  private thread (one copy per side: the umpire addresses a side's message to each of its
  players, and the thread gets the copy of the side's first seated player in it). A player no
  longer seated gets nothing; a player who could not be added to the thread finds their
  messages in /inbox.
- ``side`` (a side with no player seated): its thread in thread mode; otherwise it waits in the
  side's /inbox.
- ``host``: a DM to the host.

A delivery is one message. What a side's players read (``player``, ``side``) is a component
message (``bot.messages.layout``): the text in a container, cut at its dossier's sections, the
gallery of its pictures with their alt text, and its buttons (Done under a side's orders, a
choice under a question, a map of each close-up, the presser's units under a call for orders:
``bot.views``, ``bot.paging``). Past Discord's limits for
such a message, and for the channel and the host, it is a plain message: text, a map as an
attachment shown in an embed, and the buttons. A DM refused
because the player does not accept DMs (50007, 50278) is permanent: the player is marked
unreachable, owed a notice, and the message waits in /inbox. Other failures (Discord down, a
timeout, missing permissions) are transient: the delivery stays pending and the outbox retries.
Within one pass, once a destination has failed the later deliveries to it are not tried, so
that their order is kept and Discord is not hammered.

Every message carries a nonce derived from its delivery by the umpire, with ``enforce_nonce``
(discord.py sets it with any nonce): when a crash falls after Discord accepted a message and before
the delivery was marked sent, the retry after the restart is answered with the message already
posted instead of posting it again, provided it comes within the few minutes Discord remembers
nonces. Past that, the message is posted again: delivery is at least once (docs/hosting.md).

A public delivery with an ``edit_key`` (the turn's status post) edits the message the first
delivery of that key posted, and so does a player's (a side's orders message, edited when a
side-mate is ready), in that player's DMs: its id is remembered in the umpire's front values,
so that edits go on after a restart; a message deleted meanwhile is posted anew. A message
notifies only the users its delivery names in ``mentions`` (the client's default notifies
nobody)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot import threads
from bot.messages import Layout, build, layout
from bot.pacing import Pacer
from bot.paging import UnitsPageButton
from bot.views import delivery_items, delivery_view, map_buttons
from umpire.games.ready import DONE_ACTION
from umpire.outbox.drain import NONCE_LENGTH, DeliveryRejected, Picture, lane_of

if TYPE_CHECKING:
    from bot.client import VedetteBot
    from umpire.gameref import GameRef

log = logging.getLogger("vedette.outbox")

DMS_CLOSED = frozenset({50007, 50278})
GONE = frozenset({10003, 10013, 10008})  # unknown channel, user, message
UNKNOWN_MESSAGE = 10008
#: How a remembered message id says the message is a component message (edited as one).
LAYOUT_MEMORY = "v2:"


def edit_memory(game_id: str, edit_key: str) -> str:
    """The front value holding the id of the message a game's ``edit_key`` posted."""
    return f"edit:{game_id}:{edit_key}"


def allowed(mentions: tuple[int, ...]) -> discord.AllowedMentions:
    """Exactly these users may be notified: nobody else, no role, never everyone."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=u) for u in mentions])

@dataclass(frozen=True, slots=True)
class _Outgoing:
    """What goes with the message being sent besides its words: the outbox lane it goes in,
    its nonce, its buttons, whom it may notify, its gallery and whether it may be a component
    message (one per send: the outbox's lanes send side by side)."""

    lane: str
    nonce: str | None
    buttons: tuple[Mapping[str, Any], ...]
    mentions: tuple[int, ...]
    pictures: tuple[Picture, ...] = ()
    components: bool = False


class DiscordTransport:
    """Sends one game's deliveries; make a new one for each pass over the outbox. The outbox's
    lanes share it and send side by side, so it keeps nothing of one send for the next but the
    destinations that failed and when each lane may send next.

    **Pacing** (``pace`` seconds, ``VEDETTE_SEND_PACE``): each message goes to Discord at its
    lane's next moment (``bot.pacing``), not as soon as it is ready, so that when it arrives
    does not show how much work the bot did meanwhile for other audiences (ruling INFO-13)."""

    def __init__(self, bot: VedetteBot, game: GameRef, *, since: float | None = None,
                 pace: float = 0.0) -> None:
        self.bot = bot
        self.game = game
        self.umpire = bot.umpire
        self.failed: dict[str, DeliveryRejected] = {}
        #: The outbox lanes left with a delivery to try again later (a passing failure).
        self.stalled: set[str] = set()
        self.pacer = Pacer(asyncio.get_running_loop().time() if since is None else since, pace,
                           self._lanes_in_order)

    @property
    def transient_failures(self) -> bool:
        return any(not r.permanent for r in self.failed.values())

    async def send(self, kind: str, target: str, text: str, image: bytes | None,
                   image_name: str | None, *, key: str = "",
                   buttons: Sequence[Mapping[str, Any]] = (), edit_key: str = "",
                   mentions: tuple[int, ...] = (), pictures: Sequence[Picture] = ()) -> None:
        try:
            await self._send(kind, target, text, image, image_name, key=key, buttons=buttons,
                             edit_key=edit_key, mentions=mentions, pictures=pictures)
        except DeliveryRejected as e:
            if not e.permanent:
                self.stalled.add(lane_of(kind, target))
            raise

    async def _send(self, kind: str, target: str, text: str, image: bytes | None,
                    image_name: str | None, *, key: str,
                    buttons: Sequence[Mapping[str, Any]], edit_key: str,
                    mentions: tuple[int, ...], pictures: Sequence[Picture]) -> None:
        # The umpire's drain keys each delivery with its nonce (``umpire.outbox.drain.nonce``): the
        # same on every retry, and keyed with the game's seed, which the bot never holds.
        out = _Outgoing(lane_of(kind, target), key[:NONCE_LENGTH] if key else None,
                        tuple(buttons), mentions, tuple(pictures),
                        components=kind in ("player", "side"))
        if kind == "public":
            if self.game.channel_id is None:
                raise DeliveryRejected("the game has no channel", permanent=True)
            channel = self.bot.get_partial_messageable(self.game.channel_id,
                                                       guild_id=self.game.guild_id)
            where = f"channel:{self.game.channel_id}"
            if edit_key:
                await self._post_or_edit(out, where, channel, edit_key, text, image, image_name)
            else:
                await self._post(out, where, channel, text, image, image_name)
        elif kind == "player":
            await self._to_player(out, int(target), text, image, image_name, edit_key)
        elif kind == "side":
            if threads.mode(self.game) != threads.THREADS:
                raise DeliveryRejected("no player is seated on this side; it waits in the "
                                       "side's /inbox", permanent=True)
            await self._to_thread(out, target, text, image, image_name)
        elif kind == "host":
            host = int(target) if target.isdigit() else self.game.host_user_id
            await self._dm(out, host, text, image, image_name)
        else:
            raise DeliveryRejected(f"unknown delivery kind {kind!r}", permanent=True)

    async def _to_player(self, out: _Outgoing, user_id: int, text: str, image: bytes | None,
                         image_name: str | None, edit_key: str = "") -> None:
        player = await self.umpire.player(self.game.id, user_id)
        if player is None:  # a private message never follows a player out of the game
            raise DeliveryRejected("the player has left the game", permanent=True)
        if threads.mode(self.game) != threads.THREADS:
            await self._dm(out, user_id, text, image, image_name, edit_key)
            return
        key, thread = await self._thread(player.side)
        unreachable = threads.unreachable_players(self.game)
        if user_id in unreachable:
            raise DeliveryRejected("not in the side's private thread; kept in /inbox",
                                   permanent=True)
        seated = [p for p in await self.umpire.players(self.game.id)
                  if p.side == player.side and p.user_id not in unreachable]
        if seated and seated[0].user_id != user_id:
            return  # the side's thread gets one copy: the first seated player's in it
        await self._post(out, key, thread, text, image, image_name)

    async def _to_thread(self, out: _Outgoing, side: str, text: str, image: bytes | None,
                         image_name: str | None) -> None:
        key, thread = await self._thread(side)
        await self._post(out, key, thread, text, image, image_name)

    async def _thread(self, side: str) -> tuple[str, discord.Thread]:
        """The side's thread, with exactly its seated players in it."""
        key = f"thread:{side}"
        self._check(key)
        try:
            thread, self.game = await threads.side_thread(self.bot, self.game, side)
        except discord.HTTPException as e:
            raise self._fail(key, e, permanent=e.code in GONE) from None
        return key, thread

    async def _dm(self, out: _Outgoing, user_id: int, text: str, image: bytes | None,
                  image_name: str | None, edit_key: str = "") -> None:
        """A DM; with ``edit_key``, an edit of the DM that key posted to this user (a side's
        orders message, edited when a side-mate is ready), or that DM if there is none yet."""
        key = f"dm:{user_id}"
        self._check(key)
        try:
            channel = await self.bot.create_dm(discord.Object(id=user_id))
        except discord.HTTPException as e:
            raise self._fail(key, e, permanent=e.code in GONE) from None
        except (aiohttp.ClientError, OSError, TimeoutError) as e:
            raise self._fail(key, e, permanent=False) from None
        if edit_key:
            await self._post_or_edit(out, key, channel, f"{edit_key}:{user_id}", text, image,
                                     image_name, dm_user=user_id)
        else:
            await self._post(out, key, channel, text, image, image_name, dm_user=user_id)

    def _check(self, key: str) -> None:
        if key in self.failed:
            raise self.failed[key]

    def _fail(self, key: str, error: BaseException, permanent: bool) -> DeliveryRejected:
        reason = f"{type(error).__name__}: {error}"[:300]
        rejected = DeliveryRejected(reason, permanent=permanent)
        self.failed[key] = rejected
        log.warning("game %s: could not send to %s (%s): %s", self.game.id, key,
                    "permanent" if permanent else "will retry", reason)
        return rejected

    async def _post_or_edit(self, out: _Outgoing, key: str,
                            channel: discord.PartialMessageable | discord.DMChannel,
                            edit_key: str, text: str, image: bytes | None,
                            image_name: str | None, *, dm_user: int | None = None) -> None:
        """Edit the message this key posted; post it (and remember it) if there is none yet,
        or if it was deleted."""
        self._check(key)
        memory = edit_memory(self.game.id, edit_key)
        posted = await self.umpire.remembered(memory) or ""
        was_layout = posted.startswith(LAYOUT_MEMORY)
        posted = posted.removeprefix(LAYOUT_MEMORY)
        parts = self._layout(out, text, image, image_name) if was_layout else None
        if posted.isdigit() and (parts is not None or not was_layout):
            # A component message stays one (Discord keeps its flag); one whose text has
            # outgrown it is posted anew as a plain message below.
            kwargs: dict[str, Any] = {"allowed_mentions": allowed(out.mentions)}
            if parts is not None:
                kwargs |= {"view": parts.view, "attachments": parts.files}
            else:
                plain = build(text, image, image_name)
                kwargs |= {"content": plain.content, "embeds": plain.embeds}
                if plain.files:
                    kwargs["attachments"] = plain.files
            try:
                async with self.pacer.turn(out.lane):
                    await channel.get_partial_message(int(posted)).edit(**kwargs)
                return
            except discord.NotFound as e:
                if e.code != UNKNOWN_MESSAGE:
                    raise self._fail(key, e, permanent=e.code in GONE) from None
                # Deleted meanwhile: post it again below.
            except discord.HTTPException as e:
                raise self._fail(key, e, permanent=False) from None
            except (TimeoutError, aiohttp.ClientError, OSError) as e:
                raise self._fail(key, e, permanent=False) from None
        message_id, as_layout = await self._post(out, key, channel, text, image, image_name,
                                                 dm_user=dm_user)
        await self.umpire.remember(memory,
                                   (LAYOUT_MEMORY if as_layout else "") + str(message_id))

    def _layout(self, out: _Outgoing, text: str, image: bytes | None,
                image_name: str | None) -> Layout | None:
        """The message as a component message, if it may be one and fits."""
        if not out.components or (image is not None and image_name
                                  and not image_name.endswith(".png")):
            return None
        pictures = out.pictures or (
            (Picture(image, image_name or "map.png", ""),) if image is not None else ())
        buttons = [*delivery_items(out.buttons), *map_buttons(self.game.id, pictures)]
        if any(b.get("action") == DONE_ACTION for b in out.buttons):
            # A call for orders lists only a few of the units that can act: the whole list
            # pages with buttons, as /units does (the presser's own side's, privately).
            buttons.append(UnitsPageButton(self.game.id, 0, label="Your units"))
        return layout(text, pictures, buttons)

    async def _post(self, out: _Outgoing, key: str, channel: discord.abc.Messageable,
                    text: str, image: bytes | None, image_name: str | None, *,
                    dm_user: int | None = None) -> tuple[int, bool]:
        """Post the message; its id, and whether it is a component message."""
        self._check(key)
        kwargs: dict[str, Any] = {"allowed_mentions": allowed(out.mentions)}
        if out.nonce is not None:
            kwargs["nonce"] = out.nonce
        content: str | None = None
        parts = self._layout(out, text, image, image_name)
        if parts is not None:
            kwargs["view"] = parts.view
            if parts.files:
                kwargs["files"] = parts.files
        else:
            plain = build(text, image, image_name)
            content = plain.content
            kwargs["embeds"] = plain.embeds
            if plain.files:
                kwargs["files"] = plain.files
            if (view := delivery_view(out.buttons)) is not None:
                kwargs["view"] = view
        try:
            async with self.pacer.turn(out.lane):
                message = await channel.send(content, **kwargs)
        except discord.Forbidden as e:
            if dm_user is not None and e.code in DMS_CLOSED:
                await self._dms_closed(dm_user)
                raise self._fail(key, e, permanent=True) from None
            raise self._fail(key, e, permanent=False) from None
        except discord.NotFound as e:
            raise self._fail(key, e, permanent=e.code in GONE) from None
        except discord.HTTPException as e:
            raise self._fail(key, e, permanent=False) from None
        except (TimeoutError, aiohttp.ClientError, OSError) as e:
            raise self._fail(key, e, permanent=False) from None
        if dm_user is not None:
            await self._dms_open(dm_user)
        return message.id, parts is not None

    async def _lanes_in_order(self) -> list[str]:
        """The game's lanes in the order of their slots (``bot.pacing``): the channel, the host,
        then the seated players in the order they took their seats (all of it public)."""
        players = await self.umpire.players(self.game.id)
        return [lane_of("public", ""), lane_of("host", str(self.game.host_user_id)),
                *(lane_of("player", str(p.user_id)) for p in players)]

    async def _dms_closed(self, user_id: int) -> None:
        player = await self.umpire.player(self.game.id, user_id)
        if player is not None and player.dm_ok:
            await self.umpire.set_dm_ok(self.game.id, user_id, False)
        await self.umpire.dm_failed(user_id)

    async def _dms_open(self, user_id: int) -> None:
        player = await self.umpire.player(self.game.id, user_id)
        if player is not None and not player.dm_ok:
            await self.umpire.set_dm_ok(self.game.id, user_id, True)
        await self.umpire.dm_worked(user_id)
