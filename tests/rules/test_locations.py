"""Where a unit is: an explicit location (on the map, arriving, in a marker, eliminated,
withdrawn), and where it counts for the rules that measure from it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import pytest

from rules import events as ev
from rules.combat import events as cev
from rules.combat.stragglers import recover_stragglers
from rules.engine import Outcome
from rules.forces.chain_of_command import in_command
from rules.forces.counting import counts_at, enemy_combat_cells, enemy_combat_presences
from rules.forces.location import (
    Arriving,
    Eliminated,
    InMarker,
    Location,
    OnMap,
    Withdrawn,
    location_from_json,
    location_json,
)
from rules.forces.units import Unit
from rules.ground.grid import Cell
from rules.modules.api import RuleModule
from rules.modules.registry import MODULES, register
from rules.scenario.loader import load
from rules.scenario.problems import FileProblems
from rules.state import GameState, apply, from_snapshot, initial_state, to_snapshot, with_units
from tests.support.combat import FIELD, field
from umpire.games import catalog
from umpire.games.dice import SeededDice

FIXTURES = Path(__file__).parents[1] / "fixtures"
TINY = (FIXTURES / "tiny.toml").read_text(encoding="utf-8")
TINY_RULES = (FIXTURES / "tiny.ruleset.toml").read_text(encoding="utf-8")


def tiny(scenario: str = TINY) -> GameState:
    return initial_state(load(scenario, "tiny.toml", TINY_RULES, "tiny.ruleset.toml"))


def options(text: str) -> str:
    """The tiny scenario with ``[scenario.options]`` lines added."""
    head, rest = TINY.split("[map]", 1)
    return f"{head}\n[scenario.options]\n{text}\n\n[map]{rest}"


def place_marker(state: GameState, side: str, cell: Cell) -> tuple[GameState, str]:
    out = Outcome(state, SeededDice(bytes(32), "g"))
    mid = out.new_marker_id(side)
    out.add(ev.MarkerPlaced(marker=mid, side=side, cell=tuple(cell)))
    return out.state, mid


def located(state: GameState, uid: str, location: Location) -> GameState:
    return with_units(state, {uid: replace(state.units[uid], location=location)})


# -- the location itself ---------------------------------------------------------------------
def test_a_unit_has_one_location_and_its_cell_follows_from_it() -> None:
    state = initial_state(catalog.load_file(catalog.find("flank-march")))
    for unit in state.units.values():
        assert isinstance(unit.location, OnMap | Arriving)
        assert unit.cell == (unit.location.cell if isinstance(unit.location, OnMap) else None)
    arriving = [u for u in state.units.values() if isinstance(u.location, Arriving)]
    assert arriving, "the sample has reinforcements"
    unit = arriving[0]
    assert unit.cell is None and not unit.on_map
    assert isinstance(unit.location, Arriving)
    arrived = apply(state, ev.UnitsArrived(units=(unit.id,))).units[unit.id]
    assert arrived.location == OnMap(unit.location.cell) and arrived.cell == unit.location.cell


def test_the_cell_cannot_be_written_past_the_location() -> None:
    unit = tiny().units["blue-1"]
    with pytest.raises((TypeError, ValueError)):  # the cell is worked out, never given
        replace(unit, cell=Cell(1, 1))  # type: ignore[call-arg]
    with pytest.raises((AttributeError, TypeError)):  # a frozen unit, and a read-only cell
        unit.cell = Cell(1, 1)  # type: ignore[misc]
    assert unit.cell == Cell(0, 3)
    assert unit.placed(Cell(2, 2)).location == OnMap(Cell(2, 2))
    for off in (InMarker("0042"), Eliminated(), Withdrawn(), Arriving(3, Cell(1, 1))):
        moved = replace(unit, location=off)
        assert moved.cell is None and not moved.on_map


def test_locations_survive_a_snapshot_and_a_bad_one_is_refused() -> None:
    state = tiny()
    kinds: list[Location] = [OnMap(Cell(1, 2)), Arriving(2, Cell(3, 3)), InMarker("0042"),
                             Eliminated(), Withdrawn()]
    for location in kinds:
        assert location_from_json(location_json(location)) == location
    units = list(state.units)
    for uid, location in zip(units, kinds, strict=False):
        state = located(state, uid, location)
    back = from_snapshot(state.loaded, to_snapshot(state))
    assert back.units == state.units
    with pytest.raises(ValueError, match="not a unit location"):
        location_from_json({"at": "limbo"})


def test_a_snapshot_from_before_locations_reads_back() -> None:
    state = tiny()
    data = to_snapshot(state)
    old: list[dict[str, Any]] = []
    for u in data["units"]:
        u = dict(u)
        loc = u.pop("location")
        u["cell"] = loc.get("cell") if loc["at"] == "map" else None
        u["arrives_turn"] = loc.get("turn")
        u["arrives_at"] = loc.get("cell") if loc["at"] == "arriving" else None
        old.append(u)
    old[0]["cell"], old[0]["arrives_turn"], old[0]["arrives_at"] = None, 2, [3, 3]
    old[1]["cell"] = None
    back = from_snapshot(state.loaded, {**data, "units": old})
    first, second = (back.units[u["id"]] for u in old[:2])
    assert first.location == Arriving(2, Cell(3, 3))
    assert second.location == Eliminated()  # off the map, not arriving: lost its strength
    assert all(back.units[u["id"]] == state.units[u["id"]] for u in old[2:])


# -- eliminated and withdrawn ----------------------------------------------------------------
def test_a_unit_that_loses_all_its_strength_is_eliminated() -> None:
    state = field(catalog.load_file(FIELD))
    hit = apply(state, cev.LossesTaken(unit="c-inf", casualties=100)).units["c-inf"]
    assert hit.location == Eliminated() and hit.strength == 0 and hit.cell is None
    straggled = apply(state, cev.StragglersChecked(unit="c-inf", points=100, reason="x"))
    assert straggled.units["c-inf"].location == Eliminated()
    assert straggled.units["c-inf"].stragglers == state.units["c-inf"].strength
    bruised = apply(state, cev.LossesTaken(unit="c-inf", casualties=1)).units["c-inf"]
    assert bruised.location == state.units["c-inf"].location


def test_the_withdrawn_option_takes_units_out_of_play_before_the_start() -> None:
    state = tiny(options('withdrawn = "blue-2, grey-1"'))
    assert state.units["blue-2"].location == Withdrawn()
    assert state.units["grey-1"].location == Withdrawn()
    assert state.units["blue-1"].location == OnMap(state.loaded.board.parse("A0104"))
    assert counts_at(state, state.units["blue-2"]) is None
    assert "grey-1" not in {p.unit_id for p in _presences(state)}


def _presences(state: GameState) -> list[Any]:
    from rules.knowledge.sighted import presences

    return presences(state)


@pytest.mark.parametrize(("line", "message"), [
    ('withdrawn = "blue-2 nobody"', "scenario.options.withdrawn: not units of this scenario: "
                                    "nobody"),
    ("withdrawn = 3", "scenario.options.withdrawn: a list of unit ids in one string"),
])
def test_a_bad_withdrawn_option_is_a_clear_file_problem(line: str, message: str) -> None:
    with pytest.raises(FileProblems) as caught:
        tiny(options(line))
    assert any(message in str(p) for p in caught.value.problems), caught.value.problems


def test_a_host_taking_a_unit_off_the_map_withdraws_it() -> None:
    state = tiny()
    corrected = apply(state, ev.UnitCorrected(unit="blue-1", changes={"cell": None},
                                              reason="removed by agreement"))
    assert corrected.units["blue-1"].location == Withdrawn()
    back = apply(corrected, ev.UnitCorrected(unit="blue-1", changes={"cell": [2, 2]},
                                             reason="put back"))
    assert back.units["blue-1"].location == OnMap(Cell(2, 2))


# -- where a unit counts ---------------------------------------------------------------------
def test_a_unit_counts_in_its_cell_or_where_its_marker_stands() -> None:
    state = tiny()
    unit = state.units["blue-1"]
    assert counts_at(state, unit) == unit.cell
    state, mid = place_marker(state, "blue", Cell(6, 6))
    hidden = replace(unit, location=InMarker(mid))
    assert counts_at(state, hidden) == Cell(6, 6)
    gone = apply(state, ev.MarkerRemoved(marker=mid))
    assert counts_at(gone, hidden) is None
    for off in (Arriving(3, Cell(1, 1)), Eliminated(), Withdrawn()):
        assert counts_at(state, replace(unit, location=off)) is None


def test_command_range_is_measured_from_the_marker() -> None:
    state = tiny()
    assert in_command(state, state.units["blue-1"])
    far, far_id = place_marker(state, "blue", Cell(7, 7))
    far = located(far, "blue-1", InMarker(far_id))
    assert not in_command(far, far.units["blue-1"])
    near, near_id = place_marker(state, "blue", state.units["blue-gen"].cell or Cell(0, 0))
    near = located(near, "blue-1", InMarker(near_id))
    assert in_command(near, near.units["blue-1"])
    leader_hidden = located(far, "blue-gen", InMarker(far_id))
    leader_hidden = located(leader_hidden, "blue-1", OnMap(Cell(7, 6)))
    assert in_command(leader_hidden, leader_hidden.units["blue-1"])


class _Elsewhere(RuleModule):
    """A test rule: units tagged ``elsewhere`` count in cell (0, 0), and ``nowhere`` nowhere."""

    name: ClassVar[str] = "test_counting"

    def counted_cell(self, state: GameState, unit: Unit, cell: Cell | None) -> Cell | None:
        if "nowhere" in unit.tags:
            return None
        return Cell(0, 0) if "elsewhere" in unit.tags else cell


@pytest.fixture
def elsewhere() -> Iterator[str]:
    register(_Elsewhere())
    yield _Elsewhere.name
    del MODULES[_Elsewhere.name]


def test_a_rule_module_may_say_where_a_unit_counts(elsewhere: str) -> None:
    state = replace(tiny(), modules=(elsewhere,))
    unit = state.units["blue-1"]
    assert counts_at(state, unit) == unit.cell
    assert counts_at(state, replace(unit, tags=("elsewhere",))) == Cell(0, 0)
    assert counts_at(state, replace(unit, tags=("nowhere",))) is None
    state = with_units(state, {"blue-1": replace(unit, tags=("nowhere",))})
    assert not in_command(state, state.units["blue-1"])


# -- distances to the enemy: a marker counts whatever it holds -------------------------------
def _recovery(state: GameState) -> list[ev.Event]:
    out = Outcome(state, SeededDice(bytes(32), "g"))
    recover_stragglers(out)
    return [e for e in out.events if isinstance(e, cev.StragglersRecovered)]


def test_an_enemy_marker_counts_as_one_enemy_whether_real_or_decoy() -> None:
    state = field(catalog.load_file(FIELD))
    board = state.loaded.board
    # Union infantry with stragglers, the Confederates far away but for one marker near it.
    state = with_units(state, {"u-inf": replace(state.units["u-inf"], stragglers=2)})
    for uid in ("c-inf", "c-inf2", "c-bat", "c-cav"):
        state = located(state, uid, Withdrawn())
    assert [e.unit for e in _recovery(state)] == ["u-inf"]
    near = board.parse("A0704")
    decoy, mid = place_marker(state, "confederate", near)
    real = located(decoy, "c-inf", InMarker(mid))
    real = located(real, "c-inf2", InMarker(mid))
    for world in (decoy, real):
        assert _recovery(world) == []
        assert enemy_combat_cells(world, "union") == {near}
        assert enemy_combat_presences(world, "union") == [near]  # one, however many inside
    assert enemy_combat_cells(real, "confederate") == enemy_combat_cells(decoy, "confederate")


def test_a_side_is_told_where_each_of_its_units_is_in_words() -> None:
    from rules.forces.location import location_words

    def name(cell: Cell) -> str:
        return f"{cell.col}/{cell.row}"

    assert [location_words(loc, name) for loc in (
        OnMap(Cell(1, 2)), Arriving(3, Cell(1, 1)), InMarker("0042"), Eliminated(), Withdrawn(),
    )] == ["1/2", "arrives turn 3", "under marker 0042", "eliminated", "withdrawn"]
