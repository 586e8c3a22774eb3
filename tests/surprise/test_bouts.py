"""Surprise Move collision, the alternating method, bout by bout (SM, "Surprise Move Collision";
rulings SM-3 and SM-17).

The ground is the Surprise Move test ground with its road made long enough (48 hexes, 1 MP a
hex) for two columns 20 MPs apart, and turn 5 dark (visibility 1) so that neither column sees
the other's road: no blocked hex cuts a bout short. Blue's division saves 24 MPs in turns 1-4
and sets off in turn 5 with that turn's allowance: 30 MPs. The Grey brigade (with General Ash)
takes its order in person in turn 4 and saves one turn's 6 MPs, plus 2 forced: 8 MPs. Both
columns wait in road column, so forming up costs neither anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from rules import commands as cmd
from rules.events import GameEvent
from rules.forces.words import Formation
from rules.refusal import Refusal
from rules.state import with_units
from rules.surprise import records as rec
from rules.surprise.collision import heads_within
from rules.surprise.commands import ExecuteSurpriseMove, OrderSurpriseMove
from tests.support.surprise import FORCE, Dice, Game, load_ground, same_view

WIDTH = 48
EAST_END = f"road A{WIDTH:02d}05"
WEST_END = "road A0105"
WHY = "its head came within 6 MPs of the enemy column"

#: A third side, far away, with no part in either march.
GREEN = """
[[sides]]
id = "green"
name = "Green Army"
colour = "#2a9b4d"

[[commands]]
id = "green-army"
side = "green"
name = "Green Army"
echelon = "army"

[[units]]
id = "green-1"
side = "green"
name = "Green Brigade"
kind = "infantry"
command = "green-army"
strength = 5
at = "A4010"
formation = "line"
"""

LAST_TURN = 'turn = 8\ntime = "16:20"\nlight = "night"\nvisibility = 1\n'


def ground(option: str = "alternate", green: bool = False) -> list[tuple[str, str]]:
    edits = [
        ('modules = ["surprise_move"]',
         f'modules = ["surprise_move"]\noptions = {{ surprise_collision = "{option}" }}'),
        ("sheet_width = 24", f"sheet_width = {WIDTH}"),
        (".........WWW............", ".........WWW............" + "." * (WIDTH - 24)),
        ('path = ["A0105", "A2405"]', f'path = ["A0105", "A{WIDTH:02d}05"]'),
        ('time = "15:20"', 'time = "15:20"\nvisibility = 1'),
        # The Grey brigade waits in road column, as Blue's division does, so that forming
        # column (ruling SM-9) costs neither column part of its first bout.
        ('at = "A2005"\nformation = "line"', 'at = "A2005"\nformation = "column"'),
    ]
    if green:
        edits.append((LAST_TURN, LAST_TURN + GREEN))
    return edits


def collision(grey_at: str, grey_route: str, *, option: str = "alternate", forced: int = 2,
              grey_march: bool = True, green: bool = False) -> tuple[Game, int]:
    """Both marches accepted as the module docstring says, the Grey brigade (and Ash) on the
    road at ``grey_at``; play up to Blue's movement phase of turn 5, where Blue sets off.
    Returns the game and the index of the first event of that phase's set-off."""
    game = Game(load_ground(*ground(option, green)), Dice(initiative=[2]))
    game.place(**{"grey-1": grey_at, "grey-hq": grey_at})
    game.do("blue", OrderSurpriseMove(force=FORCE, route=EAST_END, by_initiative=True,
                                      detour="never"))
    game.to(4, "command")
    if grey_march:
        game.do("grey", OrderSurpriseMove(force="Grey Brigade, General Ash", route=grey_route,
                                          forced=forced, detour="never"))
    game.to(5, "command")
    assert game.march("m1", "blue")["accumulated_mp"] == 24.0
    if grey_march:
        assert game.march("m1", "grey")["status"] == rec.ACCUMULATING
        assert game.march("m1", "grey")["accumulated_mp"] == 6.0 + forced
    game.do("blue", ExecuteSurpriseMove())
    since = len(game.events)
    game.to(5, "movement", "blue")
    return game, since


def bouts(game: Game, since: int) -> list[tuple[str, str, float]]:
    """Each bout as it was marched: the march, where its head ended, its MPs spent so far
    (events that move no head, such as a column told to stop where it stands, are left out)."""
    out = []
    heads: dict[str, int] = {}
    for e in game.events[since:]:
        if e.type == "surprise_column_marched":
            march: str = e.march  # type: ignore[attr-defined]
            run: Mapping[str, Any] = e.run  # type: ignore[attr-defined]
            if len(run["trail"]) > heads.get(march, 0):
                heads[march] = len(run["trail"])
                head = game.board.label(rec.cell_of(run["trail"][-1]))
                out.append((march, head, float(run["spent"])))
    return out


def collisions(game: Game, since: int) -> list[GameEvent]:
    return [e for e in game.events[since:] if e.type == "surprise_collision"]


