"""Previews and their buttons expire with their phase (ruling ORD-22): when the phase a move
was previewed in ends, the preview is edited to say so, and a Confirm clicked afterwards (from a
copy of the message that could not be edited) is refused and changes nothing. A custom id of no
order of the clicker's (forged, another player's, another game's) gets one answer and changes
nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.client import VedetteBot
from bot.views import NOT_WAITING
from storage.clock import utc_now
from storage.db import connect
from storage.migrations import MIGRATIONS, migrate
from storage.store import Store
from tests.support.botkit import (
    EPHEMERAL,
    Table,
    final,
    say,
    settle,
    start_and_reach_blue_movement,
    text_of,
)
from umpire.reads import pending


async def preview(table: Table) -> tuple[dict[str, Any], str, str]:
    """alice's move by road, previewed in the channel (ephemeral): the message, Confirm's and
    Cancel's custom ids."""
    message = await final(await table.fake.slash(
        "move", {"unit": "1st Brigade", "route": "road Old Church"}, user=table.alice,
        channel=table.channel))
    assert message["flags"] & EPHEMERAL and "Confirm to give the order" in text_of(message)
    confirm, cancel = message["components"][0]["components"]
    return message, confirm["custom_id"], cancel["custom_id"]


async def click_answer(table: Table, message: dict[str, Any], custom_id: str,
                       components: list[Any]) -> str:
    """Click ``custom_id`` on the message as it was shown with ``components`` (a copy the
    player still has); the bot's answer."""
    table.fake.world.messages[int(message["id"])]["components"] = components
    handle = await table.fake.click(message, custom_id, user=table.alice)
    callback = await handle.response()
    if callback.content is not None:
        return callback.content
    return text_of(table.fake.world.messages[int(message["id"])])


async def test_a_preview_expires_when_its_phase_ends(table: Table, bot: VedetteBot) -> None:
    gid = await start_and_reach_blue_movement(table, bot)
    message, confirm, _ = await preview(table)
    shown = list(message["components"])
    before = (await bot.umpire.repository.state_for(gid)).units["blue-1"].cell
    await say(table, "done", table.alice)  # blue's Movement Phase ends
    await settle(bot)
    stored = table.fake.world.messages[int(message["id"])]
    await table.fake.wait_for(lambda: "expired" in text_of(stored))
    assert "This preview has expired" in text_of(stored) and stored["components"] == []
    move = await pending.load(bot.umpire.store, confirm.split(":")[-1])
    assert move is not None and move.status == pending.EXPIRED
    # A Confirm from a copy of the old message: refused, nothing moves.
    said = await click_answer(table, message, confirm, shown)
    assert "This preview has expired" in said
    state = await bot.umpire.repository.state_for(gid)
    assert state.units["blue-1"].cell == before


async def test_a_confirm_after_the_phase_is_refused_even_unedited(table: Table,
                                                                  bot: VedetteBot) -> None:
    """The phase ends while the preview cannot be edited (Discord refuses): the click itself
    checks the turn and step."""
    gid = await start_and_reach_blue_movement(table, bot)
    message, confirm, _ = await preview(table)
    shown = list(message["components"])
    table.fake.fail_next("PATCH", f"/webhooks/{table.fake.application_id}/*", status=404,
                         code=10008, times=10**6)
    await say(table, "done", table.alice)
    await settle(bot)
    assert table.fake.world.messages[int(message["id"])]["components"] == shown  # unedited
    state = await bot.umpire.repository.state_for(gid)
    before = state.units["blue-1"].cell
    said = await click_answer(table, message, confirm, shown)
    assert "This preview has expired" in said and "Movement Phase" in said
    state = await bot.umpire.repository.state_for(gid)
    assert state.units["blue-1"].cell == before
    assert not await bot.umpire.accepted(gid, f"pending-move:{confirm.split(':')[-1]}")


