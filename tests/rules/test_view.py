"""Side views: the one door through which game state reaches a player.

Property tests on random boards and forces: whatever a side does not see of the enemy can change
without changing that side's view; what it sees appears at exactly its model's level.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.forces.location import Withdrawn
from rules.forces.units import Unit
from rules.ground.grid import Cell
from rules.knowledge.sighted import sight
from rules.scenario.loader import LoadedScenario, load
from rules.state import GameState, initial_state
from rules.view import GHOST, IDENTIFIED, MARKER, OWN, project

RULESET = (Path(__file__).parents[1] / "fixtures" / "tiny.ruleset.toml").read_text(encoding="utf-8")
W, H = 10, 8


def random_board(terrain: list[str], elevation: list[str], model: str) -> LoadedScenario:
    units = []
    for n in range(4):
        units.append(f'[[units]]\nid = "b{n}"\nside = "blue"\nname = "Blue {n}"\n'
                     f'kind = "infantry"\nstrength = {n + 2}\nat = "A0101"\n')
        units.append(f'[[units]]\nid = "g{n}"\nside = "grey"\nname = "Grey {n}"\n'
                     f'kind = "cavalry"\nstrength = {n + 3}\nat = "A0101"\n')
    text = f"""
[scenario]
id = "random"
title = "Random"
ruleset = "r.toml"
information = "{model}"
[map]
sheet_width = {W}
sheet_height = {H}
legend = {{ "." = "clear", "w" = "woods", "h" = "hill" }}
[[map.sheets]]
letter = "A"
terrain = \"\"\"
{chr(10).join(terrain)}
\"\"\"
elevation = \"\"\"
{chr(10).join(elevation)}
\"\"\"
[[sides]]
id = "blue"
name = "Blue"
[[sides]]
id = "grey"
name = "Grey"
{chr(10).join(units)}
[[turns]]
turn = 1
time = "12:00"
"""
    return load(text, "random.toml", RULESET.replace("stacking_limit = 2", "stacking_limit = 9"),
                "r.toml")


rows = st.lists(st.text(alphabet=".....wh", min_size=W, max_size=W), min_size=H, max_size=H)
heights = st.lists(st.text(alphabet="0001123", min_size=W, max_size=W), min_size=H, max_size=H)
cells = st.builds(Cell, st.integers(0, W - 1), st.integers(0, H - 1))


def placed(loaded: LoadedScenario, where: list[Cell]) -> GameState:
    state = initial_state(loaded)
    units = dict(state.units)
    for uid, cell in zip(sorted(units), where, strict=False):
        units[uid] = units[uid].placed(cell)
    return replace(state, units=MappingProxyType(units), status="active")


def with_unit(state: GameState, unit: Unit) -> GameState:
    units = dict(state.units)
    units[unit.id] = unit
    return replace(state, units=MappingProxyType(units))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows, heights, st.lists(cells, min_size=8, max_size=8), st.data())
def test_unseen_enemy_changes_leave_the_view_alone(terrain: list[str], elevation: list[str],
                                                   where: list[Cell], data: st.DataObject) -> None:
    for model in ("open", "inverted", "hidden"):
        loaded = random_board(terrain, elevation, model)
        state = placed(loaded, where)
        seen = sight(state)["blue"]
        view = project(state, "blue")
        for enemy in state.enemies_of("blue"):
            assert enemy.cell is not None
            changed = replace(enemy, strength=enemy.strength + 5, name="Someone Else",
                              formation="dismounted", mp_spent=3.0)
            if model == "hidden":
                # Elsewhere, out of sight, too.
                unseen = [c for c in loaded.map.grid.cells()
                          if not seen.sees_cell(loaded.map.idx(c))]
                if unseen:
                    changed = changed.placed(data.draw(st.sampled_from(unseen)))
            if enemy.id in seen.seen_units or (model == "open"):
                changed = replace(enemy, mp_spent=3.0)  # only orders and MPs are private
            assert project(with_unit(state, changed), "blue") == view


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows, heights, st.lists(cells, min_size=8, max_size=8))
def test_each_enemy_appears_at_its_models_level(terrain: list[str], elevation: list[str],
                                                where: list[Cell]) -> None:
    for model in ("open", "inverted", "hidden"):
        state = placed(random_board(terrain, elevation, model), where)
        seen = sight(state)["blue"].seen_units
        view = project(state, "blue")
        levels = sorted(u.level for u in view.units if u.side == "grey")
        expected = []
        for enemy in state.enemies_of("blue"):
            if model == "open" or enemy.id in seen:
                expected.append(IDENTIFIED)
            elif model == "inverted":
                expected.append(MARKER)
        assert levels == sorted(expected)
        assert [u.level for u in view.units if u.side == "blue"] == [OWN] * 4
        markers = [u for u in view.units if u.level == MARKER]
        assert all(u.name == "" and u.strength is None and u.ref.startswith("marker-")
                   for u in markers)


def test_hidden_model_keeps_ghosts_where_last_seen() -> None:
    from rules import events as ev
    from rules.state import apply

    flat = ["." * W] * H
    zero = ["0" * W] * H
    loaded = random_board(flat, zero, "hidden")
    where = [Cell(0, 0)] * 4 + [Cell(3, 0)] * 4  # blue b0..b3 then grey g0..g3
    state = placed(loaded, sorted(where, key=lambda c: c.col))
    state = replace(state, turn=1)
    seen = {u.id: {"cell": [3, 0], "side": "grey", "name": u.name, "short": u.short,
                   "kind": u.kind, "echelon": u.echelon, "strength": u.strength,
                   "formation": u.formation}
            for u in state.enemies_of("blue")}
    state = apply(state, ev.Sighted(audience="side:blue", side="blue", seen=seen))
    state = apply(state, ev.Sighted(audience="side:blue", side="blue", lost=tuple(seen)))
    # Blue keeps one watcher in the corner; the enemy marches off to the far corner.
    units = {k: (replace(u, location=Withdrawn()) if u.side == "blue" and k != "b0" else u)
             for k, u in state.units.items()}
    units = {k: (u.placed(Cell(9, 7)) if u.side == "grey" else u)
             for k, u in units.items()}
    state = replace(state, units=MappingProxyType(units))
    blue_sees = sight(state)["blue"].seen_units
    view = project(state, "blue")
    ghosts = [u for u in view.units if u.level == GHOST]
    assert blue_sees == frozenset()  # 12 hexes away, beyond the 8-hex visibility
    assert len(ghosts) == 4
    assert all(g.cell == Cell(3, 0) and g.last_seen_turn == 1 for g in ghosts)
    assert {g.name for g in ghosts} == {"Grey 0", "Grey 1", "Grey 2", "Grey 3"}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(cells, min_size=8, max_size=8),
       st.lists(st.tuples(st.sampled_from([f"{s}{n}" for s in "bg" for n in range(4)]),
                          st.one_of(st.none(), cells), st.integers(0, 3)),
                min_size=1, max_size=12))
def test_a_view_made_from_the_states_before_is_the_view_made_afresh(
        where: list[Cell], changes: list[tuple[str, Cell | None, int]]) -> None:
    """A side's own counters are carried from the state a command's records were made from,
    patched with the records it replaced (``rules.forces.lineage``): the view is the very one
    worked out from nothing, whatever the units did (moved, left the map, came back)."""
    from rules import view as view_module
    from rules.forces.location import Eliminated
    from rules.state import with_units

    flat = ["." * W] * H
    zero = ["0" * W] * H
    state = placed(random_board(flat, zero, "hidden"), where)
    tables: list[dict[Any, Any]] = [view_module._VIEWS, view_module._OWN]
    for table in tables:
        table.clear()  # (room for the whole example: a full table starts afresh)
    project(state, "blue")
    project(state, "grey")
    for uid, cell, spent in changes:
        unit = state.units[uid]
        moved = (replace(unit, location=Eliminated()) if cell is None
                 else replace(unit.placed(cell), mp_spent=float(spent)))
        state = with_units(state, {uid: moved})
        patched = {side: view_module._own_changed(state.units, side) for side in ("blue", "grey")}
        incremental = {side: project(state, side) for side in ("blue", "grey")}
        kept = [dict(table) for table in tables]
        for table in tables:
            table.clear()
        view_module._placed.forget()
        afresh = {side: project(state, side) for side in ("blue", "grey")}
        for side in ("blue", "grey"):
            assert patched[side] is not None
            assert patched[side] == view_module._own_counters(state, side)
        for table, entries in zip(tables, kept, strict=True):
            table.update(entries)  # (the next state is made from this one's)
        assert incremental == afresh
