"""``/march order`` is previewed before it is sent (rulings ORD-20, ORD-21): the force, its route
on the side's map, and a warning for each unit standing apart from the force, with a button to
leave it out; Confirm sends exactly the previewed order. Played on the flank-march sample, whose
Rodes' Division has left the 23rd Georgia as a rear guard at Catharine Furnace."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules.scenario.loader import load
from rules.state import initial_state
from rules.surprise import force as frc
from rules.surprise import records as rec
from rules.surprise.commands import TEXT_LIMIT, OrderSurpriseMove
from rules.surprise.march.detached import detached
from storage.store import Store
from tests.fakediscord import FakeDiscord, FakeUser, buttons_of
from tests.fakediscord.interactions import InteractionHandle
from tests.support.botkit import private_answer, started_game, text_of
from umpire.modules.surprise import plan_march
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError

SAMPLES = Path(__file__).parents[2] / "scenarios"
FLANK = SAMPLES / "flank-march.toml"
RULESET = SAMPLES / "brigade-series.ruleset.toml"
RODES = "Rodes' Division"
ROUTE = "road A1309 road Luckett's Farm"


def test_the_rear_guard_stands_apart_from_rodes_division() -> None:
    loaded = load(FLANK.read_text(), str(FLANK), RULESET.read_text(), str(RULESET))
    state = initial_state(loaded)
    units, _ = frc.resolve(state, "confederate", RODES)
    far = detached(state, units)
    assert [d.unit.id for d in far] == ["23rd-ga"]
    assert far[0].hexes > 20 and far[0].out_of_command
    # O'Neal's brigade, out of Rodes' range at the head of the column, is linked to it: no
    # warning for a column's own length.
    corps, _ = frc.resolve(state, "confederate", "Second Corps")
    assert {d.unit.id for d in detached(state, corps)} == {
        "23rd-ga", "archer", "thomas", "second-corps-trains"}


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return buttons_of(message)


async def preview(fake: FakeDiscord, user: FakeUser, force: str) -> dict[str, Any]:
    return await private_answer(fake, "march order", user, {"force": force, "route": ROUTE})


async def click(fake: FakeDiscord, message: dict[str, Any], custom_id: str,
                user: FakeUser) -> tuple[dict[str, Any], InteractionHandle]:
    """Click, then the message as it stands once the bot has answered (and the click)."""
    before = text_of(fake.world.messages[int(message["id"])])
    handle = await fake.click(message, custom_id, user=user)
    await handle.response()
    await fake.wait_for(lambda: text_of(fake.world.messages[int(message["id"])]) != before)
    return fake.world.messages[int(message["id"])], handle


async def test_the_preview_warns_of_the_rear_guard_and_sends_nothing(
        fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, FLANK, ("union", "confederate"),
                            maps=True) as (bot, _, bob):
        shown = await preview(fake, bob, RODES)
        words = text_of(shown)
        assert "**Surprise move Rodes' Division**" in words
        assert "Warning: **23rd Georgia (Colquitt's brigade), rear guard at the furnace**" in words
        assert "B1320" in words and "include it?" in words
        assert shown["attachments"]  # the force and its route on the side's map
        labels = [b["label"] for b in buttons(shown)]
        assert labels[:2] == ["Confirm", "Cancel"]
        assert labels[2].startswith("Leave out 23rd Georgia")
        state = await bot.umpire.repository.state_for("g1")
        assert rec.side_marches(state, "confederate", rec.OPEN) == []  # nothing sent yet


async def test_confirm_sends_exactly_the_previewed_order(fake: FakeDiscord,
                                                         tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, FLANK, ("union", "confederate"),
                            maps=False) as (bot, _, bob):
        shown = await preview(fake, bob, RODES)
        state = await bot.umpire.repository.state_for("g1")
        previewed, _ = frc.resolve(state, "confederate", RODES)
        confirm = buttons(shown)[0]["custom_id"]
        done, first = await click(fake, shown, confirm, bob)
        assert "Rodes' Division" in text_of(done) and done["components"] == []
        state = await bot.umpire.repository.state_for("g1")
        [march] = rec.side_marches(state, "confederate", rec.OPEN)
        assert march["units"] == [u.id for u in previewed]
        assert march["name"] == RODES and march["route"] == ROUTE
        # The click delivered again (a replay) changes nothing.
        again = await fake.resend(first)
        assert "already confirmed" in ((await again.response()).content or "")
        state = await bot.umpire.repository.state_for("g1")
        assert len(rec.side_marches(state, "confederate", rec.OPEN)) == 1


async def test_leaving_the_rear_guard_out(fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, FLANK, ("union", "confederate"),
                            maps=False) as (bot, _, bob):
        shown = await preview(fake, bob, RODES)
        old_confirm, _, leave = (b["custom_id"] for b in buttons(shown))
        old = dict(fake.world.messages[int(shown["id"])])
        revised, _ = await click(fake, shown, leave, bob)
        assert "Warning" not in text_of(revised)
        assert "23rd Georgia" not in text_of(revised)
        assert [b["label"] for b in buttons(revised)] == ["Confirm", "Cancel"]
        revised_buttons = revised["components"]
        # The first preview's Confirm no longer sends anything.
        fake.world.messages[int(shown["id"])]["components"] = old["components"]  # a stale copy
        stale = await fake.click(shown, old_confirm, user=bob)
        assert "already revised" in ((await stale.response()).content or "")
        state = await bot.umpire.repository.state_for("g1")
        assert rec.side_marches(state, "confederate", rec.OPEN) == []
        fake.world.messages[int(shown["id"])]["components"] = revised_buttons
        await click(fake, shown, revised_buttons[0]["components"][0]["custom_id"], bob)
        state = await bot.umpire.repository.state_for("g1")
        [march] = rec.side_marches(state, "confederate", rec.OPEN)
        assert "23rd-ga" not in march["units"] and "rodes" in march["units"]
        assert state.units["23rd-ga"].cell == state.loaded.board.parse("B1320")


async def test_a_force_too_long_for_one_order_is_refused_in_words(tmp_path: Path) -> None:
    """A force whose units' ids, joined, pass the order's limit gets a refusal that says what
    to do, not an error: the limit is checked before the order is built."""
    fixtures = Path(__file__).parents[1] / "fixtures"
    extra = "".join(
        f'\n[[units]]\nid = "blue-brigade-with-a-long-identifier-{n:02d}"\nside = "blue"\n'
        f'name = "Extra Brigade {n}"\nkind = "infantry"\ncommand = "blue-div"\nstrength = 4\n'
        f'at = "A{1 + n % 3:02d}{6 + n // 3:02d}"\n'
        for n in range(15))
    scenario = tmp_path / "surprise.toml"
    scenario.write_text((fixtures / "surprise.toml").read_text() + extra)
    (tmp_path / "surprise.ruleset.toml").write_text(
        (fixtures / "surprise.ruleset.toml").read_text())
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(scenario), 1, game_id="g1", seed=bytes(32))
        await umpire.join("g1", 10, "blue")
        await umpire.join("g1", 20, "grey")
        await umpire.start("g1", 1)
        state = await umpire.repository.state_for("g1")
        force, _ = frc.resolve(state, "blue", "1st Division")
        assert len(",".join(u.id for u in force)) > TEXT_LIMIT
        try:
            await plan_march(umpire, "g1", 10, OrderSurpriseMove(force="1st Division",
                                                                 route="road Crossroads"))
        except UmpireError as e:
            assert "too large for one order" in str(e)
        else:
            raise AssertionError("a force too long for one order was previewed")
        assert rec.side_marches(await umpire.repository.state_for("g1"), "blue", rec.OPEN) == []
