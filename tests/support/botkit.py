"""Shared pieces of the bot tests that run one started game against the fake Discord: two
players at a table, the bot on a real database file, and reading the bot's private answers;
and the flank-march story of ``vedette demo`` played through the bot by two players a side."""

from __future__ import annotations

import importlib
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.client import VedetteBot
from storage.store import Store
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeUser,
    InteractionHandle,
    component_texts,
    custom_ids,
    patched_discord,
    run_client,
)
from umpire.demo import chancellorsville as cv
from umpire.demo import concealed
from umpire.demo.main import SCENARIO as FLANK_MARCH
from umpire.demo.main import SEEDS, TURNS, WITHOUT, Seats, play_turn
from umpire.reads.maps import MapMaker
from umpire.reads.player_settings import Preview
from umpire.service import Umpire

TOKEN = "vedette-test-token"
EPHEMERAL = 64
FIXTURES = Path(__file__).parents[1] / "fixtures"
TINY = "tiny"  # in the catalog: the test bot's scenario folder is tests/fixtures


async def moves_at_once(umpire: Umpire, *users: FakeUser) -> None:
    """These players' short moves are given at once, as the bot tests written before every
    move was previewed expect (the players' ``/settings preview:off``, ruling ORD-2)."""
    for user in users:
        await umpire.set_preview_setting(user.id, Preview.OFF)


def text_of(message: dict[str, Any]) -> str:
    """What a message says: its content, its embeds' text, then the text displays of its
    components (depth first: a components v2 message says everything there)."""
    parts = [message.get("content") or ""]
    parts += [e.get("description") or "" for e in message.get("embeds") or []]
    parts += component_texts(message.get("components") or [])
    return "\n".join(p for p in parts if p)


def forged_button(fake: FakeDiscord, user: FakeUser, custom_id: str) -> dict[str, Any]:
    """A message in ``user``'s DM with the bot carrying a button with a custom id of their
    choosing (as a modified client could send)."""
    button = {"type": 2, "style": 1, "label": "Forged", "custom_id": custom_id}
    return fake.world.new_message(
        fake.dm_channel(user), fake.bot_user, {"content": "forged",
                                               "components": [{"type": 1,
                                                               "components": [button]}]},
        [], extra={"interaction_metadata": {"id": "1", "type": 3, "user": user.payload()}})


async def private_answer(fake: FakeDiscord, command: str, user: FakeUser,
                         options: dict[str, Any]) -> dict[str, Any]:
    """Run a slash command in the user's DM; the bot's final answer, which must be ephemeral."""
    handle = await fake.slash(command, options, user=user)
    callback = await handle.response()
    message = await handle.original_message() if callback.type == 5 else handle.original
    assert message is not None and message["flags"] & EPHEMERAL
    return message


@asynccontextmanager
async def started_game(fake: FakeDiscord, tmp_path: Path, scenario: Path,
                       sides: tuple[str, str], *, seed: bytes | None = None,
                       maps: bool = False, channel: bool = False,
                       ) -> AsyncIterator[tuple[VedetteBot, FakeUser, FakeUser]]:
    """Game ``g1`` of ``scenario``, alice on the first side (and host), bob on the second,
    started, with the bot connected to the fake Discord. With ``channel`` the game belongs to
    a channel of the club's server (its public posts go there); without, it has none."""
    guild = fake.add_guild("Wargames Club")
    alice = fake.add_user("alice", guild=guild)
    bob = fake.add_user("bob", guild=guild)
    where = fake.add_text_channel(guild, "umpire") if channel else None
    store = await Store.open(tmp_path / "vedette.db")
    try:
        umpire = Umpire(store, maps=MapMaker(enabled=maps))
        await umpire.create_game(str(scenario), alice.id, game_id="g1", seed=seed,
                                 guild_id=guild.id if where else None,
                                 channel_id=where.id if where else None)
        await umpire.join("g1", alice.id, sides[0], in_server=True)
        await umpire.join("g1", bob.id, sides[1], in_server=True)
        await umpire.start("g1", alice.id)
        await moves_at_once(umpire, alice, bob)
        bot = VedetteBot(umpire, outbox_interval=0.2, guild_ready_timeout=0.05)
        with patched_discord(fake.base_url):
            async with run_client(bot, token=TOKEN):
                yield bot, alice, bob
    finally:
        await store.close()


async def confirm_preview(fake: FakeDiscord, message: dict[str, Any], user: FakeUser
                          ) -> dict[str, Any]:
    """Click Confirm (the first button) under a preview; the message once the bot has edited
    it."""
    confirm = custom_ids(message)[0]
    shown = int(message["id"])
    before = text_of(fake.world.messages[shown])
    handle = await fake.click(message, confirm, user=user)
    await handle.response()
    await fake.wait_for(lambda: text_of(fake.world.messages[shown]) != before)
    return fake.world.messages[shown]


MANAGE_GUILD = 1 << 5

JSON = dict[str, Any]

