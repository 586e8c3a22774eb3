"""Every way a unit moves is watched as it goes (ruling INFO-18): a surprise column's march, each
unit of it stepping at once, and a retreat after combat, as well as a plain move."""

from __future__ import annotations

from rules import events as ev
from rules.combat import events as cev
from rules.combat.commands import Fire
from rules.surprise.commands import ExecuteSurpriseMove, OrderSurpriseMove
from tests.support.surprise import FORCE, ROUTE, Dice, Game, combat_game, load_ground

HIDDEN = ('information = "open"', 'information = "hidden"')


def test_a_marching_column_seen_on_its_way_is_told_like_any_unit_seen() -> None:
    """Blue's division marches east along the road towards Grey's brigade. Grey's troops see
    each unit of the column from where it comes into their sight to where it halts."""
    game = Game(load_ground(HIDDEN), Dice(initiative=[2]))
    game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE, by_initiative=True))
    game.to(3, "command")
    since = len(game.events)
    game.do("blue", ExecuteSurpriseMove())
    game.to(4, "command")
    [marched] = [e for e in game.events[since:] if type(e).__name__ == "ColumnMarched"]
    [passing] = [e for e in game.events[since:]
                 if isinstance(e, ev.SeenPassing) and e.side == "grey"]
    moves = marched.moves  # type: ignore[attr-defined]
    assert set(passing.trails) == set(moves)
    memory = game.state.memory["grey"]
    for uid, cells in moves.items():
        trail = [list(c) for c in passing.trails[uid]]
        # Each trail is the tail of the unit's way, from where it came into sight to its end.
        assert len(trail) > 1 and trail == [list(c) for c in cells][-len(trail):], uid
        assert memory[uid].in_sight and list(memory[uid].cell) == trail[-1]
    # The column stepped together: its units came into sight at the same cell.
    assert len({tuple(t[0]) for t in passing.trails.values()}) == 1


def test_a_retreat_is_watched_as_it_goes() -> None:
    """The Grey Battery fires from five hexes and the 1st Brigade falls back two cells, in
    Grey's sight all the way: Grey keeps the way it fell back along."""
    game = combat_game(on_order=False)
    game.place(**{"grey-bat": "A0905"})
    game.to(1, "fire", "grey")
    start = game.state.units["blue-1"].cell
    out = game.do("grey", Fire(units=("Grey Battery",), target="1st Brigade"))
    [retreat] = [e for e in out.events if isinstance(e, cev.UnitRetreated)]
    [passing] = [e for e in out.events if isinstance(e, ev.SeenPassing) and e.side == "grey"]
    assert start is not None
    assert passing.trails["blue-1"] == ((start.col, start.row), *retreat.path)
    assert game.state.memory["grey"]["blue-1"].trail[-1] == game.state.units["blue-1"].cell
