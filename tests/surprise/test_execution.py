"""Surprise Move: carrying the march out. The column, blocked hexes from pickets and from sight,
the 6 MPs after a blocked hex, discovery, initiative detours, forced marches."""

from __future__ import annotations

from collections import Counter

import pytest

from rules import commands as cmd
from rules.knowledge.sighted import sight
from rules.refusal import Refusal
from rules.surprise import records as rec
from rules.surprise.commands import ChooseDetour, ExecuteSurpriseMove, OrderSurpriseMove
from rules.turn.reaction import open_questions
from tests.support.surprise import FORCE, Dice, Game, accepted


def run_of(game: Game) -> dict[str, object]:
    return dict(game.march()["run"])


def test_saving_then_setting_off() -> None:
    game = accepted()
    game.to(3, "command")
    assert game.march()["accumulated_mp"] == 12.0 and game.march()["attempts"] == 2
    game.do("blue", ExecuteSurpriseMove())
    with pytest.raises(Refusal, match="already set to go"):
        game.do("blue", ExecuteSurpriseMove())
    game.to(3, "movement", "blue")
    record = game.march()
    assert record["status"] == rec.EXECUTED and record["attempts"] == 2  # no roll this turn
    run = record["run"]
    assert run["kind"] == "voluntary" and run["budget"] == 18.0
    # The head reaches the first hex the Grey troops see (A1205) after 8 MPs, then 6 more.
    assert run["blocked_at"] == 8.0 and run["cap"] == 14.0 and run["spent"] == 14.0
    assert game.label("blue-1") == "A1805"
    assert "6 MPs allowed after the blocked hex" in run["stopped"]
    assert run["order"][0] == "blue-1"  # the lead element: nearest the first waypoint
    ended = [e for e in game.events if e.type == "surprise_march_ended"]
    assert ended[-1].lost_mp == 4.0  # type: ignore[attr-defined]
    # Every unit formed column, spent its MPs, and is free again.
    for uid in ("blue-gen", "blue-1", "blue-2", "blue-3", "blue-cav"):
        unit = game.state.units[uid]
        assert unit.mp_left <= 0
        assert unit.formation in ("column", "mounted")
    game.to(4, "movement", "blue")
    game.do("blue", cmd.Move(unit="1st Brigade", route="A1806"))


def test_the_column_follows_its_head_within_stacking_limits() -> None:
    game = accepted()
    game.to(5, "command")
    game.do("blue", ExecuteSurpriseMove())
    game.to(5, "movement", "blue")
    run = game.march()["run"]
    trail = [game.board.label(rec.cell_of(c)) for c in run["trail"]]
    order = run["order"]
    ends = [game.label(u) for u in order]
    assert ends[0] == trail[-1]
    # Nobody passes the unit ahead: each ends at or behind it along the road.
    cols = [game.state.units[u].cell.col for u in order]  # type: ignore[union-attr]
    assert cols == sorted(cols, reverse=True)
    combat = Counter(game.label(u) for u in order if game.state.units[u].combat)
    assert max(combat.values()) <= game.loaded.ruleset.stacking_limit


def test_discovery_marches_at_once_with_the_turns_allowance() -> None:
    game = accepted(Dice(accumulation=[1, 6]))  # turn 2 of the march: 6 fails
    game.to(2, "movement", "grey")
    record = game.march()
    assert record["status"] == rec.EXECUTED
    assert record["run"]["kind"] == "discovered" and record["run"]["budget"] == 12.0
    assert any("discovered" in t for t in game.reports("blue"))


def test_blocked_hexes_from_pickets_at_night() -> None:
    """At night (visibility 1) only the pickets' two hexes and what is next to an enemy block."""
    game = accepted(turn=5)
    game.to(7, "command")
    game.do("blue", ExecuteSurpriseMove())
    game.to(7, "movement", "blue")
    run = game.march()["run"]
    assert run["budget"] == 18.0 and run["blocked_at"] == 14.0
    first_blocked = rec.cell_of(run["trail"][13])
    assert game.board.label(first_blocked) == "A1805"  # two hexes from the Grey Brigade
    assert run["stopped"] == "it ran into the enemy"
    assert game.label("blue-1") == "A1905"


