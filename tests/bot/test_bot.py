"""The bot against the local Discord stand-in (``tests/fakediscord``): real discord.py, real
database files, no network. Each test asserts on what Discord would have received."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest

from bot.client import VedetteBot
from bot.dm_notice import NOTICE
from bot.views import NOT_WAITING
from rules.knowledge.public import announces_finished
from storage.records import DeliveryRecord, Recipient
from tests.fakediscord import (
    FakeUser,
    gallery_items,
)
from tests.support.botkit import (
    EPHEMERAL,
    FIXTURES,
    JSON,
    MAPS,
    TINY,
    Table,
    final,
    game_id,
    play_until,
    public,
    running,
    say,
    set_up,
    settle,
    start_and_reach_blue_movement,
    text_of,
)


def dms(table: Table, user: FakeUser) -> list[JSON]:
    return table.fake.dms_to(user)


def as_posted(sent: list[DeliveryRecord]) -> list[str]:
    """The channel's posts the public deliveries make: an edited post shows its last words."""
    posts: list[str] = []
    where: dict[str, int] = {}
    for d in sent:
        if d.edit_key in where:
            posts[where[d.edit_key]] = d.text
            continue
        if d.edit_key:
            where[d.edit_key] = len(posts)
        posts.append(d.text)
    return posts


# -- the tests -------------------------------------------------------------------------------------
async def test_two_players_play_a_turn_in_private(table: Table, bot: VedetteBot) -> None:
    fake = table.fake
    gid = await set_up(table, bot)
    announcement = public(table)
    assert len(announcement) == 1 and "Tiny Skirmish" in announcement[0]
    assert table.alice.mention in announcement[0]

    assert "started" in await say(table, "game start", table.alice, channel=table.channel)
    await settle(bot)
    assert any("Dice commitment" in t for t in public(table))
    assert any(t.startswith("**Turn 1") for t in public(table))

    # Blue moves in a DM, and says it is done; then grey.
    await play_until(table, bot, gid, "blue")
    assert any("Your orders, please: Blue Army Movement Phase" in text_of(m)
               for m in dms(table, table.alice))
    moved = await say(table, "move", table.alice, {"unit": "2nd Brigade", "route": "A0106"})
    assert moved.startswith("2nd Brigade moved 1 cell(s) to A0106")
    assert "finished" in await say(table, "done", table.alice)
    await play_until(table, bot, gid, "grey")
    assert any("Your orders, please: Grey Army Movement Phase" in text_of(m)
               for m in dms(table, table.bob))
    moved = await say(table, "move", table.bob, {"unit": "Grey Battery", "route": "B0603"})
    assert moved.startswith("Grey Battery moved 1 cell(s) to B0603")
    assert "finished" in await say(table, "done", table.bob)
    await play_until(table, bot, gid, "blue")

    channel = public(table)
    # The turn's status post was edited as the phases passed; it ends as the turn's record.
    [turn_1] = [t for t in channel if t.startswith("**Turn 1")]
    for expected in ("Blue Army Movement Phase: done", "Grey Army Movement Phase: done"):
        assert expected in turn_1, (expected, turn_1)
    assert any(t.startswith("**Turn 2") for t in channel), channel
    secrets = ("2nd Brigade", "Grey Battery", "moved", "A0106", "B0603", "Your orders",
               "Secret roll", " MP")
    for text in channel:
        assert not any(s in text for s in secrets), text
    # The channel holds the bot's public posts only: every answer there was ephemeral.
    assert all(not m["flags"] & EPHEMERAL for m in fake.messages_in(table.channel))
    sent = await bot.umpire.store.deliveries_for(gid, Recipient("public", ""))
    assert channel[1:] == as_posted(sent)

    blue = [text_of(m) for m in dms(table, table.alice)]
    grey = [text_of(m) for m in dms(table, table.bob)]
    assert not any("Grey Army Movement Phase" in t for t in blue)
    assert not any("Blue Army Movement Phase" in t for t in grey)
    assert not any("Grey Battery" in t for t in blue)
    assert not any("2nd Brigade" in t for t in grey)
    for user in (table.alice, table.bob):
        orders = [m for m in dms(table, user) if "Your orders" in text_of(m)]
        assert orders
        if MAPS:  # each order request comes with that side's map, first in its gallery
            for m in orders:
                attachment = m["attachments"][0]
                assert attachment["filename"].endswith(".png")
                first = gallery_items(m)[0]
                assert first["media"]["url"] == f"attachment://{attachment['filename']}"
                assert first["description"].startswith("Map of ")
    assert await bot.umpire.store.pending_deliveries(gid) == []


