"""The Chancellorsville variant on Discord: ``/game create`` with the raid and victory-roll
options, announced in the game's channel and refused for a scenario that does not play them;
its maps (face-down counters, face-up sighted ones, fog; ghosts under the raid) and its
end-of-game post."""

# The fixtures `table` and `bot` come from tests.support.botkit (a plugin of tests/conftest.py).

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bot.client import VedetteBot
from rules.chancellorsville.spec import RAID_VICTORY
from rules.modules.registry import MODULES
from rules.view import GHOST, IDENTIFIED, MARKER, SideView, project
from tests.fakediscord import FakeUser
from tests.support.botkit import MAPS, Table, final, game_id, public, say, settle, text_of
from umpire.demo import chancellorsville as story
from umpire.reads.maps import draw_side_map

CV = "chancellorsville-hidden"
RAID_WORDS = "the raid option is played"
NO_RAID_WORDS = "no raid: the Federal cavalry stays"
NO_CHART_WORDS = "no victory chart at the end of the game"
CHART_WORDS = "the victory chart is read at the end of the game"


async def create(table: Table,
                 options: dict[str, object]) -> tuple[str, list[str]]:
    """alice creates a game in the channel; her answer and what the channel was told."""
    before = len(public(table))
    handle = await table.fake.slash("game create", options, user=table.alice,
                                    channel=table.channel)
    answer = text_of(await final(handle))
    if "You host game" in answer:
        await table.fake.wait_for(lambda: len(public(table)) > before, what="the create post")
    return answer, public(table)[before:]


@contextmanager
def raid_module_not_built() -> Iterator[None]:
    """The ``raid_victory`` module declared but not built (its ``RuleModule`` unregistered),
    as a module is between its declaration and its code."""
    module = MODULES.pop(RAID_VICTORY)
    try:
        yield
    finally:
        MODULES[RAID_VICTORY] = module


async def test_create_with_the_raid_and_no_victory_roll_announces_both(
        table: Table, bot: VedetteBot) -> None:
    answer, [post] = await create(table, {"scenario": CV, "raid": True, "victory_roll": False})
    assert "You host game" in answer
    assert RAID_WORDS in post and NO_CHART_WORDS in post
    assert post.count("chosen by the host") == 2
    [game] = await bot.umpire.store.list_games(channel_id=table.channel.id)
    # The game's auto_pass is stored with it, chosen or not (ruling FLOW-13).
    assert game.options["rules"] == {"raid": True, "victory_roll": False, "auto_pass": True}
    options = (await bot.umpire.repository.state_for(game.id)).loaded.scenario.scenario.options
    assert options["raid"] is True and options["victory_roll"] is False


async def test_create_without_options_announces_the_scenarios_choice(
        table: Table, bot: VedetteBot) -> None:
    """Whether the raid went changes what both sides see: the post says so even when the host
    chose nothing, and then that the players choose at the start (rulings CV-39, CV-40)."""
    _, [post] = await create(table, {"scenario": CV})
    assert NO_RAID_WORDS not in post and CHART_WORDS in post
    assert "the Federal player chooses at the start, before the first turn" in post
    assert "the Confederate player chooses at the start" in post
    assert post.count("(the scenario)") == 1 and "chosen by the host" not in post
    [game] = await bot.umpire.store.list_games(channel_id=table.channel.id)
    assert game.options["rules"] == {"auto_pass": True}  # nothing chosen: FLOW-13's stamp only


async def test_the_raid_is_refused_for_a_scenario_without_the_raid_module(
        table: Table, bot: VedetteBot) -> None:
    for options in ({"raid": True}, {"victory_roll": False}, {"raid": False}):
        answer = await say(table, "game create", table.alice,
                           {"scenario": "flank-march", **options}, channel=table.channel)
        assert answer.startswith(f"the option {next(iter(options))!r} belongs to the rule "
                                 "module 'raid_victory'"), answer
        assert "which scenario 'flank-march' does not play" in answer
    # Nothing was created and nothing was said in the channel.
    assert await bot.umpire.store.list_games(channel_id=table.channel.id) == []
    assert public(table) == []
    # The channel is still free for a game.
    answer, [post] = await create(table, {"scenario": "flank-march"})
    assert "You host game" in answer and "raid" not in post


