"""``/units`` through the fake Discord: an embed a page with Previous and Next buttons whose ids
carry the game, the page and the filter; a button pressed by anyone else answers them with
their own side's page and leaves the list's owner's message as it was."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakediscord import FakeDiscord, FakeUser, InteractionHandle, buttons_of
from tests.support.botkit import EPHEMERAL, TOKEN, started_game

FLANK = Path(__file__).parents[2] / "scenarios" / "flank-march.toml"
JSON = dict[str, Any]
UNION_ONLY = "Maj. Gen. Oliver O. Howard"
CONFEDERATE_ONLY = "Lt. Gen. Thomas J. Jackson"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(token=TOKEN, callback_deadline=3.0) as fake:
        yield fake


async def answered(handle: InteractionHandle) -> JSON:
    callback = await handle.response()
    message = await handle.original_message() if callback.type == 5 else handle.original
    assert message is not None and message["flags"] & EPHEMERAL
    return message


def embed_of(message: JSON) -> JSON:
    [embed] = message["embeds"]
    return embed  # type: ignore[no-any-return]


def buttons(message: JSON) -> dict[str, JSON]:
    return {c["label"]: c for c in buttons_of(message)}


async def test_units_pages_turn_for_their_owner_only(fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, FLANK, ("union", "confederate")) as (
            bot, alice, bob):
        first = await answered(await fake.slash("units", {}, user=alice))
        embed = embed_of(first)
        assert embed["title"] == "Your units: Army of the Potomac, game g1"
        assert embed["footer"]["text"].startswith("Page 1 of ")
        pages = int(embed["footer"]["text"].split(" of ")[1].split(" ")[0])
        assert pages >= 3
        assert embed["description"].startswith("**Can still move**")
        assert CONFEDERATE_ONLY not in embed["description"]
        found = buttons(first)
        assert found["Previous"].get("disabled") is True
        assert found["Next"]["custom_id"] == "vedette:units:g1:1:"

        click = await fake.click(first, found["Next"]["custom_id"], user=alice)
        await click.response()
        stored = fake.world.messages[int(first["id"])]
        await fake.wait_for(lambda: embed_of(stored)["footer"]["text"].startswith("Page 2 "))
        second = fake.world.messages[int(first["id"])]
        assert embed_of(second)["description"] != embed["description"]
        assert buttons(second)["Previous"]["custom_id"] == "vedette:units:g1:0:"

        # bob presses alice's button: he reads his own side's page 2, apart; her message
        # stays as it was.
        before = dict(fake.world.messages[int(first["id"])])
        other = await fake.click(first, buttons(second)["Next"]["custom_id"], user=bob)
        his = await answered(other)
        his_embed = embed_of(his)
        assert his_embed["title"] == "Your units: Army of Northern Virginia, game g1"
        assert his_embed["footer"]["text"].startswith("Page 3 ")
        assert UNION_ONLY not in his_embed["description"]
        assert int(his["id"]) != int(first["id"])
        assert fake.world.messages[int(first["id"])]["embeds"] == before["embeds"]
        await bot.outbox.idle()


async def test_the_filter_travels_with_the_pages(fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, FLANK, ("union", "confederate")) as (
            _bot, alice, bob):
        corps = await answered(await fake.slash("units", {"filter": "XI Corps"}, user=alice))
        text = embed_of(corps)["description"]
        assert UNION_ONLY in text and "III Corps ›" not in text
        assert "filter: XI Corps" in embed_of(corps)["footer"]["text"]
        found = buttons(corps)
        if found:  # more than a page: the filter is in the buttons' ids
            assert found["Next"]["custom_id"] == "vedette:units:g1:1:XI Corps"
        state = await answered(await fake.slash("units", {"filter": "arriving"}, user=bob))
        lines = [line for line in embed_of(state)["description"].splitlines()
                 if line.startswith("- ")]
        assert lines and all(": arrives turn " in line for line in lines)
        none = await answered(await fake.slash("units", {"filter": "Jackson"}, user=alice))
        assert embed_of(none)["description"].startswith("None of your units matches")


def forged(fake: FakeDiscord, user: FakeUser, custom_id: str) -> JSON:
    """A message in ``user``'s DM with the bot, made for ``user``, carrying a page button with
    a custom id of their choosing (as a modified client could send)."""
    button = {"type": 2, "style": 2, "label": "Next", "custom_id": custom_id}
    return fake.world.new_message(
        fake.dm_channel(user), fake.bot_user, {"content": "forged",
                                               "components": [{"type": 1,
                                                               "components": [button]}]},
        [], extra={"interaction_metadata": {"id": "1", "type": 3, "user": user.payload()}})


async def answer_words(handle: InteractionHandle) -> str:
    """The words of a refusal (after a deferral, its followup)."""
    callback = await handle.response()
    message = await handle.followup() if callback.type in (5, 6) else handle.original
    assert message is not None and message["flags"] & EPHEMERAL
    return str(message.get("content") or "")


async def test_a_forged_page_button_shows_nothing_it_should_not(
        fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, FLANK, ("union", "confederate")) as (
            _bot, _alice, bob):
        carol = fake.add_user("carol")
        # carol plays in no game: a button naming g1 is refused as for any non-player.
        message = forged(fake, carol, "vedette:units:g1:0:")
        refused = await fake.click(message, "vedette:units:g1:0:", user=carol)
        assert await answer_words(refused) == "you are not playing in this game; join a side first"
        message = forged(fake, carol, "vedette:units:nope:0:")
        missing = await fake.click(message, "vedette:units:nope:0:", user=carol)
        assert await answer_words(missing) == "there is no game 'nope'"
        # bob's forged page far past the end, with a filter: his own side's last page of it.
        message = forged(fake, bob, "vedette:units:g1:9999:brigade")
        click = await fake.click(message, "vedette:units:g1:9999:brigade", user=bob)
        await click.response()
        stored = fake.world.messages[int(message["id"])]
        await fake.wait_for(lambda: bool(stored.get("embeds")))
        embed = embed_of(stored)
        assert embed["title"] == "Your units: Army of Northern Virginia, game g1"
        assert UNION_ONLY not in embed["description"]
        assert "filter: brigade" in embed["footer"]["text"]
        number, pages = embed["footer"]["text"].removeprefix("Page ").split(" ")[0:3:2]
        assert number == pages