def render_ready() -> bool:
    """Whether map pictures can be drawn (``render.render_map`` exists)."""
    try:
        return hasattr(importlib.import_module("render"), "render_map")
    except ImportError:
        return False

MAPS = render_ready()

@dataclass
class Table:
    """A server with a game channel, a host (alice, blue), a player (bob, grey), an outsider
    (carol) and a moderator with Manage Server (dave); and the database file."""

    fake: FakeDiscord
    guild: FakeGuild
    channel: FakeChannel
    alice: FakeUser
    bob: FakeUser
    carol: FakeUser
    dave: FakeUser
    db: Path

@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    # Discord's 3-second limit on the first answer to an interaction, enforced.
    async with FakeDiscord(token=TOKEN, callback_deadline=3.0) as fake:
        guild = fake.add_guild("Wargames Club")
        channel = fake.add_text_channel(guild, "skirmish")
        mods = fake.add_role(guild, "moderators", MANAGE_GUILD)
        yield Table(fake, guild, channel, fake.add_user("alice", guild=guild),
                    fake.add_user("bob", guild=guild), fake.add_user("carol", guild=guild),
                    fake.add_user("dave", guild=guild, roles=[mods]), tmp_path / "vedette.db")

@asynccontextmanager
async def running(table: Table, *, dev_guild: int | None = None, global_commands: bool = False,
                  scenarios: Path = FIXTURES, map_workers: int = 0) -> AsyncIterator[VedetteBot]:
    """The bot on the table's database, connected to the fake Discord, with ``scenarios`` as
    the host's scenario folder (``VEDETTE_SCENARIOS``), drawing its maps in ``map_workers``
    processes (0: in its own)."""
    store = await Store.open(table.db)
    maps = MapMaker(enabled=MAPS, workers=map_workers)
    try:
        await maps.warm_up()  # as the bot does at its start
        umpire = Umpire(store, scenarios=scenarios, maps=maps)
        await moves_at_once(umpire, table.alice, table.bob, table.carol, table.dave)
        bot = VedetteBot(umpire, dev_guild=dev_guild, global_commands=global_commands,
                         outbox_interval=0.2,
                         guild_ready_timeout=0.05)
        with patched_discord(table.fake.base_url):
            async with run_client(bot, token=TOKEN):
                yield bot
    finally:
        maps.close()
        await store.close()

@pytest.fixture
async def bot(table: Table) -> AsyncIterator[VedetteBot]:
    async with running(table) as bot:
        yield bot

async def final(handle: InteractionHandle) -> JSON:
    """The bot's answer to an interaction, once it is no longer "thinking"."""
    callback = await handle.response()
    if callback.type == 5:
        return await handle.original_message()
    assert callback.type == 4, callback
    assert handle.original is not None
    return handle.original

async def say(table: Table, command: str, user: FakeUser, options: JSON | None = None, *,
              channel: FakeChannel | None = None) -> str:
    """Run a slash command (in a DM unless ``channel``); the answer's text. Every answer is
    ephemeral."""
    handle = await table.fake.slash(command, options or {}, user=user, channel=channel)
    message = await final(handle)
    assert message["flags"] & EPHEMERAL, (command, message)
    return text_of(message)

async def settle(bot: VedetteBot) -> None:
    """Wait until every delivery the umpire queued has been handed to Discord."""
    await bot.outbox.idle()

def public(table: Table) -> list[str]:
    return [text_of(m) for m in table.fake.messages_in(table.channel)]

async def game_id(bot: VedetteBot, table: Table) -> str:
    games = await bot.umpire.store.list_games(channel_id=table.channel.id)
    return games[-1].id

async def set_up(table: Table, bot: VedetteBot) -> str:
    """alice creates the tiny game in the channel; alice joins blue, bob grey."""
    handle = await table.fake.slash("game create", {"scenario": TINY}, user=table.alice,
                                    channel=table.channel)
    assert "You host game" in text_of(await final(handle))
    await table.fake.wait_for(lambda: len(handle.followup_ids) >= 2, what="public announcement")
    gid = await game_id(bot, table)
    assert "You command Blue Army" in await say(table, "game join", table.alice,
                                                {"side": "blue"}, channel=table.channel)
    assert "You command Grey Army" in await say(table, "game join", table.bob,
                                                {"side": "grey"}, channel=table.channel)
    return gid

async def play_until(table: Table, bot: VedetteBot, gid: str, side: str) -> None:
    """Say /done for the sides that act until ``side`` may move (whatever phases the rules in
    force put before that)."""
    users = {"blue": table.alice, "grey": table.bob}
    for _ in range(20):
        state = await bot.umpire.repository.state_for(gid)
        assert state.status == "active", state.status
        if side in state.acting_sides() and state.current.allows("move"):
            await settle(bot)
            return
        for acting in state.acting_sides():
            await say(table, "done", users[acting])
    raise AssertionError(f"{side} never got to move")

