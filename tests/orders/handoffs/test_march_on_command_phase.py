"""Nothing of Concealed Forces is under way in a Command Phase: a side with a concealed force, a
deployment plan filed and a unit detached still has its Command Phase pass on standing orders,
while the side with a surprise move under way keeps its own; the plan is still the side's to
change afterwards, the detachment only by an order of a later Command Phase (rulings FLOW-74,
FLOW-77, CF-25)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.concealed.commands import ClearConcealPlan, ConcealForce, ConcealPlan, MarkDetached
from rules.concealed.offers import concealers, marker_ref, own_forces
from rules.concealed.records import force, is_detached
from rules.concealed.reveal.plans import plan_of
from rules.state import GameState
from rules.view import project
from storage.store import Store
from umpire.demo.main import SCENARIO as FLANK_MARCH
from umpire.demo.main import SEEDS, Seats, _jackson
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError

UNION, CONFEDERATE = 11, 21
SEATS = Seats("g1", {"union": (UNION,), "confederate": (CONFEDERATE,)})


async def _game(store: Store) -> Umpire:
    """Flank-march with every module in force, Concealed Forces among them."""
    umpire = Umpire(store, maps=MapMaker(enabled=False))
    await umpire.create_game(FLANK_MARCH, UNION, game_id="g1", without=(),
                             seed=SEEDS["success"])
    await umpire.join("g1", UNION, "union")
    await umpire.join("g1", CONFEDERATE, "confederate")
    await umpire.start("g1", UNION)
    return umpire


async def _conceal_a_division(umpire: Umpire, state: GameState) -> str:
    """The Union puts a division under a marker; the marker's name in orders."""
    for leader in concealers(state, "union", project(state, "union")):
        try:
            await umpire.handle("g1", UNION, ConcealForce(leader=leader.id))
        except UmpireError:
            continue  # seen by the enemy: the next division
        after = await umpire.repository.state_for("g1")
        return marker_ref(own_forces(after, "union")[0])
    raise AssertionError("no Union division could conceal")


async def _to_turn_two(umpire: Umpire) -> tuple[str, str]:
    """Turn 1: the Union marks von Gilsa detached in the Command Phase, conceals a division
    and files a deployment plan in its Movement Phase, and each side sets a standing order;
    the Confederates order Jackson's surprise move. Every phase ended by hand. The Union's
    marker, and the unit of it with a plan."""
    await umpire.handle("g1", UNION, MarkDetached(unit="von-gilsa"))
    await _jackson(umpire, 1, "success", SEATS)
    await umpire.done("g1", UNION)
    await umpire.done("g1", CONFEDERATE)
    state = await umpire.repository.state_for("g1")
    assert state.current.side == "union" and state.current.allows("move")
    marker = await _conceal_a_division(umpire, state)
    state = await umpire.repository.state_for("g1")
    record = force(state, marker.split()[-1])
    assert record is not None
    planned = next(u for u in record["units"] if not state.units[u].is_leader)
    await umpire.handle("g1", UNION, ConcealPlan(marker=marker, unit=planned, place="here"))
    await umpire.set_standing("g1", UNION, "von-gilsa", "hold")
    await umpire.set_standing("g1", CONFEDERATE, "colston", "hold")
    for _ in range(20):
        state = await umpire.repository.state_for("g1")
        if state.turn == 2:
            return marker, planned
        for side in state.acting_sides():
            if side not in state.done:
                await umpire.done("g1", UNION if side == "union" else CONFEDERATE)
    raise AssertionError("turn 2 not reached")


async def test_a_side_s_concealment_does_not_keep_its_command_phase(tmp_path: Path) -> None:
    """Turn 2's Command Phase passes by itself for the Union, whose concealed force, plan and
    detached unit stand, and not for the Confederates, whose surprise move is under way; in
    the Union's Movement Phase the plan may still be changed, the detachment not (it is an
    order of the Command Phase)."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await _game(store)
        marker, planned = await _to_turn_two(umpire)
        state = await umpire.repository.state_for("g1")
        assert state.current.phase.id == "command", state.current
        # What the Union has of Concealed Forces stands: the force, its plan, the detachment.
        record = force(state, marker.split()[-1])
        assert record is not None and planned in plan_of(record)
        assert is_detached(state, "von-gilsa")
        assert "union" in state.done
        assert "confederate" not in state.done
        await umpire.done("g1", CONFEDERATE)
        state = await umpire.repository.state_for("g1")
        assert state.current.side == "union" and state.current.allows("move"), state.current
        with pytest.raises(UmpireError, match="your Command Phase comes next turn"):
            await umpire.handle("g1", UNION, MarkDetached(unit="von-gilsa", detached=False))
        assert is_detached(await umpire.repository.state_for("g1"), "von-gilsa")
        await umpire.handle("g1", UNION, ClearConcealPlan(marker=marker, unit=planned))