def test_a_blocked_hex_is_reached_by_entering_it() -> None:
    """The head's own cell does not count (ruling SM-10): the first cell entered does."""
    game = accepted()
    game.place(**{"grey-cav": "A0505"})  # next to the head, on its road
    game.place(**{"grey-cav": "A0603"})  # two hexes from A0405 and from A0505
    game.to(2, "command")
    game.do("blue", ExecuteSurpriseMove())
    game.to(2, "movement", "blue")
    run = game.march()["run"]
    assert run["blocked_at"] == 1.0 and run["cap"] == 7.0 and run["spent"] == 7.0


def test_blocked_cells_are_the_sighting_passes() -> None:
    game = Game()
    blocked = sight(game.state)["blue"]
    gm = game.loaded.map
    road = [game.cell(f"A{c:02d}05") for c in range(1, 25)]
    first = next(c for c in road if blocked.blocked(gm.idx(c)))
    assert game.board.label(first) == "A1205"


# -- detours -------------------------------------------------------------------------------------
def detour_ground(policy: str, dice: Dice, force: str = FORCE) -> Game:
    """Night: a Grey picket south of the road blocks A0605-A0805; a way round runs north."""
    game = Game(dice=dice)
    game.place(**{"grey-cav": "A0707"})
    game.to(6, "command")
    dice.queues.setdefault("initiative", []).insert(0, 2)
    game.do("blue", OrderSurpriseMove(force=force, route="road A1005", by_initiative=True,
                                      detour=policy))  # type: ignore[arg-type]
    game.to(7, "command")
    game.do("blue", ExecuteSurpriseMove())
    return game


def blocked_road(game: Game) -> list[str]:
    gm = game.loaded.map
    mine = sight(game.state)["blue"]
    return [f"A{c:02d}05" for c in range(5, 11) if mine.blocked(gm.idx(game.cell(f"A{c:02d}05")))]


def test_a_detour_taken_by_initiative_with_cavalry() -> None:
    dice = Dice(initiative=[9])  # Azure (9): night +1 and cavalry -1: 9 succeeds
    game = detour_ground("always", dice)
    assert blocked_road(game) == ["A0605", "A0705", "A0805"]
    game.to(7, "movement", "blue")
    run = game.march()["run"]
    trail = [game.board.label(rec.cell_of(c)) for c in run["trail"]]
    assert not set(trail) & {"A0605", "A0705", "A0805"}
    assert trail[-1] == "A1005" and run["blocked_at"] is None
    (roll,) = [e for e in game.events if e.type == "die_rolled" and "detour" in e.purpose]
    assert roll.modifiers == {"cavalry_with_force": -1, "night": 1}  # type: ignore[attr-defined]
    assert roll.column == "8-9" and roll.result == "I"  # type: ignore[attr-defined]
    resolved = [e for e in game.events if e.type == "surprise_detour_resolved"]
    assert resolved[0].taken  # type: ignore[attr-defined]


def test_without_cavalry_the_same_roll_fails_and_the_column_enters() -> None:
    dice = Dice(initiative=[9])
    game = detour_ground("always", dice, force="1st Division")
    game.to(7, "movement", "blue")
    run = game.march()["run"]
    (roll,) = [e for e in game.events if e.type == "die_rolled" and "detour" in e.purpose]
    assert roll.modifiers == {"night": 1} and roll.result == "-"  # type: ignore[attr-defined]
    trail = [game.board.label(rec.cell_of(c)) for c in run["trail"]]
    assert trail[0] == "A0505" and "A0605" in trail and run["blocked_at"] is not None


def test_the_owner_is_asked_and_chooses() -> None:
    dice = Dice(initiative=[2])
    game = detour_ground("ask", dice)
    game.to(7, "movement", "blue")
    record = game.march()
    assert record["status"] == rec.RUNNING and record["run"]["pending"] is not None
    assert game.label("blue-1") == "A0505"  # waiting before A0605
    offered = [e for e in game.events if e.type == "surprise_detour_offered"]
    assert offered and offered[0].audience == "side:blue"
    with pytest.raises(Refusal, match="stays in place"):
        game.do("blue", cmd.Move(unit="2nd Brigade", route="A0306"))
    game.do("blue", ChooseDetour(attempt=True))
    assert game.march()["status"] == rec.EXECUTED
    assert game.label("blue-1") == "A1005"
    with pytest.raises(Refusal, match="no surprise move under way"):
        game.do("blue", ChooseDetour(attempt=True))


