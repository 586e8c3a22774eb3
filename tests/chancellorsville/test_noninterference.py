"""Non-interference on the Chancellorsville sample: what a side receives depends only on what its
side may know. Each test plays the sample twice or more through the umpire, changing only enemy
state the side's model hides from it, and compares the side's whole output byte for byte
(``tests.support.chancellorsville.side_output``: its views, answers, refusals, reads, autocomplete
choices, map
PNGs and deliveries). A control changes something the side is shown, and the output must then
differ, so that each comparison is able to fail.

* inverted (the hidden-units rule): an unsighted enemy counter shows where it stands, face down;
  which unit it is, its kind and its strength are hidden, and so is any unit not yet on the
  board;
* hidden (the rule's other method): where unsighted enemy units stand, and whether they exist.

Both sides are watched in turn. The observing side's orders include an assault with a die roll
(the roll's value follows its place in the log, so the games are built to log as many events),
orders naming enemy units it does not see, and an assault on a face-down counter out of reach.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from rules import commands as cmd
from rules.chancellorsville.raid_module import settings
from rules.chancellorsville.victory import holders
from rules.combat.commands import Assault
from rules.state import GameState
from tests.support.chancellorsville import (
    RULES,
    Play,
    Timeline,
    arriving,
    differs,
    mentions,
    placed,
    side_output,
)

DEVIN = "Pleasonton's division: Devin's brigade"
MORRIS = "Morris' regiment"
FITZ = "Fitz Lee's cavalry brigade"
ROONEY = "W. H. F. Lee's cavalry brigade"

#: The Union's first orders: a cavalry charge on Anderson's division at Zoan Church (rolled), a
#: charge on the face-down counter at C1527 (out of reach: refused), and orders naming
#: Confederate units its troops do not see, by name and by their place.
UNION_ORDERS: tuple[cmd.Command, ...] = (
    cmd.Move(unit=DEVIN, route="C2918"),
    Assault(units=(DEVIN,), target="Anderson's division"),
    Assault(units=(MORRIS,), target="C1527"),
    Assault(units=(MORRIS,), target=FITZ),
    Assault(units=(MORRIS,), target="marker-4"),
    cmd.Move(unit=FITZ, route="C1526"),
    cmd.Move(unit="Cavalry HQ (Stuart)", route="C1426"),
    cmd.SetFormation(unit=ROONEY, formation="line"),
    cmd.Move(unit=MORRIS, route="Z9999"),
)

#: The path rule sees as far as its paths run (ruling CV-6): these plays give it a day limit
#: of 20, as a turn may, so that the units they watch stay out of sight as the plays need.
DAY_LIMIT = 20
#: Stuart's horse near Todd's Tavern, face down and out of the Union's sight.
STUART_UNSEEN = ("fitz-lee", "whf-lee", "stuart-hq", "stuart-horse-arty")


def confederate_rides(brigade: str) -> tuple[cmd.Command, ...]:
    """The Confederates' first orders: the brigade at C1527 rides out a hex and back."""
    return (cmd.Move(unit=brigade, route="C1528"), cmd.Move(unit=brigade, route="C1527"))


def union_watches(rule: str, information: str = "inverted", **more: Any) -> Play:
    """The Union's orders and the Confederates' ride, as ``more`` changes them."""
    return replace(Play(information=information, sighting=rule, unseen=STUART_UNSEEN,
                        orders={"union": UNION_ORDERS, "confederate": confederate_rides(FITZ)},
                        path_limit=DAY_LIMIT), **more)


#: Under the inverted model: the two brigades trade places, the horse battery is another
#: battery of another kind and strength, Stuart's HQ has another name, and a brigade is on its
#: way (it enters on turn 9).
MASKED = {"units": {"fitz-lee": {"at": "C0527"}, "whf-lee": {"at": "C1527"},
                    "stuart-horse-arty": {"name": "Breathed's battery", "kind": "cavalry",
                                          "strength": 3},
                    "stuart-hq": {"name": "Cavalry HQ (Hampton)"}},
          "extra": arriving("hampton", "confederate", "Hampton's cavalry brigade", "cavalry",
                            3, 9, "C0136"),
          "orders": {"union": UNION_ORDERS, "confederate": confederate_rides(ROONEY)}}


