"""The fake Discord works with the real discord.py client: gateway handshake, command sync,
slash commands, deferral and followups with files, autocomplete, buttons, DMs, errors,
threads, RESUME, sharding and a clean shutdown. Everything runs on 127.0.0.1."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass

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
    patched_discord,
    run_client,
)

TOKEN = "fake-token"
EPHEMERAL = 64
UNITS = {"A1": "A1 Infantry", "A2": "A2 Armour", "B7": "B7 Artillery"}


def make_png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (3, 2), "red").save(buffer, format="PNG")
    return buffer.getvalue()


PNG = make_png()


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
    assert {c["name"] for c in put[0].json} == {"ping", "poke", "report", "roll", "game"}
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
