"""``VedetteBot``: the Discord client holding the umpire.

At start-up (``setup_hook``, once per login, never on a reconnect) it loads the cogs as
extensions (``EXTENSIONS``: discord.py's ``load_extension``, each module's ``setup`` adding its
cog, each cog its own buttons) and adds the core's buttons that survive restarts, pushes the
slash commands to Discord if they changed since the last push (a hash of the command tree is
kept in the database), and starts the outbox loop. With a shard plan (``bot.shards``) it
connects only those shards; then only the process holding shard 0 pushes the commands (one bot
has one command tree, and two pushes would race), while every process runs the outbox and the
deadlines' clock. It needs no privileged intent: only ``guilds``, to know its channels. Its
messages mention no one by default (``allowed_mentions``): a mention in a text is shown, never
pinged.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import on_tree_error
from bot.outbox import INTERVAL, Outbox
from bot.replay_view import ReplayButton
from bot.shards import ShardPlan
from bot.views import (
    INBOX_PER_PAGE,
    AnswerButton,
    DoneButton,
    InboxButton,
    MapButton,
    MoveButton,
)
from rules.turn.status import GameStatus
from umpire.service import Umpire

log = logging.getLogger("vedette.bot")

#: The cogs, each an extension (a module of ``bot/cogs/`` whose ``setup`` adds its cog and whose
#: cog adds its own buttons), loaded in this order at start-up: the core's, then one per rule
#: module with commands (named as its package under ``rules/``), then the help and settings.
#: The order is the order of the commands Discord is sent.
EXTENSIONS: tuple[str, ...] = (
    "bot.cogs.game",
    "bot.cogs.orders",
    "bot.cogs.info",
    "bot.cogs.host",
    "bot.cogs.combat",
    "bot.cogs.surprise",
    "bot.cogs.concealed",
    "bot.cogs.help",
    "bot.cogs.settings",
)


class VedetteBot(commands.AutoShardedBot):
    def __init__(self, umpire: Umpire, *, dev_guild: int | None = None,
                 global_commands: bool = False, outbox_interval: float = INTERVAL,
                 sync_commands: bool = True,
                 inbox_per_page: int = INBOX_PER_PAGE, shards: ShardPlan | None = None,
                 **options: Any) -> None:
        options.setdefault("intents", discord.Intents(guilds=True))
        if shards is not None:
            options.update(shards.options())
        # No message of the bot's pings anyone: names and reasons typed by others may hold
        # @everyone or a member's mention. A message that means to ping must allow it itself.
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(command_prefix=commands.when_mentioned, help_command=None, **options)
        self.umpire = umpire
        self.dev_guild = dev_guild
        #: Whether the commands are pushed globally too (``VEDETTE_GLOBAL_COMMANDS``); always
        #: without a dev guild, where global is the only place they go.
        self.global_commands = global_commands or not dev_guild
        self.inbox_per_page = inbox_per_page
        self.outbox = Outbox(self, outbox_interval)
        self._sync_on_start = sync_commands
        self._locks: dict[str, asyncio.Lock] = {}
        self.tree.error(on_tree_error)

    @property
    def holds_first_shard(self) -> bool:
        """Whether this process connects shard 0 (all shards, without a plan): the process
        that does the bot's once-only work."""
        return self.shard_ids is None or 0 in self.shard_ids

    def lock(self, name: str) -> asyncio.Lock:
        """A named lock (a game's outbox, a pending order, a game's threads)."""
        return self._locks.setdefault(name, asyncio.Lock())

    # -- start-up --------------------------------------------------------------------------------
    async def setup_hook(self) -> None:
        for name in EXTENSIONS:
            await self.load_extension(name)
        # The core's buttons; a cog adds its own when it is loaded (``cog_load``).
        self.add_dynamic_items(MoveButton, InboxButton, DoneButton, AnswerButton, ReplayButton,
                               MapButton)
        if self._sync_on_start:
            if self.holds_first_shard:
                await self.sync_if_changed()
            else:
                log.info("shard 0 is another process's: it pushes the slash commands")
            self.outbox.start()

    async def warm_up(self) -> None:
        """Load the games in play into the umpire's memory, so that autocomplete is instant."""
        for status in (GameStatus.ACTIVE, GameStatus.PAUSED, GameStatus.SETUP):
            for game in await self.umpire.games(status=status):
                try:
                    await self.umpire.warm(game.id)
                except Exception:
                    log.exception("game %s could not be loaded", game.id)

    async def close(self) -> None:
        await self.outbox.stop()
        await super().close()

    # -- command sync ----------------------------------------------------------------------------
    def command_payload(self) -> list[dict[str, Any]]:
        """The command tree as Discord receives it."""
        return [c.to_dict(self.tree) for c in self.tree._get_all_commands(guild=None)]

    def command_hash(self) -> str:
        text = json.dumps(self.command_payload(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def _hash_key(self) -> str:
        return f"commands-hash:{self.application_id}:{self._scope()}"

    def _scope(self) -> str:
        """Where the commands go: ``global``, ``guild:ID`` or ``guild:ID+global``."""
        scopes = [f"guild:{self.dev_guild}"] if self.dev_guild else []
        if self.global_commands:
            scopes.append("global")
        return "+".join(scopes)

    def sync_places(self) -> str:
        """Where the commands go, in words for the log and ``vedette sync``."""
        places = [f"guild {self.dev_guild}"] if self.dev_guild else []
        if self.global_commands:
            places.append("every server and DMs (global; Discord may take a while to show "
                          "changes)")
        return " and ".join(places)

    async def sync_if_changed(self) -> bool:
        """Push the commands if they changed since the last push; say whether it did."""
        if await self.umpire.remembered(self._hash_key()) == self.command_hash():
            log.info("slash commands unchanged; not syncing")
            return False
        await self.sync_now()
        return True

    async def sync_now(self) -> int:
        """Push the commands to the dev guild (``VEDETTE_DEV_GUILD``), globally, or both
        (``VEDETTE_GLOBAL_COMMANDS`` with a dev guild): the guild's copy shows at once in that
        server only; the global commands reach every server and DMs, when Discord shows them."""
        synced: list[app_commands.AppCommand] = []
        if self.dev_guild:
            guild = discord.Object(id=self.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        if self.global_commands:
            synced = await self.tree.sync()
        await self.umpire.remember(self._hash_key(), self.command_hash())
        log.info("synced %d slash commands to %s", len(synced), self.sync_places())
        return len(synced)