async def test_autocomplete_offers_only_your_own_units(table: Table, bot: VedetteBot) -> None:
    await start_and_reach_blue_movement(table, bot)
    fake = table.fake

    async def choices(user: FakeUser, typed: str, focused: str = "unit") -> list[str]:
        options = {"unit": typed if focused == "unit" else "x",
                   "route": typed if focused == "route" else "x"}
        handle = await fake.autocomplete("move", options, focused=focused, user=user)
        return [c["name"] for c in (await handle.response()).choices]

    # /move offers the units that may move now (ruling ORD-56), shown by name: not Blue Horse,
    # which arrives on turn 2
    assert await choices(table.alice, "") == ["1st Brigade", "2nd Brigade", "General Azure"]
    assert await choices(table.alice, "grey") == []
    assert await choices(table.bob, "") == []  # not Grey's movement phase: nothing to move
    assert await choices(table.carol, "") == []  # not in a game: nothing at all
    places = await choices(table.alice, "road Old", focused="route")
    assert places == ["road Old", "road Old Church", "road Old Mill"]


async def test_an_enemy_unit_gets_the_answer_of_no_unit(table: Table, bot: VedetteBot) -> None:
    await start_and_reach_blue_movement(table, bot)
    enemy, nobody = "Grey Battery", "Grey Bittery"

    async def order(name: str) -> list[str]:
        return [await say(table, "move", table.alice, {"unit": name, "route": "A0205"}),
                await say(table, "move", table.alice,
                          {"unit": name, "route": "A0205"}, channel=table.channel),
                await say(table, "formation", table.alice, {"unit": name, "formation": "line"}),
                await say(table, "move", table.alice, {"unit": name, "route": "road Old Church"})]

    against_enemy = await order(enemy)
    against_nobody = await order(nobody)
    assert all("no unit called" in t for t in against_enemy), against_enemy
    assert [t.replace(enemy, nobody) for t in against_enemy] == against_nobody
    # Nothing about it reached the channel or the other side.
    await settle(bot)
    assert not any(enemy in t or nobody in t for t in public(table))
    assert not any("Bittery" in text_of(m) for m in dms(table, table.bob))


async def test_closed_dms_are_explained_once_and_kept_in_the_inbox(
        table: Table, bot: VedetteBot) -> None:
    fake = table.fake
    fake.close_dms(table.bob)
    gid = await start_and_reach_blue_movement(table, bot)
    await say(table, "done", table.alice)
    await play_until(table, bot, gid, "grey")
    assert dms(table, table.bob) == []
    player = await bot.umpire.store.get_player(gid, table.bob.id)
    assert player is not None and not player.dm_ok

    # bob's next interaction (in the channel) carries the explanation, once, ephemerally.
    handle = await fake.slash("units", user=table.bob, channel=table.channel)
    assert "Grey Battery" in text_of(await final(handle))
    notice = await handle.followup()
    assert notice["content"] == NOTICE and notice["flags"] & EPHEMERAL
    assert "Privacy Settings" in NOTICE and "/inbox" in NOTICE
    again = await fake.slash("units", user=table.bob, channel=table.channel)
    await final(again)
    await asyncio.sleep(0.2)
    assert again.followup_ids == []
    assert NOTICE not in public(table)

    # The inbox holds the messages the DMs could not carry.
    inbox = await say(table, "inbox", table.bob, channel=table.channel)
    assert "Your orders, please" in inbox and "could not be delivered" in inbox
    # alice's DMs were fine and her inbox has her own messages, not bob's.
    mine = await say(table, "inbox", table.alice)
    assert "Your orders, please" in mine and "could not be delivered" not in mine

    # When bob opens his DMs, the next message reaches him and he is reachable again.
    fake.world.users[table.bob.id].dms_open = True
    await say(table, "done", table.bob)
    await play_until(table, bot, gid, "blue")
    await say(table, "done", table.alice)
    await play_until(table, bot, gid, "grey")
    assert any("Grey Army Movement Phase" in text_of(m) for m in dms(table, table.bob))
    player = await bot.umpire.store.get_player(gid, table.bob.id)
    assert player is not None and player.dm_ok