@pytest.mark.parametrize("rule", RULES)
async def test_inverted_face_down_counters_tell_the_union_nothing(
        tmp_path: Path, rule: str) -> None:
    base = await side_output(tmp_path, "base", union_watches(rule), "union",
                             around=("C1527",))
    masked = await side_output(tmp_path, "masked", union_watches(rule, **MASKED), "union",
                               around=("C1527",))
    assert mentions(base, "Anderson's division") and mentions(base, "roll")
    for name in (FITZ, ROONEY, "Cavalry HQ (Stuart)", "Cavalry HQ (Hampton)", "Breathed's",
                 "Hampton's", "Stuart Horse Artillery", *STUART_UNSEEN):
        assert not mentions(base + masked, name), name
    assert differs(base, masked) == []
    assert base == masked
    # Control: a face-down counter's place is shown under this model.
    moved = await side_output(tmp_path, "moved", union_watches(
        rule, units={"fitz-lee": {"at": "C1528"}},
        orders={"union": UNION_ORDERS, "confederate": ()}), "union", around=("C1527",))
    assert moved != base


async def test_face_down_counters_change_neither_when_nor_in_what_order_the_union_hears(
        tmp_path: Path) -> None:
    """Ruling INFO-13: the same games, compared on the Union's timeline (which round trip after
    each command, in which lane, saying what) rather than on bytes alone."""
    timelines: dict[str, Timeline] = {}
    for name, play in (("base", union_watches("los")),
                       ("masked", union_watches("los", **MASKED)),
                       ("stronger", union_watches("los", units={"alexander-bn": {
                           "strength": 4}}))):
        timelines[name] = []
        await side_output(tmp_path, f"{name}-timed", play, "union", timeline=timelines[name])
    assert any(len(drain) > 1 for drain in timelines["base"])
    assert timelines["masked"] == timelines["base"]
    # Control: the strength of a battalion its troops see is shown to the Union.
    assert timelines["stronger"] != timelines["base"]


#: Under the hidden model: Stuart's horse stands elsewhere in the Wilderness (still out of the
#: Union's sight), under other names and strengths, a brigade exists that the base game lacks,
#: and another arrives on turn 2, out of sight.
ELSEWHERE = {"units": {"fitz-lee": {"at": "C0830", "name": "Rosser's cavalry brigade",
                                    "strength": 4},
                       "whf-lee": {"at": "C0333"},
                       "stuart-hq": {"at": "C1232", "name": "Cavalry HQ (Hampton)"},
                       "stuart-horse-arty": {"at": "C1232", "strength": 2}},
             "extra": placed("hampton", "confederate", "Hampton's cavalry brigade", "cavalry",
                             3, "C0630", command="cavalry-div")
             + arriving("jones", "confederate", "Jones' cavalry brigade", "cavalry", 2, 2,
                        "C0136"),
             "orders": {"union": UNION_ORDERS,
                        "confederate": (cmd.Move(unit="Rosser's cavalry brigade",
                                                 route="C0831"),
                                        cmd.Move(unit="Hampton's cavalry brigade",
                                                 route="C0631"))}}


@pytest.mark.parametrize("rule", RULES)
async def test_hidden_units_out_of_sight_tell_the_union_nothing(
        tmp_path: Path, rule: str) -> None:
    base = await side_output(tmp_path, "base", union_watches(rule, "hidden"), "union")
    states: list[GameState] = []
    elsewhere = await side_output(tmp_path, "elsewhere", union_watches(
        rule, "hidden", unseen=(*STUART_UNSEEN, "hampton", "jones"), **ELSEWHERE), "union",
        last=states)
    assert states[0].units["jones"].cell is not None  # it did arrive
    assert mentions(base, "Anderson's division") and mentions(base, "roll")
    for name in (FITZ, ROONEY, "Rosser's", "Hampton's", "Jones'", "Cavalry HQ (Stuart)",
                 "Stuart Horse Artillery", "C0830", *STUART_UNSEEN):
        assert not mentions(base + elsewhere, name), name
    assert differs(base, elsewhere) == []
    assert base == elsewhere
    # Control: what the Union's troops see reaches the Union.
    weaker = await side_output(tmp_path, "weaker", union_watches(
        rule, "hidden", units={"anderson": {"strength": 7}}), "union")
    assert weaker != base


