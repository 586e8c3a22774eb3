"""The sample games in ``scenarios/`` load through the loader and hold the facts that the docs,
the demo and other tests lean on: board sizes, terrain at named cells, roads that join up, orders
of battle, the raid tags, and the tables the rule texts print."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from rules.forces.words import COMBAT_KINDS
from rules.ground.gamemap import Road
from rules.ground.grid import Cell
from rules.scenario.loader import LoadedScenario, parse_model
from rules.scenario.models import UnitSpec
from rules.scenario.ruleset import Ruleset
from tests.support.hand_maps import SCENARIOS, load_sample


@pytest.fixture(scope="module")
def flank() -> LoadedScenario:
    return load_sample("flank-march")


@pytest.fixture(scope="module")
def hidden() -> LoadedScenario:
    return load_sample("chancellorsville-hidden")


def units_by_id(loaded: LoadedScenario) -> dict[str, UnitSpec]:
    return {u.id: u for u in loaded.scenario.units}


def terrain(loaded: LoadedScenario, where: str) -> str:
    return loaded.map.terrain_at(loaded.board.parse(where))


# --- Flank March (the Wilderness, 2 May 1863) ---------------------------------------------------

def test_flank_march_header(flank: LoadedScenario) -> None:
    header = flank.scenario.scenario
    assert flank.id == "flank-march"
    assert header.information == "concealed"  # Concealed Forces as written
    assert header.modules == ("surprise_move", "concealed_forces", "combat")
    assert flank.ruleset.id == "brigade-series"


def test_flank_march_has_two_sheets_side_by_side(flank: LoadedScenario) -> None:
    m = flank.scenario.map
    assert [(s.letter, s.at) for s in m.sheets] == [("A", (0, 0)), ("B", (1, 0))]
    assert m.sheet_width >= 32 and m.sheet_height >= 22
    assert (m.sheet_width, m.sheet_height) == (34, 22)
    assert flank.board.grid.width == 68 and flank.board.grid.height == 22
    # labels count from 1 on each sheet: B0101 is the hex just east of A3401
    assert flank.board.parse("A0101") == Cell(0, 0)
    assert flank.board.parse("B0101") == Cell(34, 0)
    assert flank.board.grid.adjacent(flank.board.parse("A3401"), flank.board.parse("B0101"))


def test_flank_march_has_forty_units_a_side(flank: LoadedScenario) -> None:
    sides = Counter(u.side for u in flank.scenario.units)
    assert set(sides) == {"union", "confederate"}
    assert sides["union"] >= 40
    assert sides["confederate"] >= 40
    combat = Counter(u.side for u in flank.scenario.units if u.kind in COMBAT_KINDS)
    assert combat["union"] >= 30 and combat["confederate"] >= 30


def test_flank_march_terrain_at_labelled_cells(flank: LoadedScenario) -> None:
    assert terrain(flank, "B2110") == "town"  # Chancellorsville
    assert terrain(flank, "A0608") == "town"  # Wilderness Tavern
    assert terrain(flank, "B1711") == "hill"  # Fairview
    assert flank.map.elevation_at(flank.board.parse("Fairview")) == 5
    assert terrain(flank, "A2709") == "fields"  # Talley's Farm
    assert terrain(flank, "A0101") == "woods"
    assert terrain(flank, "B1521") == "water"
    assert not flank.map.enterable(flank.board.parse("B1521"))
    elevations = set(flank.map.elevation)
    assert min(elevations) == 0 and max(elevations) == 5


@pytest.mark.parametrize(("place", "label"), [
    ("Wilderness Tavern", "A0608"),
    ("Brock Road crossroads", "A1717"),
    ("Burton's Farm", "A2115"),
    ("Talley's Farm", "A2709"),
    ("Wilderness Church", "A3209"),
    ("Dowdall's Tavern", "B0210"),
    ("Hazel Grove", "B1215"),
    ("Catharine Furnace", "B1319"),
    ("Fairview", "B1711"),
    ("Chancellorsville", "B2110"),
])
def test_flank_march_places_resolve(flank: LoadedScenario, place: str, label: str) -> None:
    cell = flank.board.parse(place)
    assert flank.board.label(cell) == label
    assert flank.board.parse(place.lower()) == cell
    assert flank.board.describe(cell) == f"{label} ({place})"


def test_flank_march_place_prefix(flank: LoadedScenario) -> None:
    assert flank.board.label(flank.board.parse("hazel")) == "B1215"
    assert flank.board.label(flank.board.parse("dowdall")) == "B0210"


def road(loaded: LoadedScenario, name: str) -> Road:
    matches = [r for r in loaded.map.roads if r.name == name]
    assert len(matches) == 1, f"one road named {name!r}"
    return matches[0]


def test_orange_turnpike_is_continuous_from_sheet_a_to_sheet_b(flank: LoadedScenario) -> None:
    pike = road(flank, "Orange Turnpike")
    board, gm = flank.board, flank.map
    assert pike.kind == "pike"
    for a, b in itertools.pairwise(pike.cells):
        assert board.grid.adjacent(a, b), f"{board.label(a)} -> {board.label(b)}"
        assert gm.road_between(a, b) == "pike"
    labels = [board.label(c) for c in pike.cells]
    assert labels[0].startswith("A") and labels[-1].startswith("B")
    assert labels[0] == "A0107" and labels[-1] == "B3411"  # west edge to east edge
    stops = [board.parse(p) for p in ("Wilderness Tavern", "Talley's Farm", "Wilderness Church",
                                      "Dowdall's Tavern", "Chancellorsville")]
    positions = [pike.cells.index(c) for c in stops]
    assert positions == sorted(positions)


def test_brock_road_joins_plank_road_and_turnpike(flank: LoadedScenario) -> None:
    brock = road(flank, "Brock Road")
    plank = road(flank, "Orange Plank Road")
    pike = road(flank, "Orange Turnpike")
    crossroads = flank.board.parse("Brock Road crossroads")
    assert crossroads in brock.cells and crossroads in plank.cells
    assert brock.cells[-1] in pike.cells  # Jackson's column reaches the turnpike
    assert flank.board.label(brock.cells[0])[3:] == "22"  # from the south edge of sheet A
    for a, b in itertools.pairwise(brock.cells):
        assert flank.board.grid.adjacent(a, b)


def test_flank_march_streams_and_fords(flank: LoadedScenario) -> None:
    gm, board = flank.map, flank.board
    names = {h.name: h.kind for h in flank.scenario.map.hexsides}
    assert names["Wilderness Run"] == "stream" and names["Hunting Run"] == "stream"
    assert names["Wilderness Run ford"] == "ford"
    assert gm.hexside_between(board.parse("A0804"), board.parse("A0905")) == "ford"
    assert gm.hexside_between(board.parse("A0807"), board.parse("A0907")) == "stream"
    # the turnpike bridges Wilderness Run: a column on the road pays the pike rate only
    pike = road(flank, "Orange Turnpike").cells
    crossing = [(a, b) for a, b in itertools.pairwise(pike) if gm.hexside_between(a, b)]
    assert crossing, "the turnpike crosses Wilderness Run"
    a, b = crossing[0]
    assert gm.step_cost(a, b, "foot", "column") == flank.ruleset.roads["pike"].cost
    assert gm.step_cost(a, b, "foot", "line") == (
        flank.ruleset.terrain[gm.terrain_at(b)].cost_for("foot", "line")
        + flank.ruleset.hexsides["stream"].extra_cost)


def test_flank_march_order_of_battle(flank: LoadedScenario) -> None:
    units = units_by_id(flank)
    commands = {c.id: c for c in flank.scenario.commands}
    for cid, leader in [("aop", "hooker"), ("xi-corps", "howard"), ("devens-div", "devens"),
                        ("steinwehr-div", "steinwehr"), ("schurz-div", "schurz"),
                        ("anv", "lee"), ("second-corps", "jackson"), ("rodes-div", "rodes"),
                        ("colston-div", "colston"), ("hill-div", "ap-hill"),
                        ("stuart-cav", "stuart")]:
        assert commands[cid].leader == leader
        assert units[leader].kind == "leader"
        assert units[leader].initiative is not None and units[leader].command_range
    rodes = {u.id for u in units.values() if u.command == "rodes-div" and u.kind == "infantry"}
    assert {"doles", "colquitt", "iverson", "ramseur", "oneal"} <= rodes
    hill = {u.id for u in units.values() if u.command == "hill-div" and u.kind == "infantry"}
    assert {"heth", "pender", "lane", "mcgowan", "archer", "thomas"} == hill
    xi = {u.id for u in units.values()
          if u.command in ("devens-div", "steinwehr-div", "schurz-div", "xi-corps")}
    assert {"von-gilsa", "mclean", "buschbeck", "barlow", "schimmelfennig",
            "krzyzanowski"} <= xi
    for u in units.values():
        if u.kind == "infantry":
            assert 3 <= u.strength <= 20, u.id
        # every unit's command chain climbs to an army
        cid = u.command
        while commands[cid].parent:
            cid = commands[cid].parent
        assert commands[cid].echelon == "army", u.id


def test_flank_march_stacking_and_terrain_of_start_cells(flank: LoadedScenario) -> None:
    stacks: Counter[Cell] = Counter()
    for u in flank.scenario.units:
        if u.at:
            cell = flank.board.parse(u.at)
            assert flank.map.enterable(cell), u.id
            if u.kind != "leader":
                stacks[cell] += 1
    assert max(stacks.values()) <= flank.ruleset.stacking_limit


def test_jackson_starts_on_the_brock_road_away_from_the_federals(flank: LoadedScenario) -> None:
    units = units_by_id(flank)
    board = flank.board
    assert units["jackson"].at == "A2115"  # Burton's Farm, on the Plank Road
    brock = road(flank, "Brock Road").cells
    for uid in ("oneal", "iverson", "doles", "colquitt", "ramseur", "paxton", "jones"):
        assert board.parse(units[uid].at) in brock, uid
        assert units[uid].formation == "column"
    union = [board.parse(u.at) for u in flank.scenario.units
             if u.side == "union" and u.at and u.kind in COMBAT_KINDS]
    march = [u for u in flank.scenario.units if "flank-march" in u.tags]
    assert len(march) >= 20
    for u in march:
        if u.at:  # no flank-march unit starts in a blocked hex, nor within trigger range
            nearest = min(board.grid.distance(board.parse(u.at), c) for c in union)
            assert nearest > 2 * flank.ruleset.blocked_radius, u.id
    # the XI Corps right flank hangs in the air west of Talley's Farm
    gilsa = board.parse(units["von-gilsa"].at)
    assert units["von-gilsa"].at == "A2409"
    assert board.grid.distance(gilsa, board.parse("Talley's Farm")) <= 3
    assert all(c.col >= gilsa.col for c in union)


def test_flank_march_arrivals(flank: LoadedScenario) -> None:
    arriving = [u for u in flank.scenario.units if u.arrives is not None]
    assert {"pender", "lane", "mcgowan"} <= {u.id for u in arriving}
    last = flank.scenario.turns[-1].turn
    foot_of_brock = road(flank, "Brock Road").cells[0]
    for u in arriving:
        assert u.arrives is not None
        assert 1 < u.arrives.turn <= last
        assert flank.board.parse(u.arrives.at) == foot_of_brock


def test_flank_march_turn_track(flank: LoadedScenario) -> None:
    turns = flank.scenario.turns
    assert len(turns) >= 16
    assert turns[0].time == "14:00" and turns[-1].time >= "20:00"
    minutes = [int(t.time[:2]) * 60 + int(t.time[3:]) for t in turns]
    assert all(b - a == 20 for a, b in itertools.pairwise(minutes))
    lights = [t.light for t in turns]
    assert lights == sorted(lights, key=["day", "twilight", "night"].index)
    for t in turns:
        assert t.visibility == {"day": None, "twilight": 6, "night": 2}[t.light]
    assert lights.count("twilight") >= 1 and lights.count("night") >= 1


# --- The brigade series ruleset -----------------------------------------------------------------

MP_ACCUMULATION = {  # the Surprise Move article's table: roll -> results for turns 1, 2, 3, 4+
    1: "PPPP", 2: "PPPP", 3: "PPPP", 4: "PPPF", 5: "PPFF", 6: "PFFF",
}


def test_mp_accumulation_table_reads_as_the_article(flank: LoadedScenario) -> None:
    table = flank.ruleset.tables["mp_accumulation"]
    assert table.dice == "1d6"
    assert table.columns == ("1", "2", "3", "4+")
    assert table.modifiers == {"night": -1}
    for roll, expected in MP_ACCUMULATION.items():
        for column, result in zip(table.columns, expected, strict=True):
            assert table.lookup(roll, column) == result, (roll, column)
    assert table.lookup(0, "4+") == "P"  # a night roll of 1 reads the top row
    assert set(table.results) == {"P", "F"}


@pytest.mark.parametrize("name", ["brigade-series", "classic-1961"])
def test_rulesets_are_labelled_stand_in(name: str) -> None:
    path = SCENARIOS / f"{name}.ruleset.toml"
    ruleset = parse_model(Ruleset, path.read_text(encoding="utf-8"), str(path))
    assert ruleset.stand_in is True
    assert "Vedette's own" in ruleset.note
    assert "not any published game's" in ruleset.note
    assert "its own game's" in ruleset.note
    for tid, table in ruleset.tables.items():
        codes = {r for row in table.rows for r in row.results}
        unexplained = codes - set(table.results)
        assert not unexplained, f"{tid}: results without a meaning: {sorted(unexplained)}"
        low, high = table.bounds
        for roll in range(low, high + 1):
            table.row_for(roll)  # every roll of the dice has a row


def test_brigade_series_numbers(flank: LoadedScenario) -> None:
    r = flank.ruleset
    assert r.movement_allowance == {"foot": 6, "horse": 12, "wheeled": 8, "leader": 12}
    assert (r.forced_march_max, r.stacking_limit, r.visibility, r.blocked_radius) == (4, 3, 20, 2)
    assert r.order_delay_mp_per_turn == 10
    assert not r.terrain["water"].enterable
    assert r.terrain["woods"].woods and r.terrain["woods"].los_height == 1
    assert r.terrain["woods"].cost_for("foot", "line") > r.terrain["woods"].cost_for("foot",
                                                                                       "column")
    assert r.roads["pike"].cost == 0.5 and r.hexsides["ridge"].impassable
    cc = r.tables["close_combat"]
    assert cc.kind == "odds"
    assert cc.shifts["stuart_vs_federal_cavalry"] == 2 and cc.shifts["flank"] == 1
    assert [p.side for p in r.sequence] == ["all", "each", "each", "all"]
    assert r.missing_tables(["combat", "surprise_move", "concealed_forces"]) == {}


# --- Chancellorsville, hidden units (1961 style) ------------------------------------------------

def test_hidden_header_and_board(hidden: LoadedScenario) -> None:
    header = hidden.scenario.scenario
    assert header.information == "inverted"
    assert header.modules == ("combat", "chancellorsville", "raid_victory")
    assert hidden.ruleset.id == "classic-1961"
    m = hidden.scenario.map
    assert len(m.sheets) == 1 and m.sheet_width >= 40 and m.sheet_height >= 30
    assert hidden.board.parse("C2317") == hidden.board.parse("2317")  # one sheet: letter optional
    assert len(hidden.scenario.turns) >= 10


@pytest.mark.parametrize(("place", "label", "kind"), [
    ("Chancellorsville", "C2317", "clear"),
    ("United States Ford", "C2607", "ford"),
    ("Germanna Ford", "C0510", "ford"),
    ("Ely's Ford", "C1408", "ford"),
    ("Banks Ford", "C3511", "ford"),
    ("Fredericksburg", "C4319", "town"),
    ("Marye's Heights", "C4119", "fort"),
    ("Hazel Grove", "C2119", "hill"),
    ("Salem Church", "C3419", "clear"),
])
def test_hidden_places(hidden: LoadedScenario, place: str, label: str, kind: str) -> None:
    cell = hidden.board.parse(place)
    assert hidden.board.label(cell) == label
    assert hidden.map.terrain_at(cell) == kind


def test_hidden_rivers_part_the_armies_except_at_fords(hidden: LoadedScenario) -> None:
    gm, board = hidden.map, hidden.board
    assert not gm.enterable(board.parse("C2507"))  # the Rappahannock beside US Ford
    start = board.parse("Chancellorsville")
    seen, todo = {start}, [start]
    while todo:  # walk without crossing river or ford hexes
        for n in gm.grid.neighbours(todo.pop()):
            if n not in seen and gm.terrain_at(n) not in ("river", "ford"):
                seen.add(n)
                todo.append(n)
    assert board.parse("Fredericksburg") in seen
    assert board.parse("Falmouth") not in seen  # across the Rappahannock
    assert board.parse("C0101") not in seen  # across the Rapidan
    assert board.parse("Stafford Heights") not in seen


def test_hidden_has_road_squares_in_the_woods(hidden: LoadedScenario) -> None:
    gm = hidden.map
    road_cells = {c for r in gm.roads for c in r.cells}
    in_woods = [c for c in road_cells
                if not gm.is_woods(c) and sum(gm.is_woods(n) for n in gm.grid.neighbours(c)) >= 4]
    assert len(in_woods) > 0
    assert len(in_woods) >= 20
    assert sum(gm.is_woods(c) for c in gm.grid.cells()) > gm.grid.size // 3  # lots of woods
    assert any(gm.is_hill(c) for c in gm.grid.cells())
    assert sum(gm.is_fort(c) for c in gm.grid.cells()) >= 3
    pike = road(hidden, "Orange Turnpike")
    for a, b in itertools.pairwise(pike.cells):
        assert gm.grid.adjacent(a, b)


def test_hidden_raid_tags_are_exactly_the_articles_units(hidden: LoadedScenario) -> None:
    units = units_by_id(hidden)
    pleasonton = {u.id for u in units.values()
                  if u.command == "pleasonton-div" or "pleasonton" in u.id}
    assert pleasonton and "morris-regt" in units
    expected = {u.id for u in units.values()
                if u.side == "union" and u.movement == 8 and u.kind != "hq"
                and u.id not in pleasonton and u.id != "morris-regt"}
    expected.add("whf-lee")
    tagged = {u.id for u in units.values() if "raid" in u.tags}
    assert tagged == expected
    assert {"averell-sargent", "gregg-kilpatrick", "buford-reserve"} <= tagged
    assert units["whf-lee"].side == "confederate" and units["whf-lee"].kind == "cavalry"
    assert "fitz-lee" not in tagged
    for uid in (*pleasonton, "morris-regt"):
        assert units[uid].movement == 8 and "raid" not in units[uid].tags


def test_hidden_headquarters_and_movement(hidden: LoadedScenario) -> None:
    units = list(hidden.scenario.units)
    hqs = [u for u in units if u.kind == "hq"]
    assert {"hooker-hq", "lee-hq", "jackson-hq", "stuart-hq"} <= {u.id for u in hqs}
    assert all(u.movement == 8 for u in hqs)
    assert all(u.movement == 4 for u in units if u.kind == "infantry")
    assert all(u.movement == 8 for u in units if u.kind == "cavalry")
    assert Counter(u.side for u in units)["union"] >= 30


def test_classic_tables(hidden: LoadedScenario) -> None:
    r = hidden.ruleset
    assert r.missing_tables(["chancellorsville", "raid_victory"]) == {}
    victory = r.tables["victory"]
    assert victory.columns == ("Successful Raid", "No Raid")
    assert victory.dice == "value" and victory.range is not None
    # the same margin never reads worse for the Federals after a successful raid
    order = ["CSA-D", "CSA-M", "DRAW", "USA-M", "USA-D"]
    for row in victory.rows:
        with_raid, without = row.results
        assert order.index(with_raid) >= order.index(without)
    outcome = r.tables["raid_outcome"]
    assert [outcome.lookup(n, "raid") for n in range(1, 7)] == ["S", "S", "N", "N", "N", "N"]
    cc = r.tables["close_combat"]
    assert cc.shifts["stuart_vs_federal_cavalry"] == 2
    assert r.terrain["fort"].fort and r.terrain["woods"].woods and r.terrain["hill"].hill
    assert not r.terrain["river"].enterable and r.terrain["ford"].enterable