async def test_inbox_pages_with_buttons(table: Table, bot: VedetteBot) -> None:
    fake = table.fake
    bot.inbox_per_page = 2
    gid = await start_and_reach_blue_movement(table, bot)
    for _ in range(2):  # more turns, more messages
        await say(table, "done", table.alice)
        await play_until(table, bot, gid, "grey")
        await say(table, "done", table.bob)
        await play_until(table, bot, gid, "blue")
    _, pages = await bot.umpire.inbox(gid, table.alice.id, per_page=2)
    assert pages >= 2
    handle = await fake.slash("inbox", user=table.alice)
    first = await final(handle)
    assert "page 1 of" in text_of(first)
    [row] = first["components"]
    [older] = row["components"]
    assert older["label"] == "Older" and older["custom_id"] == f"vedette:inbox:{gid}:1"
    click = await fake.click(first, older["custom_id"], user=table.alice)
    await click.response()
    await fake.wait_for(lambda: "page 2 of" in text_of(fake.world.messages[int(first["id"])]))
    labels = [c["label"] for c in fake.world.messages[int(first["id"])]["components"][0]
              ["components"]]
    assert labels[0] == "Newer"


async def test_host_commands_refuse_other_players(table: Table, bot: VedetteBot) -> None:
    await set_up(table, bot)
    refusal = "only the game's host can do that"
    assert await say(table, "game start", table.bob, channel=table.channel) == refusal
    assert await say(table, "game options", table.bob, {"delivery": "threads"},
                     channel=table.channel) == refusal
    assert await say(table, "game end", table.carol, channel=table.channel) == refusal
    assert await say(table, "game start", table.bob) == refusal  # from a DM, too
    assert public(table)[1:] == []  # nothing was started or ended
    # Manage Server in the game's server stands in for the host.
    assert "started" in await say(table, "game start", table.dave, channel=table.channel)
    await settle(bot)
    assert any("Dice commitment" in t for t in public(table))
    assert await say(table, "game end", table.bob, channel=table.channel) == refusal
    assert "over" in await say(table, "game end", table.alice, channel=table.channel)
    await settle(bot)
    assert any("The game is over" in t and "seed" in t for t in public(table))


async def test_a_restart_sends_what_waited_and_keeps_buttons_working(table: Table) -> None:
    fake = table.fake
    async with running(table) as bot:
        gid = await set_up(table, bot)
        # Discord's channel endpoint fails for a while: the public messages wait in the outbox
        # (the private ones go out).
        fake.fail_next("POST", f"/channels/{table.channel.id}/messages", status=503, times=10**6)
        await say(table, "game start", table.alice, channel=table.channel)
        await play_until(table, bot, gid, "blue")
        assert public(table)[1:] == []
        assert await bot.umpire.store.pending_deliveries(gid)
        assert any("Movement Phase" in text_of(m) for m in dms(table, table.alice))

        # A march by road is shown first, with Confirm and Cancel.
        handle = await fake.slash("move", {"unit": "1st Brigade", "route": "road Old Church"},
                                  user=table.alice)
        preview = await final(handle)
        assert ("(by road):\n1-2. A0204 to A0304 (Old Church): 0.5 MP each (by road, in column)"
                in text_of(preview))  # the preview's words now price each step
        assert "A0304 (Old Church)" in text_of(preview)
        confirm, cancel = preview["components"][0]["components"]
        assert (confirm["label"], cancel["label"]) == ("Confirm", "Cancel")
        assert confirm["custom_id"].startswith(f"vedette:move:ok:{gid}:")
        assert len(confirm["custom_id"]) <= 100
        state = await bot.umpire.repository.state_for(gid)
        assert state.units["blue-1"].cell == state.loaded.board.parse("A0104")  # not yet
    fake.faults.clear()
    assert public(table)[1:] == []

    async with running(table) as bot:
        await settle(bot)
        sent = await bot.umpire.store.deliveries_for(gid, Recipient("public", ""))
        assert [d.status for d in sent] == ["sent"] * len(sent)
        assert public(table)[1:] == [d.text for d in sent]  # each once, in order
        assert "Dice commitment" in public(table)[1]

        click = await fake.click(preview, confirm["custom_id"], user=table.alice)
        await click.response()
        await fake.wait_for(lambda: "Ordered" in text_of(fake.world.messages[int(preview["id"])]))
        shown = fake.world.messages[int(preview["id"])]
        assert "1st Brigade moved 2 cell(s) to A0304 (Old Church)" in text_of(shown)
        assert shown["components"] == []
        state = await bot.umpire.repository.state_for(gid)
        assert state.units["blue-1"].cell == state.loaded.board.parse("A0304")
        assert await bot.umpire.store.pending_deliveries(gid) == []