# -- (a) one column spent, the other goes on alone, still checked after each bout --------------
def test_a_column_going_on_alone_stops_when_a_bout_brings_the_heads_within_6_mps() -> None:
    """Grey, 20 MPs ahead on the same road with 8 MPs, is spent after its second bout; Blue,
    with 30, goes on alone 6 MPs at a time and stops as soon as the heads are within 6 MPs,
    4 hexes short of the Grey brigade, not in contact with it."""
    game, since = collision("A2405", EAST_END)
    assert bouts(game, since) == [
        ("blue:m1", "A1005", 6.0), ("grey:m1", "A3005", 6.0),  # 14, then 20 MPs apart
        ("blue:m1", "A1605", 12.0), ("grey:m1", "A3205", 8.0),  # 14; Grey is spent: 16 apart
        ("blue:m1", "A2205", 18.0),  # alone: 10 apart
        ("blue:m1", "A2805", 24.0),  # 4 apart: both are done
    ]
    blue, grey = game.march("m1", "blue"), game.march("m1", "grey")
    assert blue["status"] == grey["status"] == rec.EXECUTED
    assert blue["run"]["stopped"] == WHY
    assert grey["run"]["stopped"] == "its MPs are spent"
    assert game.label("blue-1") == "A2805" and game.label("grey-1") == "A3205"
    assert heads_within(game.state, "blue:m1", "grey:m1")
    ended = [e for e in game.events[since:] if e.type == "surprise_march_ended"]
    assert [(e.march, e.lost_mp) for e in ended] == [  # type: ignore[attr-defined]
        ("grey:m1", 0.0), ("blue:m1", 6.0)]


# -- (b) within 6 MPs after the first bout: the other column does not move -------------------------
def test_heads_within_6_mps_after_the_first_bout_the_other_column_does_not_move() -> None:
    """The Grey brigade comes west down the road 12 MPs from Blue's head: Blue's first bout
    brings the heads within 6 MPs, so both are done before Grey's first bout. Grey's march is
    over all the same: its saved MPs are lost and it counts as having moved (ruling SM-3)."""
    game, since = collision("A1605", WEST_END)
    assert bouts(game, since) == [("blue:m1", "A1005", 6.0)]
    assert game.label("grey-1") == "A1605" and game.label("grey-hq") == "A1605"
    blue, grey = game.march("m1", "blue"), game.march("m1", "grey")
    assert blue["status"] == grey["status"] == rec.EXECUTED
    assert blue["run"]["stopped"] == grey["run"]["stopped"] == WHY
    assert grey["rest"]
    ended = {e.march: e.lost_mp for e in game.events[since:]  # type: ignore[attr-defined]
             if e.type == "surprise_march_ended"}
    assert ended == {"blue:m1": 24.0, "grey:m1": 8.0}


def test_the_check_follows_the_last_short_bout_of_a_spent_column() -> None:
    """Coming head on, 26 MPs apart: 20, 14, 8 after three bouts; the Grey column's last bout
    (2 MPs: its MPs are spent) brings the heads within 6 MPs, so Blue does not go on."""
    game, since = collision("A3005", WEST_END)
    assert bouts(game, since) == [
        ("blue:m1", "A1005", 6.0), ("grey:m1", "A2405", 6.0),
        ("blue:m1", "A1605", 12.0), ("grey:m1", "A2205", 8.0),
    ]
    assert game.march("m1", "blue")["run"]["stopped"] == WHY
    assert game.label("blue-1") == "A1605"


# -- (c) the "first" option ------------------------------------------------------------------------
def test_the_first_option_cancels_the_other_march_and_tells_only_its_owner() -> None:
    game, since = collision("A2405", EAST_END, option="first", green=True)
    blue, grey = game.march("m1", "blue"), game.march("m1", "grey")
    assert blue["status"] == rec.EXECUTED and grey["status"] == rec.COLLIDED
    assert game.label("grey-1") == "A2405"  # it never moved
    told = [(e.type, e.audience) for e in game.events[since:]
            if e.type in ("surprise_collision", "surprise_march_ended")
            and getattr(e, "march", "") == "grey:m1"]
    assert told == [("surprise_collision", "side:grey"), ("surprise_march_ended", "side:grey")]
    lost = [e.lost_mp for e in game.events[since:]  # type: ignore[attr-defined]
            if e.type == "surprise_march_ended"
            and e.march == "grey:m1"]  # type: ignore[attr-defined]
    assert lost == [8.0]
    assert any("saved MPs are lost" in t for t in game.reports("grey", since))
    # Blue's march goes as if there were no Grey march at all: the same words, the same view.
    alone, start = collision("A2405", EAST_END, option="first", green=True, grey_march=False)
    assert game.reports("blue", since) == alone.reports("blue", start)
    assert same_view(game, alone, "blue")
    assert game.reports("green", since) == alone.reports("green", start)


