"""The host's choice of delivery: DMs (the default) or one private thread per side.

A side's thread is made in the game's channel the first time something is sent to the side. Its
members are exactly the side's seated players: before anything is posted to it, the bot removes
whoever it added and no longer holds a seat on the side (a player who left, or was unseated) and
adds the side's seated players. A seated player Discord will not add (not a member of the server,
or gone) is reported to the host once, and their messages wait in their /inbox. The thread ids,
the members the bot added and the unreachable players are kept in the game's options, each
change made to the options as stored when it is written (``Umpire.change_game_options``): another
bot process sharing the database may have recorded another side's thread or members meanwhile,
and that must not be lost (a member the bot added but forgot would never be removed). Private
threads can be read by members with the Manage Threads permission, which is why the host is
warned when choosing them.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any, Literal

import discord

from umpire.outbox.drain import DeliveryRejected

log = logging.getLogger("vedette.outbox")

if TYPE_CHECKING:
    from bot.client import VedetteBot
    from umpire.gameref import GameRef

DMS = "dms"
THREADS = "threads"
ARCHIVE_MINUTES: Literal[10080] = 10080  # a week, Discord's longest
THREADS_OPTION = "threads"  # side -> thread id
MEMBERS_OPTION = "thread_members"  # side -> the user ids the bot added to its thread
UNREACHABLE_OPTION = "thread_unreachable"  # user id -> side: could not be added, host told
NOT_A_MEMBER = frozenset({10007, 10013})  # unknown member, unknown user


Options = Mapping[str, Any]
OptionsChange = Callable[[dict[str, Any]], dict[str, Any]]


def mode(game: GameRef) -> str:
    return THREADS if game.options.get("delivery") == THREADS else DMS


def thread_ids(game: GameRef) -> dict[str, str]:
    return _thread_ids(game.options)


def _thread_ids(options: Options) -> dict[str, str]:
    ids = options.get(THREADS_OPTION)
    return {str(k): str(v) for k, v in ids.items()} if isinstance(ids, dict) else {}


async def set_mode(bot: VedetteBot, game: GameRef, chosen: str) -> GameRef:
    return await bot.umpire.set_game_options(game.id, {"delivery": chosen})


def record_thread(side: str, replaced: str | None, made: str) -> OptionsChange:
    """The change recording ``made`` as the side's thread, with no member added yet, in place
    of ``replaced`` (the thread stored before, gone; ``None``: none). If another thread was
    recorded for the side meanwhile (by another process), the options stay as they are: that
    thread is the side's."""
    def change(options: dict[str, Any]) -> dict[str, Any]:
        ids = _thread_ids(options)
        if ids.get(side, replaced) != replaced:
            return options
        return {**options, THREADS_OPTION: {**ids, side: made},
                MEMBERS_OPTION: {**_members_of(options), side: []}}
    return change


def record_sync(side: str, *, had: Collection[int], now: Collection[int],
                reported: Collection[int], cleared: Collection[int]) -> OptionsChange:
    """The change recording one ``_sync`` of the side's thread: the members it removed
    (``had`` but not ``now``) and added (``now`` but not ``had``), the side's players found
    unreachable (``reported``) and those no longer counted so (``cleared``). Applied to the
    side's entries as stored, so that another process's record, of this side or another, is
    kept."""
    removed, added = set(had) - set(now), set(now) - set(had)
    def change(options: dict[str, Any]) -> dict[str, Any]:
        members = _members_of(options)
        kept = (set(members.get(side, had)) - removed) | added
        unreachable = {u: s for u, s in _unreachable_of(options).items()
                       if not (s == side and u in cleared)}
        unreachable |= {u: side for u in reported}
        return {**options, MEMBERS_OPTION: {**members, side: sorted(kept)},
                UNREACHABLE_OPTION: {str(u): s for u, s in unreachable.items()}}
    return change


async def side_name(bot: VedetteBot, game: GameRef, side: str) -> str:
    """The side's name in the scenario the game was pinned to (its id if it has none)."""
    return dict(await bot.umpire.sides(game.id)).get(side, side)


async def _existing(bot: VedetteBot, thread_id: str | None) -> discord.Thread | None:
    if not thread_id:
        return None
    channel = bot.get_channel(int(thread_id))
    if channel is None:
        try:
            channel = await bot.fetch_channel(int(thread_id))
        except discord.NotFound:
            return None
    return channel if isinstance(channel, discord.Thread) else None


