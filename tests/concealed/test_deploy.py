"""Deployment plans (Cf 2.3, ruling CF-8), from the article: when a concealed force is revealed
the marker comes off, the commander stays in its hex, and the division sets up in that hex and
the hexes next to it, never across impassable terrain; after a move in this or the previous
turn infantry is in column, artillery limbered, and as far as possible on road hexes; without a
move the artillery may set up unlimbered. The owner may file where and how each unit sets up;
the umpire keeps each legal plan, places the rest by the rule, and never waits for the owner.

The field: Ash's division conceals at A1205 (on the road, which runs along row 5; an impassable cut
lies between A1205 and A1204, N of it). Its neighbours: N A1204, NE A1305, SE A1306, S A1206,
SW A1106, NW A1105. The stacking limit is three units.
"""

from __future__ import annotations

import pytest

from rules import commands as cmd
from rules.concealed.commands import BreedDecoy, ClearConcealPlan, ConcealPlan, Unconceal
from rules.concealed.records import force
from rules.ground.grid import Cell
from rules.refusal import Refusal
from rules.scenario.loader import LoadedScenario
from rules.view import project
from tests.support.concealed_reveal import DIVISION, concealed, field, seen_by
from tests.support.surprise import Game


def where(game: Game) -> dict[str, tuple[str, str]]:
    """Each unit of the division: its hex and formation."""
    return {u: (game.label(u), str(game.state.units[u].formation)) for u in DIVISION}


def plan(game: Game, marker: str, unit: str, place: str, formation: str = "") -> None:
    game.do("confederate", ConcealPlan(marker=marker, unit=unit, place=place,
                                       formation=formation))


def unconceal_next_turn(game: Game, marker: str, turn: int = 2) -> None:
    game.to(turn, "movement", "confederate")
    game.do("confederate", Unconceal(marker=marker))


def test_without_a_plan_the_division_deploys_by_the_rule() -> None:
    game, marker = concealed()
    unconceal_next_turn(game, marker)
    placed = where(game)
    assert placed["grey-lead"][0] == "A1205"
    # Three units fill the marker's hex; the fourth goes next door, on the road first.
    assert sum(1 for u in ("c-inf1", "c-inf2", "c-inf3", "c-bat")
               if placed[u][0] == "A1205") == 3
    assert placed["c-bat"] == ("A1205", "unlimbered")


def test_a_legal_plan_is_kept_and_the_others_deploy_by_the_rule() -> None:
    game, marker = concealed()
    plan(game, marker, "Second Rebel Brigade", "S", "column")
    plan(game, marker, "c-bat", "ne", "limbered")
    plan(game, marker, "c-inf3", "here")
    unconceal_next_turn(game, marker)
    placed = where(game)
    assert placed["c-inf2"] == ("A1206", "column")
    assert placed["c-bat"] == ("A1305", "limbered")
    assert placed["c-inf3"] == ("A1205", "line")  # "here", formation as the rule says
    assert placed["c-inf1"] == ("A1205", "line")  # no plan: by the rule
    assert placed["grey-lead"][0] == "A1205"


def test_the_plan_is_read_from_where_the_marker_stands_after_it_moves() -> None:
    game, marker = concealed()
    plan(game, marker, "c-inf2", "NE", "line")
    plan(game, marker, "c-bat", "here", "unlimbered")
    game.to(2, "movement", "confederate")
    game.do("confederate", cmd.Move(unit=marker, route="A1405"))
    assert game.state.markers[marker].cell == game.cell("A1405")
    unconceal_next_turn(game, marker, turn=3)
    placed = where(game)
    # NE of A1405 is A1505 (a road hex): the place holds, but after last turn's move the
    # infantry is in column and the artillery limbered whatever the plan said.
    assert placed["c-inf2"] == ("A1505", "column")
    assert placed["c-bat"] == ("A1405", "limbered")