async def test_cancel_leaves_the_unit_where_it_is(table: Table, bot: VedetteBot) -> None:
    fake = table.fake
    gid = await start_and_reach_blue_movement(table, bot)
    preview = await final(await fake.slash(
        "move", {"unit": "1st Brigade", "route": "road Old Church"}, user=table.alice,
        channel=table.channel))
    assert preview["flags"] & EPHEMERAL
    cancel = preview["components"][0]["components"][1]["custom_id"]
    stranger = await fake.click(preview, cancel, user=table.bob)
    # Another's order gets the answer of no order at all (nothing learnt from a copied id).
    assert (await stranger.response()).content == NOT_WAITING
    click = await fake.click(preview, cancel, user=table.alice)
    await click.response()
    assert text_of(fake.world.messages[int(preview["id"])]).startswith("Cancelled")
    state = await bot.umpire.repository.state_for(gid)
    assert state.units["blue-1"].cell == state.loaded.board.parse("A0104")


async def test_commands_sync_only_when_they_change(table: Table) -> None:
    fake = table.fake
    path = f"/applications/{fake.application_id}/commands"
    async with running(table):
        pass
    assert len(fake.requests_to("PUT", path)) == 1
    names = {c["name"] for c in fake.commands()}
    assert names >= {"game", "move", "formation", "done", "map", "log", "units", "inbox", "host",
                     "fire", "assault", "rally"}
    game = next(c for c in fake.commands() if c["name"] == "game")
    assert {o["name"] for o in game["options"]} == {"create", "join", "leave", "start", "status",
                                                    "end", "options", "verify", "replay"}
    async with running(table):
        pass
    assert len(fake.requests_to("PUT", path)) == 1  # unchanged: not pushed again
    async with running(table, dev_guild=table.guild.id):
        pass
    guild_path = f"/applications/{fake.application_id}/guilds/{table.guild.id}/commands"
    assert len(fake.requests_to("PUT", guild_path)) == 1
    assert {c["name"] for c in fake.commands(table.guild)} == names


async def test_commands_go_to_the_dev_guild_and_globally_when_asked(table: Table) -> None:
    fake = table.fake
    global_path = f"/applications/{fake.application_id}/commands"
    guild_path = f"/applications/{fake.application_id}/guilds/{table.guild.id}/commands"
    # A dev guild alone: the commands are that server's, and none is offered in a DM.
    async with running(table, dev_guild=table.guild.id):
        pass
    assert len(fake.requests_to("PUT", guild_path)) == 1
    assert not fake.requests_to("PUT", global_path)
    assert fake.world.find_command("help", None) is None
    # Both (VEDETTE_GLOBAL_COMMANDS): the server's copy again, and the global ones for DMs.
    async with running(table, dev_guild=table.guild.id, global_commands=True) as bot:
        assert "guild" in bot.sync_places() and "DMs" in bot.sync_places()
        assert len(fake.requests_to("PUT", guild_path)) == 2
        assert len(fake.requests_to("PUT", global_path)) == 1
        assert ({c["name"] for c in fake.commands()}
                == {c["name"] for c in fake.commands(table.guild)})
        assert fake.world.find_command("help", None) is not None
        assert "Vedette: commands" in await say(table, "help", table.alice)  # in a DM
    # Unchanged: neither is pushed again.
    async with running(table, dev_guild=table.guild.id, global_commands=True):
        pass
    assert len(fake.requests_to("PUT", guild_path)) == 2
    assert len(fake.requests_to("PUT", global_path)) == 1


