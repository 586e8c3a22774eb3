"""Opportunity fire and reaction charges by a revealed force (Cf 2.1, ruling CF-11), from the
article: a revealed real force may fire and charge from the instant it is placed, even at the
very unit whose move revealed it.

The field: Ash's division conceals at A1205 on turn 1, its artillery unlimbered and its
infantry in line. On turn 2 the Union Brigade (in column) marches up the road from A0405 and
stops at A1005, two hexes off, where it finds the force. A1106 (SW of the marker) is next to
A1005.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules import commands as cmd
from rules.combat.commands import Fire
from rules.concealed.commands import ConcealPlan, Unconceal
from rules.refusal import Refusal
from rules.turn.reaction import open_questions
from tests.support.concealed_reveal import concealed, field, seen_by
from tests.support.surprise import Dice, Game


def found(game: Game, marker: str) -> Any:
    """The Union Brigade marches up and finds the force; the move's outcome."""
    game.to(2, "movement", "union")
    out = game.do("union", cmd.Move(unit="u-inf", route="A1005"))
    assert game.label("u-inf") == "A1005" and marker not in game.state.markers
    return out


def test_the_revealed_force_is_asked_at_once_and_the_enemy_waits() -> None:
    game, marker = concealed()
    out = found(game, marker)
    (question,) = open_questions(game.state)
    assert question.side == "confederate" and question.holds
    # The guns and the brigade in line in A1205 can fire two hexes; the Third Rebel Brigade,
    # placed by the rule on the road in A1105 for want of room, stands next to the finder.
    assert game.label("c-inf3") == "A1105"
    assert question.choices == ("fire", "charge", "hold") and question.default == "hold"
    assert "fire (Rebel Battery, First Rebel Brigade" in question.prompt
    assert "charge (Third Rebel Brigade)" in question.prompt
    asked = [e for e in out.events if e.type == "question_asked"]
    assert [e.audience for e in asked] == ["side:confederate"]
    with pytest.raises(Refusal, match="answering a question"):
        game.do("union", cmd.Move(unit="u-inf2", route="A0509"))
    with pytest.raises(Refusal, match="answering a question"):
        game.do("union", cmd.Done())


def test_the_force_fires_at_the_very_unit_that_found_it() -> None:
    game, marker = concealed(dice=Dice({"2d6": 9}))
    found(game, marker)
    (question,) = open_questions(game.state)
    before = game.state.units["u-inf"].strength
    out = game.do("confederate", cmd.Answer(question=question.id, choice="fire"))
    (shot,) = [e for e in out.events if e.type == "combat_fire"]
    # Every deployed unit in range, in a formation that fires, fires together.
    assert set(shot.firers) == {"c-bat", "c-inf1", "c-inf2", "c-inf3"}
    assert shot.target == "Union Brigade"
    (received,) = [e for e in out.events if e.type == "combat_fire_received"]
    assert received.audience == "side:union" and received.unit == "u-inf"
    assert game.state.units["u-inf"].strength < before
    assert open_questions(game.state) == []
    game.do("union", cmd.Move(unit="u-inf2", route="A0509"))  # the enemy moves on
    assert game.label("u-inf2") == "A0509"


def test_the_finder_receives_what_the_same_fire_in_a_fire_phase_gives_it() -> None:
    loaded = field()
    game, marker = concealed(loaded, Dice({"2d6": 9}))
    found(game, marker)
    (question,) = open_questions(game.state)
    at_once = game.do("confederate", cmd.Answer(question=question.id, choice="fire"))

    other, marker = concealed(loaded, Dice({"2d6": 9}))
    found(other, marker)
    (question,) = open_questions(other.state)
    other.do("confederate", cmd.Answer(question=question.id, choice="hold"))
    other.to(2, "fire", "confederate")
    assert other.label("u-inf") == "A1005"
    later = other.do("confederate", Fire(units=("c-bat", "c-inf1", "c-inf2", "c-inf3"),
                                         target="Union Brigade"))
    assert seen_by("union", list(at_once.events)) == seen_by("union", list(later.events))
    assert any(e["type"] == "combat_fire_received" for e in seen_by("union",
                                                                    list(later.events)))