def test_after_a_move_a_plan_off_the_road_falls_back_while_a_road_hex_has_room() -> None:
    game, marker = concealed()
    plan(game, marker, "c-inf2", "N")
    game.to(2, "movement", "confederate")
    game.do("confederate", cmd.Move(unit=marker, route="A1405"))
    unconceal_next_turn(game, marker, turn=3)
    hexes = {game.label(u) for u in ("c-inf1", "c-inf2", "c-inf3", "c-bat")}
    assert game.label("c-inf2") != "A1404"
    assert hexes <= {"A1305", "A1405", "A1505"}  # the road hexes round the marker


def test_a_plan_across_impassable_terrain_falls_back_to_the_rule() -> None:
    game, marker = concealed()
    plan(game, marker, "c-inf2", "N")
    unconceal_next_turn(game, marker)
    assert game.label("c-inf2") != "A1204"
    assert all(game.label(u) != "A1204" for u in DIVISION)


def test_a_plan_into_an_enemy_held_hex_falls_back_to_the_rule() -> None:
    game, marker = concealed()
    plan(game, marker, "c-inf2", "SE", "column")
    game.to(2, "movement", "confederate")
    game.place(**{"u-inf2": "A1306"})  # an enemy brigade stands in the planned hex
    game.do("confederate", Unconceal(marker=marker))
    assert game.label("c-inf2") != "A1306"
    assert game.state.units["c-inf2"].formation == "column"  # the formation still holds


def test_a_plan_beyond_the_stacking_limit_falls_back_for_the_last_unit() -> None:
    game, marker = concealed()
    for unit in ("c-bat", "c-inf1", "c-inf2", "c-inf3"):
        plan(game, marker, unit, "S")
    unconceal_next_turn(game, marker)
    south = [u for u in ("c-bat", "c-inf1", "c-inf2", "c-inf3") if game.label(u) == "A1206"]
    assert south == ["c-bat", "c-inf1", "c-inf2"]
    assert game.label("c-inf3") != "A1206"


def test_a_cleared_plan_deploys_by_the_rule() -> None:
    game, marker = concealed()
    plan(game, marker, "c-inf2", "S")
    plan(game, marker, "c-inf3", "S")
    game.do("confederate", ClearConcealPlan(marker=marker, unit="c-inf2"))
    record = force(game.state, marker)
    assert record is not None and set(record["plan"]) == {"c-inf3"}
    game.do("confederate", ClearConcealPlan(marker=marker))
    record = force(game.state, marker)
    assert record is not None and not record["plan"]
    with pytest.raises(Refusal, match="has no deployment plan"):
        game.do("confederate", ClearConcealPlan(marker=marker))
    unconceal_next_turn(game, marker)
    assert game.label("c-inf2") != "A1206" and game.label("c-inf3") != "A1206"


def test_the_plan_goes_with_the_force_when_it_breeds() -> None:
    game, marker = concealed()
    plan(game, marker, "c-inf2", "SW", "column")
    game.to(2, "movement", "confederate")
    out = game.do("confederate", BreedDecoy(marker=marker))
    (bred,) = [e for e in out.events if e.type == "cf_decoy_bred"]
    game.do("confederate", Unconceal(marker=bred.kept))
    assert (game.label("c-inf2"), game.state.units["c-inf2"].formation) == ("A1106", "column")


def test_a_reveal_in_the_enemy_phase_uses_the_plan_at_once() -> None:
    game, marker = concealed()
    plan(game, marker, "c-inf2", "SW", "line")
    game.to(2, "movement", "union")
    out = game.do("union", cmd.Move(unit="u-inf", route="A1005"))
    # The enemy's own move places the force: no order from its owner is awaited.
    assert [e.type for e in out.events].count("cf_revealed") == 1
    assert marker not in game.state.markers
    assert (game.label("c-inf2"), game.state.units["c-inf2"].formation) == ("A1106", "line")
    assert game.label("u-inf") == "A1005"


