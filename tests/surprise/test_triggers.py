"""Surprise Move: what sets a triggered march off and how far it goes.

* "Ends its movement" is where an enemy combat unit stands when the movement phase ends, not
  each pause between two move orders (ruling SM-13): probing order by order finds nothing.
* In a triggered march, once the head of the column enters a blocked hex all movement ceases,
  for every unit of the force (rulings SM-2, SM-10, SM-12).
* Forming road column when the march begins costs what a change of formation costs (ruling
  CORE-7), out of each unit's march budget (ruling SM-9).
"""

from __future__ import annotations

from dataclasses import replace

from rules import commands as cmd
from rules import engine
from rules.combat.commands import Rally
from rules.forces.words import Formation
from rules.state import with_units
from rules.surprise import records as rec
from rules.surprise.commands import ExecuteSurpriseMove, OrderSurpriseMove
from rules.view import project
from tests.support.surprise import FORCE, ROUTE, Dice, Game, accepted, load_ground

FORCE_UNITS = ("blue-gen", "blue-1", "blue-2", "blue-3", "blue-cav")
#: Two hexes from the Blue Dragoons and the 3rd Brigade; five or more from every unit of the
#: force.
NEAR, FAR = "A0103", "A0701"
TOLD_GREY = "Your Grey Horse ended its move at A0103: **an enemy surprise move is triggered.**"


def nearest(game: Game, label: str) -> int:
    """Hexes from ``label`` to the nearest unit of the Blue force."""
    grid = game.loaded.map.grid
    cell = game.cell(label)
    return min(grid.distance(cell, game.state.units[u].cell)  # type: ignore[arg-type]
               for u in FORCE_UNITS)


def grey_rides(game: Game) -> None:
    """Turn 2, Grey's movement phase, with the Grey Horse brought up (by hand) to A0101."""
    game.to(2, "movement", "grey")
    game.place(**{"grey-cav": "A0101"})


def triggers(game: Game) -> list[str]:
    return [e.type for e in game.events if e.type.startswith("surprise_trigger")]


# -- 1. the trigger is checked where the phase ends --------------------------------------------
def test_a_unit_that_stops_near_the_force_and_moves_on_does_not_trigger_it() -> None:
    game = accepted()
    assert (nearest(game, NEAR), nearest(game, FAR)) == (2, 5)
    grey_rides(game)
    game.do("grey", cmd.Move(unit="Grey Horse", route=NEAR))
    game.do("grey", cmd.Move(unit="Grey Horse", route=FAR))
    game.step()  # Grey's movement phase ends with the Horse five hexes away
    assert game.label("grey-cav") == FAR
    assert game.march()["status"] == rec.ACCUMULATING
    assert triggers(game) == []


def test_a_unit_that_ends_the_phase_within_two_hexes_triggers_it() -> None:
    game = accepted()
    grey_rides(game)
    since = len(game.events)
    game.do("grey", cmd.Move(unit="Grey Horse", route=NEAR))
    assert game.march()["status"] == rec.ACCUMULATING  # not yet: the phase is not over
    game.step()
    assert game.march()["status"] == rec.TRIGGERED
    assert TOLD_GREY in game.reports("grey", since)
    told_blue = game.reports("blue", since)
    assert any("is triggered" in t and "ended its move within 2 hexes of Blue Dragoons" in t
               for t in told_blue)
    assert not any("Grey Horse" in t for t in told_blue)  # the owner is not told which enemy


def test_a_unit_that_stops_near_the_force_then_comes_back_triggers_it() -> None:
    game = accepted()
    grey_rides(game)
    game.do("grey", cmd.Move(unit="Grey Horse", route=NEAR))
    game.do("grey", cmd.Move(unit="Grey Horse", route="A0102"))
    game.do("grey", cmd.Move(unit="Grey Horse", route=NEAR))
    game.step()
    assert game.march()["status"] == rec.TRIGGERED
    assert triggers(game) == ["surprise_triggered", "surprise_trigger_announced"]  # once


def _probe(order: bool) -> list[object]:
    """Everything Grey receives while its Horse probes: after each move, the words it is told
    and its whole view, with or without a Blue force waiting on an accepted order."""
    game = Game(LOADED, Dice(initiative=[2]))
    if order:
        game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE, by_initiative=True))
    grey_rides(game)
    seen: list[object] = []
    for route in (NEAR, "A0102", FAR):
        since = len(game.events)
        game.do("grey", cmd.Move(unit="Grey Horse", route=route))
        seen += [game.reports("grey", since), project(game.state, "grey")]
    return seen


LOADED = load_ground()


def test_probing_order_by_order_tells_the_prober_nothing() -> None:
    with_force, without = _probe(order=True), _probe(order=False)
    assert with_force == without
    assert with_force[0] == []  # not a word after the first move


def test_a_reinforcement_arriving_near_the_force_does_not_trigger_it() -> None:
    game = accepted()
    grey_rides(game)
    game.place(**{"grey-1": NEAR})  # a unit placed by hand, like an arrival: it spends no MPs
    game.step()
    assert game.march()["status"] == rec.ACCUMULATING
    assert triggers(game) == []


def test_a_host_correction_near_the_force_does_not_trigger_it() -> None:
    game = accepted()
    grey_rides(game)
    out = engine.decide(game.state, "host", cmd.Correct(
        unit="grey-1", changes={"cell": NEAR}, reason="misplaced"), game.dice, host=True)
    game.state, game.events = out.state, game.events + list(out.events)
    game.step()
    assert game.label("grey-1") == NEAR
    assert game.march()["status"] == rec.ACCUMULATING