#: Hooker's units the Confederates do not see at dawn, under either sighting rule (the ones
#: these tests change are among them).
HOOKER_UNSEEN = ("averell-mcintosh", "averell-sargent", "birney", "buford-reserve",
                 "gregg-kilpatrick", "gregg-wyndham", "griffin", "hancock", "humphreys")

#: The Confederates' first orders: a charge at a counter they see face down at C2705 (out of
#: reach), and orders naming Union units they do not see.
CONFEDERATE_ORDERS: tuple[cmd.Command, ...] = (
    Assault(units=(FITZ,), target="C2705"),
    Assault(units=(FITZ,), target="Birney's division"),
    cmd.Move(unit="Birney's division", route="C2706"),
    cmd.Move(unit="Gregg's division: Kilpatrick's brigade", route="C0217"),
    cmd.Move(unit=FITZ, route="C1528"),
)


def confederates_watch(rule: str, information: str = "inverted", *,
                       marching: str = "Humphreys'", **more: Any) -> Play:
    """The Union's division at C2509 marches out a hex and back; the Confederates probe."""
    union = (cmd.Move(unit=f"{marching} division", route="C2510"),
             cmd.Move(unit=f"{marching} division", route="C2509"))
    return replace(Play(information=information, sighting=rule, unseen=HOOKER_UNSEEN,
                        orders={"confederate": CONFEDERATE_ORDERS, "union": union},
                        path_limit=DAY_LIMIT), **more)


@pytest.mark.parametrize("rule", RULES)
async def test_inverted_face_down_counters_tell_the_confederates_nothing(
        tmp_path: Path, rule: str) -> None:
    """The raiders trade places, two pairs of divisions trade places (so the one that marches
    is the other), Hancock's is weaker and a brigade has another name."""
    base = await side_output(tmp_path, "base", confederates_watch(rule), "confederate")
    traded = await side_output(tmp_path, "traded", confederates_watch(
        rule, marching="Griffin's",
        units={"gregg-kilpatrick": {"at": "C0506"}, "averell-mcintosh": {"at": "C0218"},
               "humphreys": {"at": "C2515"}, "griffin": {"at": "C2509"},
               "birney": {"at": "C2513"}, "hancock": {"at": "C2705", "strength": 3},
               "gregg-wyndham": {"name": "Gregg's division: Irvin's brigade"}}),
        "confederate")
    for name in ("Birney's division", "Humphreys' division", "Griffin's division", "Irvin's",
                 "Hancock's", "Wyndham's", "Gregg's division: Kilpatrick's brigade",
                 "McIntosh", *HOOKER_UNSEEN):
        assert not mentions(base + traded, name), name
    assert differs(base, traded) == []
    assert base == traded
    # Control: what the Confederates' troops see reaches them.
    weaker = await side_output(tmp_path, "weaker", confederates_watch(
        rule, units={"geary": {"strength": 4}}), "confederate")
    assert weaker != base


@pytest.mark.parametrize("rule", RULES)
async def test_hidden_units_out_of_sight_tell_the_confederates_nothing(
        tmp_path: Path, rule: str) -> None:
    """Under the hidden model the raiders stand elsewhere, out of sight, one of them is not in
    the game at all, and a division has another strength."""
    base = await side_output(tmp_path, "base", confederates_watch(rule, "hidden"),
                             "confederate")
    elsewhere = await side_output(tmp_path, "elsewhere", confederates_watch(
        rule, "hidden", units={"gregg-kilpatrick": {"at": "C0112"},
                               "averell-sargent": {"at": "C0309", "strength": 4},
                               "birney": {"strength": 3},
                               "buford-reserve": {"side": "union", "at": "C0114"}},
        extra=placed("gregg-irvin", "union", "Gregg's division: Irvin's brigade", "cavalry",
                     2, "C0113", command="gregg-div")), "confederate")
    for name in ("Birney's division", "Gregg's division: Kilpatrick's brigade", "Sargent",
                 "Irvin", *HOOKER_UNSEEN):
        assert not mentions(base + elsewhere, name), name
    assert differs(base, elsewhere) == []
    assert base == elsewhere


