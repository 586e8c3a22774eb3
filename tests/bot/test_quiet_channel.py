"""A quiet game channel, through the fake Discord: flank-march played for several turns posts at
most three messages a turn in the channel (counted as Discord received them: new messages, not
edits), the turn's status post is edited in place (after a restart too, and posted again if it
was deleted), and its first words notify exactly the players it calls."""

# The fixtures `table` and `bot` come from tests.support.botkit (a plugin of tests/conftest.py).

from __future__ import annotations

from bot.client import VedetteBot
from tests.fakediscord import FakeUser
from tests.support.botkit import Table, final, game_id, public, running, say, settle, text_of

MAX_POSTS_PER_TURN = 3
TURNS = 4


async def flank_march(table: Table, **options: object) -> None:
    """alice (host, Union) and bob (Confederates) at a flank-march game in the channel."""
    handle = await table.fake.slash("game create", {"scenario": "flank-march", **options},
                                    user=table.alice, channel=table.channel)
    assert "You host game" in text_of(await final(handle))
    await table.fake.wait_for(lambda: len(public(table)) == 1, what="the create post")


def channel_posts(table: Table) -> int:
    """New messages the bot posted in the game's channel (edits and answers not counted)."""
    return len(table.fake.requests_to("POST", f"/channels/{table.channel.id}/messages"))


def channel_edits(table: Table) -> int:
    return len(table.fake.requests_to("PATCH", f"/channels/{table.channel.id}/messages/*"))


async def start(table: Table) -> None:
    await say(table, "game join", table.alice, {"side": "union"}, channel=table.channel)
    await say(table, "game join", table.bob, {"side": "confederate"}, channel=table.channel)
    assert "started" in await say(table, "game start", table.alice, channel=table.channel)


async def play_turn(table: Table, gid: str, bot: VedetteBot) -> None:
    """Every acting side says /done until the next turn begins."""
    users: dict[str, FakeUser] = {"union": table.alice, "confederate": table.bob}
    turn = (await bot.umpire.repository.state_for(gid)).turn
    for _ in range(30):
        state = await bot.umpire.repository.state_for(gid)
        if state.turn != turn or state.status != "active":
            await settle(bot)
            return
        for side in state.acting_sides():
            await say(table, "done", users[side])
    raise AssertionError("the turn never ended")


def status_posts(table: Table) -> list[dict[str, object]]:
    return [m for m in table.fake.messages_in(table.channel)
            if text_of(m).startswith("**Turn ")]


async def test_flank_march_posts_at_most_three_messages_a_turn(table: Table,
                                                              bot: VedetteBot) -> None:
    await flank_march(table)
    gid = await game_id(bot, table)
    await start(table)
    await settle(bot)
    per_turn = []
    for _ in range(TURNS):
        posts, edits = channel_posts(table), channel_edits(table)
        await play_turn(table, gid, bot)
        per_turn.append(channel_posts(table) - posts)
        assert channel_edits(table) > edits  # the turn's post followed its phases
    print(f"flank-march: channel posts per turn {per_turn}")
    assert all(n <= MAX_POSTS_PER_TURN for n in per_turn), per_turn
    # One status post a turn: each turn's post stays as that turn's record.
    turns = status_posts(table)
    assert [text_of(m).split(" - ")[0] for m in turns] == [
        f"**Turn {t}" for t in range(1, TURNS + 2)]
    for m in turns[:-1]:
        assert m["edited_timestamp"] is not None
        assert ": now" not in text_of(m) and ": to come" not in text_of(m)


async def test_the_turns_post_notifies_exactly_its_players(table: Table, bot: VedetteBot) -> None:
    await flank_march(table)
    await start(table)
    await settle(bot)
    [post] = status_posts(table)
    players = sorted([str(table.alice.id), str(table.bob.id)])
    allowed = post["allowed_mentions"]
    assert isinstance(allowed, dict)
    assert sorted(str(u) for u in allowed["users"]) == players
    assert allowed["parse"] == []
    assert sorted(table.fake.pings(post)) == players
    # Nobody else: not the outsider carol, whatever the channel holds.
    assert str(table.carol.id) not in table.fake.pings(post)


async def test_mention_players_off_notifies_nobody(table: Table, bot: VedetteBot) -> None:
    await flank_march(table, mention_players=False)
    await start(table)
    await settle(bot)
    [post] = status_posts(table)
    assert table.fake.pings(post) == [] and "<@" not in text_of(post)


async def test_the_post_is_edited_after_a_restart_and_posted_again_if_deleted(
        table: Table) -> None:
    async with running(table) as bot:
        await flank_march(table)
        gid = await game_id(bot, table)
        await start(table)
        await settle(bot)
    [post] = status_posts(table)
    users = {"union": table.alice, "confederate": table.bob}
    async with running(table) as bot:
        # The Command Phase ends: the same message now shows the Union's movement.
        posts = channel_posts(table)
        for side in (await bot.umpire.repository.state_for(gid)).acting_sides():
            await say(table, "done", users[side])
        await settle(bot)
        assert channel_posts(table) == posts
        [edited] = status_posts(table)
        assert edited["id"] == post["id"] and edited["edited_timestamp"] is not None
        assert "Command Phase: done" in text_of(edited)
        # Someone deletes it: the next change posts it again, and later ones edit the new one.
        table.fake.world.delete_message(edited)
        for _ in range(2):
            for side in (await bot.umpire.repository.state_for(gid)).acting_sides():
                await say(table, "done", users[side])
            await settle(bot)
        [again] = status_posts(table)
        assert again["id"] != post["id"] and again["edited_timestamp"] is not None
        assert text_of(again).startswith("**Turn 1 - ")
        assert await bot.umpire.store.pending_deliveries(gid) == []