def test_a_column_ending_its_march_near_another_force_triggers_it() -> None:
    """A surprise march is movement too: the Blue column, marching in Blue's phase, ends next to
    a Grey battery waiting on its own surprise order, which is triggered when the phase ends."""
    game = accepted()
    game.dice.queues["initiative"] = [2, 2]
    game.to(2, "command")
    game.place(**{"grey-bat": "A1807", "grey-hq": "A1807"})  # two hexes from A1805
    game.do("grey", OrderSurpriseMove(force="Grey Battery, General Ash", route="A1809",
                                      by_initiative=True))
    grey = game.march(side="grey")
    assert grey["status"] == rec.ACCUMULATING
    game.to(3, "command")
    game.do("blue", ExecuteSurpriseMove())
    game.to(3, "movement", "blue")
    assert game.march(side="blue")["status"] == rec.EXECUTED
    assert game.label("blue-1") == "A1805"  # 8 MPs to the first hex Grey sees, then 6 more
    assert game.march(side="grey")["status"] == rec.ACCUMULATING  # not while Blue moves ...
    game.step()  # ... but when its phase ends: it marches at once in Grey's phase
    grey = game.march(side="grey")
    assert grey["trigger"] == "an enemy unit ended its move within 2 hexes of General Ash"
    assert grey["run"]["kind"] == "triggered"


# -- 2. a triggered march: all movement ceases in the blocked hex ------------------------------
def _triggered(accepted_turn: int, **more: object) -> Game:
    """A force accepted in ``accepted_turn``, triggered in turn 7 (night) by the Grey Horse
    ending Grey's movement phase two hexes behind its tail; Blue's phase in turn 8 comes next."""
    game = accepted(turn=accepted_turn, **more)
    game.to(7, "movement", "grey")
    game.place(**{"grey-cav": "A0101"})
    game.do("grey", cmd.Move(unit="Grey Horse", route=NEAR))
    game.step()
    assert game.march()["status"] == rec.TRIGGERED
    return game


def test_every_unit_of_a_triggered_force_stops_when_its_head_enters_a_blocked_hex() -> None:
    """18 saved MPs: half is 9. The Grey Battery's pickets reach the road at A0805, which the
    head enters after 4 MPs; the column must stand exactly as a column that had only 4 MPs to
    spend (8 saved, half 4) and met nothing."""
    blocked = _triggered(5, detour="never")
    blocked.place(**{"grey-bat": "A0907"})
    blocked.to(8, "movement", "blue")
    run = blocked.march()["run"]
    assert (run["budget"], run["spent"]) == (9.0, 4.0)
    assert run["stopped"] == "it reached a blocked hex (A0805): all movement ends"

    short = _triggered(7, forced=2, detour="never")  # 6 + 2 MPs saved in one turn
    assert short.march()["accumulated_mp"] == 8.0
    short.to(8, "movement", "blue")
    assert (short.march()["run"]["budget"], short.march()["run"]["spent"]) == (4.0, 4.0)

    where = {u: blocked.label(u) for u in FORCE_UNITS}
    assert where == {u: short.label(u) for u in FORCE_UNITS}
    assert where["blue-1"] == "A0805"
    assert where["blue-2"] == "A0705"  # four road hexes from A0305, not on to the head
    lost = [e for e in blocked.events if e.type == "surprise_march_ended"]
    assert lost[-1].lost_mp == 5.0  # type: ignore[attr-defined]


# -- 3. forming column costs a formation change ------------------------------------------------
def test_a_head_in_line_spends_the_formation_cost_before_its_first_step() -> None:
    """Half of 18 saved MPs is 9, at night with nothing in the way: in column the head
    marches nine road hexes to A1305; in line it first spends 1 MP forming column."""
    in_column = _triggered(5)
    in_column.to(8, "movement", "blue")
    assert in_column.label("blue-1") == "A1305"

    in_line = _triggered(5)
    head = in_line.state.units["blue-1"]
    in_line.state = with_units(in_line.state, {"blue-1": replace(head, formation=Formation.LINE)})
    in_line.to(8, "movement", "blue")
    run = in_line.march()["run"]
    assert in_line.label("blue-1") == "A1205"
    assert run["spent"] == 9.0  # 1 to form column, 8 on the road
    assert in_line.state.units["blue-1"].formation == Formation.COLUMN


def test_a_unit_that_only_rallies_near_the_force_does_not_trigger_it() -> None:
    """Rallying spends a unit's movement for the phase, but the unit does not move: it has not
    "ended its movement" anywhere new, so a shaken brigade that stood two hexes from a waiting
    force before the order was accepted may rally there without setting the march off."""
    from tests.support.surprise import combat_game

    game = combat_game()
    assert game.march()["status"] == rec.ACCUMULATING
    game.place(**{"grey-1": NEAR})
    unit = game.state.units["grey-1"]
    game.state = with_units(game.state, {"grey-1": replace(unit, morale="shaken")})
    game.to(2, "movement", "grey")
    game.do("grey", Rally(unit="Grey Brigade"))
    assert game.state.units["grey-1"].mp_spent > 0  # its movement is spent on the rally ...
    game.step()
    assert game.march()["status"] == rec.ACCUMULATING  # ... but it did not move: no trigger
    assert triggers(game) == []