def steinwehr_marches(rule: str, then: str) -> Play:
    """Hidden model: von Steinwehr's division, in the Confederates' sight at dawn, steps out
    of it, then goes on to ``then``, unseen."""
    union = (cmd.Move(unit="von Steinwehr's division", route="C1918"),
             cmd.Move(unit="von Steinwehr's division", route=then))
    return Play(information="hidden", sighting=rule, unseen=("steinwehr", *HOOKER_UNSEEN),
                orders={"confederate": CONFEDERATE_ORDERS, "union": union},
                path_limit=DAY_LIMIT)


@pytest.mark.parametrize("rule", RULES)
async def test_a_ghost_stays_where_the_confederates_last_saw_it(
        tmp_path: Path, rule: str) -> None:
    """Once von Steinwehr's division is lost from sight, the Confederates keep its ghost where
    they last saw it, whichever way it goes on."""
    east = await side_output(tmp_path, "east", steinwehr_marches(rule, "C2018"), "confederate")
    south = await side_output(tmp_path, "south", steinwehr_marches(rule, "C1919"),
                              "confederate")
    lost = "Lost from sight: von Steinwehr's division, last"
    assert any(lost in t and "C1917" in t for t in east)
    assert differs(east, south) == []
    assert east == south


#: The first two turns played at night: troops see only next door (visibility 1).
def night(rule: str) -> tuple[tuple[str, str], ...]:
    """The first two turns made night, with the limit the rule reads (CV-6)."""
    limit = "clear_path_limit" if rule == "clear_path" else "visibility"
    return tuple((f'turn = {n}\ntime = "{t}"\nday = 1\nlight = "day"',
                  f'turn = {n}\ntime = "{t}"\nday = 1\nlight = "night"\n{limit} = 1')
                 for n, t in ((1, "06:00"), (2, "11:00")))


#: Lee's army, out of the Union's sight at night (nobody is next door).
LEE_UNSEEN = ("ap-hill", "colston", "early", "jackson-hq", "lee-hq", "pendleton-reserve",
              "rodes", *STUART_UNSEEN)


def union_at_night(rule: str, information: str, marching: str = "Rodes'",
                   **more: Any) -> Play:
    """At night: the Union charges Anderson's division (next door, so in sight) and probes;
    the Confederate division at C4025 marches out a hex and back."""
    confederate = (cmd.Move(unit=f"{marching} division", route="C4026"),
                   cmd.Move(unit=f"{marching} division", route="C4025"))
    return replace(Play(information=information, sighting=rule, edits=night(rule),
                        unseen=LEE_UNSEEN,
                        orders={"union": UNION_ORDERS, "confederate": confederate}), **more)


@pytest.mark.parametrize("information", ["inverted", "hidden"])
@pytest.mark.parametrize("rule", RULES)
async def test_at_night_lees_army_tells_the_union_nothing(
        tmp_path: Path, rule: str, information: str) -> None:
    """At night the Union sees only what stands next to its troops. Two of Jackson's
    divisions trade places and strengths (the one that marches is the other), Early's has
    another name, the reserve artillery is infantry and Lee's HQ another name: the Union's
    output is the same."""
    base = await side_output(tmp_path, "base", union_at_night(rule, information), "union",
                             turns=1)
    traded = await side_output(tmp_path, "traded", union_at_night(
        rule, information, marching="Colston's",
        units={"rodes": {"at": "C3925", "strength": 6}, "colston": {"at": "C4025"},
               "early": {"name": "Trimble's division"},
               "pendleton-reserve": {"kind": "infantry"},
               "lee-hq": {"name": "Army HQ (Longstreet)"}}), "union", turns=1)
    assert mentions(base, "night; visibility 1")
    assert mentions(base, "Anderson's division") and mentions(base, "roll")
    for name in ("Rodes' division", "Colston's division", "Early's division", "Trimble's",
                 "Reserve artillery (Pendleton)", "(Longstreet)", *LEE_UNSEEN):
        assert not mentions(base + traded, name), name
    assert differs(base, traded) == []
    assert base == traded


# -- the raid ----------------------------------------------------------------------------------
RAID = {"raid": True}


