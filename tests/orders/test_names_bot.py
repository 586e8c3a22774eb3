"""Naming a unit by a word of its name in ``/move`` against the fake Discord (rulings ORD-50,
ORD-51): the word players typed and the label on the counter move the unit, a word two units
share is asked about, and a word only the enemy's names hold is answered as nonsense is."""

from __future__ import annotations

from pathlib import Path

from bot.client import VedetteBot
from rules.commands import Done
from rules.ground.grid import Cell
from rules.state import GameState
from tests.fakediscord import FakeDiscord, FakeUser
from tests.support.botkit import private_answer, started_game, text_of

ROOT = Path(__file__).resolve().parents[2]
FLANK_MARCH = ROOT / "scenarios" / "flank-march.toml"


async def union_movement(bot: VedetteBot, alice: FakeUser, bob: FakeUser) -> GameState:
    """Game g1 at the union's Movement Phase, both sides passing what comes before."""
    users = {"union": alice, "confederate": bob}
    for _ in range(20):
        state = await bot.umpire.repository.state_for("g1")
        if state.current.phase.id == "movement" and state.current.side == "union":
            return state
        for acting in state.acting_sides():
            await bot.umpire.handle("g1", users[acting].id, Done())
    raise AssertionError("never reached the union's movement")


async def move(fake: FakeDiscord, user: FakeUser, unit: str, route: str) -> str:
    return text_of(await private_answer(fake, "move", user, {"unit": unit, "route": route}))


async def test_move_names_a_unit_by_a_word_or_its_counter(fake: FakeDiscord,
                                                          tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, FLANK_MARCH, ("union", "confederate")) as (
            bot, alice, bob):
        state = await union_movement(bot, alice, bob)
        assert state.units["dieckmann"].cell == Cell(24, 8)
        to = state.loaded.board.label(Cell(24, 9))
        said = await move(fake, alice, "Dieck", to)
        assert said.startswith("13th New York Battery (Dieckmann) moved 1 cell(s) to "), said
        state = await bot.umpire.repository.state_for("g1")
        assert state.units["dieckmann"].cell == Cell(24, 9)
        # the word on its counter ("13th N.") names it too
        back = state.loaded.board.label(Cell(24, 8))
        said = await move(fake, alice, "13th N.", back)
        assert said.startswith("13th New York Battery (Dieckmann) moved 1 cell(s) to "), said

        said = await move(fake, alice, "Battery I", to)
        assert said == ("'Battery I' could be 2 of yours. Did you mean: Battery I, 1st New York "
                        "(Wiedrich) or Battery I, 1st Ohio (Dilger)?")
        # a word of the enemy's only: as a word of no unit, letter for letter
        enemy, nonsense = await move(fake, alice, "Jackson", to), await move(fake, alice,
                                                                           "Qzxvwkj", to)
        assert "no unit called 'Jackson'" in enemy
        assert enemy.replace("Jackson", "X") == nonsense.replace("Qzxvwkj", "X")
