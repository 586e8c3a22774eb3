"""A side done for the turn is not asked again by what its troops newly see, so that the moment
its phases end tells the enemy nothing of it (rulings FLOW-71, FLOW-75).

In the flank march with enemy units hidden until sighted, the Union player says Done for the
turn in turn 1's Command Phase. In the Confederate Movement Phase, Kershaw's brigade steps into
the Union's sight, or stays where it is. Either way, the Union Fire Phase, which follows the
Confederate one, ends the moment the Confederate player is done with that: the Confederates,
watching the game move on, cannot tell whether the Union saw Kershaw. What the Union saw waits
for its next dossier.
"""

from __future__ import annotations

from pathlib import Path

from rules.commands import Move
from rules.view import project
from storage.records import Recipient
from storage.store import Store
from tests.support.hand_maps import flank_march_union_done
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

UNION, CONFEDERATE = 11, 21
#: Kershaw's step into the Union's sight (from B2812).
INTO_SIGHT = "B2712"


async def _after_the_confederate_move(folder: Path, *, seen: bool
                                      ) -> tuple[tuple[int, str, tuple[str, ...]], list[str],
                                                 list[str], bool]:
    """Where the game stands once the Confederate player is done with the Movement and Fire
    Phases (turn, phase, acting sides), the Confederate player's messages, the Union player's, and
    whether the Union saw Kershaw."""
    async with Store.open(folder / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await flank_march_union_done(umpire, folder, UNION, CONFEDERATE)
        state = await umpire.repository.state_for("g1")
        assert state.current.allows("move") and state.acting_sides() == ("confederate",)
        sighted = False
        if seen:
            await umpire.handle("g1", CONFEDERATE, Move(unit="kershaw", route=INTO_SIGHT))
            moved = await umpire.repository.state_for("g1")
            sighted = any(u.ref == "kershaw" for u in project(moved, "union").enemy_units())
        # The Confederate player finishes the Movement and the Fire Phase, and no more.
        for _ in range(4):
            state = await umpire.repository.state_for("g1")
            if state.turn != 1 or state.acting_sides() != ("confederate",):
                break
            await umpire.done("g1", CONFEDERATE)
        at = (state.turn, state.current.title, state.acting_sides())
        grey = await store.deliveries_for("g1", Recipient("player", str(CONFEDERATE)), limit=500)
        blue = await store.deliveries_for("g1", Recipient("player", str(UNION)), limit=500)
        return at, [d.text for d in grey], [d.text for d in blue], sighted


async def test_the_union_fire_phase_ends_at_once_whether_or_not_its_troops_saw_kershaw(
        tmp_path: Path) -> None:
    (tmp_path / "seen").mkdir()
    (tmp_path / "unseen").mkdir()
    seen_at, _, union_told, sighted = await _after_the_confederate_move(tmp_path / "seen",
                                                                        seen=True)
    unseen_at, _, _, _ = await _after_the_confederate_move(tmp_path / "unseen", seen=False)
    assert sighted, "Kershaw's step is in the Union's sight"
    assert seen_at == unseen_at
    assert seen_at[0] == 2, seen_at  # the Union Fire Phase, and turn 1, are over already
    assert not any("Asked again" in text for text in union_told)
