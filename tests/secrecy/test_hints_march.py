"""The way forward offered for a road leg no road carries, when what moves is the lead element
of a surprise march or a concealment marker: it keeps clear of the enemy the side knows of, as
a unit's does (ruling ORD-46), and reads nothing of the enemy the side does not see."""

from __future__ import annotations

import pytest

from rules.commands import Move
from rules.concealed.commands import ConcealForce
from rules.ground.grid import Cell
from rules.orders.known import known_enemy
from rules.orders.route import expand, parse_route
from rules.refusal import Refusal
from rules.scenario.loader import load
from rules.surprise.commands import OrderSurpriseMove
from rules.view import project
from tests.support.concealed import COLSTON, RULESET, SCENARIO
from tests.support.surprise import Dice, Game
from umpire.games import catalog

CONFEDERATE = "confederate"
#: The 23rd Georgia, the rear guard at the furnace (B1320, off the road), ordered by road to
#: B1210 on the Plank Road: the road way from B1219 runs east past the Federal XII Corps.
REAR_GUARD = "23rd-ga"
TO_THE_PLANK_ROAD = "road B1210"
MAP_ONLY_HINT = "try 'B1219 road B1210'"
CLEAR_HINT = "'B1219 road B1010 B1210'"
#: A Federal brigade the Confederates do not see at the start of the hidden game.
UNSEEN = "carr"


def hidden_flank_march() -> Game:
    """Flank March with the enemy hidden until sighted (and so without concealment markers,
    which need every enemy counter shown): at the start the Confederates see only part of
    the XII Corps, about B2011."""
    text = SCENARIO.read_text(encoding="utf-8")
    for old, new in (('information = "concealed"', 'information = "hidden"'),
                     ('"concealed_forces", ', "")):
        assert old in text, old
        text = text.replace(old, new)
    return Game(load(text, str(SCENARIO), RULESET.read_text(encoding="utf-8"), str(RULESET)),
                Dice())


def refusal(game: Game, side: str, command: Move | OrderSurpriseMove) -> str:
    """The words of the rules' refusal of ``command``; the game must not change."""
    before = game.state
    with pytest.raises(Refusal) as refused:
        game.do(side, command)
    assert game.state is before
    return str(refused.value)


def keeps_clear(game: Game, route: str, start: Cell) -> bool:
    """Whether ``route`` from ``start`` goes through and next to no enemy the Confederates know
    of until it is next to its end."""
    gm = game.state.loaded.map
    path = expand(gm, parse_route(gm, route), start)
    seen = known_enemy(game.state, CONFEDERATE).cells
    assert seen
    return not any(gm.grid.distance(c, e) <= 1 for c in path[:-1] for e in seen
                   if gm.grid.distance(c, path[-1]) > 1)


def rear_guard_order() -> OrderSurpriseMove:
    return OrderSurpriseMove(force=REAR_GUARD, route=TO_THE_PLANK_ROAD)


def test_a_surprise_march_hint_keeps_clear_of_the_enemy_the_side_sees() -> None:
    """From the map alone the hint was 'B1219 road B1210', whose road passes B2012 next to the
    XII Corps the Confederates see; now it says so and names a way that keeps clear."""
    game = hidden_flank_march()
    said = refusal(game, CONFEDERATE, rear_guard_order())
    assert MAP_ONLY_HINT not in said
    assert "'B1219 road B1210' would pass B2012, next to the enemy your troops know of" in said
    assert said.endswith(f"try {CLEAR_HINT}")
    start = game.state.units[REAR_GUARD].cell
    assert start is not None
    assert not keeps_clear(game, "B1219 road B1210", start)
    assert keeps_clear(game, CLEAR_HINT.strip("'"), start)


def test_a_surprise_march_hint_reads_nothing_of_the_enemy_the_side_does_not_see() -> None:
    """A Federal brigade the Confederates do not see, put on the road the hint names (and then
    on the road the map alone would name): the hint is word for word the same."""
    game = hidden_flank_march()
    gm = game.state.loaded.map
    said = refusal(game, CONFEDERATE, rear_guard_order())
    assert said.endswith(f"try {CLEAR_HINT}")
    start = game.state.units[REAR_GUARD].cell
    assert start is not None
    hinted = expand(gm, parse_route(gm, CLEAR_HINT.strip("'")), start)
    for cell in (hinted[len(hinted) // 2], gm.board.parse("B1610")):
        game.place(**{UNSEEN: game.board.label(cell)})
        view = project(game.state, CONFEDERATE)
        assert not any(u.ref == UNSEEN or u.cell == cell for u in view.units
                       if u.side != CONFEDERATE)
        assert refusal(game, CONFEDERATE, rear_guard_order()) == said


def concealed_colston() -> tuple[Game, str]:
    """Flank March with Colston's division concealed on turn 1 (its marker at A1817), at the
    Confederate movement phase of turn 2; the game and the marker's id."""
    game = Game(catalog.load_file(SCENARIO), Dice())
    game.to(1, "movement", CONFEDERATE)
    game.do(CONFEDERATE, ConcealForce(leader=COLSTON))
    game.to(2, "movement", CONFEDERATE)
    [mid] = game.state.markers
    assert game.board.label(game.state.markers[mid].cell) == "A1817"
    return game, mid


def test_a_marker_hint_keeps_clear_of_the_enemy_the_side_sees() -> None:
    """Colston's marker by road to A2410 beside the XI Corps line: from the map alone the hint
    was 'road A2409 A2410', through von Gilsa's brigade at A2409 that the Confederates see; now
    it names a way that keeps clear. To A2710 no road way keeps clear, and the hint says so."""
    game, mid = concealed_colston()
    said = refusal(game, CONFEDERATE, Move(unit=f"marker {mid}", route="road A2410"))
    assert "try 'road A2409 A2410'" not in said
    assert "'road A2409 A2410' would pass A2309, next to the enemy your troops know of" in said
    assert said.endswith("try 'road A2209 A2410'")
    start = game.state.markers[mid].cell
    assert not keeps_clear(game, "road A2409 A2410", start)
    assert keeps_clear(game, "road A2209 A2410", start)
    gilsa = game.state.units["von-gilsa"].cell
    assert gilsa == game.board.parse("A2409") and gilsa in known_enemy(game.state,
                                                                         CONFEDERATE).cells
    boxed = refusal(game, CONFEDERATE, Move(unit=f"marker {mid}", route="road A2710"))
    assert "try 'road A2609 A2710'" not in boxed
    assert boxed.endswith("and so would every other way this can suggest: give waypoints "
                          "round it")
