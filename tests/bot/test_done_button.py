"""The Done button and ``/done`` on a side shared by two players, through the real bot against
the fake Discord: the button under the orders DM, who is told what, forged and stale presses,
and the host's end of a phase."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.client import VedetteBot
from storage.store import Store
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeUser,
    InteractionHandle,
    buttons_of,
    patched_discord,
    run_client,
)
from tests.support.botkit import EPHEMERAL, FIXTURES, TOKEN, text_of
from umpire.games import ready
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

JSON = dict[str, Any]
GID = "g1"


@dataclass
class Shared:
    """alice (host) and carol share Blue; bob commands Grey; the bot runs on a real file."""

    fake: FakeDiscord
    channel: FakeChannel
    bot: VedetteBot
    alice: FakeUser
    carol: FakeUser
    bob: FakeUser


@pytest.fixture
async def shared(tmp_path: Path) -> AsyncIterator[Shared]:
    async with FakeDiscord(token=TOKEN, callback_deadline=3.0) as fake:
        guild = fake.add_guild("Wargames Club")
        channel = fake.add_text_channel(guild, "skirmish")
        alice, carol, bob = (fake.add_user(n, guild=guild) for n in ("alice", "carol", "bob"))
        store = await Store.open(tmp_path / "vedette.db")
        try:
            umpire = Umpire(store, maps=MapMaker(enabled=False))
            await umpire.create_game(str(FIXTURES / "tiny.toml"), alice.id, game_id=GID,
                                     guild_id=guild.id, channel_id=channel.id)
            for user, side in ((alice, "blue"), (carol, "blue"), (bob, "grey")):
                await umpire.join(GID, user.id, side, in_server=True)
            await umpire.start(GID, alice.id)
            bot = VedetteBot(umpire, outbox_interval=0.2, guild_ready_timeout=0.05)
            with patched_discord(fake.base_url):
                async with run_client(bot, token=TOKEN):
                    await bot.outbox.idle()
                    yield Shared(fake, channel, bot, alice, carol, bob)
        finally:
            await store.close()


async def answer_of(handle: InteractionHandle) -> str:
    """The bot's ephemeral answer to an interaction."""
    callback = await handle.response()
    message = await handle.original_message() if callback.type == 5 else handle.original
    assert message is not None and message["flags"] & EPHEMERAL, message
    return text_of(message)


async def slash(s: Shared, command: str, user: FakeUser, options: JSON | None = None, *,
                channel: FakeChannel | None = None) -> str:
    return await answer_of(await s.fake.slash(command, options or {}, user=user,
                                              channel=channel))


async def press(s: Shared, message: JSON, custom_id: str, user: FakeUser) -> str:
    return await answer_of(await s.fake.click(message, custom_id, user=user))


def orders_dm(s: Shared, user: FakeUser) -> JSON:
    """The user's latest "Your orders, please" DM."""
    return [m for m in s.fake.dms_to(user) if "Your orders, please" in text_of(m)][-1]


def done_id(message: JSON) -> str:
    [button] = [b for b in buttons_of(message) if b["custom_id"].startswith("vedette:done:")]
    assert button["label"] == "Done"
    custom_id: str = button["custom_id"]
    return custom_id


def texts(s: Shared, user: FakeUser) -> list[str]:
    return [text_of(m) for m in s.fake.dms_to(user)]


async def test_the_done_button_on_a_shared_side(shared: Shared) -> None:
    s = shared
    state = await s.bot.umpire.repository.state_for(GID)
    assert state.acting_sides() == ("blue",) and state.current.allows("move")
    orders = orders_dm(s, s.alice)
    custom_id = done_id(orders)
    assert custom_id == f"vedette:done:{GID}:blue:{state.turn}:{state.step}"
    assert len(custom_id) <= 100
    assert done_id(orders_dm(s, s.carol)) == custom_id
    bob_before = texts(s, s.bob)

    # alice presses Done: she is ready, carol is told, nobody else; the side is not done.
    said = await press(s, orders, custom_id, s.alice)
    assert said.startswith(f"You are ready; still giving orders: <@{s.carol.id}>")
    await s.bot.outbox.idle()
    assert any(f"Ready to end the Blue Army Movement Phase (turn 1): <@{s.alice.id}>" in t
               for t in texts(s, s.carol))
    assert not any("Ready to end" in t for t in texts(s, s.alice))
    assert texts(s, s.bob) == bob_before
    assert not any("Ready" in text_of(m) for m in s.fake.messages_in(s.channel))
    assert "blue" not in (await s.bot.umpire.repository.state_for(GID)).done

    # A second press is harmless; bob pressing Blue's button (a forged press) changes nothing.
    assert "already ready" in await press(s, orders, custom_id, s.alice)
    assert await press(s, orders, custom_id, s.bob) == ready.NOT_YOUR_SIDE
    after = await s.bot.umpire.repository.state_for(GID)
    assert (after.turn, after.step, after.done) == (state.turn, state.step, state.done)

    # carol's /done is the last: the side's Done, and Grey's phase follows.
    assert "finished" in await slash(s, "done", s.carol)
    later = await s.bot.umpire.repository.state_for(GID)
    assert (later.turn, later.step) != (state.turn, state.step)
    # The old button now says the phase is over, and changes nothing.
    assert await press(s, orders, custom_id, s.carol) == ready.PHASE_OVER
    assert (await s.bot.umpire.repository.state_for(GID)).seq == later.seq


async def test_typed_done_on_a_shared_side_waits_for_the_other(shared: Shared) -> None:
    s = shared
    said = await slash(s, "done", s.carol)
    assert said == ready.you_are_ready([s.alice.id])
    assert "already ready" in await slash(s, "done", s.carol)
    assert "finished" in await slash(s, "done", s.alice)


async def test_the_hosts_end_of_a_phase_is_said_and_the_cut_short_are_told(shared: Shared
                                                                           ) -> None:
    s = shared
    await press(s, orders_dm(s, s.alice), done_id(orders_dm(s, s.alice)), s.alice)
    await slash(s, "host endphase", s.alice, channel=s.channel)
    await s.bot.outbox.idle()
    channel = [text_of(m) for m in s.fake.messages_in(s.channel)]
    assert "The host has ended the Blue Army Movement Phase (turn 1)." in channel
    assert not any("has finished" in t for t in channel)
    cut = "The host ended the Blue Army Movement Phase (turn 1) before you had finished"
    assert any(cut in t for t in texts(s, s.carol))
    assert not any(cut in t for t in texts(s, s.alice))  # she was ready
    assert not any(cut in t for t in texts(s, s.bob))  # not his phase