async def test_forged_and_foreign_ids_learn_nothing(table: Table, bot: VedetteBot) -> None:
    gid = await start_and_reach_blue_movement(table, bot)
    message, confirm, _ = await preview(table)
    shown = message["components"]
    real = confirm.split(":")[-1]
    forged = f"vedette:move:ok:{gid}:{'0' * 12}"
    other_game = f"vedette:move:ok:nosuchgame:{real}"
    answers = []
    for custom_id in (forged, other_game):
        copy = [{"type": 1, "components": [dict(shown[0]["components"][0],
                                                custom_id=custom_id)]}]
        answers.append(await click_answer(table, message, custom_id, copy))
    # bob clicks alice's real Confirm (a copied id): the same answer as for no order at all.
    table.fake.world.messages[int(message["id"])]["components"] = shown
    handle = await table.fake.click(message, confirm, user=table.bob)
    answers.append((await handle.response()).content or "")
    assert answers == [NOT_WAITING] * 3
    state = await bot.umpire.repository.state_for(gid)
    assert state.units["blue-1"].cell == state.loaded.board.parse("A0104")
    move = await pending.load(bot.umpire.store, real)
    assert move is not None and move.status == pending.OPEN  # still alice's to confirm


async def test_moves_waiting_before_schema_8_are_carried_over_expired(tmp_path: Path) -> None:
    """A move previewed under the old key-value rows never recorded its phase: after the
    upgrade its Confirm finds it expired (and a settled one keeps its status)."""
    db = tmp_path / "old.db"
    when = "2026-01-01T00:00:00+00:00"
    conn = await connect(db)
    try:
        await migrate(conn, db, utc_now, tuple(m for m in MIGRATIONS if m.version <= 7))
        await conn.execute(
            "INSERT INTO games (id, scenario_id, scenario_path, host_user_id, seed, created_at,"
            " updated_at) VALUES ('g1', 's', 'p', 1, ?, ?, ?)", (bytes(32), when, when))
        for pid, status in (("a" * 12, "open"), ("b" * 12, "confirmed")):
            await conn.execute("INSERT INTO bot_state (key, value) VALUES (?, ?)", (
                f"pending-move:{pid}", json.dumps({"id": pid, "game_id": "g1", "user_id": 7,
                                                   "unit": "blue-1", "route": "A0102",
                                                   "status": status})))
        await conn.commit()
    finally:
        await conn.close()
    async with await Store.open(db) as store:
        waited = await pending.load(store, "a" * 12)
        assert waited is not None and waited.status == pending.EXPIRED
        assert (waited.unit, waited.route, waited.user_id) == ("blue-1", "A0102", 7)
        done = await pending.load(store, "b" * 12)
        assert done is not None and done.status == pending.CONFIRMED
        assert await store.get_state("pending-move:" + "a" * 12) is None


async def test_a_confirm_after_the_unit_moved_is_refused(table: Table, bot: VedetteBot) -> None:
    """Two previews of one unit's move, the first confirmed: the second preview's steps were
    worked out from where the unit stood then, so its Confirm is refused as out of date and the
    unit stays where the first move took it."""
    gid = await start_and_reach_blue_movement(table, bot)
    first, first_ok, _ = await preview(table)
    second, second_ok, _ = await preview(table)
    start = (await bot.umpire.repository.state_for(gid)).units["blue-1"].cell
    await click_answer(table, first, first_ok, list(first["components"]))
    confirmed = table.fake.world.messages[int(first["id"])]
    await table.fake.wait_for(lambda: text_of(confirmed).startswith("Ordered"))
    moved = (await bot.umpire.repository.state_for(gid)).units["blue-1"]
    assert moved.cell != start
    await click_answer(table, second, second_ok, list(second["components"]))
    stale_message = table.fake.world.messages[int(second["id"])]
    await table.fake.wait_for(lambda: "out of date" in text_of(stale_message))
    assert "1st Brigade has moved" in text_of(stale_message)
    assert stale_message["components"] == []
    state = await bot.umpire.repository.state_for(gid)
    assert state.units["blue-1"] == moved
    stale = await pending.load(bot.umpire.store, second_ok.split(":")[-1])
    assert stale is not None and stale.status == pending.REFUSED
