"""After the game, through the fake Discord: ``/game replay`` with its Previous and Next buttons
(a forged button for the other side refused like one for no side at all), ``/game verify`` only
on a finished game, the after-action report in the channel at ``/game end``, and ``/units``
showing every side once the game is over (and not before)."""

from __future__ import annotations

from typing import Any

from bot.client import VedetteBot
from tests.support.botkit import Table, final, play_until, public, say, set_up, settle, text_of
from umpire.reads.replay import own_side_only
from umpire.words import verdict as verdict_words


async def to_turn_two(table: Table, bot: VedetteBot) -> str:
    gid = await set_up(table, bot)
    assert "started" in await say(table, "game start", table.alice, channel=table.channel)
    await play_until(table, bot, gid, "blue")
    await say(table, "done", table.alice)
    await play_until(table, bot, gid, "grey")
    await say(table, "done", table.bob)
    await play_until(table, bot, gid, "blue")
    assert (await bot.umpire.repository.state_for(gid)).turn == 2
    return gid


async def refusal_of_click(table: Table, message: dict[str, Any],
                           custom_id: str) -> str:
    """Press a forged button: the stored message's first button made to carry ``custom_id``
    (Discord delivers presses only of buttons a message carries)."""
    stored = table.fake.world.messages[int(message["id"])]
    stored["components"][0]["components"][0]["custom_id"] = custom_id
    click = await table.fake.click(message, custom_id, user=table.alice)
    await click.response()
    return text_of(await click.followup())


async def test_replay_pages_through_own_turns_and_refuses_the_enemy_alike(
        table: Table, bot: VedetteBot) -> None:
    fake = table.fake
    gid = await to_turn_two(table, bot)
    refused = own_side_only("blue")
    assert await say(table, "game replay", table.alice, {"side": "grey"}) == refused
    assert await say(table, "game replay", table.alice, {"side": "purple"}) == refused
    assert await say(table, "game verify", table.alice) == verdict_words.NOT_OVER

    handle = await fake.slash("game replay", {}, user=table.alice)
    shown = await final(handle)
    assert "Blue Army's map as it stands now" in text_of(shown)
    previous, following = shown["components"][0]["components"]
    assert previous["label"] == "Previous" and not previous.get("disabled")
    assert previous["custom_id"] == f"vedette:replay:{gid}:blue:1"
    assert following["label"] == "Next" and following.get("disabled")
    click = await fake.click(shown, previous["custom_id"], user=table.alice)
    await click.response()
    await fake.wait_for(lambda: "at the end of turn 1" in text_of(
        fake.world.messages[int(shown["id"])]), what="the replay turned to turn 1")

    # Forged buttons: the other side's map, and a side that does not exist, alike.
    before = text_of(fake.world.messages[int(shown["id"])])
    enemy = await refusal_of_click(table, shown, f"vedette:replay:{gid}:grey:1")
    nobody = await refusal_of_click(table, shown, f"vedette:replay:{gid}:purple:1")
    assert enemy == nobody == refused
    assert text_of(fake.world.messages[int(shown["id"])]) == before  # the map stayed


async def test_the_end_posts_the_report_and_opens_the_whole_truth(
        table: Table, bot: VedetteBot) -> None:
    gid = await to_turn_two(table, bot)
    mine = await say(table, "units", table.alice, channel=table.channel)
    assert "1st Brigade" in mine and "Grey Brigade" not in mine
    assert "over" in await say(table, "game end", table.alice, channel=table.channel)
    await settle(bot)
    seed = (await bot.umpire.store.get_game(gid)).seed.hex()  # type: ignore[union-attr]
    [report] = [t for t in public(table) if t.startswith("**After-action report")]
    assert f"Seed: `{seed}`" in report and "Blue Army: 0 strength point(s) lost" in report
    # The game is over, and the channel's commands still find it.
    verified = await say(table, "game verify", table.bob, channel=table.channel)
    assert verified.startswith(f"**Game `{gid}` verified**")
    everything = await say(table, "units", table.alice, channel=table.channel)
    assert "__Grey Army__" in everything and "Grey Brigade" in everything  # every side, paged
    assert "Umpire's map" in await say(table, "game replay", table.carol,
                                       {"side": "umpire", "turn": 1}, channel=table.channel)
