"""Opportunity fire at a mover passing through a revealed force's reach (Cf 2.1, ruling CF-31).

From the article: a revealed force may fire and charge from the moment its units are placed, by
the series' usual rules, and those let a unit fire at any enemy unit that moves within its range
and sight. A unit that walks through that reach and out again has moved within it: the force
must be asked while the mover is there, not only when a move happens to end there.

The field (``tests/fixtures/concealed-reveal.toml``), with the Rebel Battery limbered so that it
cannot fire: on turn 2 the Union Brigade finds Ash's division at A1205 and its owner holds. The
brigades in line then reach two hexes around A1205 and A1105; row 7 is within their fire from
A1107 to A1307 only, and a unit in A0907 is beyond it.
"""

from __future__ import annotations

from collections.abc import Callable

from rules import commands as cmd
from rules.concealed.commands import BreedDecoy, ConcealForce
from rules.events import UnitMoved
from rules.outcome import Outcome
from rules.scenario.loader import LoadedScenario
from rules.turn.reaction import open_questions
from rules.view import project
from tests.support.concealed_reveal import BAY, concealed, field, seen_by
from tests.support.surprise import Dice, Game
from umpire.reads.foreseen import word_of

LIMBERED = ('formation = "unlimbered"\ncommand = "grey-div"\nat = "A1206"',
            'formation = "limbered"\ncommand = "grey-div"\nat = "A1206"')
HALT = ("it came within reach of First Rebel Brigade at A1205, revealed in this phase, and halts "
        "while the enemy chooses whether to react")


def held(*edits: tuple[str, str], dice: Dice | None = None,
         before: Callable[[Game], None] | None = None, turn: int = 2) -> Game:
    """The Union movement phase of ``turn``, on the field with the battery limbered: the Union
    Brigade has found Ash's division and its owner held; the Second Union Brigade stands at
    A0907. ``before``: what the Confederates do first, from their turn 1 movement phase on."""
    game, _ = concealed(field(LIMBERED, *edits), dice)
    if before is not None:
        before(game)
    game.to(turn, "movement", "union")
    game.do("union", cmd.Move(unit="u-inf", route="A1005"))
    (question,) = open_questions(game.state)
    game.do("confederate", cmd.Answer(question=question.id, choice="hold"))
    game.place(**{"u-inf2": "A0907"})
    return game


def moved(out: Outcome) -> list[str]:
    """Why each move in ``out`` stopped short ("" where it did not)."""
    return [e.stopped for e in out.events if isinstance(e, UnitMoved)]


def test_a_unit_walking_through_the_reach_halts_where_it_enters_it_and_is_fired_at() -> None:
    game = held(dice=Dice({"2d6": 12}))
    assert game.state.units["u-inf2"].mp_left == 6
    out = game.do("union", cmd.Move(unit="u-inf2", route="A1407"))
    # Without the halt it would walk on to A1407, beyond the brigades' fire, unasked.
    assert game.label("u-inf2") == "A1107"
    assert moved(out) == [HALT]
    assert game.state.units["u-inf2"].mp_left == 4  # what it has not spent, it keeps
    (question,) = open_questions(game.state)
    assert question.side == "confederate" and question.holds
    assert "Second Union Brigade moved to A1107" in question.prompt
    assert "fire (First Rebel Brigade, Second Rebel Brigade, Third Rebel Brigade)" in (
        question.prompt)

    out = game.do("confederate", cmd.Answer(question=question.id, choice="fire"))
    (shot,) = [e for e in out.events if e.type == "combat_fire"]
    assert shot.target == "Second Union Brigade"
    assert {e.unit for e in out.events if e.type == "combat_fire_received"} == {"u-inf2"}


def test_after_the_answer_the_mover_goes_on_and_the_same_reach_halts_it_no_more() -> None:
    game = held()
    game.do("union", cmd.Move(unit="u-inf2", route="A1407"))
    (question,) = open_questions(game.state)
    game.do("confederate", cmd.Answer(question=question.id, choice="hold"))
    # It goes on with the MPs it kept, through the same brigades' fire, and leaves it.
    out = game.do("union", cmd.Move(unit="u-inf2", route="A1407"))
    assert game.label("u-inf2") == "A1407" and moved(out) == [""]
    assert open_questions(game.state) == []


def test_coming_within_charging_distance_halts_a_mover_already_under_fire() -> None:
    game = held()
    game.place(**{"u-inf2": "A1107"})  # within the brigades' fire, not next to them
    out = game.do("union", cmd.Move(unit="u-inf2", route="A1306 A1406"))
    assert game.label("u-inf2") == "A1206"
    assert moved(out) == ["it came within charging distance of Rebel Battery at A1205, revealed "
                          "in this phase, and halts while the enemy chooses whether to react"]
    (question,) = open_questions(game.state)
    assert question.choices == ("fire", "charge", "hold")


