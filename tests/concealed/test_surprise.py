"""Concealed Forces with the Surprise Move: what an enemy concealment marker is to a surprise
march (its pickets and sight block hexes; it triggers nothing), a column's head that finds a
concealed force stops there and reveals it, and a force on an accepted surprise order may not
conceal (rulings CF-16, CF-17, CF-18).

The test ground is the Surprise Move's: Blue's division waits at the west end of the East Road,
a belt of woods hides the east. Grey's own units are taken off, and a Grey division of a
general and one brigade stands east of the woods, out of Blue's sight, to be concealed.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rules import commands as cmd
from rules.concealed.commands import ConcealForce
from rules.concealed.pickets import blocked_by_markers
from rules.concealed.reveal.revealing import DECOY_FOUND, FORCE_REVEALED
from rules.events import GameEvent
from rules.ground.grid import Cell
from rules.knowledge.sighted import bits_to_cells, sight
from rules.refusal import Refusal
from rules.surprise import records as rec
from rules.surprise.commands import ExecuteSurpriseMove, OrderSurpriseMove
from rules.surprise.march.execution import blocked_bits
from rules.view import project
from tests.support.concealed import (
    GREY_AT,
    bred,
    conceal,
    concealed_ground,
    order_blue,
    real_under,
)
from tests.support.surprise import Game, same_view


def seen_by(events: Sequence[GameEvent], side: str) -> list[dict[str, object]]:
    """The events that reach ``side`` (its own and the public ones), as data."""
    return [e.model_dump() for e in events if e.audience in ("public", f"side:{side}")]


def until_lifted(events: Sequence[GameEvent]) -> list[GameEvent]:
    """The events before the first marker is lifted (what follows shows what was under it,
    to everyone, as the rules mean it to)."""
    cut = next((n for n, e in enumerate(events) if e.type in ("cf_revealed", "marker_removed")),
               len(events))
    return list(events[:cut])


def labels(game: Game, cells: frozenset[Cell]) -> list[str]:
    return sorted(game.board.label(c) for c in cells)


# -- CF-16: a marker pickets and watches for the enemy's blocked hexes --------------------------
def test_a_marker_blocks_the_hexes_its_force_would_block_in_the_open() -> None:
    """The Grey Division standing in the open at A1608 blocks some hexes for Blue's surprise
    marches; concealed there, its marker blocks exactly the same ones, though its troops are
    off the map and no sighting presence of their own."""
    open_game = concealed_ground()
    open_game.to(1, "movement", "grey")
    in_the_open = bits_to_cells(sight(open_game.state)["blue"].blocked_cells,
                                open_game.loaded.map.grid)
    hidden = concealed_ground()
    hidden.to(1, "movement", "grey")
    conceal(hidden)
    assert sight(hidden.state)["blue"].blocked_cells == 0  # no Grey unit left on the map
    under_marker = bits_to_cells(blocked_bits(hidden.state, "blue"), hidden.loaded.map.grid)
    assert in_the_open and under_marker == in_the_open
    assert "A1205" in labels(hidden, under_marker)  # the woods' edge on the East Road
    assert blocked_by_markers(hidden.state, "grey") == frozenset()  # its own side: nothing


def test_the_umpire_blocks_what_the_marching_side_is_shown() -> None:
    """While its march is accepted, Blue's map shows the hexes it can tell are blocked, an enemy
    marker counting as a counter that fights and sees (INFO-11); the umpire stops the march on
    the same hexes (under a model that shows every marker, the map is the truth)."""
    game = concealed_ground()
    game.to(1, "command")
    order_blue(game)
    game.to(1, "movement", "grey")
    conceal(game)
    shown = project(game.state, "blue").blocked_cells
    assert shown and shown == bits_to_cells(blocked_bits(game.state, "blue"),
                                            game.loaded.map.grid)


@pytest.mark.parametrize("holds", [1, 2])
def test_real_or_decoy_the_march_meets_the_same_blocked_hexes(holds: int) -> None:
    game, staying, _ = bred(holds)
    assert real_under(game, staying) == (holds == 1)
    other, _, _ = bred(3 - holds)
    assert blocked_bits(game.state, "blue") == blocked_bits(other.state, "blue") != 0
    assert same_view(game, other, "blue")


def test_real_or_decoy_the_column_marches_and_stops_the_same() -> None:
    """Everything Blue is told, from its order to its column's halt, and the column's whole
    run, are the same whether the marker its head finds hides the division or a decoy."""
    runs = []
    told = []
    for holds in (1, 2):
        game, staying, _ = bred(holds)
        game.to(3, "command")
        game.do("blue", ExecuteSurpriseMove())
        game.to(3, "movement", "blue")
        record = game.march()
        assert record["status"] == rec.EXECUTED
        runs.append(record["run"])
        told.append(seen_by(until_lifted(game.events), "blue"))
        assert staying not in game.state.markers  # found: lifted whatever was under it
    assert runs[0] == runs[1]
    assert told[0] == told[1]
    assert runs[0]["stopped"] == f"it came upon an enemy concealed force at {GREY_AT}"


@pytest.mark.parametrize("holds", [1, 2])
def test_a_marker_triggers_no_surprise_march(holds: int) -> None:
    """A marker ends Grey's movement at the woods' edge on Blue's road, as near Blue's waiting
    force as the real division's pace allows (a marker never comes within three hexes of an
    enemy unit, nor into its sight: Cf 1.4): real or decoy, the march is not triggered and
    Blue is told exactly the same."""
    outcomes = []
    for h in (holds, 3 - holds):
        game, staying, _ = bred(h)
        since = len(game.events)
        game.to(3, "movement", "grey")
        game.do("grey", cmd.Move(unit=staying, route="A1405 A1305 A1205"))
        assert game.board.label(game.state.markers[staying].cell) == "A1205"
        game.step()
        assert game.march()["status"] == rec.ACCUMULATING
        outcomes.append(seen_by(game.events[since:], "blue"))
    assert outcomes[0] == outcomes[1]


# -- CF-18: a surprise column's head finds a concealed force -------------------------------------
def marched_into(real: bool) -> tuple[Game, int]:
    """Blue's march set off in turn 2 towards the Grey Division, concealed in turn 1 (a decoy
    bred from it taking its place when ``real`` is false)."""
    if real:
        game = concealed_ground()
        game.to(1, "command")
        order_blue(game)
        game.to(1, "movement", "grey")
        conceal(game)
        game.to(2, "command")
    else:
        game, _, _ = bred(2)  # the decoy stays at GREY_AT, the force went off east
        game.to(3, "command")
    game.do("blue", ExecuteSurpriseMove())
    since = len(game.events)
    game.to(game.state.turn, "movement", "blue")
    return game, since


def test_the_head_stops_where_it_finds_a_concealed_force_and_reveals_it() -> None:
    game, since = marched_into(real=True)
    record = game.march()
    run = record["run"]
    assert record["status"] == rec.EXECUTED
    # The head came out of the woods at A1205, in sight of the marker: it stops there, the
    # whole column with it, and the 6 MPs after a blocked hex are not taken.
    assert game.label("blue-1") == "A1205"
    assert run["stopped"] == f"it came upon an enemy concealed force at {GREY_AT}"
    assert run["blocked_at"] == run["spent"] == run["cap"] == 8.0
    cols = [game.state.units[u].cell.col for u in run["order"]]  # type: ignore[union-attr]
    assert cols == sorted(cols, reverse=True) and cols[0] == game.cell("A1205").col
    # The force is revealed at once: the marker goes and the division deploys.
    assert game.state.markers == {}
    assert game.label("grey-gen") == GREY_AT and game.state.units["grey-2"].cell is not None
    types = game.types(since)
    order = [types.index(t) for t in ("surprise_column_marched", "cf_revealed",
                                      "marker_removed", "surprise_march_ended")]
    assert order == sorted(order)
    assert any("came upon an enemy concealed force" in t for t in game.reports("blue", since))


def test_a_decoy_found_by_the_head_stops_it_all_the_same() -> None:
    """The head stops on finding the decoy, in the same hex and with the same words as for a
    real force; the decoy is removed. (The force that went east is in the head's sight from
    there as well, and is revealed too.)"""
    game, since = marched_into(real=False)
    run = game.march()["run"]
    assert game.label("blue-1") == "A1205"
    assert run["stopped"] == f"it came upon an enemy concealed force at {GREY_AT}"
    removed = {e.marker: e.reason for e in game.events[since:]  # type: ignore[attr-defined]
               if e.type == "marker_removed"}
    decoy, force = sorted(removed)
    assert removed[decoy] == DECOY_FOUND and removed[force] == FORCE_REVEALED
    assert game.state.markers == {} and game.label("grey-gen") == "A1908"


def test_a_triggered_march_stops_at_a_concealed_force_too() -> None:
    """At night (visibility 1) the head finds the marker only two hexes off; a triggered march
    (half its MPs) halts there as well."""
    game = concealed_ground(div="A1505", res="A2201")
    game.to(5, "command")
    order_blue(game)
    game.to(6, "movement", "grey")
    conceal(game)
    game.to(7, "movement", "grey")
    # The Grey Reserve's general rides up behind Blue's tail: a leader does not trigger; the
    # Reserve's brigade does (ruling SM-13).
    game.place(**{"grey-res-1": "A0101"})
    game.do("grey", cmd.Move(unit="1st Reserve Brigade", route="A0102 A0103"))
    game.step()
    assert game.march()["status"] == rec.TRIGGERED
    game.to(8, "movement", "blue")
    record = game.march()
    run = record["run"]
    assert record["status"] == rec.EXECUTED and run["half"]
    assert run["stopped"] == "it came upon an enemy concealed force at A1505"
    head = game.state.units[run["order"][0]]
    assert head.cell is not None
    assert game.loaded.map.grid.distance(head.cell, game.cell("A1505")) == 2
    assert game.state.units["grey-gen"].cell == game.cell("A1505")  # revealed, deployed


# -- CF-17: a force on an accepted surprise order may not conceal --------------------------------
def test_a_force_on_an_accepted_surprise_order_may_not_conceal() -> None:
    free = concealed_ground()
    free.to(1, "movement", "blue")
    free.do("blue", ConcealForce(leader="General Azure"))  # out of Grey's sight: it may
    assert len(free.state.markers) == 1
    game = concealed_ground()
    game.to(1, "command")
    order_blue(game)
    game.to(1, "movement", "blue")
    before = game.state
    with pytest.raises(Refusal) as refused:
        game.do("blue", ConcealForce(leader="General Azure"))
    assert str(refused.value).startswith("General Azure cannot conceal: General Azure is on "
                                         "surprise move")
    assert game.state is before and game.state.markers == {}


def test_a_concealed_force_cannot_take_a_surprise_order() -> None:
    """Its units are off the map, so an order naming them names no force (ruling SM-20)."""
    game = concealed_ground()
    game.to(1, "movement", "grey")
    conceal(game)
    game.to(2, "command")
    with pytest.raises(Refusal, match="none of those units is on the map"):
        game.do("grey", OrderSurpriseMove(force="Grey Division", route="A1608"))
