"""A move's preview walks its route against the enemy the side's own view shows (ruling ORD-44):
the cases that once promised a destination the unit could not reach, with the enemy that stopped
it on the player's own map, replayed on real database files; and a preview that stays the same
whatever the enemy does where the side cannot see."""

from __future__ import annotations

from pathlib import Path

from rules import commands as cmd
from rules.view import IDENTIFIED, project
from storage.store import Store
from umpire.demo import chancellorsville as cv
from umpire.demo.main import SCENARIO as FLANK_MARCH
from umpire.demo.main import SEEDS
from umpire.reads.maps import MapMaker
from umpire.reads.preview import MovePlan, plan_move
from umpire.service import Umpire

HOST, UNION, CONFEDERATE = 1, 10, 20


async def flank_march(store: Store, **places: str) -> Umpire:
    """The flank-march sample in the Confederate Movement Phase of turn 1, units first put
    where ``places`` says (unit id: label) by the host."""
    umpire = Umpire(store, maps=MapMaker(enabled=False))
    await umpire.create_game(FLANK_MARCH, HOST, game_id="g1", seed=SEEDS["success"])
    await umpire.join("g1", UNION, "union")
    await umpire.join("g1", CONFEDERATE, "confederate")
    await umpire.start("g1", HOST)
    for uid, label in places.items():
        await umpire.handle("g1", HOST, cmd.Correct(unit=uid, changes={"cell": label},
                                                    reason="placed for the case"))
    for user in (UNION, CONFEDERATE, UNION):  # the Command Phase, then the Union's movement
        await umpire.handle("g1", user, cmd.Done())
    state = await umpire.repository.state_for("g1")
    assert state.current.side == "confederate" and state.current.allows("move")
    return umpire


async def label_of(umpire: Umpire, uid: str) -> str:
    state = await umpire.repository.state_for("g1")
    cell = state.units[uid].cell
    assert cell is not None
    return state.loaded.board.label(cell)


async def previewed(umpire: Umpire, user: int, unit: str, route: str) -> MovePlan:
    plan = await plan_move(umpire, "g1", user, unit, route)
    assert plan is not None
    return plan


async def test_von_gilsa_seen_at_a2409_stops_a_move_to_talleys_farm_at_a2309(
        tmp_path: Path) -> None:
    """The preview once said "It ends at A2709 (Talley's Farm)"; the move then ran into von
    Gilsa at A2409, whom the Confederates saw, and stopped at A2309."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await flank_march(store, **{"1st-va-cav": "A2209"})
        plan = await previewed(umpire, CONFEDERATE, "1st Virginia Cavalry", "Talley's Farm")
        assert ("It stops at A2309: von Gilsa's brigade, which your troops see at A2409, is next "
                "on its way, with ") in plan.text
        assert "unless the enemy or the rules stop it sooner." in plan.text
        assert "ends at A2709" not in plan.text
        assert plan.end == "A2309"
        reply = await umpire.handle("g1", CONFEDERATE, cmd.Move(unit="1st Virginia Cavalry",
                                                                route="Talley's Farm"))
        assert "ran into the enemy" in reply.text
        assert await label_of(umpire, "1st-va-cav") == plan.end


async def test_birney_seen_at_b1217_stops_the_rear_guard_at_b1218(tmp_path: Path) -> None:
    """The preview once said "It ends at B1216"; the 23rd Georgia then stopped at B1218, next
    to Graham's brigade and Birney at B1217, on the Confederates' own map."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await flank_march(store)
        plan = await previewed(umpire, CONFEDERATE, "23rd Georgia", "B1216")
        assert ("It stops at B1218: Graham's brigade and 1 other unit, which your troops see at "
                "B1217, are next on its way, with 3 MP left") in plan.text
        assert plan.cells == ("B1319", "B1218") and plan.end == "B1218"
        await umpire.handle("g1", CONFEDERATE, cmd.Move(unit="23rd Georgia", route="B1216"))
        assert await label_of(umpire, "23rd-ga") == "B1218"
        state = await umpire.repository.state_for("g1")
        assert state.units["23rd-ga"].mp_left == 3


async def test_devin_face_up_at_c2121_is_no_destination_in_the_raid_game(tmp_path: Path
                                                                           ) -> None:
    """In the raid game the preview once said "ends at C2121" where Devin stood face up."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(cv.SCENARIO, HOST, game_id="g1", seed=cv.SEEDS[True],
                                 options=cv.OPTIONS[True])
        await umpire.join("g1", UNION, "union")
        await umpire.join("g1", CONFEDERATE, "confederate")
        await umpire.start("g1", HOST)
        for uid, label in (("pleasonton-devin", "C2121"), ("fitz-lee", "C1922")):
            await umpire.handle("g1", HOST, cmd.Correct(unit=uid, changes={"cell": label},
                                                        reason="placed for the case"))
        await umpire.handle("g1", UNION, cmd.Done())
        state = await umpire.repository.state_for("g1")
        devin = [u for u in project(state, "confederate").units
                 if u.ref == "pleasonton-devin"]
        assert [(u.level, state.loaded.board.label(u.cell)) for u in devin] == [
            (IDENTIFIED, "C2121")]
        plan = await previewed(umpire, CONFEDERATE, "Fitz Lee's cavalry brigade", "C2121")
        assert ("It stops at C2021: Pleasonton's division: Devin's brigade, which your troops "
                "see at C2121 (Catharine Furnace), is next on its way, with 7.5 MP left"
                ) in plan.text
        assert "It ends at" not in plan.text
        await umpire.handle("g1", CONFEDERATE, cmd.Move(unit="Fitz Lee's cavalry brigade",
                                                        route="C2121"))
        assert await label_of(umpire, "fitz-lee") == plan.end == "C2021"