def test_the_preview_foresees_the_halt_and_then_the_way_on() -> None:
    game = held()
    assert word_of(game.state, "union", "u-inf2", "A1407") == (
        "It stops at A1107: it comes within reach of First Rebel Brigade at A1205, revealed in "
        "this phase, and halts while the enemy chooses whether to react, with 4 MP left, unless "
        "the enemy or the rules stop it sooner.")
    game.do("union", cmd.Move(unit="u-inf2", route="A1407"))
    (question,) = open_questions(game.state)
    game.do("confederate", cmd.Answer(question=question.id, choice="hold"))
    assert word_of(game.state, "union", "u-inf2", "A1407") == (
        "It ends at A1407 with 1 MP left, unless the enemy or the rules stop it sooner.")


def test_no_halt_for_a_leader_for_units_that_have_reacted_or_in_a_later_phase() -> None:
    game = held()
    # A general is no target.
    game.place(**{"u-gen": "A0907"})
    game.do("union", cmd.Move(unit="u-gen", route="A1407"))
    assert game.label("u-gen") == "A1407" and open_questions(game.state) == []
    # Units that have fired in the phase react no more, and halt nobody.
    game.do("union", cmd.Move(unit="u-inf2", route="A1407"))
    (question,) = open_questions(game.state)
    game.do("confederate", cmd.Answer(question=question.id, choice="fire"))
    game.place(**{"u-inf2": "A0907"})
    game.do("union", cmd.Move(unit="u-inf2", route="A1307"))  # with the 4 MPs it has left
    assert game.label("u-inf2") == "A1307" and open_questions(game.state) == []
    # In the next phase, the force fights only in its own phases.
    later = held()
    later.to(3, "movement", "union")
    later.place(**{"u-inf2": "A0907"})
    later.do("union", cmd.Move(unit="u-inf2", route="A1407"))
    assert later.label("u-inf2") == "A1407" and open_questions(later.state) == []


def with_reactions_off() -> LoadedScenario:
    return field(LIMBERED, ('modules = ["concealed_forces", "combat"]',
                            'modules = ["concealed_forces", "combat"]\n'
                            'options = { cf_opportunity_fire = false }'))


def test_with_reactions_off_nothing_halts() -> None:
    game, _ = concealed(with_reactions_off())
    game.to(2, "movement", "union")
    game.do("union", cmd.Move(unit="u-inf", route="A1005"))
    assert open_questions(game.state) == []
    game.place(**{"u-inf2": "A0907"})
    game.do("union", cmd.Move(unit="u-inf2", route="A1407"))
    assert game.label("u-inf2") == "A1407"


# -- a cheater's test ------------------------------------------------------------------------------
def bay_breeds(holds: int) -> Callable[[Game], None]:
    """Bay's division conceals at A1509 on turn 1 and breeds a decoy on turn 2; one of the
    two markers moves to A1510. The breeding die (``holds``) decides which of them holds the
    division, whose battery, were it on the map, would reach the whole of row 7."""

    def before(game: Game) -> None:
        out = game.do("confederate", ConcealForce(leader="General Bay"))
        (bay,) = [e.marker for e in out.events if e.type == "marker_placed"]
        game.to(2, "movement", "confederate")
        out = game.do("confederate", BreedDecoy(marker=str(bay)))
        (split,) = [e for e in out.events if e.type == "marker_split"]
        game.do("confederate", cmd.Move(unit=split.into[0], route="A1510"))

    return before


def test_what_a_marker_by_the_path_holds_changes_nothing_for_the_mover() -> None:
    """A marker three hexes from the Union's path holds Bay's division and its battery in one
    game and a decoy in the other: the Union's brigade halts in the same cell, and the Union
    receives the same events and the same view."""
    stories = []
    for holds in (1, 6):
        game = held(("[[turns]]\nturn = 1\n", BAY), dice=Dice(holds=[holds]),
                    before=bay_breeds(holds), turn=3)
        game.do("union", cmd.Move(unit="u-inf2", route="A1307"))
        assert game.label("u-inf2") == "A1107"
        (question,) = open_questions(game.state)
        game.do("confederate", cmd.Answer(question=question.id, choice="hold"))
        game.do("union", cmd.Move(unit="u-inf2", route="A1307"))
        (question,) = open_questions(game.state)  # it ends within reach
        game.do("confederate", cmd.Answer(question=question.id, choice="hold"))
        (moved_marker,) = [m for m in project(game.state, "confederate").markers
                           if game.board.label(m.cell) == "A1510"]
        view = project(game.state, "union")
        stories.append((bool(moved_marker.contents), seen_by("union", game.events),
                        view.units, view.markers, game.label("u-inf2")))
    (real, *division), (decoy, *other) = stories
    assert real and not decoy  # the hidden state does differ
    assert division == other
    assert division[-1] == "A1307"
