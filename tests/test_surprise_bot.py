"""``/march`` through the bot, against the local Discord stand-in: ordering with an autocomplete
of the player's own forces only, ``/march status`` with the route map, and the persistent detour
buttons."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.client import VedetteBot
from bot.cogs.march import force_choices
from rules import commands as cmd
from rules.surprise import records as rec
from rules.surprise.commands import OrderSurpriseMove
from storage.store import Store
from tests.fakediscord import FakeDiscord, FakeUser, patched_discord, run_client
from tests.surprise_support import Dice
from tests.test_surprise_umpire import scenario_file
from umpire import dice as umpire_dice
from umpire.maps import MapMaker
from umpire.service import Umpire

TOKEN = "vedette-test-token"
EPHEMERAL = 64


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(token=TOKEN, callback_deadline=3.0) as fake:
        yield fake


def text(message: dict[str, Any]) -> str:
    parts = [message.get("content") or ""]
    parts += [e.get("description") or "" for e in message.get("embeds") or []]
    return "\n".join(p for p in parts if p)


async def final(fake: FakeDiscord, command: str, user: FakeUser,
                options: dict[str, Any]) -> dict[str, Any]:
    handle = await fake.slash(command, options, user=user)
    callback = await handle.response()
    message = await handle.original_message() if callback.type == 5 else handle.original
    assert message is not None and message["flags"] & EPHEMERAL
    return message


async def table(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[
        tuple[VedetteBot, FakeUser, FakeUser]]:
    guild = fake.add_guild("Wargames Club")
    alice = fake.add_user("alice", guild=guild)
    bob = fake.add_user("bob", guild=guild)
    store = await Store.open(tmp_path / "vedette.db")
    try:
        umpire = Umpire(store, maps=MapMaker(enabled=True))
        await umpire.create_game(str(scenario_file(tmp_path)), alice.id, game_id="g1")
        await umpire.join("g1", alice.id, "blue")
        await umpire.join("g1", bob.id, "grey")
        await umpire.start("g1", alice.id)
        bot = VedetteBot(umpire, outbox_interval=0.2, guild_ready_timeout=0.05)
        with patched_discord(fake.base_url):
            async with run_client(bot, token=TOKEN):
                yield bot, alice, bob
    finally:
        await store.close()


def test_force_choices_complete_the_last_item() -> None:
    names = ["1st Division", "1st Brigade", "2nd Brigade", "Blue Horse"]
    assert force_choices("", names) == names
    assert force_choices("1st Division, bl", names) == ["1st Division, Blue Horse"]
    assert force_choices("2nd", names) == ["2nd Brigade"]


async def test_order_status_and_detour_buttons(fake: FakeDiscord, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    dice = Dice(initiative=[2, 2])
    monkeypatch.setattr(umpire_dice, "SeededDice", lambda seed, gid: dice)
    async for bot, alice, bob in table(fake, tmp_path):
        offered = await fake.autocomplete("march order", {"force": "", "route": "x"},
                                          focused="force", user=alice)
        choices = [c["value"] for c in (await offered.response()).choices]
        assert "1st Division" in choices and not [c for c in choices if "Grey" in c]
        ordered = await final(fake, "march order", alice, {
            "force": "1st Division, Blue Horse", "route": "road A1005", "initiative": True,
            "detour": "ask"})
        assert "**Surprise move 1st Division + Blue Horse** ordered" in text(ordered)
        refused = await final(fake, "march order", bob, {"force": "1st Brigade",
                                                         "route": "road A1005"})
        assert text(refused).startswith("You have no unit called '1st Brigade'.")
        status = await final(fake, "march status", alice, {})
        assert "accumulating MPs in place" in text(status)
        assert status["attachments"] and not status.get("components")
        nothing = await final(fake, "march status", bob, {})
        assert text(nothing) == "You have no surprise move under way."
        # Night, a Grey picket south of the road: the column will wait before it.
        umpire = bot.umpire
        await umpire.handle("g1", alice.id, cmd.Correct(unit="grey-cav", changes={
            "cell": "A0707"}, reason="test set-up"), is_admin=True)
        while (await umpire.state_for("g1")).turn < 7:
            state = await umpire.state_for("g1")
            for side in state.acting_sides():
                await umpire.handle("g1", alice.id if side == "blue" else bob.id, cmd.Done())
        executed = await final(fake, "march execute", alice, {})
        assert "set off at the start of your next movement phase" in text(executed)
        await umpire.handle("g1", alice.id, cmd.Done())
        await umpire.handle("g1", bob.id, cmd.Done())
        state = await umpire.state_for("g1")
        assert rec.march(state, "m1")["run"]["pending"] is not None
        waiting = await final(fake, "march status", alice, {})
        assert "**Waiting for you**" in text(waiting)
        buttons = waiting["components"][0]["components"]
        assert [b["custom_id"] for b in buttons] == ["vedette:march:try:g1:m1",
                                                     "vedette:march:go:g1:m1"]
        click = await fake.click(waiting, buttons[0]["custom_id"], user=alice)
        await click.response()
        shown = int(waiting["id"])
        await fake.wait_for(lambda shown=shown: "goes round" in  # type: ignore[misc]
                            text(fake.world.messages[shown]))
        state = await umpire.state_for("g1")
        assert rec.march(state, "m1")["status"] == rec.EXECUTED
        assert fake.world.messages[shown]["components"] == []


async def test_march_commands_refused_plainly(fake: FakeDiscord, tmp_path: Path) -> None:
    async for bot, alice, _ in table(fake, tmp_path):
        [group] = [c for c in bot.command_payload() if c["name"] == "march"]
        assert {o["name"] for o in group["options"]} == {"order", "execute", "cancel", "status"}
        assert "no surprise move under way" in text(await final(fake, "march execute", alice, {}))
        await bot.umpire.handle("g1", alice.id, OrderSurpriseMove(force="1st Brigade",
                                                                   route="road A1005"))
        assert "not been accepted yet" in text(await final(fake, "march execute", alice, {}))
        cancel = await final(fake, "march cancel", alice, {"mode": "reverse"})
        assert "countermanded before it was accepted" in text(cancel)