async def side_thread(bot: VedetteBot, game: GameRef, side: str
                      ) -> tuple[discord.Thread, GameRef]:
    """The side's private thread, made if need be, with exactly the side's seated players in it
    (see ``_sync``); and the game as stored afterwards. Raises ``discord.HTTPException`` when
    Discord fails: then nothing may be posted to the thread."""
    # One side's thread at a time (two lanes of its outbox may both need it); another side's
    # thread never waits for it.
    async with bot.lock(f"threads:{game.id}:{side}"):
        game = await bot.umpire.game(game.id) or game
        ids = thread_ids(game)
        thread = await _existing(bot, ids.get(side))
        if thread is None:
            thread = await _create(bot, game, side)
            # Saved before anyone is added: a member who cannot be added must not make the
            # next try create another thread.
            made = str(thread.id)
            game = await bot.umpire.change_game_options(
                game.id, record_thread(side, ids.get(side), made))
            stored = thread_ids(game).get(side)
            if stored != made:
                # Another process made the side's thread meanwhile: that one is the side's
                # (ours stays empty, nobody is added to it).
                log.warning("game %s: %s's thread was made twice; keeping %s",
                            game.id, side, stored)
                theirs = await _existing(bot, stored)
                if theirs is None:
                    raise DeliveryRejected("the side's thread changed meanwhile")
                thread = theirs
        game = await _sync(bot, game, side, thread)
        return thread, game


async def sync_side(bot: VedetteBot, game: GameRef, side: str) -> None:
    """Bring the side's thread, if it exists, in line with its seats now (after a join, a
    leave, a seat given or taken). A failure is only logged: the thread is brought in line
    again before anything is posted to it."""
    if mode(game) != THREADS or not thread_ids(game).get(side):
        return
    try:
        await side_thread(bot, game, side)
    except (discord.HTTPException, DeliveryRejected) as e:
        log.warning("game %s: could not update %s's private thread: %s", game.id, side, e)


async def _create(bot: VedetteBot, game: GameRef, side: str) -> discord.Thread:
    if game.channel_id is None:
        raise DeliveryRejected("the game has no channel for threads", permanent=True)
    parent = bot.get_channel(game.channel_id) or await bot.fetch_channel(game.channel_id)
    if not isinstance(parent, discord.TextChannel):
        raise DeliveryRejected("the game's channel cannot hold private threads", permanent=True)
    return await parent.create_thread(
        name=f"{await side_name(bot, game, side)} - game {game.id}"[:100],
        type=discord.ChannelType.private_thread, invitable=False,
        auto_archive_duration=ARCHIVE_MINUTES)


async def _sync(bot: VedetteBot, game: GameRef, side: str, thread: discord.Thread
                ) -> GameRef:
    """Remove from the thread whoever the bot added and no longer holds a seat on the side,
    and add the side's seated players. A player Discord cannot add (not a member of the
    server, or gone) is recorded as unreachable, the host is told once, and that player's
    messages wait in their /inbox. Progress is saved even when Discord fails half way."""
    seated = [p.user_id for p in await bot.umpire.players(game.id) if p.side == side]
    members = _members(game)
    # A thread made before the bot kept its member list: its players were added on joining.
    had = set(members.get(side, seated))
    unreachable = unreachable_players(game)
    reported = {u for u, s in unreachable.items() if s == side and u in seated}
    now = set(had)
    newly: list[int] = []
    try:
        for user_id in sorted(had - set(seated)):
            with contextlib.suppress(discord.NotFound):  # no longer there, or gone
                await thread.remove_user(discord.Object(id=user_id))
            now.discard(user_id)
        for user_id in seated:
            if user_id in now or user_id in reported:
                continue
            try:
                await thread.add_user(discord.Object(id=user_id))
                now.add(user_id)
            except discord.HTTPException as e:
                if e.code not in NOT_A_MEMBER:
                    raise
                reported.add(user_id)
                newly.append(user_id)
    finally:
        for user_id in newly:
            await bot.umpire.notify_host(
                game.id, _unreachable_text(game, await side_name(bot, game, side), user_id))
            bot.outbox.kick(game.id)
        kept = {u: s for u, s in unreachable.items() if s != side}
        kept |= {u: side for u in reported}
        if now != had or kept != unreachable or side not in members:
            cleared = {u for u, s in unreachable.items() if s == side and u not in reported}
            game = await bot.umpire.change_game_options(game.id, record_sync(
                side, had=had, now=now, reported=reported, cleared=cleared))
    return game


def _members(game: GameRef) -> dict[str, list[int]]:
    return _members_of(game.options)


def _members_of(options: Options) -> dict[str, list[int]]:
    found = options.get(MEMBERS_OPTION)
    if not isinstance(found, dict):
        return {}
    return {str(side): [int(u) for u in users] for side, users in found.items()
            if isinstance(users, list)}


def unreachable_players(game: GameRef) -> dict[int, str]:
    """Seated players who could not be added to their side's thread, and their side."""
    return _unreachable_of(game.options)


def _unreachable_of(options: Options) -> dict[int, str]:
    found = options.get(UNREACHABLE_OPTION)
    if not isinstance(found, dict):
        return {}
    return {int(u): str(side) for u, side in found.items() if str(u).isdigit()}


def _unreachable_text(game: GameRef, side_name: str, user_id: int) -> str:
    return (f"<@{user_id}> ({side_name}, game `{game.id}`) could not be added to "
            "the side's private thread: Discord does not know them as a member of the game's "
            "server. Their messages wait in their /inbox. You may take their seat away with "
            "/host unseat.")