async def test_a_declared_module_not_built_is_switched_off_and_its_options_refused(
        table: Table, bot: VedetteBot) -> None:
    """The create post names a module the scenario declares and the umpire cannot play yet;
    its options are refused like those of a module the scenario does not name."""
    with raid_module_not_built():
        answer = await say(table, "game create", table.alice, {"scenario": CV, "raid": True},
                           channel=table.channel)
        assert "belongs to the rule module 'raid_victory'" in answer
        assert await bot.umpire.store.list_games(channel_id=table.channel.id) == []
        answer, [post] = await create(table, {"scenario": CV})
    assert "You host game" in answer
    assert ("Rule modules switched off (the umpire cannot play them yet, so this game is "
            "played without them): raid_victory (Chancellorsville raid option") in post
    # Played without, its options are not announced as if in force.
    assert "Rule options" not in post
    [game] = await bot.umpire.store.list_games(channel_id=table.channel.id)
    assert game.options["without"] == [RAID_VICTORY]


# -- maps ------------------------------------------------------------------------------------------
RADIUS = 4


async def started(table: Table, bot: VedetteBot, options: dict[str, object]) -> str:
    """A Chancellorsville game created in the channel with ``options``, alice commanding the
    Union, bob the Confederates, started."""
    # The host sets the players' raid choices (no raid, or the Confederates off the board), so
    # that the first turn opens at the start; the players' own choices: test_raid_election.
    preset = {"raid": False} if not options.get("raid") else {"off_board": True}
    answer, _ = await create(table, {"scenario": CV, **preset, **options})
    assert "You host game" in answer
    gid = await game_id(bot, table)
    for user, side in ((table.alice, "union"), (table.bob, "confederate")):
        assert "You command" in await say(table, "game join", user, {"side": side},
                                          channel=table.channel)
    assert "started" in await say(table, "game start", table.alice, channel=table.channel)
    return gid


def players(table: Table) -> dict[str, int]:
    return {"union": table.alice.id, "confederate": table.bob.id}


async def play_story(table: Table, bot: VedetteBot, gid: str, turns: int) -> None:
    """The demo's story (``umpire.demo.chancellorsville``) for the first ``turns`` turns."""
    state = await bot.umpire.repository.state_for(gid)
    for turn in range(state.turn, turns + 1):
        assert await story.play_turn(bot.umpire, gid, players(table), turn, story.Notes()) == 0
    await settle(bot)


async def map_on_discord(table: Table, user: FakeUser, around: str) -> tuple[str, bytes]:
    """The player's /map around a place: its caption and the picture's bytes as Discord
    stored them."""
    message = await final(await table.fake.slash("map", {"around": around, "radius": RADIUS},
                                                 user=user))
    [attachment] = message["attachments"]
    return text_of(message), table.fake.world.blobs[int(attachment["id"])].data


async def view_of(bot: VedetteBot, gid: str, side: str) -> SideView:
    return project(await bot.umpire.repository.state_for(gid), side)


