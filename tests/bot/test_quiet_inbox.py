"""A quiet inbox on Discord: the flank-march story, played by two players a side through the
bot, tells each player a turn's news and results in at most three direct messages (the
median: one a phase its side acts in), none past Discord's limits, and the enemy's fire once,
in the dossier of the side's next phase. A side-mate's readiness (ruling FLOW-3) edits the
dossier of the player still at their orders. Each dossier is one component message: sections, a
gallery of the phase map and close-ups with alt text, a map button per close-up."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.messages import MAX_LAYOUT_TEXT, layout
from tests.fakediscord import (
    FakeDiscord,
    InteractionHandle,
    buttons_of,
    component_texts,
    gallery_items,
)
from tests.support.botkit import (
    EPHEMERAL,
    FIXTURES,
    READY,
    SAMPLES,
    forged_button,
    play_sample,
    play_story,
    private_answer,
    render_ready,
    started_game,
    text_of,
)
from umpire.words.dossier import HEADING, HEADINGS, TITLE

#: Discord's limits on one message.
MAX_CONTENT, MAX_EMBED, MAX_EMBEDS = 2000, 4096, 6000


def within_limits(message: dict[str, Any]) -> bool:
    embeds = [str(e.get("description") or "") for e in message.get("embeds") or []]
    return (len(str(message.get("content") or "")) <= MAX_CONTENT
            and all(len(e) <= MAX_EMBED for e in embeds) and sum(map(len, embeds)) <= MAX_EMBEDS)


async def test_the_flank_march_sends_each_player_at_most_three_messages_a_turn(
        fake: FakeDiscord, tmp_path: Path) -> None:
    story = await play_story(fake, tmp_path)
    a_turn = [len(messages) for turn in story.sent for messages in turn.values()]
    # A turn's news and results: three messages a player, one a phase (the median).
    assert statistics.median(a_turn) <= 3, a_turn
    dms = {u.id: fake.dms_to(u) for u in story.everyone}
    assert all(within_limits(m) for sent in dms.values() for m in sent)
    # A side-mate's readiness (ruling FLOW-3) is no message of its own: it edits the orders
    # message of the player still at their orders, which then ends with it.
    union, mate = ([text_of(m) for m in dms[u.id]] for u in story.players["union"])
    assert not any(t.startswith(READY) for t in union + mate)
    edited = [t for t in union + mate if READY in t]
    assert edited and all(noted_in_place(t) for t in edited)
    # The story fights: the Union hears of the Confederate fire on its units, each time in one
    # message that also calls for its orders.
    hit = [t for t in union if "**Under fire**" in t or "**Assaulted**" in t]
    assert hit and all("Your orders, please" in t for t in hit)
    # Side-mates read the same dossiers (but for the readiness note at the end).
    assert [without_note(t) for t in union if "Your orders, please" in t] == [
        without_note(t) for t in mate if "Your orders, please" in t]


@pytest.mark.parametrize("sample", SAMPLES)
async def test_every_sample_tells_each_player_a_turn_in_few_component_messages(
        fake: FakeDiscord, tmp_path: Path, sample: str) -> None:
    """The other samples through the bot: the flank march under Concealed Forces, and
    Chancellorsville with and without the raid. A player reads a turn in three messages at
    the median, each within Discord's limits, and every call for orders is a component
    message."""
    story = await play_sample(fake, tmp_path, sample)
    a_turn = [len(messages) for turn in story.sent for messages in turn.values()]
    assert statistics.median(a_turn) <= 3, a_turn
    sent = [m for u in story.everyone for m in fake.dms_to(u)]
    assert all(within_limits(m) for m in sent)
    calls = [m for m in sent if "Your orders, please" in text_of(m)]
    assert calls and all(m["flags"] & COMPONENTS_V2 for m in calls)


def noted_in_place(text: str) -> bool:
    """The readiness note heads a dossier, right under its title, or ends a message without
    one, after its call for orders."""
    lines = text.split("\n")
    if text.startswith(TITLE):
        return lines[1].startswith(READY)
    return text.rpartition("\n\n")[2].startswith(READY) and text.rpartition(
        "\n\n")[0].endswith("/done.")


def without_note(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if not line.startswith(READY)).rstrip()


# -- the dossier as a component message --------------------------------------------------------
#: Discord's flag for a message built of components (containers, text displays, galleries).
COMPONENTS_V2 = 1 << 15


def headings(message: dict[str, Any]) -> list[str]:
    return [t.split("\n")[0] for t in component_texts(message.get("components") or [])
            if t.startswith(HEADING)]


async def test_a_dossier_is_one_component_message_in_sections_with_its_gallery(
        fake: FakeDiscord, tmp_path: Path) -> None:
    """Each call for orders is a component message: the dossier's title, its sections in the
    fixed order a line apart, the phase map first in its gallery with alt text, a close-up of
    each further hot spot with a map button, and the Done button."""
    story = await play_story(fake, tmp_path, turns=2, maps=render_ready())
    calls = [m for u in story.everyone for m in fake.dms_to(u)
             if "Your orders, please" in text_of(m)]
    assert calls and all(m["flags"] & COMPONENTS_V2 and not m["content"] for m in calls)
    order = [f"{HEADING}{h}" for h in dict.fromkeys(HEADINGS.values())]
    sectioned = [m for m in calls if headings(m)]
    assert sectioned, "a dossier of several kinds of news"
    for m in sectioned:
        assert component_texts(m["components"])[0].startswith(f"{TITLE}Your orders, please")
        shown = headings(m)
        assert shown == sorted(shown, key=order.index)
    for m in calls:
        assert any(b["label"] == "Done" for b in buttons_of(m))
        if not render_ready():
            continue
        items = gallery_items(m)
        assert [a["filename"] for a in m["attachments"]] == [
            i["media"]["url"].removeprefix("attachment://") for i in items]
        assert items[0]["description"].startswith("Map of ")
        close_ups = items[1:]
        maps = [b for b in buttons_of(m) if b["custom_id"].startswith("vedette:map:g1:")]
        assert [b["label"] for b in maps] == [
            i["description"].partition(":")[0] for i in close_ups]
    if render_ready():
        assert any(len(gallery_items(m)) > 1 for m in calls), "several hot spots far apart"


async def test_a_map_button_shows_the_presser_their_own_sides_map(fake: FakeDiscord,
                                                                   tmp_path: Path) -> None:
    """A hot spot's map button answers as ``/map around:`` does, from the presser's own view:
    pressed by a player of the other side, or forged with any cell, it shows nothing that
    ``/map`` would not show that player."""
    async with started_game(fake, tmp_path, FIXTURES / "tiny.toml", ("blue", "grey"),
                            maps=render_ready()) as (bot, alice, bob):
        await bot.outbox.idle()
        shown = []
        for user in (alice, bob):
            forged = "vedette:map:g1:A0303:3"
            handle = await fake.click(forged_button(fake, user, forged), forged, user=user)
            pressed = await ephemeral(handle)
            asked = await private_answer(fake, "map", user, {"around": "A0303", "radius": 3})
            assert text_of(pressed) == text_of(asked)
            assert picture_bytes(fake, pressed) == picture_bytes(fake, asked)
            shown.append(text_of(pressed))
        assert shown[0] != shown[1]  # each their own side's map


async def test_a_call_for_orders_pages_the_pressers_own_units(fake: FakeDiscord,
                                                              tmp_path: Path) -> None:
    """A call for orders names only a few of the units that can act; its "Your units" button
    pages the whole list, as ``/units`` does, to the presser alone and of the presser's own
    side: the enemy pressing it on a copy of the message gets the enemy's own list."""
    async with started_game(fake, tmp_path, FIXTURES / "tiny.toml", ("blue", "grey")) as (
            bot, alice, bob):
        await bot.outbox.idle()
        orders = [m for m in fake.dms_to(alice) if "Your orders, please" in text_of(m)][-1]
        [units] = [b for b in buttons_of(orders) if b["label"] == "Your units"]
        titles = []
        for user in (alice, bob):
            handle = await fake.click(orders, units["custom_id"], user=user)
            await handle.response()
            listed = await handle.followup()
            assert listed["flags"] & EPHEMERAL
            titles.append(listed["embeds"][0]["title"])
        assert titles[0].startswith("Your units: Blue") and titles[1].startswith("Your units: Grey")