@pytest.mark.parametrize(("command", "why"), [
    (ConcealPlan(marker="0000", unit="General Ash", place="S"), "stays in the marker's hex"),
    (ConcealPlan(marker="0000", unit="c-inf2", place="E"),
     "or next to it: N, NE, SE, S, SW, NW; not 'E'"),
    (ConcealPlan(marker="0000", unit="c-inf2", place="S", formation="limbered"),
     "takes column or line"),
    (ConcealPlan(marker="0000", unit="General Grey", place="S"), "is not under marker 0000"),
    (ConcealPlan(marker="9999", unit="c-inf2", place="S"), "no concealment marker '9999'"),
    (ConcealPlan(marker="0000", unit="Union Brigade", place="S"),
     "You have no unit called 'Union Brigade'"),
])
def test_a_bad_plan_is_refused_and_nothing_changes(command: ConcealPlan, why: str) -> None:
    game, marker = concealed()
    assert marker == "0000"
    before = game.state
    with pytest.raises(Refusal, match=why):
        game.do("confederate", command)
    assert game.state is before


def test_an_enemy_marker_is_refused_as_one_that_does_not_exist() -> None:
    game, marker = concealed()
    with pytest.raises(Refusal) as enemy:
        game.do("union", ConcealPlan(marker=marker, unit="Union Brigade", place="S"))
    with pytest.raises(Refusal) as missing:
        game.do("union", ConcealPlan(marker="0001", unit="Union Brigade", place="S"))
    assert str(enemy.value).replace(marker, "X") == str(missing.value).replace("0001", "X")
    with pytest.raises(Refusal) as cleared:
        game.do("union", ClearConcealPlan(marker=marker))
    assert "no concealment marker" in str(cleared.value)


def test_a_decoy_has_no_plan() -> None:
    game, marker = concealed()
    game.to(2, "movement", "confederate")
    out = game.do("confederate", BreedDecoy(marker=marker))
    (bred,) = [e for e in out.events if e.type == "cf_decoy_bred"]
    with pytest.raises(Refusal, match="is a decoy"):
        plan(game, bred.decoy, "c-inf2", "S")


def _reveal_with(loaded: LoadedScenario, plans: list[tuple[str, str, str]]
                 ) -> tuple[tuple[list[object], object, list[object]], dict[str, str]]:
    """What the Union receives from the plan orders, its view just before its brigade finds
    the force, and what it receives from that move up to the units' placing; and where the
    units were placed."""
    game, marker = concealed(loaded)
    since = len(game.events)
    for unit, place, formation in plans:
        plan(game, marker, unit, place, formation)
    filed = seen_by("union", game.events[since:])
    game.to(2, "movement", "union")
    received = filed + seen_by("union", game.events[since:])
    view = project(game.state, "union")
    out = game.do("union", cmd.Move(unit="u-inf", route="A1005"))
    until_placed = [e for e in seen_by("union", list(out.events)) if e["type"] != "sighted"]
    return (received, view, until_placed), {u: game.label(u) for u in DIVISION}


def test_the_enemy_receives_the_same_whatever_the_plan_until_the_units_are_placed() -> None:
    loaded = field()
    a, placed_a = _reveal_with(loaded, [])
    b, placed_b = _reveal_with(loaded, [("c-inf2", "SW", "line"), ("c-bat", "S", "limbered"),
                                ("c-inf3", "NE", "column")])
    assert placed_a != placed_b  # the plan was used...
    assert a == b  # ...and nothing the Union got before the placing shows it
    assert any(e["type"] == "marker_removed" for e in a[2])


def test_directions_on_a_square_board_are_its_neighbours() -> None:
    from rules.concealed.reveal.plans import directions, toward
    from rules.ground.grid import SquareGrid

    assert directions(SquareGrid(6, 6, 4)) == ("N", "E", "S", "W")
    assert directions(SquareGrid(6, 6, 8)) == ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    assert toward(SquareGrid(6, 6, 8), Cell(2, 2), "NE") == Cell(3, 1)
    assert toward(SquareGrid(6, 6, 4), Cell(0, 0), "W") is None
