"""Opportunity fire at every mover (Concealed Forces Cf 2.1, rulings CF-28 to CF-30).

From the article: a real force that is revealed may use opportunity fire and reaction charges
from the moment its units are placed, by the series' usual rules; and those let a unit fire at
any enemy unit that moves within its range and sight for the rest of the phase, not only at the
unit that found it.

The field (``tests/fixtures/concealed-reveal.toml``): Ash's division conceals at A1205 on
turn 1. On turn 2 the Union Brigade marches up the road to A1005 and finds it; its owner holds.
Then the Second Union Brigade, in line at A0409, moves within reach of the placed units: the
Rebel Battery (unlimbered in A1205, range 10) reaches A0509; the brigades in line reach two
hexes, and the Third Rebel Brigade at A1105 stands next to A1106.
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from bot.client import VedetteBot
from rules import commands as cmd
from rules.concealed.commands import BreedDecoy, ConcealForce
from rules.refusal import Refusal
from rules.scenario.loader import LoadedScenario
from rules.turn.reaction import open_questions
from rules.view import project
from tests.fakediscord import FakeDiscord, FakeUser, buttons_of
from tests.support.botkit import EPHEMERAL, TOKEN, forged_button, started_game, text_of
from tests.support.concealed_reveal import BAY, FIELD, concealed, field, seen_by
from tests.support.surprise import Dice, Game
from umpire.answers import UmpireError
from umpire.clock.phase_clock import step_clock
from umpire.clock.phases import set_length
from umpire.words.deadlines import timestamp

MODULES = 'modules = ["concealed_forces", "combat"]'


def held_after_the_reveal(loaded: LoadedScenario | None = None, dice: Dice | None = None
                          ) -> Game:
    """Turn 2, Union movement: the Union Brigade has found Ash's division at A1205, and its
    owner held fire."""
    game, _ = concealed(loaded, dice)
    game.to(2, "movement", "union")
    game.do("union", cmd.Move(unit="u-inf", route="A1005"))
    (question,) = open_questions(game.state)
    game.do("confederate", cmd.Answer(question=question.id, choice="hold"))
    assert open_questions(game.state) == []
    return game


def refusal(game: Game, side: str, command: cmd.Command) -> str:
    state = game.state
    with pytest.raises(Refusal) as why:
        game.do(side, command)
    assert game.state is state
    return str(why.value)


def test_a_unit_moving_within_range_later_in_the_phase_may_be_fired_at() -> None:
    game = held_after_the_reveal(dice=Dice({"2d6": 12}))
    out = game.do("union", cmd.Move(unit="u-inf2", route="A0509"))
    assert game.label("u-inf2") == "A0509"
    (question,) = open_questions(game.state)
    assert question.side == "confederate" and question.holds
    assert question.choices == ("fire", "hold") and question.default == "hold"
    # Only the battery reaches seven hexes.
    assert "Second Union Brigade moved to A0509" in question.prompt
    assert "fire (Rebel Battery)" in question.prompt
    asked = [e for e in out.events if e.type == "question_asked"]
    assert [e.audience for e in asked] == ["side:confederate"]
    # The mover's movement waits for the answer.
    assert "answering a question" in refusal(game, "union", cmd.Move(unit="u-gen",
                                                                      route="A0102"))
    assert "answering a question" in refusal(game, "union", cmd.Done())

    out = game.do("confederate", cmd.Answer(question=question.id, choice="fire"))
    (shot,) = [e for e in out.events if e.type == "combat_fire"]
    assert shot.firers == ("c-bat",) and shot.target == "Second Union Brigade"
    (received,) = [e for e in out.events if e.type == "combat_fire_received"]
    assert received.audience == "side:union" and received.unit == "u-inf2"
    assert received.firers == "Rebel Battery" and received.result
    assert open_questions(game.state) == []
    game.do("union", cmd.Move(unit="u-gen", route="A0102"))  # the enemy moves on
    assert game.label("u-gen") == "A0102"


def test_each_revealed_unit_reacts_once_in_the_phase_and_holding_keeps_its_turn() -> None:
    game = held_after_the_reveal()
    game.do("union", cmd.Move(unit="u-inf2", route="A0509"))
    (first,) = open_questions(game.state)
    game.do("confederate", cmd.Answer(question=first.id, choice="hold"))
    # Held fire is not spent: the battery is offered again at the next move within reach.
    game.do("union", cmd.Move(unit="u-inf2", route="A0608"))
    (again,) = open_questions(game.state)
    assert "fire (Rebel Battery)" in again.prompt and again.id != first.id
    game.do("confederate", cmd.Answer(question=again.id, choice="fire"))
    # The battery has fired: moving on within its range only, the brigade draws no question.
    game.do("union", cmd.Move(unit="u-inf2", route="A0707"))
    assert open_questions(game.state) == []
    # Next to the Third Rebel Brigade, the brigades in line may fire or charge; the battery,
    # which fired, is not among them.
    game.place(**{"u-inf2": "A1006"})
    game.do("union", cmd.Move(unit="u-inf2", route="A1106"))
    (close,) = open_questions(game.state)
    assert close.choices == ("fire", "charge", "hold")
    assert "Rebel Battery" not in close.prompt
    assert "charge (First Rebel Brigade, Second Rebel Brigade, Third Rebel Brigade)" in (
        close.prompt)


def test_a_reaction_charge_at_a_later_mover_is_close_combat_without_advance() -> None:
    game = held_after_the_reveal(dice=Dice({"1d6": 4}))
    game.place(**{"u-inf2": "A1006"})
    game.do("union", cmd.Move(unit="u-inf2", route="A1106"))
    (question,) = open_questions(game.state)
    out = game.do("confederate", cmd.Answer(question=question.id, choice="charge"))
    (attack,) = [e for e in out.events if e.type == "combat_attack"]
    assert attack.kind == "assault" and attack.targets == ("u-inf2",)
    # Every revealed unit next to it that the assault order would accept, the guns too.
    assert set(attack.attackers) == {"c-bat", "c-inf1", "c-inf2", "c-inf3"}
    results = [e for e in out.events if e.type == "combat_close_combat"]
    assert {e.audience for e in results} == {"side:confederate", "side:union"}
    assert game.label("c-inf3") == "A1105" and game.label("c-inf1") == "A1205"


def test_only_the_phase_of_the_reveal_and_only_combat_units_draw_the_offer() -> None:
    game = held_after_the_reveal()
    # A general is no target.
    game.do("union", cmd.Move(unit="u-gen", route="A0102"))
    assert open_questions(game.state) == []
    # In the phase of the reveal, the brigade moving within the battery's range is offered ...
    game.do("union", cmd.Move(unit="u-inf2", route="A0509"))
    (question,) = open_questions(game.state)
    game.do("confederate", cmd.Answer(question=question.id, choice="hold"))
    # ... in a later phase it is not: the reaction belongs to the phase of the reveal.
    game.to(3, "movement", "union")
    game.do("union", cmd.Move(unit="u-inf2", route="A0608"))
    assert game.label("u-inf2") == "A0608"
    assert open_questions(game.state) == []


def test_the_question_lasts_until_the_phase_ends_unless_the_scenario_sets_a_time() -> None:
    game = held_after_the_reveal()
    game.do("union", cmd.Move(unit="u-inf2", route="A0509"))
    (question,) = open_questions(game.state)
    assert question.seconds is None
    assert "before the phase ends" in question.words()
    assert "at most until the phase ends" in refusal(game, "union", cmd.Done())
    # The clock gives no default to a question that waits for the phase's end ...
    with pytest.raises(Refusal, match="waits until the phase ends"):
        timeout(game, question.id)
    # ... the phase's end does (here the host ends it): the force holds.
    out = end_phase(game)
    answered = [e for e in out.events if e.type == "question_answered"]
    assert [(e.question, e.choice, e.by_default) for e in answered] == [
        (question.id, "hold", True)]
    assert "combat_fire" not in [e.type for e in out.events]

    timed = held_after_the_reveal(field((MODULES, MODULES + "\noptions = { "
                                                 "cf_reaction_seconds = 120 }")))
    timed.do("union", cmd.Move(unit="u-inf2", route="A0509"))
    (question,) = open_questions(timed.state)
    assert question.seconds == 120
    assert "at most 120 seconds" in refusal(timed, "union", cmd.Done())
    timeout(timed, question.id)
    assert open_questions(timed.state) == []


def timeout(game: Game, question: str) -> Any:
    from rules import engine

    out = engine.decide(game.state, "", cmd.AnswerTimeout(question=question), game.dice,
                        host=True)
    game.state = out.state
    return out


def end_phase(game: Game) -> Any:
    from rules import engine

    out = engine.decide(game.state, "", cmd.ForceEndPhase(), game.dice, host=True)
    game.state = out.state
    return out


# -- a cheater's test ------------------------------------------------------------------------------
def union_story(holds: int) -> tuple[tuple[list[dict[str, object]], list[str], Any], bool]:
    """Everything the Union receives, the refusals it gets and its last view, in a game where
    Bay's division breeds a decoy on turn 2 and the first of the two markers moves off to A1409;
    the breeding die (``holds``) decides whether the division or the decoy went. On turn 3 the
    Union finds Ash's division, and a later move of its second brigade draws a question.
    Returns what the Union got, and whether the division is the one at A1409."""
    game = Game(field(("[[turns]]\nturn = 1\n", BAY)), Dice(holds=[holds]))
    game.to(1, "movement", "confederate")
    game.do("confederate", ConcealForce(leader="General Ash"))
    out = game.do("confederate", ConcealForce(leader="General Bay"))
    (bay,) = [e.marker for e in out.events if e.type == "marker_placed"]
    game.to(2, "movement", "confederate")
    out = game.do("confederate", BreedDecoy(marker=str(bay)))
    (split,) = [e for e in out.events if e.type == "marker_split"]
    game.do("confederate", cmd.Move(unit=split.into[0], route="A1409"))
    game.to(3, "movement", "union")
    game.do("union", cmd.Move(unit="u-inf", route="A1005"))
    (found,) = open_questions(game.state)
    game.do("confederate", cmd.Answer(question=found.id, choice="hold"))
    game.do("union", cmd.Move(unit="u-inf2", route="A0509"))
    (question,) = open_questions(game.state)
    refused = [refusal(game, "union", cmd.Done()),
               refusal(game, "union", cmd.Move(unit="u-gen", route="A0102"))]
    game.do("confederate", cmd.Answer(question=question.id, choice="hold"))
    game.do("union", cmd.Move(unit="u-gen", route="A0102"))
    view = project(game.state, "union")
    # The view as data, but for the map itself, which each game loads anew.
    shown = {f.name: getattr(view, f.name) for f in fields(view) if f.name != "game_map"}
    (moved,) = [m for m in project(game.state, "confederate").markers
                if game.board.label(m.cell) == "A1409"]
    return (seen_by("union", game.events), refused, shown), bool(moved.contents)


def test_what_an_unfound_marker_holds_changes_nothing_the_mover_receives() -> None:
    """The marker that went to A1409 holds Bay's division (and its battery, in range of the
    Union's brigade if it stood on the map) in one game and a decoy in the other: the Union
    receives the same events, the same refusals while held, and the same view."""
    division_moved, truth = union_story(holds=1)
    decoy_moved, other_truth = union_story(holds=6)
    assert truth and not other_truth  # the hidden state does differ
    assert division_moved == decoy_moved
    assert all("answering a question" in r for r in division_moved[1])


# -- through the bot -------------------------------------------------------------------------------
async def test_through_the_bot_the_question_runs_to_the_phase_deadline_and_only_its_side_answers(
        tmp_path: Path) -> None:
    """The host has set a phase deadline of four hours. The Confederates' question about the
    Second Union Brigade comes with its buttons and the phase's deadline as its time; the
    Union's press of its button is refused and changes nothing, its orders wait; the
    Confederates' press fires, and the Union hears of the fire."""
    async with (FakeDiscord(token=TOKEN, callback_deadline=3.0) as fake,
                started_game(fake, tmp_path, FIELD, ("confederate", "union"),
                             seed=bytes(range(32))) as (bot, alice, bob)):
        umpire = bot.umpire
        await set_length(umpire, "g1", alice.id, "4h")
        users = {"confederate": alice, "union": bob}
        await to_movement(bot, users, 1, "confederate")
        await umpire.handle("g1", alice.id, ConcealForce(leader="General Ash"))
        await to_movement(bot, users, 2, "union")
        await umpire.handle("g1", bob.id, cmd.Move(unit="u-inf", route="A1005"))
        [found] = open_questions(await umpire.repository.state_for("g1"))
        await umpire.handle("g1", alice.id, cmd.Answer(question=found.id, choice="hold"))
        await umpire.handle("g1", bob.id, cmd.Move(unit="u-inf2", route="A0509"))
        await bot.outbox.idle()

        state = await umpire.repository.state_for("g1")
        [question] = open_questions(state)
        assert question.seconds is None
        clock = await step_clock(umpire.store, "g1", state, umpire.store.now())
        assert clock is not None
        [dm] = [m for m in fake.dms_to(alice) if "Second Union Brigade moved to A0509"
                in text_of(m)]
        assert f"Answer by {timestamp(clock.deadline)}, when the phase ends." in text_of(dm)
        shown = buttons_of(dm)
        assert [b["label"] for b in shown] == ["Fire", "Hold (default)"]
        assert not any("moved to A0509" in text_of(m) for m in fake.dms_to(bob))

        # The Union presses the Confederates' button: refused as a question that is not its
        # own, and nothing is logged.
        length = len(await umpire.store.events("g1"))
        said = await press(fake, forged_button(fake, bob, shown[0]["custom_id"]),
                           shown[0]["custom_id"], bob)
        assert said.startswith(f"no question '{question.id}' is waiting for your answer")
        assert len(await umpire.store.events("g1")) == length
        assert open_questions(await umpire.repository.state_for("g1")) == [question]
        with pytest.raises(UmpireError, match="answering a question"):
            await umpire.handle("g1", bob.id, cmd.Move(unit="u-gen", route="A0102"))

        # The Confederates fire; the Union is told of it.
        said = await press(fake, dm, shown[0]["custom_id"], alice)
        assert open_questions(await umpire.repository.state_for("g1")) == []
        fired = [e.payload for e in await umpire.store.events("g1")
                 if e.type == "combat_fire_received"]
        assert [(p["unit"], p["firers"]) for p in fired] == [("u-inf2", "Rebel Battery")]
        await fake.wait_for(lambda: any("Under fire" in text_of(m) and "Rebel Battery"
                                        in text_of(m) for m in fake.dms_to(bob)),
                            what="the Union's report of the fire")


async def to_movement(bot: VedetteBot, users: dict[str, FakeUser], turn: int, side: str
                      ) -> None:
    """Every acting side says done until ``side``'s movement phase of ``turn``."""
    for _ in range(60):
        state = await bot.umpire.repository.state_for("g1")
        if state.turn == turn and state.current.allows("move") and side in state.acting_sides():
            return
        for acting in state.acting_sides():
            await bot.umpire.handle("g1", users[acting].id, cmd.Done())
    raise AssertionError(f"never reached the {side} movement phase of turn {turn}")


async def press(fake: FakeDiscord, message: dict[str, Any], custom_id: str, user: FakeUser
                ) -> str:
    """The bot's private answer to a press."""
    handle = await fake.click(message, custom_id, user=user)
    callback = await handle.response()
    said = await handle.original_message() if callback.type == 5 else handle.original
    assert said is not None and said["flags"] & EPHEMERAL, said
    return text_of(said)