def test_a_charge_is_close_combat_by_the_units_next_to_the_finder() -> None:
    game, marker = concealed(dice=Dice({"1d6": 4}))
    game.do("confederate", ConcealPlan(marker=marker, unit="c-inf2", place="SW", formation="line"))
    found(game, marker)
    assert game.label("c-inf2") == "A1106"
    (question,) = open_questions(game.state)
    assert question.choices == ("fire", "charge", "hold")
    assert "charge (Second Rebel Brigade)" in question.prompt
    out = game.do("confederate", cmd.Answer(question=question.id, choice="charge"))
    results = [e for e in out.events if e.type == "combat_close_combat"]
    assert {e.audience for e in results} == {"side:confederate", "side:union"}
    (attack,) = [e for e in out.events if e.type == "combat_attack"]
    assert attack.kind == "assault" and attack.attackers == ("c-inf2",)
    assert attack.targets == ("u-inf",)
    assert game.label("c-inf2") == "A1106"  # a reaction charge does not advance


def test_no_question_when_the_option_is_off() -> None:
    loaded = field(('modules = ["concealed_forces", "combat"]',
                    'modules = ["concealed_forces", "combat"]\n'
                    'options = { cf_opportunity_fire = false }'))
    game, marker = concealed(loaded)
    out = found(game, marker)
    assert "question_asked" not in [e.type for e in out.events]
    game.do("union", cmd.Move(unit="u-inf2", route="A0509"))


def test_no_question_without_the_combat_module() -> None:
    loaded = field(('modules = ["concealed_forces", "combat"]', 'modules = ["concealed_forces"]'))
    game, marker = concealed(loaded)
    out = found(game, marker)
    assert "question_asked" not in [e.type for e in out.events]


def test_no_question_when_no_deployed_unit_could_fire_or_charge() -> None:
    game, marker = concealed()
    game.to(2, "movement", "confederate")
    game.do("confederate", cmd.Move(unit=marker, route="A1305"))
    # Moved last turn: the infantry deploys in column and the guns limbered, which do not fire,
    # on the road in A1305 and A1205, none of them next to a finder coming up from the south.
    game.to(3, "movement", "union")
    game.place(**{"u-inf": "A1309"})
    out = game.do("union", cmd.Move(unit="u-inf", route="A1307"))
    assert game.label("u-inf") == "A1307"
    assert "cf_revealed" in [e.type for e in out.events]
    assert "question_asked" not in [e.type for e in out.events]
    assert open_questions(game.state) == []


def test_an_unconcealed_force_is_not_asked() -> None:
    game, marker = concealed()
    game.to(2, "movement", "confederate")
    out = game.do("confederate", Unconceal(marker=marker))
    assert "question_asked" not in [e.type for e in out.events]


def test_unanswered_the_force_holds_when_the_clock_runs_out() -> None:
    loaded = field(('modules = ["concealed_forces", "combat"]',
                    'modules = ["concealed_forces", "combat"]\n'
                    'options = { cf_reaction_seconds = 300 }'))
    game, marker = concealed(loaded)
    found(game, marker)
    (question,) = open_questions(game.state)
    assert question.seconds == 300
    out = engine_timeout(game, question.id)
    types = [e.type for e in out.events]
    assert "question_answered" in types and "combat_fire" not in types
    assert open_questions(game.state) == []


def engine_timeout(game: Game, question: str) -> Any:
    from rules import engine

    out = engine.decide(game.state, "", cmd.AnswerTimeout(question=question), game.dice,
                        host=True)
    game.state = out.state
    return out


def test_a_forged_answer_is_refused_as_for_a_question_that_does_not_exist() -> None:
    game, marker = concealed()
    with pytest.raises(Refusal) as before:  # no question has been asked yet
        game.do("union", cmd.Answer(question="confederate:q1", choice="fire"))
    found(game, marker)
    (question,) = open_questions(game.state)
    assert question.id == "confederate:q1"
    state = game.state
    with pytest.raises(Refusal) as forged:
        game.do("union", cmd.Answer(question=question.id, choice="fire"))
    assert str(forged.value) == str(before.value)
    assert game.state is state and open_questions(game.state) == [question]
    with pytest.raises(Refusal, match="answer fire or charge or hold"):
        game.do("confederate", cmd.Answer(question=question.id, choice="withdraw"))


def test_what_the_finder_receives_on_the_reveal_does_not_show_the_question() -> None:
    game, marker = concealed()
    out = found(game, marker)
    union = seen_by("union", list(out.events))
    assert all(e["type"] not in ("question_asked", "cf_revealed") for e in union)
    assert not any("fire" in line for line in game.reports("union", len(game.events)
                                                            - len(out.events)))