def test_the_detour_offer_is_a_question_in_the_reaction_window() -> None:
    """The offer is put to the owner as a question (try, or march on by default) that does not
    hold the owner's other units; the generic answer works as the detour buttons do."""
    game = detour_ground("ask", Dice(initiative=[2]))
    game.to(7, "movement", "blue")
    (question,) = open_questions(game.state)
    assert (question.side, question.module, question.topic) == ("blue", rec.MODULE, "blue:m1")
    assert question.choices == ("try", "go") and question.default == "go"
    assert not question.holds and question.seconds is None
    assert not open_questions(game.state, side="grey")
    game.do("blue", cmd.Answer(question=question.id, choice="try"))
    assert game.march()["status"] == rec.EXECUTED
    assert game.label("blue-1") == "A1005"
    assert open_questions(game.state) == []


def test_an_unanswered_question_marches_on_at_the_end_of_the_phase() -> None:
    game = detour_ground("ask", Dice())
    game.to(7, "movement", "blue")
    assert game.march()["run"]["pending"] is not None
    game.do("blue", cmd.Done())
    record = game.march()
    assert record["status"] == rec.EXECUTED
    trail = [game.board.label(rec.cell_of(c)) for c in record["run"]["trail"]]
    assert "A0605" in trail and not [e for e in game.events if e.type == "die_rolled"
                                     and "detour" in e.purpose]


def test_declining_and_never_enter_the_blocked_hex() -> None:
    game = detour_ground("ask", Dice())
    game.to(7, "movement", "blue")
    game.do("blue", ChooseDetour(attempt=False))
    assert "A0605" in [game.board.label(rec.cell_of(c)) for c in game.march()["run"]["trail"]]
    never = detour_ground("never", Dice())
    never.to(7, "movement", "blue")
    assert not [e for e in never.events if e.type == "surprise_detour_offered"]
    assert never.march()["run"]["blocked_at"] is not None


def test_no_detour_is_offered_where_there_is_no_way_round() -> None:
    """By day the whole eastern edge of the woods is watched: nothing to try."""
    game = accepted(detour="ask")
    game.to(2, "command")
    game.do("blue", ExecuteSurpriseMove())
    game.to(2, "movement", "blue")
    assert game.march()["status"] == rec.EXECUTED
    assert not [e for e in game.events if e.type == "surprise_detour_offered"]


# -- forced marches ------------------------------------------------------------------------------
def test_forced_marching_adds_mps_with_secret_straggler_checks() -> None:
    dice = Dice(stragglers=[5, 6, 5, 1] * 3)
    game = accepted(dice, forced=2)
    game.to(2, "command")
    record = game.march()
    assert record["accumulated_mp"] == 8.0  # 6 + 2
    rolls = [e for e in game.events if e.type == "die_rolled" and "stragglers" in e.purpose]
    assert len(rolls) == 4 and {r.column for r in rolls} == {"2"}  # type: ignore[attr-defined]
    assert all(r.audience == "side:blue" for r in rolls)
    by_unit = {r.purpose.split(", ", 1)[1]: r for r in rolls}  # type: ignore[attr-defined]
    assert by_unit["1st Brigade"].modifiers == {"leader_with_unit": -1}  # type: ignore[attr-defined]
    roster = record["stragglers"]
    assert roster and sum(roster.values()) > 0
    # Strengths are untouched while the march is secret...
    assert game.state.units["blue-2"].strength == 6 and game.state.units["blue-2"].stragglers == 0
    game.do("blue", ExecuteSurpriseMove())
    game.to(2, "movement", "blue")
    # ... and come off when it is revealed (with the execution turn's own check).
    for uid, count in game.march()["stragglers"].items():
        raise AssertionError(f"roster not cleared: {uid} {count}")
    lost = sum(game.state.units[u].stragglers for u in ("blue-1", "blue-2", "blue-3",
                                                        "blue-cav"))
    assert lost > 0 and game.march()["run"]["budget"] == 8.0 + 6 + 2