# -- what each side is told under the alternating method ------------------------------------------
def test_both_owners_learn_of_the_overlap_and_nobody_else() -> None:
    game, since = collision("A2405", EAST_END, green=True)
    assert sorted(e.audience for e in collisions(game, since)) == ["side:blue", "side:grey"]
    # Nothing of either march is addressed to a side that has no part in it, nor to all.
    module = [e for e in game.events[since:] if e.type.startswith("surprise_")]
    assert module and {e.audience for e in module} <= {"side:blue", "side:grey"}
    assert not [t for t in game.reports("green", since) if "urprise" in t]


def test_the_phasing_side_learns_nothing_of_the_other_march_that_the_method_does_not_show() -> None:
    """Blue's first bout stops both columns: Grey's saved MPs and where its route goes on
    reach Blue in no word and no view."""
    one, a = collision("A1605", WEST_END, forced=2)
    two, b = collision("A1605", "road A1105", forced=3)
    assert one.march("m1", "grey")["accumulated_mp"] != two.march("m1", "grey")["accumulated_mp"]
    assert one.reports("blue", a) == two.reports("blue", b)
    assert same_view(one, two, "blue")


# -- moving in the enemy's phase, and the next phases ----------------------------------------------
def test_the_other_force_counts_as_moved_and_the_phasing_force_moves_freely() -> None:
    game, _ = collision("A2405", EAST_END)
    assert game.march("m1", "grey")["rest"] and not game.march("m1", "blue")["rest"]
    game.to(5, "movement", "grey")  # Grey's own movement phase, after its march in Blue's
    assert game.state.units["grey-1"].mp_left <= 0
    with pytest.raises(Refusal, match="Grey Brigade has no MP left this phase"):
        game.do("grey", cmd.Move(unit="Grey Brigade", route="A3305"))
    assert game.label("grey-1") == "A3205"
    game.to(6, "movement", "blue")  # the phasing player's next phase: free
    assert game.state.units["blue-1"].mp_left > 0
    game.do("blue", cmd.Move(unit="1st Brigade", route="A2806"))
    assert game.label("blue-1") == "A2806"
    game.to(6, "movement", "grey")  # and Grey's after that: free again
    assert game.state.units["grey-1"].mp_left > 0
    game.do("grey", cmd.Move(unit="Grey Brigade", route="A3305"))
    assert game.label("grey-1") == "A3305"


# -- more than two columns ---------------------------------------------------------------------
def test_every_overlapping_march_takes_its_bouts_and_each_owner_hears_only_of_its_own() -> None:
    """A third side's march on the same road (Green, 6 MPs saved, coming west from A4405) takes
    part like the second: each owner is told of the collision of its own march, the columns
    march in turn, the phasing one first, and every pair of heads is measured after each bout.
    Grey (8 MPs) and Green (6) are spent short of each other; Blue goes on alone and stops
    within 6 MPs of Grey's head."""
    game = Game(load_ground(*ground("alternate", green=True)), Dice(initiative=[2]))
    game.place(**{"grey-1": "A2405", "grey-hq": "A2405", "green-1": "A4405"})
    green = game.state.units["green-1"]
    game.state = with_units(game.state, {"green-1": replace(green, formation=Formation.COLUMN)})
    game.do("blue", OrderSurpriseMove(force=FORCE, route=EAST_END, by_initiative=True,
                                      detour="never"))
    game.to(4, "command")
    game.do("grey", OrderSurpriseMove(force="Grey Brigade, General Ash", route=EAST_END,
                                      forced=2, detour="never"))
    game.do("green", OrderSurpriseMove(force="Green Brigade", route=WEST_END, detour="never"))
    game.to(5, "command")
    assert game.march("m1", "green")["status"] == rec.ACCUMULATING
    game.do("blue", ExecuteSurpriseMove())
    since = len(game.events)
    game.to(5, "movement", "blue")
    assert bouts(game, since) == [
        ("blue:m1", "A1005", 6.0), ("grey:m1", "A3005", 6.0), ("green:m1", "A3805", 6.0),
        ("blue:m1", "A1605", 12.0), ("grey:m1", "A3205", 8.0),  # Green and Grey are spent
        ("blue:m1", "A2205", 18.0), ("blue:m1", "A2805", 24.0),  # alone, 4 short of Grey
    ]
    assert sorted(e.audience for e in collisions(game, since)) == [
        "side:blue", "side:green", "side:grey"]
    assert {game.march("m1", s)["status"] for s in ("blue", "grey", "green")} == {rec.EXECUTED}
    assert game.march("m1", "blue")["run"]["stopped"] == WHY
    for side in ("blue", "grey", "green"):  # each hears of its own march only
        told = [e for e in game.events[since:] if e.type.startswith("surprise_")
                and e.audience == f"side:{side}"]
        assert told and {e.march for e in told} == {f"{side}:m1"}  # type: ignore[attr-defined]
