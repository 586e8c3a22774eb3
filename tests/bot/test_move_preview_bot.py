"""Move previews and the player's preview setting through the bot, against the fake Discord."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.fakediscord import FakeDiscord, buttons_of
from tests.support.botkit import FIXTURES, private_answer, started_game, text_of

SIDES = ("blue", "grey")
SEED = bytes(range(32))
TINY = FIXTURES / "tiny.toml"


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return buttons_of(message)


async def test_a_long_move_is_previewed_and_confirm_stops_where_it_said(
        fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, TINY, SIDES, seed=SEED) as (bot, alice, _bob):
        preview = await private_answer(fake, "move", alice, {"unit": "1st Brigade",
                                                             "route": "road B0804"})
        said = text_of(preview)
        assert "1-12. A0204 to B0504: 0.5 MP each (by road, in column), 0 MP left" in said
        assert "Not reached (no MPs left for them): B0604, B0704, B0804." in said
        assert "It stops at B0504: its MPs run out" in said
        confirm, _cancel = buttons(preview)
        assert confirm["label"] == "Confirm"
        state = await bot.umpire.repository.state_for("g1")
        assert state.units["blue-1"].cell == state.loaded.board.parse("A0104")  # not yet
        click = await fake.click(preview, confirm["custom_id"], user=alice)
        await click.response()
        await fake.wait_for(lambda: "Ordered" in text_of(fake.world.messages[int(preview["id"])]))
        shown = text_of(fake.world.messages[int(preview["id"])])
        assert ("1st Brigade moved 12 cell(s) to B0504, spending 6 MP (0 left). It stopped: its "
                "MPs ran out at B0504.") in shown
        state = await bot.umpire.repository.state_for("g1")
        assert state.units["blue-1"].cell == state.loaded.board.parse("B0504")


async def test_settings_preview_is_set_shown_and_obeyed(fake: FakeDiscord, tmp_path: Path
                                                        ) -> None:
    async with started_game(fake, tmp_path, TINY, SIDES, seed=SEED) as (bot, alice, bob):
        on = text_of(await private_answer(fake, "settings", alice, {"preview": "on"}))
        assert on.startswith("Saved, for all your games. Move previews are on: every move is "
                             "shown")
        shown = text_of(await private_answer(fake, "settings", alice, {}))
        assert shown.startswith("Move previews are on")
        short = await private_answer(fake, "move", alice, {"unit": "2nd Brigade",
                                                           "route": "A0106"})
        assert "1. A0106: 1 MP (clear), 5 MP left" in text_of(short)
        assert [b["label"] for b in buttons(short)] == ["Confirm", "Cancel"]
        state = await bot.umpire.repository.state_for("g1")
        assert state.units["blue-2"].cell == state.loaded.board.parse("A0105")  # not yet

        off = text_of(await private_answer(fake, "settings", alice, {"preview": "off"}))
        assert "Move previews are off: moves by road or longer than 6 cells" in off
        given = await private_answer(fake, "move", alice, {"unit": "2nd Brigade",
                                                           "route": "A0106"})
        assert text_of(given).startswith("2nd Brigade moved 1 cell(s) to A0106")
        assert buttons(given) == []
        bad = text_of(await private_answer(fake, "settings", bob, {"preview": "sideways"}))
        assert bad.startswith("'sideways' is not a preview setting")
        assert await bot.umpire.preview_setting(bob.id) == "off"  # unchanged
