"""The flank march's victory conditions (the scenario's ``[victory]``, Vedette's own stand-in):
places held and losses, read on the brigade series' victory chart by the Confederate margin.

A game played to its last turn, or ended by the host, has a winner, and the result says how it
was reached: each scored place and the side holding it, each side's points for places and for
losses, the margin, the chart and the column read, and that conditions and chart are stand-ins.
Each line is checked against the state and the scenario's own numbers, worked out here by hand.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

import pytest

from rules import commands as cmd
from rules.engine import LAST_TURN_PLAYED, Outcome, decide, end, end_if_over, start
from rules.events import GameEnded
from rules.forces.location import Eliminated
from rules.scenario.loader import LoadedScenario, load
from rules.scenario.problems import FileProblems
from rules.state import GameState, initial_state, with_units
from rules.turn.victory import PlacesTaken, VictoryReached
from rules.view import project, public_view
from storage.store import Store
from tests.support.tiny_games import FLANK
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

SCENARIOS = Path(FLANK).parent
RULESET = SCENARIOS / "brigade-series.ruleset.toml"
SEED = bytes(range(32))
HOST, UNION, CONFEDERATE = 1, 101, 201

#: The sample's places, points and starting holders, as the scenario file gives them.
PLACES = {"Talley's Farm": (2, "union"), "Wilderness Church": (2, "union"),
          "Dowdall's Tavern": (3, "union"), "Hazel Grove": (3, "union"),
          "Fairview": (3, "union"), "Chancellorsville": (4, "union"),
          "Brock Road crossroads": (2, "confederate"), "Catharine Furnace": (1, "confederate")}
NAMES = {"union": "Army of the Potomac", "confederate": "Army of Northern Virginia"}
#: The brigade series' stand-in chart, by the Confederate margin.
CHART = [(-30, -16, "USA-D"), (-15, -6, "USA-M"), (-5, 5, "DRAW"), (6, 15, "CSA-M"),
         (16, 30, "CSA-D")]


def dice(seq: int, purpose: str, spec: str) -> int:
    return 3


def flank(text: str | None = None) -> LoadedScenario:
    scenario = Path(FLANK).read_text(encoding="utf-8") if text is None else text
    return load(scenario, FLANK, RULESET.read_text(encoding="utf-8"), str(RULESET))


def started(loaded: LoadedScenario | None = None) -> GameState:
    return start(initial_state(loaded or flank()), hashlib.sha256(SEED).hexdigest(),
                 dice).state


def host_moves(state: GameState, unit: str, to: str) -> GameState:
    out = decide(state, "", cmd.Correct(unit=unit, changes={"cell": to}, reason="test"), dice,
                 host=True)
    return out.state


def reached(out: Outcome) -> VictoryReached:
    [found] = [e for e in out.events if isinstance(e, VictoryReached)]
    return found


def cell_of(state: GameState, place: str) -> str:
    [found] = [p for p in state.loaded.board.places if p.name == place]
    return state.loaded.board.label(found.cell)


def expected_result(margin: int) -> tuple[str, str]:
    for low, high, code in CHART:
        if low <= max(-30, min(30, margin)) <= high:
            return code, f"{low:+d} to {high:+d}"
    raise AssertionError(margin)


def check_against(result: VictoryReached, holders: dict[str, str], union_lost: int,
                  confederate_lost: int) -> None:
    """Every line of the result, against the places' holders and the losses worked out by
    hand from the scenario's numbers (4 strength points to a point)."""
    assert [(p.place, p.points, p.holder) for p in result.places] == [
        (place, points, NAMES[holders[place]]) for place, (points, _) in PLACES.items()]
    places = {side: sum(points for place, (points, _) in PLACES.items()
                        if holders[place] == side) for side in NAMES}
    csa, usa = result.scores
    assert (csa.name, csa.places, csa.losses) == (NAMES["confederate"], places["confederate"],
                                                  union_lost // 4)
    assert (usa.name, usa.places, usa.losses) == (NAMES["union"], places["union"],
                                                  confederate_lost // 4)
    assert f"lost {union_lost} strength point" in csa.counted
    margin = csa.total - usa.total
    assert result.margin == margin
    code, row = expected_result(margin)
    assert (result.result, result.chart.column, result.chart.row) == (code, "result", row)
    assert result.chart.title == "Victory (stand-in)" and result.chart.stand_in
    assert result.stand_in
    text = result.report(public_view(started()))
    for place, (points, _) in PLACES.items():
        assert f"- {place} ({points} point{'s' if points != 1 else ''}): " \
               f"{NAMES[holders[place]]}" in text
    assert f"**{csa.total} points**" in text and f"**{usa.total} points**" in text
    assert f"Chart read: Victory (stand-in), column 'result', at a margin of {margin:+d}" in text
    assert "Both the victory conditions and the chart are Vedette's own stand-ins" in text


# -- a winner, and how ---------------------------------------------------------------------------
def test_ending_the_untouched_game_reads_the_starting_holders() -> None:
    out = end(started(), SEED.hex(), "the host ends it", dice)
    result = reached(out)
    check_against(result, {p: holder for p, (_, holder) in PLACES.items()}, 0, 0)
    # 3 to 17: the Federals win by doing nothing, as an attacker who never attacks should lose
    assert (result.margin, result.result) == (-14, "USA-M")
    kinds = [type(e) for e in out.events]
    assert kinds.index(VictoryReached) < kinds.index(GameEnded)


def test_places_taken_and_losses_change_the_result_line_by_line() -> None:
    state = started()
    # O'Neal's brigade sweeps along the pike: it stands in Talley's Farm, then in Wilderness
    # Church, then in Dowdall's Tavern, and ends there; the last to stand in a place holds it.
    oneal = next(u.id for u in state.units.values() if u.name.startswith("O'Neal"))
    for place in ("Talley's Farm", "Wilderness Church", "Dowdall's Tavern"):
        state = host_moves(state, oneal, cell_of(state, place))
    # The Union brigades that stood in Dowdall's Tavern's hex have gone: only O'Neal is there.
    for u in state.units.values():
        if u.side == "union" and u.cell == state.units[oneal].cell:
            state = host_moves(state, u.id, "B0510")
    # A Union brigade of 20 and a Confederate one of 14 are eliminated; a battery half lost.
    mclean = next(u for u in state.units.values() if u.name == "McLean's brigade")
    iverson = next(u for u in state.units.values() if u.name == "Iverson's brigade")
    dilger = next(u for u in state.units.values() if u.name.startswith("Battery I, 1st Ohio"))
    state = with_units(state, {
        mclean.id: replace(mclean, strength=0, location=Eliminated()),
        iverson.id: replace(iverson, strength=0, location=Eliminated()),
        dilger.id: replace(dilger, strength=1)})
    holders = {p: holder for p, (_, holder) in PLACES.items()}
    holders.update({"Talley's Farm": "confederate", "Wilderness Church": "confederate",
                    "Dowdall's Tavern": "confederate"})
    result = reached(end(state, SEED.hex(), "the host ends it", dice))
    check_against(result, holders, union_lost=20 + 2, confederate_lost=14)
    # 10 + 5 against 10 + 3: a draw
    assert (result.margin, result.result) == (2, "DRAW")


def test_a_place_left_stays_with_the_last_side_in_it() -> None:
    state = started()
    oneal = next(u.id for u in state.units.values() if u.name.startswith("O'Neal"))
    state = host_moves(state, oneal, cell_of(state, "Talley's Farm"))
    state = host_moves(state, oneal, "A1310")
    holders = {p: holder for p, (_, holder) in PLACES.items()} | {"Talley's Farm": "confederate"}
    check_against(reached(end(state, SEED.hex(), "ends", dice)), holders, 0, 0)


def test_the_last_turn_played_ends_with_the_result_before_the_seed() -> None:
    state = started()
    out = Outcome(replace(state, turn=state.last_turn), dice)
    for _ in range(60):
        for side in out.state.acting_sides():
            step = decide(out.state, side, cmd.Done(), dice)
            out = replace(step, events=[*out.events, *step.events])
        if out.finished:
            break
    assert end_if_over(out, SEED.hex())
    kinds = [type(e) for e in out.events]
    assert kinds.index(VictoryReached) < kinds.index(GameEnded)
    assert next(e for e in out.events if isinstance(e, GameEnded)).reason == LAST_TURN_PLAYED
    assert reached(out).result == "USA-M"


# -- nothing before the end ----------------------------------------------------------------------
def test_who_holds_a_place_is_the_umpires_alone_during_play() -> None:
    state = started()
    oneal = next(u.id for u in state.units.values() if u.name.startswith("O'Neal"))
    out = decide(state, "", cmd.Correct(unit=oneal, changes={"cell": cell_of(
        state, "Talley's Farm")}, reason="test"), dice, host=True)
    taken = [e for e in out.events if isinstance(e, PlacesTaken)]
    assert taken == [PlacesTaken(held={"Talley's Farm": "confederate"})]
    assert all(e.audience == "umpire" for e in taken)
    assert not any(isinstance(e, VictoryReached) for e in out.events)
    # The Union's view is the same whoever holds the place: nothing in it says so.
    before = project(out.state, "union")
    kept = replace(out.state, module_data={k: v for k, v in out.state.module_data.items()
                                           if k != "victory"})
    assert project(kept, "union") == before


# -- the file --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("old", "new", "said"), [
    ('{ place = "Fairview", points = 3', '{ place = "Fairvew", points = 3',
     "victory.places[4].place: 'Fairvew' is not one of the map's places"),
    ('margin_for = "confederate"', 'margin_for = "rebels"',
     "victory.margin_for: 'rebels' is not one of the sides"),
    ('column = "result"', 'column = "No Raid"',
     "victory.column: table 'victory' has no column 'No Raid'"),
    ('chart = "victory"', 'chart = "straggler"',
     "victory.chart: table 'straggler' is rolled"),
    ('chart = "victory"', 'chart = "victories"',
     "victory.chart: the ruleset has no table 'victories'"),
    ('holder = "confederate" },\n  { place = "Catharine',
     'holder = "csa" },\n  { place = "Catharine',
     "victory.places[6].holder: 'csa' is not one of the sides"),
])
def test_a_wrong_victory_section_is_refused_with_its_field(old: str, new: str,
                                                          said: str) -> None:
    text = Path(FLANK).read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(FileProblems) as found:
        flank(text.replace(old, new, 1))
    assert said in str(found.value)


# -- through the umpire: the end post and /game status -------------------------------------------
async def test_the_end_post_and_the_status_explain_the_result(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "fm.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(FLANK, HOST, game_id="g1", seed=SEED)
        await umpire.join("g1", UNION, "union")
        await umpire.join("g1", CONFEDERATE, "confederate")
        await umpire.start("g1", HOST)
        during = (await umpire.status("g1", UNION)).text
        assert "Victory" not in during and "Places held" not in during
        await umpire.end_game("g1", HOST)
        posted = [d.text for d in await store.pending_deliveries("g1", limit=10_000)
                  if d.kind == "public"]
        [report] = [t for t in posted if t.startswith("**After-action report")]
        assert "defines no victory conditions" not in report
        assert "**Union marginal victory** (USA-M)" in report
        assert "- Dowdall's Tavern (3 points): Army of the Potomac" in report
        assert "column 'result', at a margin of -14 (row -15 to -6)" in report
        after = (await umpire.status("g1", UNION)).text
        assert "**Union marginal victory** (USA-M)" in after
        assert "- Brock Road crossroads (2 points): Army of Northern Virginia" in after
