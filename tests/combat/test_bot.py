"""``/fire``, ``/assault`` and ``/rally`` through the bot, against the local Discord stand-in:
thin commands over the umpire, and a target autocomplete that offers only what the player's side
sees."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.cogs.combat import TOO_LONG, unit_list
from tests.fakediscord import FakeDiscord, FakeUser
from tests.support.botkit import private_answer, started_game, text_of
from tests.support.combat import SEED, SIDES, to_phase
from tests.support.combat_games import INVERTED, NIGHT, variant
from umpire.reads.naming import Named, complete_list


async def say(fake: FakeDiscord, command: str, user: FakeUser, options: dict[str, Any]) -> str:
    return text_of(await private_answer(fake, command, user, options))


async def offered(fake: FakeDiscord, command: str, options: dict[str, Any], focused: str,
                  user: FakeUser) -> list[str]:
    handle = await fake.autocomplete(command, options, focused=focused, user=user)
    return [c["value"] for c in (await handle.response()).choices]


async def test_fire_and_rally_through_the_bot(fake: FakeDiscord, tmp_path: Path) -> None:
    scenario = variant(tmp_path, "open")
    async with started_game(fake, tmp_path, scenario, SIDES, seed=SEED) as (bot, alice, bob):
        users = {"union": alice, "confederate": bob}
        await to_phase(bot, users, "fire", "union")
        # only units that may fire now (the Second Union Brigade has no enemy in range); the
        # values are the units' ids, so that a name's commas never split them
        assert await offered(fake, "fire", {"unit": "Union Brigade, ", "target": "x"},
                             "unit", alice) == ["u-inf,u-bat"]
        assert await offered(fake, "fire", {"unit": "Second", "target": "x"}, "unit",
                             alice) == []
        assert await offered(fake, "fire", {"unit": "x", "target": "reb"}, "target", alice) == [
            "Rebel Battery", "Rebel Brigade", "Second Rebel Brigade"]  # never General Grey
        text = await say(fake, "fire", alice, {"unit": "Union Brigade",
                                               "target": "Rebel Brigade"})
        assert text.startswith("**Fire**: Union Brigade fired at Rebel Brigade (A0704")
        again = await say(fake, "fire", alice, {"unit": "Union Brigade",
                                                "target": "Rebel Brigade"})
        assert again == "Union Brigade has already fired in this phase"
        assert "Rally" not in await say(fake, "rally", alice, {"unit": "Union Brigade"})
        await bot.outbox.idle()

        def told() -> list[str]:
            return [text_of(m) for m in fake.dms_to(bob)]

        # The enemy's fire reaches Bob once, in the dossier of his next phase, not as it falls.
        before = len(fake.dms_to(bob))
        assert not any("Under fire" in t for t in told())
        await say(fake, "done", alice, {})
        await bot.outbox.idle()
        assert len(fake.dms_to(bob)) == before + 1
        [dossier] = [t for t in told() if "Under fire" in t]
        assert dossier.index("Under fire") < dossier.index("You may:")


async def test_an_order_naming_more_units_than_a_record_holds_is_refused_and_changes_nothing(
        fake: FakeDiscord, tmp_path: Path) -> None:
    scenario = variant(tmp_path, "open")
    async with started_game(fake, tmp_path, scenario, SIDES, seed=SEED) as (bot, alice, bob):
        await to_phase(bot, {"union": alice, "confederate": bob}, "fire", "union")
        crowd = ", ".join(["Union Brigade"] * 9)  # fits Discord's length, not the record
        assert await say(fake, "fire", alice, {"unit": crowd, "target": "Rebel Brigade"}) \
            == TOO_LONG
        text = await say(fake, "fire", alice, {"unit": "Union Brigade",
                                               "target": "Rebel Brigade"})
        assert text.startswith("**Fire**: Union Brigade fired at Rebel Brigade")


async def test_assault_and_unseen_targets(fake: FakeDiscord, tmp_path: Path) -> None:
    scenario = variant(tmp_path, "night", INVERTED, NIGHT,
                       ('at = "A0704"\ntags', 'at = "A0604"\ntags'))
    async with started_game(fake, tmp_path, scenario, SIDES, seed=SEED) as (bot, alice, bob):
        users = {"union": alice, "confederate": bob}
        await to_phase(bot, users, "movement", "confederate")
        # only the Union Brigade, next to it, is in sight of the Confederates at night; the
        # other counters they see without their identity are offered by their cells
        found = await offered(fake, "assault", {"units": "Rebel", "target": ""}, "target", bob)
        assert found[0] == "Union Brigade"
        assert found[1:] and all(re.fullmatch(r"A\d{4}", v) for v in found[1:]), found
        assert await offered(fake, "assault", {"units": "Rebel", "target": "Bat"}, "target",
                             bob) == []
        hidden = await say(fake, "assault", bob, {"units": "Rebel Brigade",
                                                  "target": "Union Battery"})
        nobody = await say(fake, "assault", bob, {"units": "Rebel Brigade",
                                                  "target": "Union Batterz"})
        assert hidden.replace("Union Battery", "X") == nobody.replace("Union Batterz", "X")
        text = await say(fake, "assault", bob, {"units": "Rebel Brigade",
                                                "target": "Union Brigade", "advance": False})
        assert text.startswith("**Assault** on A0504")
        state = await bot.umpire.repository.state_for("g1")
        assert state.units["c-inf"].cell != state.loaded.board.parse("A0504")  # no advance


def test_unit_lists() -> None:
    assert unit_list(" Union Brigade ,, Second Union Brigade ") == ("Union Brigade",
                                                                   "Second Union Brigade")
    known = [Named("u-inf2", "Second Union Brigade", ("second union brigade",)),
             Named("u-inf", "Union Brigade", ("union brigade",))]
    assert complete_list("Union Brigade, sec", known, known) == [
        ("u-inf,u-inf2", "Union Brigade, Second Union Brigade")]
