"""Autocomplete for ``/fire`` and ``/assault``: only the units that may act now (the rules' own
offers), targets within the chosen units' reach first with distance and sight, values the
umpire reads back; and nothing in it depends on what the side cannot see (ruling ORD-12)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules.commands import Done
from rules.turn.idle import side_options
from rules.view import IDENTIFIED, project
from storage.store import Store
from tests.fakediscord import FakeDiscord, FakeUser
from tests.support.botkit import private_answer, started_game, text_of
from tests.support.combat_games import (
    CONFEDERATE,
    HOST,
    NIGHT,
    SEED,
    UNION,
    new_game,
    reach,
    variant,
)
from umpire.service import Umpire

SIDES = ("union", "confederate")
NEXT_TO = ('at = "A0704"\ntags', 'at = "A0604"\ntags')  # the Rebel Brigade, next to ours
HIDDEN = ('information = "open"', 'information = "hidden"')


async def choices(fake: FakeDiscord, command: str, options: dict[str, Any], focused: str,
                  user: FakeUser) -> list[tuple[str, str]]:
    """The (value, name) pairs offered."""
    handle = await fake.autocomplete(command, options, focused=focused, user=user)
    return [(c["value"], c["name"]) for c in (await handle.response()).choices]


async def say(fake: FakeDiscord, command: str, user: FakeUser, options: dict[str, Any]) -> str:
    return text_of(await private_answer(fake, command, user, options))


def offered_refs(state: Any, side: str, action: str) -> list[str]:
    return [r for o in side_options(state, side).offers if o.action == action for r in o.refs]


async def test_only_units_that_may_fire_now_are_offered(fake: FakeDiscord,
                                                        tmp_path: Path) -> None:
    scenario = variant(tmp_path, "open")
    async with started_game(fake, tmp_path, scenario, SIDES, seed=SEED) as (bot, alice, bob):
        users = {"union": alice, "confederate": bob}
        state = await bot.umpire.repository.state_for("g1")
        assert not state.current.allows("fire")
        # not a phase for fire: nothing is offered
        assert await choices(fake, "fire", {"unit": "", "target": "x"}, "unit", alice) == []
        while not (state.current.phase.id == "fire" and state.current.side == "union"):
            for acting in state.acting_sides():
                await bot.umpire.handle("g1", users[acting].id, Done())
            state = await bot.umpire.repository.state_for("g1")
        found = await choices(fake, "fire", {"unit": "", "target": "x"}, "unit", alice)
        # the rules' own offer: units with an enemy in range and in sight, able to fire
        assert [v for v, _ in found] == offered_refs(state, "union", "fire")
        assert dict(found) == {"u-bat": "Union Battery", "u-inf": "Union Brigade"}
        # never the other side's, never a unit with nothing in reach (the Second Union
        # Brigade), never a leader
        assert await choices(fake, "fire", {"unit": "", "target": "x"}, "unit", bob) == []

        targets = await choices(fake, "fire", {"unit": "u-inf", "target": ""}, "target", alice)
        assert targets[0] == ("Rebel Brigade", "Rebel Brigade (2 hexes, in sight)")
        assert all("out of range" in name or "no clear line" in name for _, name in targets[1:])
        assert {v for v, _ in targets} == {"Rebel Brigade", "Second Rebel Brigade",
                                           "Rebel Battery", "Stuart's Horse"}  # no General Grey
        # a value the autocomplete gave is an order the umpire reads
        text = await say(fake, "fire", alice, {"unit": found[1][0], "target": targets[0][0]})
        assert text.startswith("**Fire**: Union Brigade fired at Rebel Brigade")
        # the Union Brigade has fired: it is no longer offered
        after = await choices(fake, "fire", {"unit": "", "target": "x"}, "unit", alice)
        assert after == [("u-bat", "Union Battery")]


async def test_only_units_next_to_an_enemy_are_offered_to_assault(fake: FakeDiscord,
                                                                  tmp_path: Path) -> None:
    scenario = variant(tmp_path, "next", NEXT_TO)
    async with started_game(fake, tmp_path, scenario, SIDES, seed=SEED) as (bot, alice, bob):
        users = {"union": alice, "confederate": bob}
        state = await bot.umpire.repository.state_for("g1")
        while not (state.current.phase.id == "movement" and state.current.side == "union"):
            for acting in state.acting_sides():
                await bot.umpire.handle("g1", users[acting].id, Done())
            state = await bot.umpire.repository.state_for("g1")
        found = await choices(fake, "assault", {"units": "", "target": "x"}, "units", alice)
        refs = offered_refs(state, "union", "close_combat")
        assert [v for v, _ in found] == refs and "u-inf" in refs
        assert not {"u-gen", "u-cav", "u-bat"} & set(refs)
        # fire is not this phase's
        assert await choices(fake, "fire", {"unit": "", "target": "x"}, "unit", alice) == []
        targets = await choices(fake, "assault", {"units": "u-inf", "target": ""}, "target",
                                alice)
        assert targets[0] == ("Rebel Brigade", "Rebel Brigade (next to you)")
        assert all("next to you" not in name for _, name in targets[1:])


async def test_a_list_completes_the_last_unit_by_id(fake: FakeDiscord, tmp_path: Path) -> None:
    scenario = variant(tmp_path, "open")
    async with started_game(fake, tmp_path, scenario, SIDES, seed=SEED) as (bot, alice, bob):
        users = {"union": alice, "confederate": bob}
        state = await bot.umpire.repository.state_for("g1")
        while not (state.current.phase.id == "fire" and state.current.side == "union"):
            for acting in state.acting_sides():
                await bot.umpire.handle("g1", users[acting].id, Done())
            state = await bot.umpire.repository.state_for("g1")
        # what came before is read by name or id; the list never offers a unit twice
        for typed in ("Union Brigade, ", "u-inf,", "union brigade , Union B"):
            assert await choices(fake, "fire", {"unit": typed, "target": "x"}, "unit",
                                 alice) == [("u-inf,u-bat", "Union Brigade, Union Battery")]
        # a target is in reach only when every unit named could fire at it: the town the
        # Union Brigade stands in blocks the battery's line to the Rebel Brigade
        targets = await choices(fake, "fire", {"unit": "u-inf,u-bat", "target": "reb"},
                                "target", alice)
        assert targets[0] == ("Rebel Brigade", "Rebel Brigade (4 hexes, no clear line)")
        assert not any("in sight" in name for _, name in targets)
        text = await say(fake, "fire", alice, {"unit": "u-inf,u-bat", "target": "Rebel Brigade"})
        assert text == "Union Battery has no line of sight to Rebel Brigade"


async def union_choices(umpire: Umpire, gid: str) -> list[Any]:
    """Everything the union player's fire and assault autocomplete offers in game ``gid``, in
    its movement and its fire phase."""
    out: list[Any] = []
    await reach(umpire, gid, "movement", "union")
    for typed in ("", "u-inf", "u-inf,u-inf2", "Union Battery"):
        out.append(await umpire.target_choices(gid, UNION, "assault", typed))
    out.append(await umpire.fighter_choices(gid, UNION, "assault"))
    await reach(umpire, gid, "fire", "union")
    for typed in ("", "u-inf", "u-inf,u-inf2", "Union Battery"):
        out.append(await umpire.target_choices(gid, UNION, "fire", typed))
    out.append(await umpire.fighter_choices(gid, UNION, "fire"))
    return out


async def test_choices_do_not_depend_on_what_the_side_cannot_see(tmp_path: Path) -> None:
    """Two games alike but for Confederate units the Union cannot see at night (one more
    brigade, a battery elsewhere, a stronger cavalry): the Union's choices are the same."""
    seen = variant(tmp_path, "a", HIDDEN, NIGHT, NEXT_TO)
    unseen = variant(tmp_path, "b", HIDDEN, NIGHT, NEXT_TO,
                     ('at = "A1002"', 'at = "A0902"'), ("strength = 5", "strength = 9"),
                     ('at = "A0805"', 'at = "A0806"'))
    store = await Store.open(tmp_path / "v.db")
    try:
        umpire = await new_game(store, seen, "g1")
        await umpire.create_game(str(unseen), HOST, game_id="g2", seed=SEED)
        await umpire.join("g2", UNION, "union")
        await umpire.join("g2", CONFEDERATE, "confederate")
        await umpire.start("g2", HOST)
        first = await union_choices(umpire, "g1")
        second = await union_choices(umpire, "g2")
        one, two = await umpire.repository.state_for("g1"), await umpire.repository.state_for("g2")
        assert one.units["c-bat"].cell != two.units["c-bat"].cell  # the games do differ
        assert project(one, "union").units == project(two, "union").units
        assert first == second
        # only what the Union sees is ever a target: here the Rebel Brigade, next to ours
        visible = {u.name for u in project(one, "union").units if u.level == IDENTIFIED}
        assert visible == {"Rebel Brigade"}
        targets = [value for found in first[:4] + first[5:9] for value, _ in found]
        assert targets and set(targets) == visible
    finally:
        await store.close()
