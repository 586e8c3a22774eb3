"""``/game``: create a game in a channel, join and leave it, choose how private messages travel,
start it, see where it stands, end it; after the end, check it and replay its maps."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, Optional, TypeVar, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot import autocomplete as ac
from bot import threads
from bot.cogs import Interaction, in_game_server, is_admin, require_host, resolve_game
from bot.errors import Refused
from bot.game_choice import GameArg
from bot.replay_view import IMAGE_NAME, frame_view, replay_frame
from bot.replies import answer, thinking
from rules.knowledge.public import ANNOUNCE_FINISHED
from rules.modules.built import playable_modules
from rules.modules.catalog import KNOWN_MODULES, SPECS
from rules.modules.spec import CreateFlag
from rules.turn.idle import AUTO_PASS, AUTO_PASS_ALONE
from rules.turn.status import GameStatus
from umpire.clock.phase_clock import DEADLINE_ACTION
from umpire.games import catalog
from umpire.games.ready import READY_OPTION
from umpire.games.seats import HOST_UMPIRES
from umpire.reads.replay import UMPIRE
from umpire.words.status_post import MENTION_PLAYERS

if TYPE_CHECKING:
    from bot.client import VedetteBot

GAME_HELP = "Which game (needed only if you are in several and not in the game's channel)"

THREADS_WARNING = (
    "Each side's private messages will go to a private thread of this channel, one per side, "
    "with that side's players in it. **Warning:** members with the *Manage Threads* permission "
    "(and administrators) can open private threads, so they can read both sides' secrets. "
    "Choose threads only if no such member plays, or if the play group trusts them; otherwise "
    "keep DMs (`/game options delivery:dms`).")
DMS_CHOSEN = ("Each player's private messages will come as DMs from the bot. Players who do not "
              "accept DMs from this server find them in /inbox.")

F = TypeVar("F", bound=Callable[..., Any])

#: The options ``/game create`` offers that are the core's, by parameter.
CORE_FLAGS: dict[str, str] = {"announce_finished": ANNOUNCE_FINISHED,
                              "mention_players": MENTION_PLAYERS, "auto_pass": AUTO_PASS,
                              "auto_pass_alone": AUTO_PASS_ALONE,
                              "deadline_action": DEADLINE_ACTION, "ready": READY_OPTION,
                              "host_umpires": HOST_UMPIRES}

#: The rule modules' options ``/game create`` offers (``ModuleSpec.create_flags``).
MODULE_FLAGS: tuple[tuple[CreateFlag, type], ...] = tuple(
    (flag, type(spec.options[flag.option])) for spec in SPECS for flag in spec.create_flags)

#: Every option ``/game create`` offers, by parameter, in the order Discord shows them (filled
#: by ``with_module_flags``).
CREATE_FLAGS: dict[str, str] = {}


def _flag_annotation(flag: CreateFlag, kind: type) -> Any:
    """A module option's parameter type, as discord.py reads it: optional (left out, the
    scenario's value), of its default's kind, one of its words when it has some."""
    if flag.choices:
        return Optional[cast(Any, Literal)[flag.choices]]  # noqa: UP045  (built at run time)
    return Optional[kind]  # noqa: UP045


def with_module_flags(func: F) -> F:
    """Give ``/game create``'s callback one parameter per rule module option its spec offers
    (``ModuleSpec.create_flags``), each after the parameter it names and described by its spec.

    A slash command's parameters are read from its callback's signature when the command is
    made (discord.py's ``inspect.signature``, which follows ``__signature__``); the callback
    takes the modules' parameters as keyword arguments (``**flags``)."""
    signature = inspect.signature(func)
    params = [p for p in signature.parameters.values()
              if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    for flag, kind in MODULE_FLAGS:
        at = next((i for i, p in enumerate(params) if p.name == flag.after), None)
        if at is None:
            raise ValueError(f"/game create has no parameter {flag.after!r} for the option "
                             f"{flag.option!r} to come after")
        at += 1
        params.insert(at, inspect.Parameter(flag.parameter, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                            default=None, annotation=_flag_annotation(flag, kind)))
    func.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    options = CORE_FLAGS | {flag.parameter: flag.option for flag, _ in MODULE_FLAGS}
    CREATE_FLAGS.update({p.name: options[p.name] for p in params if p.name in options})
    return app_commands.describe(**{flag.parameter: flag.description
                                    for flag, _ in MODULE_FLAGS})(func)


def switched_off(bot: VedetteBot, scenario: str) -> tuple[str, ...]:
    """The scenario's rule modules that the umpire cannot play yet (played without)."""
    try:
        loaded = catalog.load_file(catalog.find_named(scenario, bot.umpire.scenarios))
    except Exception:
        return ()  # the umpire explains what is wrong with the scenario
    return tuple(m for m in loaded.scenario.scenario.modules if m not in playable_modules())


async def replay_sides(interaction: Interaction, current: str
                       ) -> list[app_commands.Choice[str]]:
    """The sides to replay: the game's sides (public), and the umpire's view."""
    choices = await ac.sides(interaction, current)
    if current.strip().lower() in UMPIRE:
        choices.append(app_commands.Choice(name="Umpire (everything; after the end)",
                                           value=UMPIRE))
    return choices


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class GameCog(commands.GroupCog, group_name="game",
              group_description="Set up, join and run a game"):
    def __init__(self, bot: VedetteBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="create",
                          description="Create a game in this channel; you will be its host")
    @app_commands.describe(scenario="A scenario shipped with Vedette or installed by the bot's "
                                    "owner",
                           announce_finished="Announce in the channel each side that finishes a "
                                             "phase played at once (default: only the phase's "
                                             "end)",
                           mention_players="Mention the players in the channel post that "
                                           "opens their turn (default: yes)",
                           auto_pass="A side with nothing it can do in a phase played at once "
                                     "passes it by itself (default: yes)",
                           auto_pass_alone="A side with nothing it can do passes its own phases "
                                           "too; the enemy sees it at once (default: no)",
                           deadline_action="At a phase's deadline (/host deadline): mark the "
                                           "sides still at it done (default), or ping the host",
                           ready="A side shared by several players finishes a phase when all "
                                 "of them are done (default) or any one of them",
                           host_umpires="You umpire: you take no side, and /map, /units and /log "
                                        "show you every side (default: no)")
    @app_commands.autocomplete(scenario=ac.scenarios)
    @with_module_flags
    async def create(self, interaction: Interaction,
                     scenario: app_commands.Range[str, 1, 200],
                     announce_finished: bool | None = None,
                     mention_players: bool | None = None,
                     auto_pass: bool | None = None,
                     auto_pass_alone: bool | None = None,
                     deadline_action: Literal["done", "ping"] | None = None,
                     ready: Literal["all", "any"] | None = None,
                     host_umpires: bool | None = None, *_: Any, **flags: Any) -> None:
        # ``flags``: the rule modules' options (``with_module_flags``), by parameter. (``*_``
        # takes nothing: discord.py passes every parameter by name; mypy matches a callback
        # with ``**flags`` to ``app_commands.command`` only beside it.)
        channel = interaction.channel
        if interaction.guild_id is None or not isinstance(channel, discord.TextChannel):
            raise Refused("create a game in a text channel of your server: that channel becomes "
                          "the game's public channel")
        await thinking(interaction)
        without = switched_off(self.bot, scenario)
        # Only what the host chose; the umpire refuses an option of a module the scenario does
        # not play (the raid's, say).
        values = {"announce_finished": announce_finished, "mention_players": mention_players,
                  "auto_pass": auto_pass, "auto_pass_alone": auto_pass_alone,
                  "deadline_action": deadline_action, "ready": ready,
                  "host_umpires": host_umpires, **flags}
        chosen: dict[str, str | int | bool] = {
            option: value for parameter, option in CREATE_FLAGS.items()
            if (value := values.get(parameter)) is not None}
        options = chosen or None
        reply = await self.bot.umpire.create_game(
            scenario, interaction.user.id, guild_id=interaction.guild_id, channel_id=channel.id,
            without=without, options=options, catalog_only=True)
        game = await self.bot.umpire.games(channel_id=channel.id, status=GameStatus.SETUP)
        game_id = game[-1].id if game else "?"
        interaction.extras["game_id"] = game_id
        await answer(interaction, f"You host game `{game_id}`. Before /game start you may choose "
                     "how private messages travel with /game options (DMs by default).")
        public = [f"{reply.text}\nHost: {interaction.user.mention}."]
        if without:
            off = "; ".join(f"{m} ({KNOWN_MODULES.get(m, 'unknown rule')})" for m in without)
            public.append(f"Rule modules switched off (the umpire cannot play them yet, so this "
                          f"game is played without them): {off}.")
        await answer(interaction, "\n".join(public), ephemeral=False, notice=False)

    @app_commands.command(name="join", description="Join a game on one of its sides (after the "
                                                   "start: ask its host for a seat)")
    @app_commands.describe(side="The side you will command", game=GAME_HELP)
    @app_commands.autocomplete(side=ac.sides)
    async def join(self, interaction: Interaction, side: app_commands.Range[str, 1, 60],
                   game: GameArg | None = None) -> None:
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        in_server = await in_game_server(interaction, record)
        reply = await self.bot.umpire.join(record.id, interaction.user.id, side.strip(),
                                           in_server=in_server)
        self.bot.outbox.kick(record.id)
        player = await self.bot.umpire.player(record.id, interaction.user.id)
        if player is None:  # a request to the host
            await answer(interaction, reply.text)
            return
        await threads.sync_side(self.bot, record, player.side)
        where = ("your side's private thread in the game's channel"
                 if threads.mode(record) == threads.THREADS else
                 "DMs from the bot (allow DMs from this server; otherwise read /inbox)")
        await answer(interaction, f"{reply.text} Your private messages will come as {where}. "
                     "Give orders here or in a DM with the bot; answers are shown to you alone.")

    @app_commands.command(name="leave", description="Leave a game (after the start, you may "
                                                    "only come back to the same side)")
    @app_commands.describe(game=GAME_HELP)
    async def leave(self, interaction: Interaction, game: GameArg | None = None) -> None:
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        player = await self.bot.umpire.player(record.id, interaction.user.id)
        reply = await self.bot.umpire.leave(record.id, interaction.user.id)
        self.bot.outbox.kick(record.id)
        if player is not None:
            await threads.sync_side(self.bot, record, player.side)
        await answer(interaction, reply.text)

    @app_commands.command(name="options",
                          description="Host, before the start: how private messages travel")
    @app_commands.describe(delivery="DMs to each player, or one private thread per side",
                           game=GAME_HELP)
    @app_commands.choices(delivery=[
        app_commands.Choice(name="Direct messages to each player", value=threads.DMS),
        app_commands.Choice(name="A private thread per side in the game's channel",
                            value=threads.THREADS)])
    async def options(self, interaction: Interaction, delivery: Literal["dms", "threads"],
                      game: GameArg | None = None) -> None:
        record = await resolve_game(interaction, game)
        require_host(interaction, record)
        if record.status != GameStatus.SETUP:
            raise Refused("options can only be changed before the game starts")
        if delivery == threads.THREADS:
            perms = interaction.app_permissions
            if interaction.guild_id is None or interaction.guild_id != record.guild_id:
                raise Refused("choose threads in the game's channel, so that I can check I may "
                              "make private threads there")
            missing = [name for name, ok in (
                ("Create Private Threads", perms.create_private_threads),
                ("Send Messages in Threads", perms.send_messages_in_threads)) if not ok]
            if missing:
                raise Refused("I need the " + " and ".join(missing) + " permission(s) in this "
                              "channel to use private threads; ask a server admin, or keep DMs")
        await threads.set_mode(self.bot, record, delivery)
        await answer(interaction, THREADS_WARNING if delivery == threads.THREADS else DMS_CHOSEN)

    @app_commands.command(name="start", description="Host: start the game")
    @app_commands.describe(game=GAME_HELP)
    async def start(self, interaction: Interaction, game: GameArg | None = None) -> None:
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        reply = await self.bot.umpire.start(record.id, interaction.user.id,
                                            is_admin=is_admin(interaction, record))
        await answer(interaction, reply.text + " The dice commitment is posted in the game's "
                     "channel.")
        self.bot.outbox.kick(record.id)

    @app_commands.command(name="status", description="Where the game stands: turn, phase, who "
                                                     "is still to act, the players")
    @app_commands.describe(game=GAME_HELP)
    async def status(self, interaction: Interaction, game: GameArg | None = None) -> None:
        record = await resolve_game(interaction, game)
        reply = await self.bot.umpire.status(record.id, interaction.user.id,
                                             in_server=await in_game_server(interaction, record),
                                             is_admin=is_admin(interaction, record))
        await answer(interaction, reply.text)

    @app_commands.command(name="end", description="Host: end the game; the seed and the full "
                                                  "map are posted")
    @app_commands.describe(game=GAME_HELP)
    async def end(self, interaction: Interaction, game: GameArg | None = None) -> None:
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        reply = await self.bot.umpire.end_game(record.id, interaction.user.id,
                                               is_admin=is_admin(interaction, record))
        await answer(interaction, reply.text)
        self.bot.outbox.kick(record.id)

    @app_commands.command(name="verify", description="A finished game: check every roll against "
                                                     "the published seed")
    @app_commands.describe(game=GAME_HELP)
    async def verify(self, interaction: Interaction, game: GameArg | None = None) -> None:
        await thinking(interaction)  # deciding the whole game again takes a while
        record = await resolve_game(interaction, game)
        reply = await self.bot.umpire.verify_game(
            record.id, interaction.user.id, in_server=await in_game_server(interaction, record),
            is_admin=is_admin(interaction, record))
        await answer(interaction, reply.text)

    @app_commands.command(name="replay", description="A side's map as it stood at the end of a "
                                                     "turn (during play: your own side's)")
    @app_commands.describe(side="Whose map (default: your side's; after the end also the other "
                                "side's, or umpire for everything)",
                           turn="Which turn (default: the latest)", game=GAME_HELP)
    @app_commands.autocomplete(side=replay_sides)
    async def replay(self, interaction: Interaction,
                     side: app_commands.Range[str, 1, 60] | None = None,
                     turn: app_commands.Range[int, 0, 9999] | None = None,
                     game: GameArg | None = None) -> None:
        await thinking(interaction)
        record = await resolve_game(interaction, game)
        frame = await replay_frame(interaction, record.id, side, turn)
        await answer(interaction, frame.text, image=frame.image, image_name=IMAGE_NAME,
                     view=frame_view(frame))


async def setup(bot: VedetteBot) -> None:
    """The extension's entry point (``VedetteBot.load_extension``)."""
    await bot.add_cog(GameCog(bot))
