"""Previews and their Confirm through the bot, against the fake Discord, in the flank-march sample:
the preview names the enemy on the player's map that will stop the move, Confirm does what it
said, and a Confirm after what the side knows has changed answers with the new words and moves
nothing (rulings ORD-44, ORD-47)."""

from __future__ import annotations

from pathlib import Path

from rules import commands as cmd
from tests.fakediscord import FakeDiscord
from tests.support.botkit import confirm_preview, private_answer, started_game, text_of
from umpire.reads.player_settings import Preview

SAMPLE = Path(__file__).parents[3] / "scenarios" / "flank-march.toml"
SIDES = ("union", "confederate")
BIRNEY_STOPS = ("It stops at B1218: Graham's brigade and 1 other unit, which your troops see at "
                "B1217, are next on its way, with 3 MP left")


async def test_the_rear_guard_is_told_birney_stops_it_and_confirm_does_so(
        fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, SAMPLE, SIDES) as (bot, alice, bob):
        await bot.umpire.set_preview_setting(bob.id, Preview.ON)
        for user in (alice, bob, alice):  # the Command Phase, then the Union's movement
            await bot.umpire.handle("g1", user.id, cmd.Done())
        preview = await private_answer(fake, "move", bob, {"unit": "23rd Georgia",
                                                           "route": "B1216"})
        said = text_of(preview)
        assert BIRNEY_STOPS in said and "It ends at B1216" not in said
        shown = text_of(await confirm_preview(fake, preview, bob))
        assert shown.startswith("Ordered: 23rd Georgia to B1216.")
        assert "moved 2 cell(s) to B1218" in shown
        state = await bot.umpire.repository.state_for("g1")
        unit = state.units["23rd-ga"]
        assert unit.cell is not None and state.loaded.board.label(unit.cell) == "B1218"


async def test_confirm_tells_the_new_words_when_the_side_has_learnt_more(
        fake: FakeDiscord, tmp_path: Path) -> None:
    """Previewed with the way to B1216 clear of Ward's brigade; before Confirm, Ward's brigade
    stands on the way at B1218, in the Confederates' sight. Confirm no longer moves the rear
    guard somewhere the preview did not say: it tells where the move would stop now."""
    async with started_game(fake, tmp_path, SAMPLE, SIDES) as (bot, alice, bob):
        await bot.umpire.handle("g1", alice.id, cmd.Correct(
            unit="graham", changes={"cell": "B1016"}, reason="out of the way"))
        await bot.umpire.handle("g1", alice.id, cmd.Correct(
            unit="birney", changes={"cell": "B1016"}, reason="out of the way"))
        await bot.umpire.set_preview_setting(bob.id, Preview.ON)
        for user in (alice, bob, alice):
            await bot.umpire.handle("g1", user.id, cmd.Done())
        preview = await private_answer(fake, "move", bob, {"unit": "23rd Georgia",
                                                           "route": "B1216"})
        assert "It ends at B1216 with 1 MP left" in text_of(preview)
        await bot.umpire.handle("g1", alice.id, cmd.Correct(
            unit="ward", changes={"cell": "B1218"}, reason="moved up"))
        shown = text_of(await confirm_preview(fake, preview, bob))
        assert shown.startswith("Not ordered: what your side knows has changed since this "
                                "preview was shown")
        assert ("Now: It stops at B1319 (Catharine Furnace): Ward's brigade, which your troops "
                "see at B1218, is next on its way") in shown
        state = await bot.umpire.repository.state_for("g1")
        unit = state.units["23rd-ga"]
        assert unit.cell is not None and state.loaded.board.label(unit.cell) == "B1320"
        assert unit.mp_left == 6