async def start_and_reach_blue_movement(table: Table, bot: VedetteBot) -> str:
    gid = await set_up(table, bot)
    assert "started" in await say(table, "game start", table.alice, channel=table.channel)
    await play_until(table, bot, gid, "blue")
    return gid


ROUTE = {"unit": "1st Brigade", "route": "road Old Church"}

async def preview_a_move(table: Table) -> tuple[str, dict[str, Any], str, str]:
    """With the bot running and blue to move, alice previews a march: the game id, the preview
    message, and its Confirm and Cancel custom ids."""
    preview = await final(await table.fake.slash("move", ROUTE, user=table.alice))
    confirm, cancel = custom_ids(preview)
    return confirm.split(":")[3], preview, confirm, cancel

def accepted(events: list[Any], request: str) -> int:
    return sum(1 for e in events if e.type == "command_accepted"
               and e.payload["request"] == request)


def vedette_command() -> list[str]:
    script = Path(sys.executable).with_name("vedette")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot.cli"]


# -- the flank-march story through the bot ---------------------------------------------------
#: How a side-mate's readiness is told (ruling FLOW-3).
READY = "Ready to end the "

@dataclass
class Story:
    """The players (two a side, the first Union player hosting) and the DMs each was sent in
    each turn (``sent[turn - 1][user id]``)."""

    players: dict[str, tuple[FakeUser, ...]]
    sent: list[dict[int, list[JSON]]] = field(default_factory=list)

    @property
    def everyone(self) -> list[FakeUser]:
        return [u for pair in self.players.values() for u in pair]


async def play_story(fake: FakeDiscord, folder: Path, turns: int = TURNS, *,
                     maps: bool = False) -> Story:
    """Play the story's first ``turns`` turns on a database in ``folder`` (with ``maps``,
    drawn and sent)."""
    guild = fake.add_guild("Wargames Club")
    story = Story({side: (fake.add_user(f"{side}-1", guild=guild),
                          fake.add_user(f"{side}-2", guild=guild))
                   for side in ("union", "confederate")})
    host = story.players["union"][0].id
    async with Store.open(folder / "vedette.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=maps))
        await umpire.create_game(FLANK_MARCH, host, game_id="g1", without=WITHOUT,
                                 seed=SEEDS["success"])
        for side, pair in story.players.items():
            for user in pair:
                await umpire.join("g1", user.id, side, in_server=True)
        await umpire.start("g1", host)
        seats = Seats("g1", {side: (a.id, b.id) for side, (a, b) in story.players.items()})
        bot = VedetteBot(umpire, outbox_interval=0.2, guild_ready_timeout=0.05)
        with patched_discord(fake.base_url):
            async with run_client(bot, token=TOKEN):
                await bot.outbox.idle()
                for turn in range(1, turns + 1):
                    before = {u.id: len(fake.dms_to(u)) for u in story.everyone}
                    await play_turn(umpire, turn, "success", seats)
                    await bot.outbox.idle()
                    story.sent.append({u.id: fake.dms_to(u)[before[u.id]:]
                                       for u in story.everyone})
    return story


#: The other sample stories, each played by one player a side: the flank march under Concealed
#: Forces, and Chancellorsville without and with the cavalry raid.
SAMPLES = ("concealed", "chancellorsville", "chancellorsville-raid")


async def play_sample(fake: FakeDiscord, folder: Path, sample: str) -> Story:
    """Play every turn of one of ``SAMPLES`` through the bot, one player a side (the Union's
    hosting), on a database in ``folder``."""
    guild = fake.add_guild("Wargames Club")
    story = Story({side: (fake.add_user(side, guild=guild),)
                   for side in ("union", "confederate")})
    players = {side: users[0].id for side, users in story.players.items()}
    host = players["union"]
    raid = sample == "chancellorsville-raid"
    async with Store.open(folder / "vedette.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        if sample == "concealed":
            await umpire.create_game(FLANK_MARCH, host, game_id="g1", seed=SEEDS["concealed"])
        else:
            await umpire.create_game(cv.SCENARIO, host, game_id="g1", seed=cv.SEEDS[raid],
                                     options=cv.OPTIONS[raid])
        for side, user in players.items():
            await umpire.join("g1", user, side, in_server=True)
        await umpire.start("g1", host)
        roles, notes = concealed.Roles(), cv.Notes()
        bot = VedetteBot(umpire, outbox_interval=0.2, guild_ready_timeout=0.05)
        with patched_discord(fake.base_url):
            async with run_client(bot, token=TOKEN):
                await bot.outbox.idle()
                for turn in range(1, (concealed.TURNS if sample == "concealed"
                                      else cv.TURNS) + 1):
                    before = {u.id: len(fake.dms_to(u)) for u in story.everyone}
                    if sample == "concealed":
                        await concealed.play_turn(umpire, "g1", players, turn, roles)
                    else:
                        await cv.play_turn(umpire, "g1", players, turn, notes)
                    await bot.outbox.idle()
                    story.sent.append({u.id: fake.dms_to(u)[before[u.id]:]
                                       for u in story.everyone})
    return story
