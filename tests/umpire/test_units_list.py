"""``/units`` as the umpire writes it (``umpire.words.units``): the side's own units in sections
(movable first, then spent, under markers, and short sections for arriving, eliminated and
withdrawn units), grouped by command, cut into pages, narrowed by a filter; from the side's
view only."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from rules.forces.location import Arriving, Eliminated, InMarker, OnMap, Withdrawn
from rules.ground.grid import Cell
from rules.state import GameState, initial_state, with_units
from rules.view import OWN, project
from storage.store import Store
from umpire.games import catalog
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError
from umpire.words.units import PAGE_LINES, Section, units_list, units_page, units_text

ROOT = Path(__file__).parents[2]
FLANK = ROOT / "scenarios" / "flank-march.toml"
CSA, USA = "confederate", "union"


def flank() -> GameState:
    return initial_state(catalog.load_sources(catalog.read_sources(FLANK)))


def placed(state: GameState, **where: object) -> GameState:
    """Units given new locations (and ``<id>_spent``: MPs spent) by hand."""
    changed = {}
    for key, value in where.items():
        uid = key.replace("_", "-")
        unit = changed.get(uid, state.units[uid])
        changed[uid] = replace(unit, location=value)  # type: ignore[arg-type]
    return with_units(state, changed)


def spent(state: GameState, *ids: str) -> GameState:
    return with_units(state, {i: replace(state.units[i], mp_spent=state.units[i].movement)
                              for i in ids})


def unit_lines(text: str) -> list[str]:
    return [line[2:] for line in text.splitlines() if line.startswith("- ")]


def headings(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith("- ")]


def test_every_own_unit_is_listed_once_in_pages_that_fit_an_embed() -> None:
    state = flank()
    view = project(state, CSA)
    listed = units_list(view)
    own = [u for u in state.units.values() if u.side == CSA]
    assert listed.count == len(own) > 40
    assert len(listed.pages) >= 3
    lines = [line for page in listed.pages for line in unit_lines(page)]
    assert len(lines) == len(own)
    for unit in own:
        assert sum(line.startswith(unit.name + " (") for line in lines) == 1, unit.name
    for page in listed.pages:
        assert len(page) <= 4096 and len(unit_lines(page)) <= PAGE_LINES
    # Nothing of the other side.
    enemy = [u.name for u in state.units.values() if u.side == USA]
    assert not any(name in "".join(listed.pages) for name in enemy)


def test_units_are_grouped_by_corps_then_division_leaders_first() -> None:
    text = units_text(project(flank(), CSA))
    heads = headings(text)
    assert heads[0] == "**Can still move**"
    corps = heads.index("*Second Corps*")
    rodes = heads.index("*Second Corps › Rodes' Division*")
    colston = heads.index("*Second Corps › Colston's (Trimble's) Division*")
    assert corps < rodes < colston
    lines = text.splitlines()
    first_of_rodes = lines[lines.index("*Second Corps › Rodes' Division*") + 1]
    assert first_of_rodes.startswith("- Brig. Gen. Robert E. Rodes (leader, mounted) at A1614")
    after_corps = lines[lines.index("*Second Corps*") + 1]
    assert after_corps.startswith("- Lt. Gen. Thomas J. Jackson (leader")


def test_a_group_cut_by_a_page_is_headed_again() -> None:
    pages = units_list(project(flank(), CSA)).pages
    second = pages[1].splitlines()
    assert second[0] == "**Can still move** (continued)"
    assert second[1].startswith("*") and second[1].endswith("* (continued)")
    assert second[1].removesuffix(" (continued)") in pages[0]


def test_movable_first_then_spent_markers_and_short_sections() -> None:
    state = flank()
    arriving = next(u for u in state.units.values()
                    if u.side == CSA and isinstance(u.location, Arriving))
    state = spent(state, "rodes", "doles")
    state = placed(state, iverson=Eliminated(), ramseur=Withdrawn(), colquitt=InMarker("CF-7"))
    text = units_text(project(state, CSA))
    sections = [h for h in headings(text) if h.startswith("**") and "(continued)" not in h]
    assert sections == ["**" + s.value + "**" for s in Section]
    lines = text.splitlines()

    def section_of(name: str) -> str:
        at = next(i for i, line in enumerate(lines) if line.startswith(f"- {name} ("))
        return next(line for line in reversed(lines[:at])
                    if line.startswith("**")).removesuffix(" (continued)")

    assert section_of("Doles' brigade") == f"**{Section.SPENT.value}**"
    assert section_of("Brig. Gen. Robert E. Rodes") == f"**{Section.SPENT.value}**"
    assert section_of("Iverson's brigade") == f"**{Section.ELIMINATED.value}**"
    assert section_of("Ramseur's brigade") == f"**{Section.WITHDRAWN.value}**"
    assert section_of("Colquitt's brigade") == f"**{Section.MARKED.value}**"
    assert section_of(arriving.name) == f"**{Section.ARRIVING.value}**"
    assert "- Colquitt's brigade (infantry, 17 SP, column) under marker CF-7" in lines
    assert "- Iverson's brigade (infantry)" in lines
    assert "- Ramseur's brigade (infantry)" in lines
    assert isinstance(arriving.location, Arriving)
    label = state.loaded.board.describe(arriving.location.cell)
    assert (f"- {arriving.name} ({arriving.kind}, {arriving.strength} SP): arrives turn "
            f"{arriving.location.turn} at {label}") in lines
    assert "Doles' brigade (infantry, 16 SP, column) at A1411; 0 MP left" in text
    # A unit not on the map is never said to be "at" where it is not.
    assert not re.search(r" at (off the map|arrives|eliminated|withdrawn|under)", text)


def test_the_filter_takes_a_state_a_command_or_a_name_part() -> None:
    state = placed(spent(flank(), "doles"), iverson=Eliminated())
    view = project(state, CSA)
    movable = unit_lines(units_text(view, "movable"))
    assert movable and not any(line.startswith("Doles'") for line in movable)
    assert not any("Iverson" in line for line in movable)
    assert unit_lines(units_text(view, "ELIMINATED")) == ["Iverson's brigade (infantry)"]
    arriving = unit_lines(units_text(view, " arriving "))
    assert arriving and all(": arrives turn " in line for line in arriving)
    # A command takes everything under it: Second Corps holds the divisions' units.
    corps = units_text(view, "second corps")
    assert "Doles' brigade" in corps and "Paxton's (Stonewall) brigade" in corps
    assert "Mahone's brigade" not in corps  # Anderson's Division is not in the corps
    assert unit_lines(units_text(view, "mahone")) == [
        "Mahone's brigade (infantry, 16 SP, line) at B2710; 6 MP left"]
    # A filter that keeps nothing says so and what a filter may be.
    none = units_list(view, "Sedgwick")
    assert none.count == 0 and none.pages == (
        "None of your units matches “Sedgwick”. A filter is a part of a unit's or a command's "
        "name, or one of: movable, arriving, eliminated.",)
    # An enemy's name finds nothing: the list is the side's own.
    assert units_list(view, "Howard").count == 0


def test_a_page_past_the_end_is_the_last_page() -> None:
    view = project(flank(), CSA)
    last = units_page(view, 99)
    assert last.number == last.pages - 1 >= 2 and last.text == units_list(view).pages[-1]
    assert units_page(view, -3).number == 0


def test_the_list_depends_on_nothing_hidden_of_the_enemy() -> None:
    """Vary the enemy's units out of sight (where they stand, their strength, one eliminated):
    the Confederate list is the same to the byte, on every page."""
    base = flank()
    view = project(base, CSA)
    assert all(u.command == "" for u in view.units if u.level != OWN)  # never the enemy's
    assert {c.id for c in view.commands} == {
        c.id for c in base.commands.values() if c.side == CSA}
    varied = placed(base, von_gilsa=OnMap(Cell(1, 1)), barlow=Eliminated())
    varied = with_units(varied, {"howard": replace(varied.units["howard"], strength=99)})
    assert units_list(project(varied, CSA)) == units_list(view)
    assert units_list(project(varied, USA)) != units_list(project(base, USA))


async def test_the_umpire_pages_a_players_own_units(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(FLANK), 1, game_id="g1")
        await umpire.join("g1", 10, CSA)
        await umpire.join("g1", 20, USA)
        await umpire.start("g1", 1)
        first = await umpire.units_page("g1", 10)
        assert first.number == 0 and first.pages >= 3 and first.count > 40
        assert first.side_name == "Army of Northern Virginia"
        union = await umpire.units_page("g1", 20, 0, "xi corps")
        assert "Maj. Gen. Oliver O. Howard" in union.text and "Jackson" not in union.text
        whole = (await umpire.units_text("g1", 10)).text
        assert first.text in whole
        with pytest.raises(UmpireError, match="you are not playing in this game"):
            await umpire.units_page("g1", 99)
