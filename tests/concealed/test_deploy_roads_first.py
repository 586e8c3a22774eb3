"""Road hexes first (Cf 2.3, ruling CF-23), from the article: a force revealed after a move in
this or the previous turn sets up in march formation and, as far as possible, in road hexes; the
commander stays in the marker's hex. "As far as possible" is read as road hexes first: the
marker's own hex fills first only when it carries the road, else once the road hexes next to it
are full.

The field is the deployment field with its road rerouted and a fourth brigade: the road runs from
A0105 by A0505 to A0907 and on down to A0910. Ash's division (four brigades and a battery, five
units that count for stacking; the limit is three) conceals at A1205 on turn 1 and its marker
steps to A1006, one hex off the road, on turn 2. The only road hex next to A1006 is A0907 (A0806,
two hexes off, is a road hex too but not next to the marker).
"""

from __future__ import annotations

from collections.abc import Mapping

from rules import commands as cmd
from rules.concealed.commands import ConcealPlan, Unconceal
from rules.scenario.loader import LoadedScenario
from tests.support.concealed_reveal import concealed, field
from tests.support.surprise import Game

ROAD = ('path = ["A0105", "A1605"]', 'path = ["A0105", "A0505", "A0907", "A0910"]')
FOURTH = ('[[units]]\nid = "u-inf"\n', '''[[units]]
id = "c-inf4"
side = "confederate"
name = "Fourth Rebel Brigade"
kind = "infantry"
strength = 5
formation = "line"
command = "grey-div"
at = "A1105"

[[units]]
id = "u-inf"
''')
BRIGADES = ("c-inf1", "c-inf2", "c-inf3", "c-inf4")
STACKED = (*BRIGADES, "c-bat")
FOUND_AT = "A1006"
ROAD_HEX = "A0907"


def ground() -> LoadedScenario:
    return field(ROAD, FOURTH)


def moved_to_a1006() -> tuple[Game, str]:
    """The division concealed on turn 1, its marker moved to A1006 on turn 2."""
    game, marker = concealed(ground())
    game.to(2, "movement", "confederate")
    game.do("confederate", cmd.Move(unit=marker, route=FOUND_AT))
    assert game.state.markers[marker].cell == game.cell(FOUND_AT)
    return game, marker


def found_by_the_union(game: Game, marker: str) -> None:
    """The Union Brigade marches up the road on turn 3 and finds the force (within two hexes)."""
    game.to(3, "movement", "union")
    out = game.do("union", cmd.Move(unit="u-inf", route="A0805"))
    assert [e.type for e in out.events].count("cf_revealed") == 1
    assert marker not in game.state.markers


def hexes(game: Game) -> Mapping[str, list[str]]:
    """The division's units that count for stacking, by the hex each set up in."""
    out: dict[str, list[str]] = {}
    for unit in STACKED:
        out.setdefault(game.label(unit), []).append(unit)
    return out


def on_the_road(game: Game) -> int:
    gm = game.loaded.map
    return sum(1 for u in STACKED if gm.has_road(game.state.units[u].cell))


def test_a_division_found_one_hex_off_the_road_fills_the_road_hex_first() -> None:
    # The case as seen: two brigades and the battery stayed in A1006, off the road, and only two
    # brigades went to A0907 on the road. The road hex takes all it may hold (three) first.
    game, marker = moved_to_a1006()
    found_by_the_union(game, marker)
    placed = hexes(game)
    assert len(placed[ROAD_HEX]) == 3
    assert on_the_road(game) == 3
    assert len(placed[FOUND_AT]) == 2  # the commander's hex takes what the road cannot
    assert set(placed) == {ROAD_HEX, FOUND_AT}  # nothing goes farther while these have room
    assert game.label("grey-lead") == FOUND_AT
    for unit in BRIGADES:
        assert game.state.units[unit].formation == "column"
    assert game.state.units["c-bat"].formation == "limbered"


def test_a_road_hex_two_hexes_off_waits_until_the_marker_hex_and_its_neighbours_are_full(
) -> None:
    # A0806 carries the road but is not next to the marker: the article sets the force up in the
    # marker's hex and the hexes next to it, so the road counts only among those.
    game, marker = moved_to_a1006()
    found_by_the_union(game, marker)
    assert all(game.label(u) != "A0806" for u in STACKED)


def test_a_force_unconcealing_after_a_move_also_takes_the_road_first() -> None:
    game, marker = moved_to_a1006()
    game.to(3, "movement", "confederate")
    game.do("confederate", Unconceal(marker=marker))
    assert len(hexes(game)[ROAD_HEX]) == 3
    assert on_the_road(game) == 3


def test_a_force_that_did_not_move_lately_fills_its_own_hex_first() -> None:
    # The road counts only after a move in this turn or the one before: on turn 4 the move of
    # turn 2 is too old, and the force sets up nearest first, in its own hex.
    game, marker = moved_to_a1006()
    game.to(4, "movement", "confederate")
    game.do("confederate", Unconceal(marker=marker))
    assert len(hexes(game)[FOUND_AT]) == 3


def test_a_plan_reads_the_road_as_the_rule_does() -> None:
    # A plan for the marker's own hex, off the road, falls back to the rule while the road hex
    # has room (the battery deploys first by the rule); once plans have filled the road hex, a
    # plan for the marker's hex is kept.
    game, marker = moved_to_a1006()
    game.do("confederate", ConcealPlan(marker=marker, unit="c-bat", place="here"))
    game.to(3, "movement", "confederate")
    game.do("confederate", Unconceal(marker=marker))
    assert game.label("c-bat") == ROAD_HEX

    game, marker = moved_to_a1006()
    direction = "SW"  # A0907 from A1006
    for unit in ("c-inf2", "c-inf3", "c-inf4"):
        game.do("confederate", ConcealPlan(marker=marker, unit=unit, place=direction))
    game.do("confederate", ConcealPlan(marker=marker, unit="c-bat", place="here"))
    game.to(3, "movement", "confederate")
    game.do("confederate", Unconceal(marker=marker))
    placed = hexes(game)
    assert sorted(placed[ROAD_HEX]) == ["c-inf2", "c-inf3", "c-inf4"]
    assert sorted(placed[FOUND_AT]) == ["c-bat", "c-inf1"]
