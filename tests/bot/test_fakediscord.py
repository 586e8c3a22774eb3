"""The fake Discord works with the real discord.py client: gateway handshake, command sync,
slash commands, deferral and followups with files, autocomplete, buttons, DMs, errors,
threads, RESUME, sharding, components v2 messages and a clean shutdown. Everything runs on
127.0.0.1."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from PIL import Image

from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeUser,
    component_texts,
    custom_ids,
    gallery_items,
    patched_discord,
    run_client,
)
from tests.support.botkit import text_of

TOKEN = "fake-token"
EPHEMERAL = 64
UNITS = {"A1": "A1 Infantry", "A2": "A2 Armour", "B7": "B7 Artillery"}


def make_png(size: tuple[int, int] = (3, 2), colour: str = "red") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, format="PNG")
    return buffer.getvalue()


PNG = make_png()
DETAIL_PNG = make_png((4, 5), "blue")
IS_COMPONENTS_V2 = 1 << 15
#: The pictures a components v2 DM shows, by file name: their bytes and their alt text.
PICTURES = {"map.png": (PNG, "The field at dawn"), "detail.png": (DETAIL_PNG, "The bridge")}


def pictures(*names: str) -> list[discord.File]:
    """Fresh files to upload (discord.py reads and closes them as it sends)."""
    return [discord.File(io.BytesIO(PICTURES[n][0]), n) for n in names or PICTURES]


class OrdersLayout(discord.ui.LayoutView):
    """A components v2 message as the bot DMs one: a container of text displays, a separator,
    a gallery of attached pictures and an action row with a Done button. Done edits the
    message into a receipt."""

    def __init__(self, bot: UmpireBot, *texts: str, gallery: Sequence[str] = tuple(PICTURES)
                 ) -> None:
        super().__init__(timeout=None)
        self.bot = bot
        done: discord.ui.Button[OrdersLayout] = discord.ui.Button(
            label="Done", custom_id="orders-done")
        done.callback = self.done  # type: ignore[method-assign]
        items = [discord.MediaGalleryItem(f"attachment://{name}", description=PICTURES[name][1])
                 for name in gallery]
        self.add_item(discord.ui.Container(
            *(discord.ui.TextDisplay(text) for text in texts),
            discord.ui.Separator(),
            discord.ui.MediaGallery(*items),
            discord.ui.ActionRow(done),
        ))

    async def done(self, interaction: discord.Interaction) -> None:
        self.bot.clicks.append(interaction.user.name)
        receipt = OrdersLayout(self.bot, f"Orders received from {interaction.user.name}",
                               gallery=["map.png"])
        await interaction.response.edit_message(view=receipt)


class ConfirmView(discord.ui.View):
    def __init__(self, bot: UmpireBot) -> None:
        super().__init__(timeout=None)  # no expiry: a slow machine may take its time
        self.bot = bot

    @discord.ui.button(label="Confirm", custom_id="confirm", style=discord.ButtonStyle.success)
    async def confirm(
        self, interaction: discord.Interaction, button: discord.ui.Button[ConfirmView]
    ) -> None:
        self.bot.clicks.append(interaction.user.name)
        await interaction.response.edit_message(
            content=f"confirmed by {interaction.user.name}", view=None
        )


class ReportModal(discord.ui.Modal, title="Report an incident"):
    text: discord.ui.TextInput[ReportModal] = discord.ui.TextInput(
        label="What happened?", custom_id="report-text"
    )

    def __init__(self, bot: UmpireBot) -> None:
        super().__init__(custom_id="report-modal")
        self.bot = bot

    async def on_submit(self, interaction: discord.Interaction) -> None:
        self.bot.reports.append(self.text.value)
        await interaction.response.send_message(f"Report filed: {self.text.value}", ephemeral=True)


class UmpireBot(discord.Client):
    """A miniature of the real bot: enough commands to exercise every interaction path."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.ping_responses: list[discord.InteractionCallbackResponse] = []
        self.followup_bytes: list[bytes] = []
        self.clicks: list[str] = []
        self.seen_messages: list[discord.Message] = []
        self.reports: list[str] = []
        self.fetched: list[discord.InteractionMessage] = []
        self.views_shown = 0  # answers with a view that discord.py has stored (clickable)
        self._add_commands()

    async def on_message(self, message: discord.Message) -> None:
        self.seen_messages.append(message)

    def _add_commands(self) -> None:
        bot = self

        @app_commands.command(name="ping", description="Is the umpire there?")
        async def ping(interaction: discord.Interaction) -> None:
            where = interaction.guild.name if interaction.guild else "dm"
            response = await interaction.response.send_message(f"pong from {where}", ephemeral=True)
            bot.ping_responses.append(response)

        @app_commands.command(name="poke", description="Poke a player")
        async def poke(interaction: discord.Interaction, target: discord.Member) -> None:
            await interaction.response.send_message(f"poked {target.display_name}")

        @app_commands.command(name="report", description="Report an incident")
        async def report(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(ReportModal(bot))

        @app_commands.command(name="roll", description="Roll a die, slowly")
        async def roll(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.edit_original_response(content="You rolled a 6")
            bot.fetched.append(await interaction.original_response())

        game = app_commands.Group(name="game", description="Game commands")
        order = app_commands.Group(name="order", description="Orders", parent=game)

        @order.command(name="move", description="Move a unit")
        async def move(interaction: discord.Interaction, unit: str, hexes: int) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            message = await interaction.followup.send(
                f"{unit} moves {hexes} hexes",
                file=discord.File(io.BytesIO(PNG), "map.png"),
                wait=True,
            )
            bot.followup_bytes.append(await message.attachments[0].read())

        @move.autocomplete("unit")
        async def unit_choices(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [
                app_commands.Choice(name=label, value=key)
                for key, label in UNITS.items()
                if key.startswith(current.upper())
            ]

        @app_commands.command(name="orders", description="Your orders, as a layout")
        async def orders(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send(
                view=OrdersLayout(bot, "Turn 3", "Your orders, please"), files=pictures()
            )

        @game.command(name="status", description="Show the turn")
        async def status(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                "Turn 3: awaiting orders", view=ConfirmView(bot)
            )
            bot.views_shown += 1  # discord.py stores the view once the answer returns

        self.tree.add_command(ping)
        self.tree.add_command(poke)
        self.tree.add_command(report)
        self.tree.add_command(roll)
        self.tree.add_command(orders)
        self.tree.add_command(game)


@dataclass
class Scene:
    guild: FakeGuild
    channel: FakeChannel
    alice: FakeUser
    bob: FakeUser


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(token=TOKEN) as fake:
        yield fake


@pytest.fixture
def scene(fake: FakeDiscord) -> Scene:
    guild = fake.add_guild("Wargames Club")
    channel = fake.add_text_channel(guild, "umpire-desk")
    alice = fake.add_user("alice", guild=guild)
    bob = fake.add_user("bob", guild=guild)
    return Scene(guild, channel, alice, bob)


@pytest.fixture
async def bot(fake: FakeDiscord, scene: Scene) -> AsyncIterator[UmpireBot]:
    client = UmpireBot()
    with patched_discord(fake.base_url):
        async with run_client(client, token=TOKEN):
            yield client


# --------------------------------------------------------------------- connection


async def test_client_logs_in_and_sees_the_guild(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    assert bot.application_id == fake.application_id
    guild = bot.get_guild(scene.guild.id)
    assert guild is not None and guild.name == "Wargames Club"
    assert [c.name for c in guild.text_channels] == ["umpire-desk"]
    assert guild.me is not None  # the bot's own member arrived in GUILD_CREATE
    identify = next(p for p in fake.gateway.received if p["op"] == 2)
    assert identify["d"]["token"] == TOKEN
    assert identify["d"]["intents"] == discord.Intents.default().value
    assert fake.gateway.compressions == ["zlib-stream"]  # discord.py's default, honoured
    assert fake.requests_to("GET", "/users/@me") and fake.requests_to(
        "GET", "/oauth2/applications/@me"
    )
    assert fake.unhandled == []


async def test_wrong_token_is_refused(fake: FakeDiscord) -> None:
    client = discord.Client(intents=discord.Intents.default())
    with patched_discord(fake.base_url), pytest.raises(discord.LoginFailure):
        await client.login("not-the-token")
    await client.close()


async def test_close_ends_the_session_cleanly(fake: FakeDiscord, scene: Scene) -> None:
    client = UmpireBot()
    with patched_discord(fake.base_url):
        await client.login(TOKEN)
        connect = asyncio.create_task(client.connect())
        await asyncio.wait_for(client.wait_until_ready(), 30)
        assert fake.gateway.current  # one live session
        await client.close()
        await asyncio.wait_for(connect, 30)  # returns, does not raise
    assert client.is_closed()
    await fake.wait_for(lambda: not fake.gateway.connections)
    assert len(fake.gateway.close_codes) == 1
    with pytest.raises(RuntimeError, match="no gateway connection"):
        await fake.slash("ping", user=scene.alice, channel=scene.channel)


async def test_reconnect_resumes_and_keeps_working(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    resumed = asyncio.create_task(bot.wait_for("resumed", timeout=30))
    await asyncio.sleep(0)  # let wait_for register its listener
    await fake.request_reconnect()
    await resumed
    assert [p["op"] for p in fake.gateway.received].count(6) == 1  # RESUME, not IDENTIFY
    assert [p["op"] for p in fake.gateway.received].count(2) == 1
    handle = await fake.slash("ping", user=scene.alice, channel=scene.channel)
    assert (await handle.response()).content == "pong from Wargames Club"


async def test_gateway_refuses_an_unknown_resume(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session, session.ws_connect(fake.gateway_url) as ws:
        hello = await ws.receive_json(timeout=30)  # no compress asked: plain text frames
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await ws.send_json({"op": 1, "d": None})
        assert (await ws.receive_json(timeout=30))["op"] == 11
        await ws.send_json({"op": 6, "d": {"token": TOKEN, "session_id": "nope", "seq": 3}})
        invalid = await ws.receive_json(timeout=30)
        assert invalid == {"op": 9, "d": False, "s": None, "t": None}


# --------------------------------------------------------------------- commands


async def test_sync_puts_the_command_tree(fake: FakeDiscord, bot: UmpireBot) -> None:
    synced = await bot.tree.sync()
    put = fake.requests_to("PUT", f"/applications/{fake.application_id}/commands")
    assert len(put) == 1
    assert {c["name"] for c in put[0].json} == {
        "ping", "poke", "report", "roll", "orders", "game"
    }
    game = next(c for c in put[0].json if c["name"] == "game")
    order = next(o for o in game["options"] if o["name"] == "order")
    assert order["type"] == 2  # subcommand group
    move = next(o for o in order["options"] if o["name"] == "move")
    assert next(o for o in move["options"] if o["name"] == "unit")["autocomplete"] is True
    assert {c.id for c in synced} == {int(c["id"]) for c in fake.commands()}
    resynced = await bot.tree.sync()
    assert {c.id for c in resynced} == {c.id for c in synced}  # ids are stable across syncs


async def test_slash_command_answers_ephemerally(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    handle = await fake.slash("ping", user=scene.alice, channel=scene.channel)
    callback = await handle.response()
    assert callback.type == 4
    assert callback.content == "pong from Wargames Club"
    assert callback.flags & EPHEMERAL
    # The bot parsed the ?with_response=true body: it knows the id of the message it created.
    await fake.wait_for(lambda: bool(bot.ping_responses))
    assert bot.ping_responses[0].message_id == handle.original_id
    assert bot.ping_responses[0].is_ephemeral()
    # Ephemeral: not visible in the channel.
    assert fake.messages_in(scene.channel) == []
    assert len(fake.messages_in(scene.channel, include_ephemeral=True)) == 1


async def test_slash_command_in_a_dm(fake: FakeDiscord, scene: Scene, bot: UmpireBot) -> None:
    handle = await fake.slash("ping", user=scene.alice)  # no channel: the bot's DM
    assert (await handle.response()).content == "pong from dm"
    assert handle.payload["context"] == 1 and "user" in handle.payload
    assert "member" not in handle.payload


async def test_member_option_is_resolved(fake: FakeDiscord, scene: Scene, bot: UmpireBot) -> None:
    await bot.tree.sync()
    handle = await fake.slash(
        "poke", {"target": scene.bob}, user=scene.alice, channel=scene.channel
    )
    callback = await handle.response()
    assert callback.content == "poked bob"
    assert not callback.ephemeral
    assert [m["content"] for m in fake.messages_in(scene.channel)] == ["poked bob"]


async def test_defer_then_followup_with_png(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    await bot.tree.sync()
    handle = await fake.slash(
        "game order move", {"unit": "A1", "hexes": 2}, user=scene.alice, channel=scene.channel
    )
    callback = await handle.response()
    assert callback.type == 5 and callback.ephemeral
    followup = await handle.followup()
    assert followup["content"] == "A1 moves 2 hexes"
    # Right after a defer, the first followup replaces the "thinking" message.
    assert int(followup["id"]) == handle.original_id
    assert followup["flags"] & EPHEMERAL and not followup["flags"] & 128
    [attachment] = followup["attachments"]
    assert attachment["filename"] == "map.png"
    assert (attachment["width"], attachment["height"]) == (3, 2)
    [request] = fake.requests_to("POST", f"/webhooks/{fake.application_id}/*")
    assert request.files[0].filename == "map.png"
    assert request.files[0].data == PNG
    # And the bot could download it again from the fake CDN.
    await fake.wait_for(lambda: bool(bot.followup_bytes))
    assert bot.followup_bytes == [PNG]


async def test_second_response_is_refused(fake: FakeDiscord, scene: Scene, bot: UmpireBot) -> None:
    handle = await fake.slash("ping", user=scene.alice, channel=scene.channel)
    await handle.response()
    bot_http = bot.http
    route = discord.http.Route(
        "POST", "/interactions/{i}/{t}/callback", i=handle.id, t=handle.token
    )
    with pytest.raises(discord.HTTPException) as failure:
        await bot_http.request(route, json={"type": 4, "data": {"content": "again"}})
    assert failure.value.code == 40060


async def test_late_callback_is_unknown(fake: FakeDiscord, scene: Scene, bot: UmpireBot) -> None:
    fake.callback_deadline = 0.0  # Discord allows 3 s; here every answer is too late
    handle = await fake.slash("ping", user=scene.alice, channel=scene.channel)
    request = await fake.wait_for_request("POST", f"/interactions/{handle.id}/*/callback")
    assert request.status == 404 and request.response["code"] == 10062
    assert not handle.acknowledged


async def test_autocomplete_returns_choices(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    await bot.tree.sync()
    handle = await fake.autocomplete(
        "game order move", {"unit": "a"}, focused="unit", user=scene.alice, channel=scene.channel
    )
    callback = await handle.response()
    assert callback.type == 8
    assert callback.choices == [
        {"name": "A1 Infantry", "value": "A1"},
        {"name": "A2 Armour", "value": "A2"},
    ]


async def test_button_click_reaches_the_view(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    status = await fake.slash("game status", user=scene.alice, channel=scene.channel)
    await status.response()
    # Discord has the answer; the client listens for the click once its request returned.
    await fake.wait_for(lambda: bot.views_shown == 1, what="the view stored")
    message = status.original
    assert message is not None
    [row] = message["components"]
    assert row["components"][0]["custom_id"] == "confirm"

    click = await fake.click(message, "confirm", user=scene.bob)
    callback = await click.response()
    assert callback.type == 7
    assert bot.clicks == ["bob"]
    [shown] = fake.messages_in(scene.channel)
    assert shown["content"] == "confirmed by bob"
    assert shown["components"] == []


async def test_defer_then_edit_original(fake: FakeDiscord, scene: Scene, bot: UmpireBot) -> None:
    handle = await fake.slash("roll", user=scene.alice, channel=scene.channel)
    callback = await handle.response()
    assert callback.type == 5 and not callback.ephemeral
    original = await handle.original_message()  # waits out the "thinking" state
    assert original["content"] == "You rolled a 6"
    assert [m["content"] for m in fake.messages_in(scene.channel)] == ["You rolled a 6"]
    await fake.wait_for(lambda: bool(bot.fetched))
    assert bot.fetched[0].id == handle.original_id
    webhook = f"/webhooks/{fake.application_id}/{handle.token}/messages/@original"
    assert [r.method for r in fake.requests_to("*", webhook)] == ["PATCH", "GET"]


async def test_modal_round_trip(fake: FakeDiscord, scene: Scene, bot: UmpireBot) -> None:
    handle = await fake.slash("report", user=scene.alice, channel=scene.channel)
    callback = await handle.response()
    assert callback.type == 9
    assert callback.data["custom_id"] == "report-modal"
    assert callback.data["title"] == "Report an incident"
    submitted = await fake.submit_modal(
        "report-modal", {"report-text": "Bob moved twice"}, user=scene.alice, channel=scene.channel
    )
    assert (await submitted.response()).content == "Report filed: Bob moved twice"
    assert bot.reports == ["Bob moved twice"]


# --------------------------------------------------------------------- plain REST


async def test_user_messages_need_the_content_intent(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    await fake.send_user_message(scene.alice, scene.channel, "hello all")
    await fake.send_user_message(scene.alice, scene.channel, f"{fake.bot_user.mention} hi")
    await fake.wait_for(lambda: len(bot.seen_messages) == 2)
    # Default intents lack MESSAGE_CONTENT: only the message mentioning the bot keeps its text.
    assert [m.content for m in bot.seen_messages] == ["", f"{fake.bot_user.mention} hi"]
    assert {m.author.id for m in bot.seen_messages} == {scene.alice.id}


async def test_user_send_opens_a_dm(fake: FakeDiscord, scene: Scene, bot: UmpireBot) -> None:
    user = await bot.fetch_user(scene.alice.id)
    sent = await user.send("Your orders are due")
    assert isinstance(sent.channel, discord.DMChannel)
    [create_dm] = fake.requests_to("POST", "/users/@me/channels")
    assert create_dm.json == {"recipient_id": scene.alice.id}
    assert [m["content"] for m in fake.dms_to(scene.alice)] == ["Your orders are due"]
    assert fake.dms_to(scene.bob) == []
    # Discord echoes the bot's own message over the gateway.
    await fake.wait_for(lambda: any(m.id == sent.id for m in bot.seen_messages))


async def test_closed_dms_raise_forbidden_50007(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    fake.close_dms(scene.bob)
    user = await bot.fetch_user(scene.bob.id)
    with pytest.raises(discord.Forbidden) as failure:
        await user.send("psst")
    assert failure.value.code == 50007
    assert failure.value.status == 403
    assert fake.dms_to(scene.bob) == []


async def test_injected_fault_hits_once(fake: FakeDiscord, scene: Scene, bot: UmpireBot) -> None:
    channel = bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    fake.fail_next(
        "POST", "/channels/*/messages", status=403, code=50013, message="Missing Permissions"
    )
    with pytest.raises(discord.Forbidden) as failure:
        await channel.send("first")
    assert failure.value.code == 50013
    await channel.send("second")
    assert [m["content"] for m in fake.messages_in(scene.channel)] == ["second"]
    assert [r.status for r in fake.requests_to("POST", "/channels/*/messages")] == [403, 200]


async def test_a_held_response_waits_for_release_after_the_message_is_posted(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    channel = bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    hold = fake.hold_next("POST", f"/channels/{scene.channel.id}/messages")
    sending = asyncio.create_task(channel.send("held"))
    request = await hold.arrived()
    assert request.json["content"] == "held"
    # Posted already, but the client has no answer yet.
    assert [m["content"] for m in fake.messages_in(scene.channel)] == ["held"]
    await asyncio.sleep(0.05)
    assert not sending.done()
    hold.release()
    sent = await asyncio.wait_for(sending, 30)
    assert sent.id == int(fake.messages_in(scene.channel)[0]["id"])
    await channel.send("not held")  # a hold catches one request only
    assert not fake.holds and fake.held == [hold]


async def test_a_request_held_on_its_way_in_can_be_lost_or_let_through(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    channel = bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send("first")
    lost = fake.hold_next("PATCH", "/channels/*/messages/*", acted=False)
    editing = asyncio.create_task(message.edit(content="lost"))
    assert (await lost.arrived()).json["content"] == "lost"
    assert [m["content"] for m in fake.messages_in(scene.channel)] == ["first"]
    lost.drop()
    with pytest.raises(discord.HTTPException):
        await asyncio.wait_for(editing, 30)  # a 503 is not retried
    assert [m["content"] for m in fake.messages_in(scene.channel)] == ["first"]
    assert lost.request is not None and lost.request.status == 0
    through = fake.hold_next("PATCH", "/channels/*/messages/*", acted=False)
    editing = asyncio.create_task(message.edit(content="second"))
    await through.arrived()
    assert [m["content"] for m in fake.messages_in(scene.channel)] == ["first"]
    through.release()
    await asyncio.wait_for(editing, 30)
    assert [m["content"] for m in fake.messages_in(scene.channel)] == ["second"]


async def test_latency_answers_each_request_late_after_acting_on_it(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    assert FakeDiscord().latency == 0
    channel = bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    fake.latency = 0.5
    sending = asyncio.create_task(channel.send("slow"))
    # Posted as soon as it arrived; the answer is still on its way back (the check runs in the
    # same step of the loop as the wake-up, before any answer could be read).
    await fake.wait_for(lambda: bool(fake.messages_in(scene.channel)))
    assert not sending.done()
    posted = fake.requests_to("POST", f"/channels/{scene.channel.id}/messages")[-1]
    assert posted.received > 0 and posted.answered == 0
    await asyncio.wait_for(sending, 30)
    assert posted.answered - posted.received >= fake.latency  # a sleep never ends early
    # Interaction callbacks too: the player sees the answer before the bot hears it went.
    handle = await fake.slash("ping", user=scene.alice, channel=scene.channel)
    assert (await handle.response(timeout=30)).content == "pong from Wargames Club"
    assert bot.ping_responses == []
    await fake.wait_for(lambda: bool(bot.ping_responses), timeout=30)
    callback = fake.requests_to("POST", "/interactions/*/*/callback")[-1]
    assert callback.answered - callback.received >= fake.latency
    fake.latency = 0
    await channel.send("quick")
    quick = fake.requests_to("POST", f"/channels/{scene.channel.id}/messages")[-1]
    assert quick.answered >= quick.received > posted.answered


async def test_too_long_message_is_rejected(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    channel = bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as failure:
        await channel.send("x" * 2001)
    assert failure.value.code == 50035


async def test_private_thread_edit_and_history(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    channel = bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(
        name="alice-orders", type=discord.ChannelType.private_thread
    )
    await thread.add_user(discord.Object(scene.alice.id))
    sent = await thread.send("Orders for turn 3?")
    await sent.edit(content="Orders for turn 3, please")
    fake_thread = fake.world.channels[thread.id]
    assert fake_thread.type == 12 and fake_thread.parent_id == scene.channel.id
    assert scene.alice.id in fake_thread.thread_members
    assert [m["content"] for m in fake.messages_in(thread.id)] == ["Orders for turn 3, please"]
    history = [m.content async for m in thread.history(limit=10)]
    assert history == ["Orders for turn 3, please"]
    await fake.wait_for(lambda: bot.get_guild(scene.guild.id).get_thread(thread.id) is not None)  # type: ignore[union-attr]


async def test_auto_sharded_client_asks_for_shards() -> None:
    sharded = FakeDiscord(token=TOKEN, shards=2)
    guilds = [sharded.add_guild(f"Club {i}") for i in range(6)]
    assert {sharded.gateway.shard_for(g.id) for g in guilds} == {0, 1}  # snowflakes spread out

    class Sharded(discord.AutoShardedClient):
        async def before_identify_hook(
            self, shard_id: int | None, *, initial: bool = False
        ) -> None:
            pass  # the default sleeps 5 s before every IDENTIFY but the first

    async with sharded:
        client = Sharded(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        with patched_discord(sharded.base_url):
            async with run_client(client, token=TOKEN):
                assert sharded.requests_to("GET", "/gateway/bot")
                shards = sorted(p["d"]["shard"] for p in sharded.gateway.received if p["op"] == 2)
                assert shards == [[0, 2], [1, 2]]
                assert {g.id for g in client.guilds} == {g.id for g in guilds}
                assert all(
                    client.get_guild(g.id).shard_id == sharded.gateway.shard_for(g.id)  # type: ignore[union-attr]
                    for g in guilds
                )


# --------------------------------------------------------------------- components v2


def refusal(fake: FakeDiscord) -> dict[str, str]:
    """The fields the fake's last answer refused, as ``"components.0.type" -> error code``."""
    answer = fake.requests[-1].response
    assert fake.requests[-1].status == 400 and answer["code"] == 50035, answer
    return dict(_error_codes(answer.get("errors") or {}))


def _error_codes(errors: dict[str, Any], path: tuple[str, ...] = ()) -> Iterator[
        tuple[str, str]]:
    for key, value in errors.items():
        if key == "_errors":
            yield from ((".".join(path), e["code"]) for e in value)
        else:
            yield from _error_codes(value, (*path, key))


async def post_raw(bot: UmpireBot, channel: FakeChannel, payload: dict[str, Any]) -> Any:
    """A Create Message body sent as is through discord.py's HTTP client: for shapes its
    ``ui`` classes would refuse to build (more than 40 components, say)."""
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    return await bot.http.request(route, json=payload)


def container(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "components": list(children)}


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def button_row(*custom_ids: str) -> dict[str, Any]:
    buttons = [{"type": 2, "style": 1, "label": c, "custom_id": c} for c in custom_ids]
    return {"type": 1, "components": buttons}


async def send_orders(bot: UmpireBot, user: FakeUser, *texts: str,
                      files: Sequence[str] = tuple(PICTURES),
                      gallery: Sequence[str] = tuple(PICTURES)) -> discord.Message:
    """The bot DMs ``user`` an OrdersLayout, uploading ``files``."""
    recipient = await bot.fetch_user(user.id)
    layout = OrdersLayout(bot, *(texts or ("Turn 3", "Your orders, please")), gallery=gallery)
    return await recipient.send(view=layout, files=pictures(*files))


async def test_a_layout_view_dm_is_stored_as_a_components_v2_message(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    sent = await send_orders(bot, scene.alice)
    [request] = fake.requests_to("POST", "/channels/*/messages")
    assert request.json["flags"] == IS_COMPONENTS_V2 and not request.json.get("content")
    [stored] = fake.dms_to(scene.alice)
    assert stored["flags"] == IS_COMPONENTS_V2
    assert stored["content"] == "" and stored["embeds"] == []
    [box] = stored["components"]
    assert box["type"] == 17
    assert [c["type"] for c in box["components"]] == [10, 10, 14, 12, 1]
    assert component_texts(stored["components"]) == ["Turn 3", "Your orders, please"]
    assert text_of(stored) == "Turn 3\nYour orders, please"
    assert [a["filename"] for a in stored["attachments"]] == ["map.png", "detail.png"]
    assert [(a["width"], a["height"]) for a in stored["attachments"]] == [(3, 2), (4, 5)]
    assert [(i["media"]["url"], i["description"]) for i in gallery_items(stored)] == [
        ("attachment://map.png", "The field at dawn"),
        ("attachment://detail.png", "The bridge"),
    ]
    assert custom_ids(stored) == ["orders-done"]  # the button inside the container's row
    # discord.py read the answer back as a v2 message.
    assert sent.flags.components_v2 and isinstance(sent.components[0], discord.Container)


async def test_a_button_inside_a_container_can_be_clicked(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    await send_orders(bot, scene.alice)
    [stored] = fake.dms_to(scene.alice)
    click = await fake.click(stored, "orders-done", user=scene.alice)
    assert (await click.response()).type == 7  # the bot edited the message it sits on
    assert bot.clicks == ["alice"]
    [shown] = fake.dms_to(scene.alice)
    assert text_of(shown) == "Orders received from alice"
    assert shown["flags"] == IS_COMPONENTS_V2
    # The receipt's gallery names a picture the message kept from its first sending.
    assert [i["media"]["url"] for i in gallery_items(shown)] == ["attachment://map.png"]
    assert [a["filename"] for a in shown["attachments"]] == ["map.png", "detail.png"]


async def test_a_deferred_answer_becomes_a_components_v2_message(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    handle = await fake.slash("orders", user=scene.alice, channel=scene.channel)
    assert (await handle.response()).type == 5
    followup = await handle.followup()
    assert int(followup["id"]) == handle.original_id  # it replaced the "thinking" message
    assert followup["flags"] == IS_COMPONENTS_V2  # not ephemeral, no longer loading
    assert text_of(followup) == "Turn 3\nYour orders, please"
    assert custom_ids(followup) == ["orders-done"]


@pytest.mark.parametrize("legacy", ["content", "embeds"])
async def test_a_components_v2_message_with_content_or_embeds_is_refused(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot, legacy: str
) -> None:
    recipient = await bot.fetch_user(scene.alice.id)
    layout = OrdersLayout(bot, "Turn 3")
    with pytest.raises(discord.HTTPException) as failure:
        if legacy == "content":
            await recipient.send("Your orders, please", view=layout, files=pictures())
        else:
            embed = discord.Embed(description="Your orders, please")
            await recipient.send(embed=embed, view=layout, files=pictures())
    assert failure.value.status == 400 and failure.value.code == 50035
    assert refusal(fake) == {legacy: "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"}
    assert fake.dms_to(scene.alice) == []


async def test_more_than_40_components_counted_recursively_are_refused(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    # A container, 8 action rows and their buttons: 1 + 8 + 31 = 40 components.
    rows = [button_row(*(f"b{r}{i}" for i in range(4))) for r in range(7)]
    forty = container(*rows, button_row("x", "y", "z"))
    await post_raw(bot, scene.channel, {"flags": IS_COMPONENTS_V2, "components": [forty]})
    [kept] = fake.messages_in(scene.channel)
    assert len(custom_ids(kept)) == 31
    # One button more: the top level has still one component, no row more than 5 buttons.
    forty_one = container(*rows, button_row("w", "x", "y", "z"))
    with pytest.raises(discord.HTTPException) as failure:
        await post_raw(bot, scene.channel, {"flags": IS_COMPONENTS_V2, "components": [forty_one]})
    assert failure.value.status == 400
    assert refusal(fake) == {"components": "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED"}
    assert fake.messages_in(scene.channel) == [kept]


async def test_more_than_4000_characters_of_text_displays_are_refused(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    await send_orders(bot, scene.alice, "x" * 2500, "y" * 1500)  # 4000: the most allowed
    with pytest.raises(discord.HTTPException) as failure:
        await send_orders(bot, scene.alice, "x" * 2500, "y" * 1501)
    assert failure.value.status == 400
    assert refusal(fake) == {"components": "BASE_TYPE_MAX_LENGTH"}
    assert [len(text_of(m)) for m in fake.dms_to(scene.alice)] == [4001]  # 4000 and a "\n"


async def test_a_media_gallery_holds_1_to_10_items(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    def gallery(count: int) -> dict[str, Any]:
        items = [{"media": {"url": f"https://example.com/{i}.png"}} for i in range(count)]
        return container(text("Maps"), {"type": 12, "items": items})

    await post_raw(bot, scene.channel, {"flags": IS_COMPONENTS_V2, "components": [gallery(10)]})
    for count in (0, 11):
        with pytest.raises(discord.HTTPException):
            await post_raw(bot, scene.channel,
                           {"flags": IS_COMPONENTS_V2, "components": [gallery(count)]})
        assert refusal(fake) == {"components.0.components.1.items": "BASE_TYPE_BAD_LENGTH"}
    [kept] = fake.messages_in(scene.channel)
    assert len(gallery_items(kept)) == 10


async def test_an_attachment_url_must_name_a_file_sent_with_the_message(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    with pytest.raises(discord.HTTPException) as failure:
        await send_orders(bot, scene.alice, files=["map.png"])  # the gallery shows detail.png
    assert failure.value.status == 400
    url = "components.0.components.3.items.1.media.url"  # detail.png, the gallery's second
    assert refusal(fake) == {url: "ATTACHMENT_NOT_FOUND"}
    assert fake.dms_to(scene.alice) == []


async def test_an_edit_replaces_the_components_and_keeps_the_message_v2(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    sent = await send_orders(bot, scene.alice)
    edited = await sent.edit(view=OrdersLayout(bot, "Turn 3", "Orders sent", gallery=["map.png"]))
    [stored] = fake.dms_to(scene.alice)
    assert text_of(stored) == "Turn 3\nOrders sent"
    assert stored["flags"] == IS_COMPONENTS_V2 and stored["edited_timestamp"] is not None
    assert [a["filename"] for a in stored["attachments"]] == ["map.png", "detail.png"]
    # Keeping only the map while the gallery shows it is fine...
    await edited.edit(view=OrdersLayout(bot, "Turn 4", gallery=["map.png"]),
                      attachments=[edited.attachments[0]])
    [stored] = fake.dms_to(scene.alice)
    assert text_of(stored) == "Turn 4"
    assert [a["filename"] for a in stored["attachments"]] == ["map.png"]
    # ...dropping a picture the gallery still shows is not.
    with pytest.raises(discord.HTTPException) as failure:
        await edited.edit(view=OrdersLayout(bot, "Turn 5", gallery=["map.png"]), attachments=[])
    assert failure.value.status == 400
    assert refusal(fake) == {"components.0.components.2.items.0.media.url": "ATTACHMENT_NOT_FOUND"}
    assert text_of(fake.dms_to(scene.alice)[0]) == "Turn 4"


async def test_an_edit_cannot_give_a_v2_message_content_or_take_its_flag_away(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    sent = await send_orders(bot, scene.alice)
    with pytest.raises(discord.HTTPException) as failure:
        await sent.edit(content="Your orders, please")
    assert failure.value.status == 400
    assert refusal(fake) == {"content": "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"}
    route = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                               channel_id=sent.channel.id, message_id=sent.id)
    with pytest.raises(discord.HTTPException):
        await bot.http.request(route, json={"flags": 0})
    assert refusal(fake) == {"flags": "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"}
    [stored] = fake.dms_to(scene.alice)
    assert stored["content"] == "" and stored["flags"] == IS_COMPONENTS_V2
    assert text_of(stored) == "Turn 3\nYour orders, please"


async def test_a_top_level_text_display_needs_the_v2_flag(
    fake: FakeDiscord, scene: Scene, bot: UmpireBot
) -> None:
    with pytest.raises(discord.HTTPException) as failure:
        await post_raw(bot, scene.channel, {"components": [text("Turn 3")]})
    assert failure.value.status == 400
    assert refusal(fake) == {"components.0.type": "UNION_TYPE_CHOICES"}
    assert fake.messages_in(scene.channel) == []
    await post_raw(bot, scene.channel, {"flags": IS_COMPONENTS_V2, "components": [text("Turn 3")]})
    [stored] = fake.messages_in(scene.channel)
    assert text_of(stored) == "Turn 3" and stored["flags"] == IS_COMPONENTS_V2
