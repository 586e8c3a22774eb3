"""Who holds a scored place is never told before the end (ruling VIC-4). A cheater on the Union
side would like to learn, from anything the umpire says, that an unseen Confederate column has
taken a place the victory conditions score. The same game is played twice: a Confederate cavalry
regiment rides out of the Union's sight either into a scored place or into the hex beside it.
Everything the Union is told, and its whole view, must be the same both times; at the end the
public result differs, as it may, which shows the comparison can fail."""

from __future__ import annotations

import hashlib
from pathlib import Path

from rules import commands as cmd
from rules.engine import Outcome, decide, end, start
from rules.events import GameEvent
from rules.scenario.loader import load
from rules.state import GameState, initial_state
from rules.turn.victory import PlacesTaken, VictoryReached
from rules.view import project, public_view

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "flank-march.toml"
RULESET = ROOT / "scenarios" / "brigade-series.ruleset.toml"
SEED = bytes(range(32))
#: Ellwood, far to the west of every Union unit, scored for the Union in this test.
ELLWOOD, BESIDE = "A1005", "A1006"
RIDER = "2nd Virginia Cavalry"


def dice(seq: int, purpose: str, spec: str) -> int:
    return 3


def game() -> GameState:
    text = SCENARIO.read_text(encoding="utf-8")
    anchor = '  { place = "Catharine Furnace", points = 1, holder = "confederate" },\n'
    assert anchor in text
    text = text.replace(anchor, anchor + '  { place = "Ellwood", points = 5, holder = "union" },\n')
    # The regiment starts a ride short of Ellwood (where its first move would take it).
    start_at = 'at = "A1511"'
    assert text.count(start_at) == 1
    text = text.replace(start_at, 'at = "A1207"')
    # Counters unseen are not on the enemy's map at all (the hidden model, without the
    # concealment markers that would otherwise show every unit not under one).
    for old, new in (('information = "concealed"', 'information = "hidden"'),
                     ('modules = ["surprise_move", "concealed_forces", "combat"]',
                      'modules = ["surprise_move", "combat"]')):
        assert text.count(old) == 1
        text = text.replace(old, new)
    # A mist on the first turn, so that nobody sees more than 2 hexes: the ride goes unseen.
    first = 'turn = 1\ntime = "14:00"\nday = 1\nlight = "day"\n'
    assert text.count(first) == 1
    text = text.replace(first, first + "visibility = 2\n")
    loaded = load(text, str(SCENARIO), RULESET.read_text(encoding="utf-8"), str(RULESET))
    state = start(initial_state(loaded), hashlib.sha256(SEED).hexdigest(), dice).state
    for _ in range(40):  # on to the first phase in which the Confederates move
        if state.current.allows("move") and "confederate" in state.acting_sides():
            return state
        for side in state.acting_sides():
            state = decide(state, side, cmd.Done(), dice).state
    raise AssertionError("no Confederate movement phase")


def told_to_union(out: Outcome) -> list[GameEvent]:
    return [e for e in out.events if e.audience in ("public", "side:union")]


def test_an_unseen_column_taking_a_place_tells_the_union_nothing() -> None:
    state = game()
    rider = next(u.id for u in state.units.values() if u.name.startswith(RIDER))
    taken, beside = (decide(state, "confederate", cmd.Move(unit=rider, route=to), dice)
                     for to in (ELLWOOD, BESIDE))
    assert taken.state.loaded.board.label(taken.state.units[rider].cell) == ELLWOOD
    assert beside.state.loaded.board.label(beside.state.units[rider].cell) == BESIDE
    # The place changed hands, for the umpire alone, and only in the first game.
    assert [e.held for e in taken.events if isinstance(e, PlacesTaken)] == [
        {"Ellwood": "confederate"}]
    assert not any(isinstance(e, PlacesTaken) for e in beside.events)
    # The rider is out of the Union's sight both times ...
    for out in (taken, beside):
        cell = out.state.units[rider].cell
        assert all(u.cell != cell for u in project(out.state, "union").enemy_units())
    # ... and the Union is told the same, and sees the same.
    assert told_to_union(taken) == told_to_union(beside)
    assert project(taken.state, "union") == project(beside.state, "union")
    assert public_view(taken.state) == public_view(beside.state)
    # At the end everything is public, and the result says who held Ellwood.
    results = [next(e for e in end(o.state, SEED.hex(), "ends", dice).events
                    if isinstance(e, VictoryReached)) for o in (taken, beside)]
    held = [{p.place: p.holder for p in r.places}["Ellwood"] for r in results]
    assert held == ["Army of Northern Virginia", "Army of the Potomac"]
