"""A concealed force's route longer than its MPs is cut where they run out, as a unit's is
(ruling CF-21): the move and its preview read the order through one settlement
(``rules.concealed.moving.marker_order``), so the marker ends where the settlement says unless
the enemy stops it sooner."""

from __future__ import annotations

import pytest

from rules import commands as cmd
from rules.concealed import records as rec
from rules.concealed.moving import marker_order
from rules.engine import Refusal
from rules.orders.marker_order import MarkerOrder
from rules.orders.stops import StopKind
from tests.support.concealed_ground import conceal, game, to_blue_movement
from tests.support.surprise import Game

#: Seven clear hexes east of General Teal's division (a brigade on foot, 6 MP, and a battery).
SEVEN = "A1209"


def teal() -> tuple[Game, str]:
    """General Teal's division concealed at A0509, at Blue's movement phase of turn 2."""
    g = game()
    mid = conceal(g, "blue-gen2")
    to_blue_movement(g, 2)
    return g, mid


def settled(g: Game, mid: str, route: str) -> MarkerOrder:
    order = marker_order(g.state, "blue", g.state.markers[mid], route)
    assert order is not None
    return order


def labels(g: Game, cells: tuple[object, ...]) -> list[str]:
    return [g.state.loaded.board.label(c) for c in cells]  # type: ignore[arg-type]


def moved(g: Game, mid: str, route: str) -> str:
    """Move the marker; the words of its stop."""
    out = g.do("blue", cmd.Move(unit=mid, route=route))
    [done] = [e for e in out.events if e.type == "cf_moved"]
    return str(done.stopped)  # type: ignore[attr-defined]


def refused(g: Game, command: cmd.Command) -> str:
    before = g.state
    with pytest.raises(Refusal) as e:
        g.do("blue", command)
    assert g.state is before
    return str(e.value)


def test_a_route_longer_than_the_mps_is_cut_at_the_last_hex_they_pay_for() -> None:
    g, mid = teal()
    order = settled(g, mid, SEVEN)
    assert [s.reached for s in order.plan.steps] == [True] * 6 + [False]
    assert order.pace == "5th Brigade"  # the brigade on foot, not the battery
    assert (order.plan.budget, order.expected.mp) == (6, 6)
    assert order.expected.stop is not None and order.expected.stop.kind is StopKind.OUT_OF_MP
    assert moved(g, mid, SEVEN) == "its MPs ran out at A1109"
    assert g.state.markers[mid].cell == g.cell("A1109")
    assert rec.spent(g.state, mid)["blue-5"] == 6


def test_the_move_ends_where_its_settlement_said() -> None:
    g, mid = teal()
    order = settled(g, mid, SEVEN)
    out = g.do("blue", cmd.Move(unit=mid, route=SEVEN))
    [step] = [e for e in out.events if e.type == "marker_moved"]
    path = [tuple(c) for c in step.path]  # type: ignore[attr-defined]
    assert path == [(c.col, c.row) for c in order.expected.cells]
    assert len(path) == 6


def test_a_cut_on_other_troops_of_the_side_falls_back_to_the_last_free_hex() -> None:
    g, mid = teal()
    g.place(**{"blue-cav": "A1109"})  # where the MPs run out
    order = settled(g, mid, SEVEN)
    assert labels(g, order.expected.cells)[-1] == "A1009"
    words = moved(g, mid, SEVEN)
    assert words == "its MPs ran out at A1109, on other troops of yours, and fell back to A1009"
    assert g.state.markers[mid].cell == g.cell("A1009")


def test_a_cut_with_no_free_hex_and_a_first_step_unpaid_are_still_refused() -> None:
    g, mid = teal()
    moved(g, mid, "A1009")  # five hexes: one MP left, for A1110 on the way to A1209
    g.place(**{"blue-cav": "A1110"})
    why = refused(g, cmd.Move(unit=mid, route=SEVEN))
    assert why.startswith("its MPs run out at A1110, and that hex and every one before it "
                          "hold other troops of yours")
    g.place(**{"blue-cav": "A0302"})
    moved(g, mid, SEVEN)
    assert "only 0 of 6 MP left" in refused(g, cmd.Move(unit=mid, route=SEVEN))


def test_the_enemy_still_stops_it_before_the_cut_and_the_settlement_does_not_know() -> None:
    """What the side does not know is not in the settlement: a hidden wagon two hexes past
    A1009 stops the marker there, where the settlement (and so the preview) said A1109."""
    g, mid = teal()
    g.place(**{"grey-train": "A1309"})
    assert labels(g, settled(g, mid, SEVEN).expected.cells)[-1] == "A1109"
    assert moved(g, mid, SEVEN) == "A1109 is within 2 hexes of the enemy"
    assert g.state.markers[mid].cell == g.cell("A1009")