async def test_unexpected_failures_are_logged_not_shown(
        table: Table, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    scenario = tmp_path / "doomed.toml"
    scenario.write_text((FIXTURES / "tiny.toml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "tiny.ruleset.toml").write_text(
        (FIXTURES / "tiny.ruleset.toml").read_text(encoding="utf-8"), encoding="utf-8")
    async with running(table, scenarios=tmp_path) as bot:
        await table.fake.slash("game create", {"scenario": "doomed"}, user=table.alice,
                               channel=table.channel)
        await table.fake.wait_for(lambda: len(public(table)) == 1)
        gid = await game_id(bot, table)
    # A fault behind the bot's back: an event no rule knows in the game's log. (Deleting the
    # scenario file no longer breaks a game: it plays from its stored copy.)
    scenario.unlink()
    with sqlite3.connect(table.db) as conn:
        conn.execute("INSERT INTO events (game_id, seq, type, payload, audience, created_at) "
                     "VALUES (?, 1, 'doomed_event', '{\"type\": \"doomed_event\"}', 'umpire', "
                     "'2024-01-01T00:00:00.000000+00:00')", (gid,))
    with caplog.at_level(logging.ERROR, logger="vedette.bot"):
        async with running(table):
            answer = await say(table, "game join", table.bob, {"side": "blue"},
                               channel=table.channel)
    assert answer.startswith("Something went wrong")
    assert "Traceback" not in answer and "doomed" not in answer
    assert any("/game join" in r.getMessage() and gid in r.getMessage() for r in caplog.records)


async def test_create_plays_chancellorsville_with_its_own_rules(table: Table,
                                                               bot: VedetteBot) -> None:
    handle = await table.fake.slash("game create", {"scenario": "chancellorsville-hidden"},
                                    user=table.alice, channel=table.channel)
    assert "You host game" in text_of(await final(handle))
    await table.fake.wait_for(lambda: len(public(table)) == 1)
    [announcement] = public(table)
    assert "Rule modules switched off" not in announcement
    # No module of it is named as switched off (the game's id is named after the scenario).
    assert "chancellorsville (" not in announcement and "raid_victory (" not in announcement
    assert "Game `chancellorsville-hidden-1` created:" in announcement
    # Its raid module's options are told to everyone: here the players choose the raid at the
    # start (ruling CV-39), and the scenario reads the chart.
    assert ("Rule options: the Federal player chooses at the start, before the first turn, "
            "whether his cavalry rides off on its raid (the choice is announced); ") in announcement
    assert ("the victory chart is read at the end of the game (after the raid's die roll, if "
            "the raid went) (the scenario)") in announcement


async def test_create_plays_every_module_of_flank_march(table: Table, bot: VedetteBot) -> None:
    fake = table.fake
    handle = await fake.autocomplete("game create", {"scenario": "flank"}, focused="scenario",
                                     user=table.alice, channel=table.channel)
    offered = [c["value"] for c in (await handle.response()).choices]
    assert offered == ["flank-march"]
    handle = await fake.slash("game create", {"scenario": "flank-march"}, user=table.alice,
                              channel=table.channel)
    assert "You host game" in text_of(await final(handle))
    await fake.wait_for(lambda: len(public(table)) == 1)
    [announcement] = public(table)
    # Every module flank-march names is played (Concealed Forces since rule text 001).
    assert "Rule modules switched off" not in announcement
    assert "surprise_move" not in announcement and "concealed_forces" not in announcement
    # A second game in the same channel is refused in plain words.
    again = await say(table, "game create", table.bob, {"scenario": "flank-march"},
                      channel=table.channel)
    assert again == "this channel already has a game; end it first"
    # And outside a server channel, creating is explained.
    assert "text channel" in await say(table, "game create", table.bob,
                                       {"scenario": "flank-march"})


async def test_create_takes_catalog_names_only(table: Table, bot: VedetteBot,
                                              tmp_path: Path) -> None:
    """A path, even to a real scenario file, is answered exactly like a name that is nowhere,
    and the answer lists the catalog's names without a folder."""
    outside = tmp_path / "outside"
    outside.mkdir()
    for name in ("tiny.toml", "tiny.ruleset.toml"):
        (outside / name).write_bytes((FIXTURES / name).read_bytes())
    answers = [await say(table, "game create", table.alice, {"scenario": typed},
                         channel=table.channel)
               for typed in (str(outside / "tiny.toml"), str(tmp_path / "nowhere.toml"),
                             "../fixtures/tiny", "/etc/passwd", "nowhere")]
    assert len(set(answers)) == 1
    [answer] = set(answers)
    assert answer.startswith("there is no such scenario; choose one of:")
    assert "tiny" in answer and "flank-march" in answer
    assert "/" not in answer and str(tmp_path) not in answer
    assert await bot.umpire.store.list_games() == []
    assert public(table) == []


async def test_a_broken_catalog_scenario_is_named_without_its_folder(table: Table,
                                                                     tmp_path: Path) -> None:
    folder = tmp_path / "host-scenarios"
    folder.mkdir()
    (folder / "broken.toml").write_text('[scenario]\nid = "broken"\nruleset = "none.toml"\n',
                                        encoding="utf-8")
    async with running(table, scenarios=folder) as bot:
        answer = await say(table, "game create", table.alice, {"scenario": "broken"},
                           channel=table.channel)
        assert await bot.umpire.store.list_games() == []
    assert "broken.toml: scenario.ruleset" in answer
    assert str(folder) not in answer and "/" not in answer.split("First:")[1]


async def test_a_scenario_that_is_not_utf8_leaves_autocomplete_working(table: Table,
                                                                        tmp_path: Path) -> None:
    folder = tmp_path / "host-scenarios"
    folder.mkdir()
    for name in ("tiny.toml", "tiny.ruleset.toml"):
        (folder / name).write_bytes((FIXTURES / name).read_bytes())
    (folder / "latin.toml").write_bytes('[scenario]\ntitle = "Ch\u00e2teau"\n'.encode("latin-1"))
    async with running(table, scenarios=folder):
        handle = await table.fake.autocomplete("game create", {"scenario": ""},
                                               focused="scenario", user=table.alice,
                                               channel=table.channel)
        offered = [c["value"] for c in (await handle.response()).choices]
    assert "tiny" in offered and "flank-march" in offered
    assert "latin" not in offered


async def test_a_player_in_two_games_picks_one(table: Table, bot: VedetteBot) -> None:
    fake = table.fake
    first = await set_up(table, bot)
    annex = fake.add_text_channel(table.guild, "annex")
    await bot.fetch_channel(annex.id)  # created after the bot connected: not in its cache
    handle = await fake.slash("game create", {"scenario": TINY}, user=table.carol, channel=annex)
    await final(handle)
    games = await bot.umpire.store.list_games(channel_id=annex.id)
    second = games[-1].id
    await say(table, "game join", table.alice, {"side": "grey"}, channel=annex)

    assert "several games" in await say(table, "units", table.alice)
    assert "1st Brigade" in await say(table, "units", table.alice, {"game": first})
    assert "Grey Battery" in await say(table, "units", table.alice, {"game": second})
    assert "Grey Battery" in await say(table, "units", table.alice, channel=annex)
    assert "1st Brigade" in await say(table, "units", table.alice, channel=table.channel)
    assert "there is no game 'nope'" in await say(table, "units", table.alice,
                                                  {"game": "nope"})

    handle = await fake.autocomplete("units", {"game": ""}, focused="game", user=table.alice)
    assert [c["value"] for c in (await handle.response()).choices] == [first, second]
    handle = await fake.autocomplete("formation", {"unit": "", "formation": "x",
                                                   "game": second},
                                     focused="unit", user=table.alice)
    # the game chosen is read: Grey's units, none of which may change formation before play
    assert [c["name"] for c in (await handle.response()).choices] == []
    # bob is in one game only: it is implied.
    assert "Grey Battery" in await say(table, "units", table.bob)


async def test_private_threads_per_side(table: Table, bot: VedetteBot) -> None:
    fake = table.fake
    await set_up(table, bot)
    warning = await say(table, "game options", table.alice, {"delivery": "threads"},
                        channel=table.channel)
    assert "Manage Threads" in warning and "private thread" in warning
    gid = await game_id(bot, table)
    await say(table, "game join", table.carol, {"side": "blue"}, channel=table.channel)
    assert "started" in await say(table, "game start", table.alice, channel=table.channel)
    await play_until(table, bot, gid, "blue")
    threads = [c for c in fake.world.channels.values() if c.parent_id == table.channel.id]
    blue = next(t for t in threads if t.name and "Blue Army" in t.name)
    assert blue.type == 12 and not blue.invitable  # private; members cannot invite others
    assert blue.thread_members == {fake.bot_user.id, table.alice.id, table.carol.id}
    orders = [text_of(m) for m in fake.messages_in(blue.id) if "Your orders" in text_of(m)]
    assert len(orders) == 1  # one copy for the side, not one per player
    assert dms(table, table.alice) == [] and dms(table, table.carol) == []
    # A player who joins later (seated by the host, after the start) is added to the side's
    # thread.
    await say(table, "game join", table.dave, {"side": "blue"}, channel=table.channel)
    await say(table, "host seat", table.alice, {"user": table.dave, "side": "blue"},
              channel=table.channel)
    await fake.wait_for(lambda: table.dave.id in blue.thread_members)
    # Grey's thread holds nothing of blue's.
    for thread in threads:
        if thread is not blue:
            assert not any("Blue Army Movement" in text_of(m)
                           for m in fake.messages_in(thread.id))
    # Once started, the delivery mode stays.
    assert "before the game starts" in await say(table, "game options", table.alice,
                                                 {"delivery": "dms"}, channel=table.channel)


async def test_map_comes_as_a_picture_to_the_player_alone(table: Table,
                                                          bot: VedetteBot) -> None:
    await start_and_reach_blue_movement(table, bot)
    handle = await table.fake.slash("map", {"around": "Old Church", "radius": 3},
                                    user=table.alice, channel=table.channel)
    message = await final(handle)
    assert message["flags"] & EPHEMERAL
    assert text_of(message).startswith("Blue Army, turn 1")
    if MAPS:
        [attachment] = message["attachments"]
        assert attachment["filename"] == "map.png" and attachment["width"] > 0
    bad = await say(table, "map", table.alice, {"around": "Atlantis"})
    assert "Atlantis" in bad


async def test_dms_refused_for_lack_of_a_shared_server_count_as_closed(
        table: Table, bot: VedetteBot) -> None:
    fake = table.fake
    gid = await set_up(table, bot)
    dm = fake.dm_channel(table.alice)
    fake.fail_next("POST", f"/channels/{dm.id}/messages", status=403, code=50278,
                   message="Cannot send messages to this user (no mutual guilds)")
    await say(table, "game start", table.alice, channel=table.channel)
    await settle(bot)
    player = await bot.umpire.store.get_player(gid, table.alice.id)
    assert player is not None and not player.dm_ok
    [refused] = [d for d in await bot.umpire.store.deliveries_for(
        gid, Recipient("player", str(table.alice.id)))]
    assert refused.status == "failed" and "50278" in (refused.last_error or "")
    handle = await fake.slash("units", user=table.alice, channel=table.channel)
    await final(handle)
    assert (await handle.followup())["content"] == NOTICE


async def test_a_passing_failure_is_retried_without_duplicates(table: Table,
                                                               bot: VedetteBot) -> None:
    fake = table.fake
    await set_up(table, bot)
    dm = fake.dm_channel(table.alice)
    fake.fail_next("POST", f"/channels/{dm.id}/messages", status=503, times=2)
    await say(table, "game start", table.alice, channel=table.channel)
    await fake.wait_for(lambda: len(dms(table, table.alice)) == 1, timeout=10,
                        what="the retried DM")
    await settle(bot)
    [message] = dms(table, table.alice)
    assert "Your orders, please" in text_of(message)
    tries = fake.requests_to("POST", f"/channels/{dm.id}/messages")
    assert [r.status for r in tries] == [503, 503, 200]


async def test_host_tools_pause_end_the_phase_and_correct(table: Table, bot: VedetteBot) -> None:
    gid = await set_up(table, bot)
    await say(table, "game start", table.alice, channel=table.channel)
    await settle(bot)
    refusal = "only the game's host can do that"
    assert await say(table, "host pause", table.bob, channel=table.channel) == refusal
    assert "Done" in await say(table, "host pause", table.alice, {"reason": "tea"},
                               channel=table.channel)
    await settle(bot)
    assert any("paused" in t and "tea" in t for t in public(table))
    assert "paused" in await say(table, "done", table.alice)
    await say(table, "host resume", table.alice, channel=table.channel)
    phase_before = (await bot.umpire.repository.state_for(gid)).current
    await say(table, "host endphase", table.alice, channel=table.channel)
    assert (await bot.umpire.repository.state_for(gid)).current != phase_before
    # A host who plays corrects their own side's units (ruling ORD-40).
    answer_text = await say(table, "host correct", table.alice,
                            {"unit": "blue-1", "field": "strength", "value": "4",
                             "reason": "misread counter"}, channel=table.channel)
    assert "Done" in answer_text
    assert (await bot.umpire.repository.state_for(gid)).units["blue-1"].strength == 4
    assert "whole number" in await say(table, "host correct", table.alice,
                                       {"unit": "blue-1", "field": "strength", "value": "x",
                                        "reason": "oops"}, channel=table.channel)


async def test_public_posts_ping_no_one_and_show_what_was_typed(table: Table,
                                                               tmp_path: Path) -> None:
    """A title or a side's name holding markdown or a mention is a problem of the scenario, so
    it never reaches a message; a pause reason holding them arrives escaped; and no message of
    the bot's notifies anyone, not even the host it names."""
    folder = tmp_path / "host-scenarios"
    folder.mkdir()
    (folder / "tiny.ruleset.toml").write_bytes((FIXTURES / "tiny.ruleset.toml").read_bytes())
    (folder / "tiny.toml").write_bytes((FIXTURES / "tiny.toml").read_bytes())
    (folder / "loud.toml").write_text(
        (FIXTURES / "tiny.toml").read_text(encoding="utf-8")
        .replace('title = "Tiny Skirmish"', 'title = "Tiny *Skirmish* @here"')
        .replace('name = "Grey Army"', 'name = "Grey __Army__"'), encoding="utf-8")
    fake = table.fake
    async with running(table, scenarios=folder) as bot:
        refused = await say(table, "game create", table.alice, {"scenario": "loud"},
                            channel=table.channel)
        assert "loud.toml: scenario.title: " in refused and "a name is plain text" in refused
        assert not public(table)
        handle = await fake.slash("game create", {"scenario": "tiny"}, user=table.alice,
                                  channel=table.channel)
        await final(handle)
        await fake.wait_for(lambda: len(public(table)) == 1, what="the announcement")
        await say(table, "game join", table.alice, {"side": "blue"}, channel=table.channel)
        await say(table, "game join", table.bob, {"side": "grey"}, channel=table.channel)
        await say(table, "game start", table.alice, channel=table.channel)
        await say(table, "host pause", table.alice,
                  {"reason": f"@everyone **x** <@{table.bob.id}>"}, channel=table.channel)
        await settle(bot)
    texts = public(table)
    assert f"<@{table.alice.id}>" in texts[0]  # the host is named...
    [paused] = [t for t in texts if "paused" in t]
    assert paused.endswith(f"@\u200beveryone \\*\\*x\\*\\* \\<@{table.bob.id}\\>")
    bot_id = str(fake.world.bot.id)
    posted = [m for m in fake.messages_in(table.channel, include_ephemeral=True)
              if m["author"]["id"] == bot_id] + dms(table, table.alice) + dms(table, table.bob)
    assert len(posted) > 5
    called = []
    for message in posted:
        assert message.get("allowed_mentions", {}).get("parse") == [], message
        if "\nTo act: " in (message.get("content") or ""):
            # The turn's post calls the players of the side it opens a phase for: them alone
            # (ruling FLOW-31), never the host for being host, nor anyone a reason names.
            called.append(message)
            assert fake.pings(message) == [str(table.alice.id)], message
            continue
        assert fake.pings(message) == [], message  # ...but never pinged
    assert len(called) == 1  # paused in blue's phase: grey was not called yet


async def test_create_takes_the_collision_option(table: Table, bot: VedetteBot) -> None:
    handle = await table.fake.slash("game create", {"scenario": "flank-march",
                                                    "collision": "alternate"},
                                    user=table.alice, channel=table.channel)
    assert "You host game" in text_of(await final(handle))
    [game] = await bot.umpire.store.list_games(channel_id=table.channel.id)
    # The game's auto_pass is stored with it, chosen or not (ruling FLOW-13).
    assert game.options["rules"] == {"surprise_collision": "alternate", "auto_pass": True}
    state = await bot.umpire.repository.state_for(game.id)
    assert state.loaded.scenario.scenario.options["surprise_collision"] == "alternate"


async def test_create_takes_the_announce_finished_option(table: Table, bot: VedetteBot) -> None:
    """Off unless the host asks: then each side's finish in a phase played at once is
    announced again (ruling INFO-9)."""
    handle = await table.fake.slash("game create", {"scenario": "flank-march",
                                                    "announce_finished": True},
                                    user=table.alice, channel=table.channel)
    assert "You host game" in text_of(await final(handle))
    [game] = await bot.umpire.store.list_games(channel_id=table.channel.id)
    assert game.options["rules"] == {"announce_finished": True, "auto_pass": True}
    state = await bot.umpire.repository.state_for(game.id)
    assert announces_finished(state.loaded.scenario.scenario.options)


async def test_create_takes_the_auto_pass_option(table: Table, bot: VedetteBot) -> None:
    """On unless the host says no: then every phase waits for each side's /done (ruling
    FLOW-10), and the create post says so."""
    handle = await table.fake.slash("game create", {"scenario": "flank-march",
                                                    "auto_pass": False},
                                    user=table.alice, channel=table.channel)
    assert "You host game" in text_of(await final(handle))
    [game] = await bot.umpire.store.list_games(channel_id=table.channel.id)
    assert game.options["rules"] == {"auto_pass": False}
    await table.fake.wait_for(lambda: bool(table.fake.messages_in(table.channel)),
                              what="the create post")
    posts = [text_of(m) for m in table.fake.messages_in(table.channel)]
    assert any("every phase waits for each side's /done (chosen by the host)" in p
               for p in posts)


async def test_the_bot_reads_a_games_sides_from_its_pinned_scenario(table: Table,
                                                                    tmp_path: Path) -> None:
    """The sides offered by /game join's autocomplete come from the copy of the scenario the
    game was pinned to: renaming a side in the file, then deleting the file, changes nothing."""
    folder = tmp_path / "host-scenarios"
    folder.mkdir()
    for name in ("tiny.toml", "tiny.ruleset.toml"):
        (folder / name).write_bytes((FIXTURES / name).read_bytes())
    async with running(table, scenarios=folder):
        await say(table, "game create", table.alice, {"scenario": "tiny"}, channel=table.channel)

        async def offered() -> list[tuple[str, str]]:
            handle = await table.fake.autocomplete("game join", {"side": ""}, focused="side",
                                                   user=table.bob, channel=table.channel)
            return [(c["name"], c["value"]) for c in (await handle.response()).choices]

        before = await offered()
        assert before == [("Blue Army (blue)", "blue"), ("Grey Army (grey)", "grey")]
        scenario = folder / "tiny.toml"
        scenario.write_text(scenario.read_text(encoding="utf-8")
                            .replace('name = "Grey Army"', 'name = "Red Army"'),
                            encoding="utf-8")
        assert await offered() == before
        scenario.unlink()
        assert await offered() == before
