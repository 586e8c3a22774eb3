"""Every unit can be named in every order, whatever characters its name holds (ruling ORD-10):
by name, by id, in a list separated by commas even when the name has a comma of its own; and an
enemy's id or name gets the answer of a name that belongs to no unit."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from bot.autocomplete import FORMATIONS, matching, route_choices
from bot.client import VedetteBot
from rules.commands import Answer, Done
from rules.forces.lookup import own_unit, own_unit_list
from rules.refusal import Refusal
from rules.state import GameState, initial_state
from rules.turn.reaction import Question, open_questions
from tests.fakediscord import FakeDiscord, FakeUser
from tests.support.botkit import private_answer, started_game, text_of
from umpire.games.catalog import load_file

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = {name: ROOT / "scenarios" / f"{name}.toml"
           for name in ("flank-march", "chancellorsville-hidden")}
SIDES = ("union", "confederate")
NOT_UNDERSTOOD = ("no unit called", "Did you mean", "no unit or command")
NOWHERE = "Z9999"


def before_play(state: GameState) -> list[Question]:
    """The questions the first turn waits for (the Chancellorsville raid's, ruling CV-39)."""
    return [q for q in open_questions(state) if q.before_play]


def start(path: Path) -> GameState:
    return initial_state(load_file(path))


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_every_unit_is_found_by_name_and_by_id(sample: str) -> None:
    state = start(SAMPLES[sample])
    for side in state.sides:
        mine = state.units_of(side)
        for unit in mine:
            assert own_unit(state, side, unit.name) is unit
            assert own_unit(state, side, unit.id) is unit
            assert own_unit(state, side, f"  {unit.name.upper()}  ") is unit
        # a list of names, each with whatever commas it holds, reads as those units
        for a, b in pairwise(mine):
            assert own_unit_list(state, side, f"{a.name}, {b.name}") == [a.name, b.name]
            assert own_unit_list(state, side, (a.name, b.name)) == [a.name, b.name]
            assert own_unit_list(state, side, f"{a.id},{b.id}") == [a.id, b.id]


def test_a_name_with_a_comma_is_one_unit_even_cut_at_the_comma() -> None:
    state = start(SAMPLES["flank-march"])
    dilger = own_unit(state, "union", "Battery I, 1st Ohio (Dilger)")
    wiedrich = own_unit(state, "union", "Battery I, 1st New York (Wiedrich)")
    # as the bot hands it on (cut at every comma), and with the spacing a player types
    pieces = ("Battery I", "1st Ohio (Dilger)", "Battery I", "1st New York (Wiedrich)")
    found = own_unit_list(state, "union", pieces)
    assert [own_unit(state, "union", n) for n in found] == [dilger, wiedrich]
    found = own_unit_list(state, "union", "battery i,1st ohio (dilger) ;  Battery I ,"
                                          "1st New York (Wiedrich)")
    assert [own_unit(state, "union", n) for n in found] == [dilger, wiedrich]
    # a piece that names nothing is left by itself, for the rules to refuse
    assert own_unit_list(state, "union", "Battery I, nobody") == ["Battery I", "nobody"]


def answer(state: GameState, side: str, typed: str) -> str:
    """The id of the side's own unit the text names, or the refusal."""
    try:
        return own_unit(state, side, typed).id
    except Refusal as e:
        return str(e)


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_an_enemy_id_or_name_gets_the_answer_of_nonsense(sample: str) -> None:
    """Naming an enemy unit, by id or name, is answered word for word as it would be if the
    enemy had no such unit (its hints come from the side's own names only)."""
    state = start(SAMPLES[sample])
    for side, enemy in (SIDES, SIDES[::-1]):
        alone = replace(state, units=MappingProxyType(
            {k: u for k, u in state.units.items() if u.side != enemy}))
        for unit in state.units_of(enemy):
            for typed in (unit.id, unit.name):
                assert answer(state, side, typed) == answer(alone, side, typed)


# -- through the bot ------------------------------------------------------------------------------
async def say(fake: FakeDiscord, command: str, user: FakeUser, options: dict[str, Any]) -> str:
    return text_of(await private_answer(fake, command, user, options))


async def to_step(bot: VedetteBot, users: dict[str, FakeUser], phase: str, side: str | None
                  ) -> GameState:
    for _ in range(20):
        state = await bot.umpire.repository.state_for("g1")
        if state.current.phase.id == phase and state.current.side == side:
            return state
        for acting in state.acting_sides():
            await bot.umpire.handle("g1", users[acting].id, Done())
    raise AssertionError(f"never reached {phase} of {side}")


def understood(answer: str, what: str) -> None:
    assert not any(words in answer for words in NOT_UNDERSTOOD), (what, answer)


@pytest.mark.parametrize("sample", sorted(SAMPLES))
async def test_every_unit_is_named_in_every_order_through_the_bot(
        fake: FakeDiscord, tmp_path: Path, sample: str) -> None:
    """Each side's units, by their full names, as the firing unit of ``/fire``, an attacker of
    ``/assault``, the unit of ``/move`` and the force of ``/march order`` (with every command),
    each in a step where the order is the side's to give, so the umpire reads the name: the
    answer may refuse the order, but never for want of a unit by that name."""
    async with started_game(fake, tmp_path, SAMPLES[sample], SIDES) as (bot, alice, bob):
        users = {"union": alice, "confederate": bob}
        state = await bot.umpire.repository.state_for("g1")
        for question in before_play(state):  # Chancellorsville: the Union keeps its cavalry
            await bot.umpire.handle("g1", alice.id, Answer(question=question.id,
                                                           choice=question.default))
            state = await bot.umpire.repository.state_for("g1")
        fighting = [s.phase.id for s in state.steps if s.side == "union"]
        if "surprise_move" in state.modules:
            await to_step(bot, users, "command", None)
            for side, user in users.items():
                names = [u.name for u in state.units_of(side)]
                names += [c.name for c in state.commands.values() if c.side == side]
                for name in names:
                    understood(await say(fake, "march order", user,
                                         {"force": name, "route": NOWHERE}), name)
        for side, user in users.items():
            names = [u.name for u in state.units_of(side)]
            move_step = next(s for s in state.steps if s.side == side and s.allows("move"))
            await to_step(bot, users, move_step.phase.id, side)
            for name in names:
                understood(await say(fake, "move", user, {"unit": name, "route": NOWHERE}),
                           name)
                understood(await say(fake, "assault", user,
                                     {"units": name, "target": "nobody at all"}), name)
            fire_step = next(s for s in state.steps if s.side == side
                             and (s.allows("fire") or s.allows("combat")))
            await to_step(bot, users, fire_step.phase.id, side)
            for name in names:
                understood(await say(fake, "fire", user,
                                     {"unit": name, "target": "nobody at all"}), name)
        assert fighting  # the sample has steps of the union's own


async def test_an_enemy_id_in_an_order_is_answered_as_nonsense(fake: FakeDiscord,
                                                                tmp_path: Path) -> None:
    """In the step where each order is the union's to give, a Confederate unit's id gets,
    word for word, the answer a made-up id of the same length gets."""
    async with started_game(fake, tmp_path, SAMPLES["flank-march"], SIDES) as (bot, alice, bob):
        users = {"union": alice, "confederate": bob}
        state = await bot.umpire.repository.state_for("g1")
        enemy = state.units_of("confederate")[0]
        nonsense = "z" * len(enemy.id)
        for step, command, field, more in (
                ("command", "march order", "force", {"route": NOWHERE}),
                ("movement", "move", "unit", {"route": NOWHERE}),
                ("movement", "assault", "units", {"target": "x"}),
                ("fire", "fire", "unit", {"target": "x"})):
            await to_step(bot, users, step, None if step == "command" else "union")
            answers = [await say(fake, command, alice, {field: typed, **more})
                       for typed in (enemy.id, nonsense)]
            assert "no unit called" in answers[0], answers
            assert answers[0].replace(enemy.id, "X") == answers[1].replace(nonsense, "X"), \
                (command, answers)


# -- autocomplete ---------------------------------------------------------------------------------
def test_word_starts_come_before_other_matches() -> None:
    names = ["Maj. Gen. Oliver O. Howard", "Brig. Gen. Hobart Ward", "Ward's brigade",
             "Steward's battery"]
    assert [c.value for c in matching(names, "Ward")] == [
        "Ward's brigade", "Brig. Gen. Hobart Ward", "Maj. Gen. Oliver O. Howard",
        "Steward's battery"]
    assert [c.value for c in matching(names, "ho")] == [  # word starts, in the given order
        "Maj. Gen. Oliver O. Howard", "Brig. Gen. Hobart Ward"]


def test_route_completion_keeps_place_names_of_several_words_whole() -> None:
    places = ["Wilderness Church", "Wilderness Tavern", "Chancellorsville", "Old Church"]
    assert route_choices("road Wilderness Ch", places) == ["road Wilderness Ch",
                                                          "road Wilderness Church"]
    assert route_choices("road  wilderness  ch", places)[1:] == ["road  Wilderness Church"]
    assert route_choices("A0101 road Wild", places)[1:] == ["A0101 road Wilderness Church",
                                                           "A0101 road Wilderness Tavern"]
    # after a whole waypoint (a label, a place, the word road) a new one may begin
    assert route_choices("Old Church road Ch", places)[1:] == [
        "Old Church road Chancellorsville"]
    assert route_choices("A0101 Chan", places)[1:] == ["A0101 Chancellorsville"]


async def to_union_movement(bot: VedetteBot, alice: FakeUser, bob: FakeUser) -> None:
    await to_step(bot, {"union": alice, "confederate": bob}, "movement", "union")


async def offered(fake: FakeDiscord, command: str, options: dict[str, Any], focused: str,
                  user: FakeUser) -> list[tuple[str, str]]:
    handle = await fake.autocomplete(command, options, focused=focused, user=user)
    return [(c["value"], c["name"]) for c in (await handle.response()).choices]


async def test_autocomplete_on_the_sample(fake: FakeDiscord, tmp_path: Path) -> None:
    """On flank-march: word starts first, the formations a unit can take, place names of
    several words, and a force of commands whose names hold commas, completed by id."""
    async with started_game(fake, tmp_path, SAMPLES["flank-march"], SIDES) as (bot, alice, bob):
        state = await bot.umpire.repository.state_for("g1")
        union = [c.id for c in state.commands.values() if c.side == "union"]
        force = await offered(fake, "march order", {"force": "1st Division, XI", "route": "x"},
                              "force", alice)
        devens = next(c for c in state.commands.values()
                      if c.name == "1st Division, XI Corps (Devens)")
        # the name's own comma: it is the item being completed, not a finished one
        assert force[0] == (devens.id, "1st Division, XI Corps (Devens)")
        more = await offered(fake, "march order", {"force": f"{devens.id},2nd Division, XI",
                                                   "route": "x"}, "force", alice)
        steinwehr = next(c for c in state.commands.values()
                         if c.name == "2nd Division, XI Corps (von Steinwehr)")
        assert more[0] == (f"{devens.id},{steinwehr.id}",
                           "1st Division, XI Corps (Devens), 2nd Division, XI Corps "
                           "(von Steinwehr)")
        everything = await offered(fake, "march order", {"force": "", "route": "x"}, "force",
                                   bob)
        assert everything and not {v for v, _ in everything} & {*union, *(
            u.id for u in state.units_of("union"))}

        await to_union_movement(bot, alice, bob)
        moving = await offered(fake, "move", {"unit": "Ward", "route": "x"}, "unit", alice)
        names = [n for _, n in moving]
        assert names[0] == "Ward's brigade"
        assert names.index("Maj. Gen. Oliver O. Howard") > 0
        route = await offered(fake, "move", {"unit": "x", "route": "road Wilderness Ch"},
                              "route", alice)
        assert [v for v, _ in route] == ["road Wilderness Ch", "road Wilderness Church"]

        async def formations(unit: str) -> list[str]:
            return [v for v, _ in await offered(fake, "formation",
                                                {"unit": unit, "formation": ""},
                                                "formation", alice)]
        assert await formations("Battery I, 1st Ohio (Dilger)") == ["limbered"]
        assert await formations("Ward's brigade") == ["line"]
        # an enemy unit's name is answered as a name of no unit: every formation
        enemy = state.units_of("confederate")[0].name
        assert await formations(enemy) == await formations("no such unit") == FORMATIONS
