"""Seats through the fake Discord, with users of two servers: nobody changes side after the
start, nobody joins without the host, joins before the start come from the game's own server,
a player who leaves loses every private channel of the side, and the status of a game is told
only to its players, its server and its channel."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.client import VedetteBot
from storage.records import Recipient
from storage.store import Store
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeUser,
    InteractionHandle,
    patched_discord,
    run_client,
)
from tests.support.botkit import EPHEMERAL, FIXTURES, TINY, TOKEN, text_of
from umpire.games import seats
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

JSON = dict[str, Any]
ONLY_HOST = "only the game's host can do that"
NOT_PLAYING = "you are not playing in this game"


@dataclass
class Clubs:
    """The game's server (alice hosts and plays blue, bob grey, carol is a member who does not
    play) and another server where eve is a member (and not of the game's server)."""

    fake: FakeDiscord
    home: FakeGuild
    channel: FakeChannel
    away: FakeGuild
    away_channel: FakeChannel
    alice: FakeUser
    bob: FakeUser
    carol: FakeUser
    eve: FakeUser
    db: Path


@pytest.fixture
async def clubs(tmp_path: Path) -> AsyncIterator[Clubs]:
    async with FakeDiscord(token=TOKEN, callback_deadline=3.0) as fake:
        home = fake.add_guild("Wargames Club")
        away = fake.add_guild("Rival Club")
        yield Clubs(fake, home, fake.add_text_channel(home, "skirmish"), away,
                    fake.add_text_channel(away, "lobby"), fake.add_user("alice", guild=home),
                    fake.add_user("bob", guild=home), fake.add_user("carol", guild=home),
                    fake.add_user("eve", guild=away), tmp_path / "vedette.db")


@asynccontextmanager
async def running(clubs: Clubs) -> AsyncIterator[VedetteBot]:
    store = await Store.open(clubs.db)
    try:
        bot = VedetteBot(Umpire(store, scenarios=FIXTURES, maps=MapMaker(enabled=False)),
                         outbox_interval=0.2,
                         guild_ready_timeout=0.05)
        with patched_discord(clubs.fake.base_url):
            async with run_client(bot, token=TOKEN):
                yield bot
    finally:
        await store.close()


@pytest.fixture
async def bot(clubs: Clubs) -> AsyncIterator[VedetteBot]:
    async with running(clubs) as bot:
        yield bot


async def final(handle: InteractionHandle) -> JSON:
    callback = await handle.response()
    if callback.type == 5:
        return await handle.original_message()
    assert handle.original is not None
    return handle.original


async def say(clubs: Clubs, command: str, user: FakeUser, options: JSON | None = None, *,
              channel: FakeChannel | None = None) -> str:
    """Run a slash command (in a DM unless ``channel``); the answer, which must be ephemeral."""
    message = await final(await clubs.fake.slash(command, options or {}, user=user,
                                                 channel=channel))
    assert message["flags"] & EPHEMERAL, (command, message)
    return text_of(message)


def public(clubs: Clubs) -> list[str]:
    return [text_of(m) for m in clubs.fake.messages_in(clubs.channel)]


def dm_texts(clubs: Clubs, user: FakeUser) -> list[str]:
    return [text_of(m) for m in clubs.fake.dms_to(user)]


async def create(clubs: Clubs, bot: VedetteBot, *, threads: bool = False,
                 grey: tuple[FakeUser, ...] = ()) -> str:
    """alice creates the tiny game in the home channel and joins blue; ``grey`` (bob if not
    given) join grey, in that order."""
    await final(await clubs.fake.slash("game create", {"scenario": TINY}, user=clubs.alice,
                                       channel=clubs.channel))
    [game] = await bot.umpire.store.list_games(channel_id=clubs.channel.id)
    if threads:
        await say(clubs, "game options", clubs.alice, {"delivery": "threads"},
                  channel=clubs.channel)
    await say(clubs, "game join", clubs.alice, {"side": "blue"}, channel=clubs.channel)
    for user in grey or (clubs.bob,):
        assert "You command Grey Army" in await say(clubs, "game join", user, {"side": "grey"},
                                                    channel=clubs.channel)
    return game.id


async def start(clubs: Clubs, bot: VedetteBot, gid: str) -> None:
    assert "started" in await say(clubs, "game start", clubs.alice, channel=clubs.channel)
    await bot.outbox.idle()


async def play_until(clubs: Clubs, bot: VedetteBot, gid: str, side: str,
                     users: dict[str, FakeUser]) -> None:
    """Each acting side says /done until the next phase in which ``side`` may move."""
    for _ in range(20):
        state = await bot.umpire.repository.state_for(gid)
        assert state.status == "active", state.status
        if side in state.acting_sides() and state.current.allows("move"):
            await bot.outbox.idle()
            return
        for acting in state.acting_sides():
            await say(clubs, "done", users[acting])
    raise AssertionError(f"{side} never got to move")


async def next_turn(clubs: Clubs, bot: VedetteBot, gid: str, side: str,
                    users: dict[str, FakeUser]) -> None:
    """From a phase where ``side`` moves, on to its next movement phase."""
    await say(clubs, "done", users[side])
    await play_until(clubs, bot, gid, side, users)


async def seated(bot: VedetteBot, gid: str) -> dict[int, str]:
    return {p.user_id: p.side for p in await bot.umpire.store.players(gid)}


# -- after the start, no player changes side ---------------------------------------------------
async def test_a_player_who_left_can_come_back_to_their_side_only(
        clubs: Clubs, bot: VedetteBot) -> None:
    gid = await create(clubs, bot)
    await start(clubs, bot, gid)
    bob = clubs.bob
    # Seated, he cannot move to the enemy's side.
    refused = await say(clubs, "game join", bob, {"side": "blue"}, channel=clubs.channel)
    assert "sides cannot be changed once the game has started" in refused

    # The attack: leave, then join the enemy's side.
    left = await say(clubs, "game leave", bob, channel=clubs.channel)
    assert "only to Grey Army" in left
    await bot.outbox.idle()
    assert any(bob.mention in t and "has left Grey Army" in t for t in public(clubs))
    refused = await say(clubs, "game join", bob, {"side": "blue"}, channel=clubs.channel)
    assert "you commanded Grey Army in this game" in refused
    assert await seated(bot, gid) == {clubs.alice.id: "blue"}
    assert NOT_PLAYING in await say(clubs, "units", bob, {"game": gid})
    assert await bot.umpire.store.seat_request(gid, bob.id) is None

    # The host cannot seat him on blue either, even had he asked for it.
    assert "has not asked for a seat" in await say(
        clubs, "host seat", clubs.alice, {"user": bob, "side": "grey"}, channel=clubs.channel)

    # Coming back to grey is a request the host accepts, in public.
    asked = await say(clubs, "game join", bob, {"side": "grey"}, channel=clubs.channel)
    assert "the host decides" in asked
    await bot.outbox.idle()
    assert NOT_PLAYING in await say(clubs, "units", bob, {"game": gid})
    [notice] = [t for t in dm_texts(clubs, clubs.alice) if "asks to command" in t]
    assert bob.mention in notice and "Grey Army" in notice and "held this side before" in notice
    assert "asked to command Grey Army (grey), not 'blue'" in await say(
        clubs, "host seat", clubs.alice, {"user": bob, "side": "blue"}, channel=clubs.channel)
    assert await seated(bot, gid) == {clubs.alice.id: "blue"}
    before = len(public(clubs))
    assert "now commands Grey Army" in await say(
        clubs, "host seat", clubs.alice, {"user": bob, "side": "grey"}, channel=clubs.channel)
    await bot.outbox.idle()
    [announced] = public(clubs)[before:]
    assert f"{bob.mention} now commands Grey Army, seated by {clubs.alice.mention}" in announced
    assert await seated(bot, gid) == {clubs.alice.id: "blue", bob.id: "grey"}
    assert "Grey Battery" in await say(clubs, "units", bob)


async def test_a_former_side_outlives_a_restart(clubs: Clubs) -> None:
    async with running(clubs) as bot:
        gid = await create(clubs, bot)
        await start(clubs, bot, gid)
        await say(clubs, "game leave", clubs.bob, channel=clubs.channel)
    async with running(clubs) as bot:
        refused = await say(clubs, "game join", clubs.bob, {"side": "blue"},
                            channel=clubs.channel)
        assert "you commanded Grey Army" in refused
        assert clubs.bob.id not in await seated(bot, gid)


# -- after the start, nobody joins without the host ---------------------------------------------
async def test_a_join_after_the_start_waits_for_the_host(clubs: Clubs, bot: VedetteBot) -> None:
    gid = await create(clubs, bot)
    await start(clubs, bot, gid)
    eve, carol = clubs.eve, clubs.carol
    # From a DM, knowing the public game id: only a request.
    asked = await say(clubs, "game join", eve, {"side": "blue", "game": gid})
    assert "sent to the host" in asked
    for command in ("units", "inbox", "log", "map"):
        assert NOT_PLAYING in await say(clubs, command, eve, {"game": gid}), command
    await bot.outbox.idle()
    [notice] = [t for t in dm_texts(clubs, clubs.alice) if "asks to command" in t]
    assert eve.mention in notice and "outside the game's server" in notice
    assert not any(eve.mention in t for t in public(clubs))  # nothing has changed yet
    # Nobody but the host may accept: not the asker, not a member, not the other player.
    for user in (eve, carol, clubs.bob):
        assert await say(clubs, "host seat", user, {"user": eve, "side": "blue", "game": gid}) \
            == ONLY_HOST
    assert eve.id not in await seated(bot, gid)
    # One request at a time: to ask for the other side she withdraws hers and asks again; the
    # host seats her where she asked.
    assert "already with the host" in await say(clubs, "game join", eve,
                                                {"side": "grey", "game": gid})
    assert "withdrawn" in await say(clubs, "game leave", eve, {"game": gid})
    assert "sent to the host" in await say(clubs, "game join", eve, {"side": "grey", "game": gid})
    assert "now commands Grey Army" in await say(
        clubs, "host seat", clubs.alice, {"user": eve, "side": "grey"}, channel=clubs.channel)
    await bot.outbox.idle()
    assert any(f"{eve.mention} now commands Grey Army" in t for t in public(clubs))
    assert "Grey Battery" in await say(clubs, "units", eve, {"game": gid})

    # A member of the server asking in the channel: also a request; the host refuses it.
    assert "sent to the host" in await say(clubs, "game join", carol, {"side": "blue"},
                                           channel=clubs.channel)
    assert "refused" in await say(clubs, "host unseat", clubs.alice, {"user": carol},
                                  channel=clubs.channel)
    assert "has not asked" in await say(clubs, "host seat", clubs.alice,
                                        {"user": carol, "side": "blue"}, channel=clubs.channel)
    assert carol.id not in await seated(bot, gid)


async def test_the_host_takes_a_seat_away_in_public(clubs: Clubs, bot: VedetteBot) -> None:
    gid = await create(clubs, bot)
    await start(clubs, bot, gid)
    bob = clubs.bob
    assert await say(clubs, "host unseat", clubs.carol, {"user": bob}, channel=clubs.channel) \
        == ONLY_HOST
    assert "no longer commands Grey Army" in await say(
        clubs, "host unseat", clubs.alice,
        {"user": bob, "reason": "left the club @everyone **now**"}, channel=clubs.channel)
    await bot.outbox.idle()
    # The reason is shown as typed: no formatting applied, nobody called.
    assert any(f"{clubs.alice.mention} has taken {bob.mention}'s seat on Grey Army away" in t
               and "left the club @\u200beveryone \\*\\*now\\*\\*" in t
               for t in public(clubs))
    assert await seated(bot, gid) == {clubs.alice.id: "blue"}
    assert NOT_PLAYING in await say(clubs, "units", bob, {"game": gid})
    assert "you commanded Grey Army" in await say(clubs, "game join", bob, {"side": "blue"},
                                                  channel=clubs.channel)


# -- before the start, joins come from the game's own server ------------------------------------
async def test_before_the_start_only_members_of_the_server_join(
        clubs: Clubs, bot: VedetteBot) -> None:
    gid = await create(clubs, bot)
    eve = clubs.eve
    from_away = await say(clubs, "game join", eve, {"side": "grey", "game": gid},
                          channel=clubs.away_channel)
    assert "only members of its server can join" in from_away
    from_dm = await say(clubs, "game join", eve, {"side": "blue", "game": gid})
    assert "only members of its server can join" in from_dm
    assert eve.id not in await seated(bot, gid)
    assert await bot.umpire.store.seat_request(gid, eve.id) is None
    # A member of the server may join from a DM (Discord confirms the membership) or from
    # another server they are also in.
    assert "You command Grey Army" in await say(clubs, "game join", clubs.carol,
                                                {"side": "grey", "game": gid})
    clubs.fake.add_member(clubs.away, clubs.bob)
    assert "You command Blue Army" in await say(clubs, "game join", clubs.bob,
                                                {"side": "blue", "game": gid},
                                                channel=clubs.away_channel)
    assert await seated(bot, gid) == {clubs.alice.id: "blue", clubs.bob.id: "blue",
                                      clubs.carol.id: "grey"}


# -- the status of a game ------------------------------------------------------------------------
async def test_status_is_for_players_the_server_and_the_channel(
        clubs: Clubs, bot: VedetteBot) -> None:
    gid = await create(clubs, bot)
    await start(clubs, bot, gid)
    refused = seats.NOT_SEEN
    assert await say(clubs, "game status", clubs.eve, {"game": gid}) == refused
    assert await say(clubs, "game status", clubs.eve, {"game": gid},
                     channel=clubs.away_channel) == refused
    for user, channel in ((clubs.bob, None), (clubs.carol, None), (clubs.carol, clubs.channel),
                          (clubs.alice, None)):
        shown = await say(clubs, "game status", user, {"game": gid}, channel=channel)
        assert "Tiny Skirmish" in shown and clubs.bob.mention in shown
    # A player from elsewhere (seated by the host) is told too.
    await say(clubs, "game join", clubs.eve, {"side": "blue", "game": gid})
    assert f"{clubs.eve.mention} (blue)" in await say(clubs, "game status", clubs.alice,
                                                      channel=clubs.channel)
    await say(clubs, "host seat", clubs.alice, {"user": clubs.eve, "side": "blue"},
              channel=clubs.channel)
    assert "Tiny Skirmish" in await say(clubs, "game status", clubs.eve, {"game": gid})


# -- a leaver loses every private channel --------------------------------------------------------
async def test_a_leaver_loses_the_thread_and_every_private_reading(
        clubs: Clubs, bot: VedetteBot) -> None:
    fake = clubs.fake
    gid = await create(clubs, bot, threads=True, grey=(clubs.bob, clubs.carol))
    await start(clubs, bot, gid)
    users = {"blue": clubs.alice, "grey": clubs.bob}
    await play_until(clubs, bot, gid, "grey", users)
    [grey] = [c for c in fake.world.channels.values()
              if c.parent_id == clubs.channel.id and c.name and "Grey Army" in c.name]
    assert {clubs.bob.id, clubs.carol.id} <= grey.thread_members

    async def autocomplete(user: FakeUser) -> list[str]:
        handle = await fake.autocomplete("move", {"unit": "", "route": "x", "game": gid},
                                         focused="unit", user=user)
        return [c["name"] for c in (await handle.response()).choices]

    assert sorted(await autocomplete(clubs.carol)) == ["Grey Battery", "Grey Brigade"]
    await say(clubs, "game leave", clubs.carol, channel=clubs.channel)
    await fake.wait_for(lambda: clubs.carol.id not in grey.thread_members, what="removal")
    assert fake.requests_to("DELETE", f"/channels/{grey.id}/thread-members/{clubs.carol.id}")
    for command in ("units", "inbox", "log", "map", "march status"):
        assert NOT_PLAYING in await say(clubs, command, clubs.carol, {"game": gid}), command
    assert await autocomplete(clubs.carol) == []
    # The side's later secrets reach the thread without her.
    posted = len(fake.messages_in(grey.id))
    await next_turn(clubs, bot, gid, "grey", users)
    assert len(fake.messages_in(grey.id)) > posted
    assert clubs.carol.id not in grey.thread_members and clubs.bob.id in grey.thread_members

    # A seat the host takes away: out of the thread too, even if Discord failed at first.
    fake.fail_next("DELETE", f"/channels/{grey.id}/thread-members/*", status=503, times=1)
    await say(clubs, "host unseat", clubs.alice, {"user": clubs.bob}, channel=clubs.channel)
    assert clubs.bob.id in grey.thread_members  # the first try failed
    await say(clubs, "game join", clubs.carol, {"side": "grey"}, channel=clubs.channel)
    await say(clubs, "host seat", clubs.alice, {"user": clubs.carol, "side": "grey"},
              channel=clubs.channel)
    await fake.wait_for(lambda: clubs.carol.id in grey.thread_members, what="carol back")
    assert clubs.bob.id not in grey.thread_members
    posted = len(fake.messages_in(grey.id))
    await next_turn(clubs, bot, gid, "grey", {"blue": clubs.alice, "grey": clubs.carol})
    assert len(fake.messages_in(grey.id)) > posted
    assert grey.thread_members == {fake.bot_user.id, clubs.carol.id}


# -- threads: a player who cannot be added ---------------------------------------------------------
async def test_a_player_who_cannot_be_added_to_the_thread_reads_the_inbox(
        clubs: Clubs, bot: VedetteBot) -> None:
    fake = clubs.fake
    # carol joins grey first, then leaves the server before the first message to grey.
    gid = await create(clubs, bot, threads=True, grey=(clubs.carol, clubs.bob))
    del clubs.home.member_roles[clubs.carol.id]
    await start(clubs, bot, gid)
    users = {"blue": clubs.alice, "grey": clubs.bob}
    await play_until(clubs, bot, gid, "grey", users)
    await next_turn(clubs, bot, gid, "grey", users)
    greys = [c for c in fake.world.channels.values()
             if c.parent_id == clubs.channel.id and c.name and "Grey Army" in c.name]
    assert len(greys) == 1  # one thread, however many messages and retries
    [grey] = greys
    assert grey.thread_members == {fake.bot_user.id, clubs.bob.id}
    adds = fake.requests_to("PUT", f"/channels/{grey.id}/thread-members/{clubs.carol.id}")
    assert len(adds) == 1  # tried once, not on every message
    reports = [t for t in dm_texts(clubs, clubs.alice) if "could not be added" in t]
    assert len(reports) == 1 and clubs.carol.mention in reports[0] and "/inbox" in reports[0]
    # Each of grey's messages reached the thread once (via bob's copy)...
    orders = [text_of(m) for m in fake.messages_in(grey.id) if "Your orders" in text_of(m)]
    assert orders
    mine = await bot.umpire.store.deliveries_for(gid, Recipient("player", str(clubs.carol.id)))
    bobs = await bot.umpire.store.deliveries_for(gid, Recipient("player", str(clubs.bob.id)))
    assert len(orders) == sum("Your orders" in d.text for d in bobs)
    # ... and carol's copies wait in her /inbox, marked as such.
    assert mine and all(d.status == "failed" and "/inbox" in (d.last_error or "") for d in mine)
    assert "Your orders, please" in await say(clubs, "inbox", clubs.carol, {"game": gid})
    assert await bot.umpire.store.pending_deliveries(gid) == []


# -- host commands --------------------------------------------------------------------------------
async def test_a_host_command_from_someone_not_playing_names_the_host(
        clubs: Clubs, bot: VedetteBot) -> None:
    gid = await create(clubs, bot)
    await start(clubs, bot, gid)
    phase = (await bot.umpire.repository.state_for(gid)).current
    assert await say(clubs, "host pause", clubs.carol, {"reason": "mine now"},
                     channel=clubs.channel) == ONLY_HOST
    assert await say(clubs, "host endphase", clubs.eve, {"game": gid}) == ONLY_HOST
    assert await say(clubs, "host correct", clubs.carol,
                     {"unit": "grey-1", "field": "strength", "value": "1", "reason": "why not",
                      "game": gid}) == ONLY_HOST
    assert await say(clubs, "host pause", clubs.bob, channel=clubs.channel) == ONLY_HOST
    state = await bot.umpire.repository.state_for(gid)
    assert state.status == "active" and state.current == phase
    assert state.units["grey-1"].strength != 1


async def test_messages_queued_before_a_leave_never_reach_the_leaver(
        clubs: Clubs, bot: VedetteBot) -> None:
    fake = clubs.fake
    gid = await create(clubs, bot)
    dm = fake.dm_channel(clubs.bob)
    fake.fail_next("POST", f"/channels/{dm.id}/messages", status=503, times=10**6)
    await start(clubs, bot, gid)
    await play_until(clubs, bot, gid, "grey", {"blue": clubs.alice, "grey": clubs.bob})
    waiting = [d for d in await bot.umpire.store.pending_deliveries(gid)
               if d.target == str(clubs.bob.id)]
    assert any("Your orders" in d.text for d in waiting)  # they could not go out yet
    await say(clubs, "game leave", clubs.bob, channel=clubs.channel)
    fake.faults.clear()
    await bot.outbox.idle()
    assert fake.dms_to(clubs.bob) == []
    for d in waiting:
        after = await bot.umpire.store.get_delivery(d.id)
        assert after is not None and after.status == "failed"
        assert "left the game" in (after.last_error or "")


async def test_the_store_keeps_requests_and_former_sides(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "seats.db")
    try:
        umpire = Umpire(store, scenarios=FIXTURES, maps=MapMaker(enabled=False))
        await umpire.create_game(TINY, 1, game_id="g1", guild_id=99)
        assert "only members of its server" in str(
            await _refusal(umpire.join("g1", 2, "grey")))  # no membership vouched for
        await umpire.join("g1", 1, "blue", in_server=True)
        await umpire.join("g1", 2, "grey", in_server=True)
        await umpire.start("g1", 1)
        await umpire.leave("g1", 2)
        assert await store.former_side("g1", 2) == "grey"
        await umpire.join("g1", 2, "grey")
        [request] = await store.seat_requests("g1")
        assert (request.user_id, request.side) == (2, "grey")
        await umpire.seat("g1", 1, 2, "grey")
        assert await store.seat_requests("g1") == []
        assert (await store.get_player("g1", 2)) is not None
        public = [d.text for d in await store.deliveries_for("g1", Recipient("public", ""))]
        assert any("has left Grey Army" in t for t in public)
        assert any("now commands Grey Army" in t for t in public)
    finally:
        await store.close()


async def _refusal(pending: Any) -> BaseException:
    try:
        await pending
    except Exception as e:
        return e
    raise AssertionError("not refused")
