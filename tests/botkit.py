"""Shared pieces of the bot tests that run one started game against the fake Discord: two
players at a table, the bot on a real database file, and reading the bot's private answers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.client import VedetteBot
from storage.store import Store
from tests.fakediscord import FakeDiscord, FakeUser, patched_discord, run_client
from umpire.reads.maps import MapMaker
from umpire.reads.player_settings import Preview
from umpire.service import Umpire

TOKEN = "vedette-test-token"
EPHEMERAL = 64
FIXTURES = Path(__file__).parent / "fixtures"
TINY = "tiny"  # in the catalog: the test bot's scenario folder is tests/fixtures


async def moves_at_once(umpire: Umpire, *users: FakeUser) -> None:
    """These players' short moves are given at once, as the bot tests written before every
    move was previewed expect (the players' ``/settings preview:off``, ruling ORD-2)."""
    for user in users:
        await umpire.set_preview_setting(user.id, Preview.OFF)


def text_of(message: dict[str, Any]) -> str:
    """What a message says: its content and its embeds' text."""
    parts = [message.get("content") or ""]
    parts += [e.get("description") or "" for e in message.get("embeds") or []]
    return "\n".join(p for p in parts if p)


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
    confirm = message["components"][0]["components"][0]["custom_id"]
    shown = int(message["id"])
    before = text_of(fake.world.messages[shown])
    handle = await fake.click(message, confirm, user=user)
    await handle.response()
    await fake.wait_for(lambda: text_of(fake.world.messages[shown]) != before)
    return fake.world.messages[shown]