@pytest.mark.parametrize("rule", RULES)
async def test_under_the_raid_unseen_confederates_tell_the_union_nothing(
        tmp_path: Path, rule: str) -> None:
    """With the raid the Union sees Confederate units only while sighted (the hidden model):
    Stuart's horse elsewhere, renamed, stronger, one more brigade, tell it nothing."""
    base = await side_output(tmp_path, "base", union_watches(rule, options=RAID), "union")
    elsewhere = await side_output(tmp_path, "elsewhere", union_watches(
        rule, options=RAID, unseen=(*STUART_UNSEEN, "hampton", "jones"), **ELSEWHERE),
        "union")
    assert mentions(base, "raid option is played") and mentions(base, "Anderson's division")
    for name in (FITZ, "Rosser's", "Hampton's", "Cavalry HQ (Stuart)", "Stuart Horse Artillery",
                 *STUART_UNSEEN):
        assert not mentions(base + elsewhere, name), name
    assert differs(base, elsewhere) == []
    assert base == elsewhere
    weaker = await side_output(tmp_path, "weaker", union_watches(
        rule, options=RAID, units={"anderson": {"strength": 7}}), "union")
    assert weaker != base


#: The Union's orders that the Confederates, who see every Federal unit face up under the raid,
#: must still not learn of: a division marching out and back, and orders refused.
UNION_BUSY: tuple[cmd.Command, ...] = (
    cmd.Move(unit="Humphreys' division", route="C2510"),
    cmd.Move(unit="Humphreys' division", route="C2509"),
    cmd.Move(unit="Humphreys' division", route="C4848"),
    Assault(units=(MORRIS,), target=FITZ),
    cmd.Move(unit="Buford's Reserve Brigade", route="C0321"),
)


@pytest.mark.parametrize("rule", RULES)
async def test_under_the_raid_the_union_is_face_up_but_its_orders_are_its_own(
        tmp_path: Path, rule: str) -> None:
    """The Confederates see every Federal unit, so nothing about them is varied; what the
    Union does that leaves no trace on the board (a march out and back, refused orders, the
    MPs spent) must not reach them."""
    quiet = Play(sighting=rule, options=RAID, orders={"confederate": CONFEDERATE_ORDERS})
    busy = replace(quiet, may_refuse=True,
                   orders={"confederate": CONFEDERATE_ORDERS, "union": UNION_BUSY})
    base = await side_output(tmp_path, "quiet", quiet, "confederate")
    other = await side_output(tmp_path, "busy", busy, "confederate")
    assert mentions(base, "Humphreys' division") and mentions(base, MORRIS)
    assert differs(base, other) == []
    assert base == other
    # Control: a Federal unit that moves and stays moved is shown where it went.
    moved = await side_output(tmp_path, "moved", replace(quiet, orders={
        "confederate": CONFEDERATE_ORDERS,
        "union": (cmd.Move(unit="Humphreys' division", route="C2510"),)}), "confederate")
    assert moved != base


#: A scored place the Union holds, in the woods by Todd's Tavern, out of its sight.
CHURCH = (('[[map.places]]\nname = "Germanna Ford"',
           '[[map.places]]\nname = "Piney Branch Church"\nat = "C1528"\nkind = "church"\n\n'
           '[[map.places]]\nname = "Germanna Ford"'),
          ('places = [\n',
           'places = [\n  { place = "Piney Branch Church", points = 2, holder = "union" },\n'))


@pytest.mark.parametrize("rule", RULES)
async def test_under_the_raid_a_place_taken_out_of_sight_is_not_told(
        tmp_path: Path, rule: str) -> None:
    """Who holds a scored place is kept for the umpire until the end: Fitz Lee's brigade
    riding into the Union's church out of its sight, or to a hex beside it, tells the Union
    nothing before the end."""
    def ride(to: str) -> Play:
        return union_watches(rule, options=RAID, edits=CHURCH, orders={
            "union": UNION_ORDERS, "confederate": (cmd.Move(unit=FITZ, route=to),)})

    states: list[GameState] = []
    taken = await side_output(tmp_path, "taken", ride("C1528"), "union", last=states)
    beside = await side_output(tmp_path, "beside", ride("C1526"), "union", last=states)
    held = [holders(s, settings(s.loaded))["Piney Branch Church"] for s in states]
    assert held == ["confederate", "union"]  # the umpire did see the place change hands
    assert mentions(taken, "Piney Branch Church")
    assert differs(taken, beside) == []
    assert taken == beside