@pytest.mark.skipif(not MAPS, reason="map pictures need render.render_map")
async def test_the_union_map_shows_face_down_counters_until_sighted(
        table: Table, bot: VedetteBot) -> None:
    gid = await started(table, bot, {})
    start = await view_of(bot, gid, "union")
    assert start.fog
    # Before the story, W. H. F. Lee's brigade in the woods is a face-down counter to the
    # Union: where it stands, nothing of what it is. (Fitz Lee's brigade, in the open at Todd's
    # Tavern, is already in sight of Averell's horse 26 hexes up the cleared road: CV-6.)
    state = await bot.umpire.repository.state_for(gid)
    fitz, rooney = state.units[story.STUART], state.units["whf-lee"]
    assert fitz.cell is not None and rooney.cell is not None
    [counter] = [u for u in start.at(rooney.cell) if u.side == "confederate"]
    assert counter.level == MARKER and counter.name == "" and counter.strength is None
    assert not any(u.name == rooney.name for u in start.units)
    label = start.board.label(rooney.cell)
    caption, png = await map_on_discord(table, table.alice, label)
    assert caption.startswith("Army of the Potomac, turn 1")
    assert png == draw_side_map(start, label, RADIUS)
    # Turn 1: Fitz Lee halts on the road through the woods two hexes from Devin, who sights
    # him: his counter is face up on the Union's map, and the picture on Discord shows it.
    await play_story(table, bot, gid, 1)
    seen = await view_of(bot, gid, "union")
    [spotted] = [u for u in seen.units if u.name == fitz.name]
    assert spotted.level == IDENTIFIED
    assert seen.board.label(spotted.cell) == story.ROAD_IN_WOODS
    _, after = await map_on_discord(table, table.alice, story.ROAD_IN_WOODS)
    assert after == draw_side_map(seen, story.ROAD_IN_WOODS, RADIUS)
    assert after != draw_side_map(start, story.ROAD_IN_WOODS, RADIUS)
    # The Confederate player's map is his own side's view, on Discord too.
    _, theirs = await map_on_discord(table, table.bob, story.WATCH_POST)
    assert theirs == draw_side_map(await view_of(bot, gid, "confederate"), story.WATCH_POST,
                                   RADIUS)


@pytest.mark.skipif(not MAPS, reason="map pictures need render.render_map")
async def test_a_unit_in_the_woods_goes_face_down_until_an_enemy_is_next_to_it(
        table: Table, bot: VedetteBot) -> None:
    gid = await started(table, bot, {})
    await play_story(table, bot, gid, 2)
    # Turn 2: Fitz Lee has slipped into the woods, two hexes from Devin: face down again.
    view = await view_of(bot, gid, "union")
    woods = view.board.parse(story.IN_THE_WOODS)
    [counter] = [u for u in view.at(woods) if u.side == "confederate"]
    assert counter.level == MARKER and counter.name == ""
    assert not any(u.name == "Fitz Lee's cavalry brigade" for u in view.units)
    _, png = await map_on_discord(table, table.alice, story.IN_THE_WOODS)
    assert png == draw_side_map(view, story.IN_THE_WOODS, RADIUS)
    # Turn 3: Devin rides up next to the woods and sees him, face up.
    [ride] = [b for b in story.STORY if b.turn == 3 and b.side == "union"]
    assert (await bot.umpire.repository.state_for(gid)).acting_sides() == ("union",)
    await bot.umpire.handle(gid, table.alice.id, ride.command)
    await settle(bot)
    seen = await view_of(bot, gid, "union")
    [face_up] = [u for u in seen.at(woods) if u.side == "confederate"]
    assert (face_up.level, face_up.name) == (IDENTIFIED, "Fitz Lee's cavalry brigade")
    _, after = await map_on_discord(table, table.alice, story.IN_THE_WOODS)
    assert after == draw_side_map(seen, story.IN_THE_WOODS, RADIUS) and after != png