async def test_the_move_button_gives_the_pressers_own_move_through_a_form(
        fake: FakeDiscord, tmp_path: Path) -> None:
    """A call for orders whose phase lets the side move carries Move…; it opens a form for
    ``/move``'s two fields, and the move is the presser's own order, as ``/move`` gives it. The
    enemy pressing it on a copy of the message gives an order for their own side only, which
    their phase refuses."""
    async with started_game(fake, tmp_path, FIXTURES / "tiny.toml", ("blue", "grey")) as (
            bot, alice, bob):
        await bot.outbox.idle()
        orders = [m for m in fake.dms_to(alice) if "Your orders, please" in text_of(m)][-1]
        [move] = [b for b in buttons_of(orders) if b["label"] == "Move…"]
        # Both open the form before either sends it: each form is answered.
        forms = []
        for user in (alice, bob):
            form = await (await fake.click(orders, move["custom_id"], user=user)).response()
            assert form.type == 9 and form.data["custom_id"].startswith("vedette:move-form:g1:")
            forms.append(form.data["custom_id"])
        assert forms[0] != forms[1]
        answers = []
        for user, form_id, unit, route in ((bob, forms[1], "Grey Battery", "B0603"),
                                           (alice, forms[0], "2nd Brigade", "A0106")):
            handle = await fake.submit_modal(form_id, {"unit": unit, "route": route},
                                             user=user)
            answers.insert(0, text_of(await ephemeral(handle)))
        assert "2nd Brigade moved" in answers[0], answers[0]
        assert "moved" not in answers[1] and "2nd Brigade" not in answers[1], answers[1]
        state = await bot.umpire.repository.state_for("g1")
        assert state.loaded.board.label(state.units["grey-bat"].cell) != "B0603"


async def ephemeral(handle: InteractionHandle) -> dict[str, Any]:
    """The bot's answer to an interaction, which only its giver sees."""
    callback = await handle.response()
    given = await handle.original_message() if callback.type == 5 else handle.original
    assert given is not None and given["flags"] & EPHEMERAL
    return given


def picture_bytes(fake: FakeDiscord, message: dict[str, Any]) -> list[bytes]:
    return [fake.world.blobs[int(a["id"])].data for a in message.get("attachments") or []]


def test_a_message_past_the_limits_of_a_component_message_is_a_plain_one() -> None:
    """Past 4,000 characters of text, or past 40 components, the message goes as text and
    embeds (``bot.messages.build``), never cut."""
    assert layout("x" * MAX_LAYOUT_TEXT) is not None
    assert layout("x" * (MAX_LAYOUT_TEXT + 1)) is None
    buttons = [discord.ui.Button[Any](label=str(n), custom_id=f"b{n}") for n in range(40)]
    assert layout("Your orders, please.", buttons=buttons[:5]) is not None
    assert layout("Your orders, please.", buttons=buttons) is None