@pytest.mark.skipif(not MAPS, reason="map pictures need render.render_map")
async def test_under_the_raid_the_union_keeps_ghosts_and_the_confederates_see_everything(
        table: Table, bot: VedetteBot) -> None:
    gid = await started(table, bot, {"raid": True})
    state = await bot.umpire.repository.state_for(gid)
    # The Confederates see every Federal unit on the map face up, without fog.
    theirs = project(state, "confederate")
    federal = sorted(u.name for u in state.units.values()
                     if u.side == "union" and u.cell is not None)
    assert sorted(u.name for u in theirs.enemy_units()) == federal
    assert all(u.level == IDENTIFIED for u in theirs.enemy_units())
    _, png = await map_on_discord(table, table.bob, story.WATCH_POST)
    assert png == draw_side_map(theirs, story.WATCH_POST, RADIUS)
    # The Union sees no face-down counter at all: a Confederate unit out of sight is not shown.
    assert not any(u.level == MARKER for u in project(state, "union").enemy_units())
    # Turn 1: Fitz Lee is sighted on the road through the woods; turn 2: he slips into the
    # woods, out of sight: nothing where he is, a ghost where he was last seen.
    await play_story(table, bot, gid, 1)
    _, sighted = await map_on_discord(table, table.alice, story.ROAD_IN_WOODS)
    await play_story(table, bot, gid, 2)
    view = await view_of(bot, gid, "union")
    woods, road = view.board.parse(story.IN_THE_WOODS), view.board.parse(story.ROAD_IN_WOODS)
    assert [u for u in view.at(woods) if u.side == "confederate"] == []
    ghosts = {(u.cell, u.last_seen_turn) for u in (*view.units, *view.memory)
              if u.level == GHOST and u.name == "Fitz Lee's cavalry brigade"}
    assert ghosts == {(road, 1)}
    _, lost = await map_on_discord(table, table.alice, story.ROAD_IN_WOODS)
    assert lost == draw_side_map(view, story.ROAD_IN_WOODS, RADIUS) and lost != sighted


async def end_posts(table: Table, bot: VedetteBot) -> list[dict[str, object]]:
    """The host ends the game; the channel's messages from then on."""
    before = len(public(table))
    assert "The game is over" in await say(table, "game end", table.alice,
                                           channel=table.channel)
    await settle(bot)
    await table.fake.wait_for(lambda: any("game record" in p for p in public(table)[before:]),
                              what="the game record")
    return table.fake.messages_in(table.channel)[before:]


async def test_the_end_of_game_post_gives_the_raid_roll_the_column_and_the_result(
        table: Table, bot: VedetteBot) -> None:
    gid = await started(table, bot, {"raid": True})
    await play_story(table, bot, gid, 1)
    posts = await end_posts(table, bot)
    texts = [text_of(p) for p in posts]
    [victory] = [t for t in texts if t.startswith("**Victory.**")]
    found = re.search(r"The Federal raid roll is ([1-6]) on one die: the raid (succeeded|came "
                      r"to nothing), and the chart is read in its (Successful Raid|No Raid) "
                      r"column\. .*Result: \*\*([^*]+)\*\*( \(\S+\))?\.", victory)
    assert found is not None, victory
    roll, verdict, column = int(found[1]), found[2], found[3]
    assert (roll <= 2) == (verdict == "succeeded") == (column == "Successful Raid")
    # The roll is the game's logged die, and the post comes before the game-over post, which
    # shows the whole map.
    state = await bot.umpire.repository.state_for(gid)
    assert state.status == "ended"
    over = next(i for i, t in enumerate(texts) if t.startswith("**The game is over.**"))
    assert texts.index(victory) < over
    if MAPS:
        assert posts[over]["attachments"]


async def test_without_the_raid_the_chart_is_read_in_the_no_raid_column_without_a_roll(
        table: Table, bot: VedetteBot) -> None:
    await started(table, bot, {})
    texts = [text_of(p) for p in await end_posts(table, bot)]
    [victory] = [t for t in texts if t.startswith("**Victory.**")]
    assert "The raid was not sent: the chart is read in its No Raid column." in victory
    assert "roll" not in victory


async def test_without_the_victory_roll_the_end_of_game_post_reads_no_chart(
        table: Table, bot: VedetteBot) -> None:
    await started(table, bot, {"raid": True, "victory_roll": False})
    texts = [text_of(p) for p in await end_posts(table, bot)]
    assert not any("Victory" in t for t in texts)
    assert any(t.startswith("**The game is over.**") for t in texts)
