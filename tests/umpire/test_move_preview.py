"""Moves as a player means them, on real database files: a route longer than the MPs stops
where they run out, the preview prices each step and Confirm does what it said, the player's
preview setting, and refusals that give a way forward from public facts only."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import commands as cmd
from storage.store import Store
from umpire.reads.maps import MapMaker
from umpire.reads.player_settings import DEFAULT_PREVIEW, Preview
from umpire.reads.preview import plan_move
from umpire.service import Umpire, UmpireError

FIXTURES = Path(__file__).parents[1] / "fixtures"
TINY = str(FIXTURES / "tiny.toml")
HOST, BLUE, GREY = 1, 10, 20


async def new_game(store: Store, gid: str = "g1") -> Umpire:
    umpire = Umpire(store, maps=MapMaker(enabled=False))
    await umpire.create_game(TINY, HOST, game_id=gid, channel_id=None, seed=bytes(range(32)))
    await umpire.join(gid, BLUE, "blue")
    await umpire.join(gid, GREY, "grey")
    await umpire.start(gid, HOST)
    return umpire


async def test_a_route_longer_than_the_mps_stops_where_they_run_out(tmp_path: Path) -> None:
    """ORD-1: the 1st Brigade's 6 MPs pay for twelve road cells of fifteen. The order is no
    longer refused: the brigade stops at B0504, and the answer says where and why."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store)
        reply = await umpire.handle("g1", BLUE, cmd.Move(unit="1st Brigade", route="road B0804"))
        assert reply.text == ("1st Brigade moved 12 cell(s) to B0504, spending 6 MP (0 left). "
                              "It stopped: its MPs ran out at B0504.")
        state = await umpire.repository.state_for("g1")
        unit = state.units["blue-1"]
        assert unit.cell is not None and state.loaded.board.label(unit.cell) == "B0504"
        assert unit.mp_left == 0


async def test_a_first_step_the_mps_cannot_pay_for_is_refused_and_changes_nothing(
        tmp_path: Path) -> None:
    """ORD-1: with nothing left the unit cannot move at all: a clear refusal saying so."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store)
        await umpire.handle("g1", BLUE, cmd.Move(unit="1st Brigade", route="road B0804"))
        seq = await store.last_seq("g1")
        with pytest.raises(UmpireError, match=r"^1st Brigade has no MP left this phase: its first "
                           r"step \(B0504 to B0604, by road, in column\) costs 0.5 MP$"):
            await umpire.handle("g1", BLUE, cmd.Move(unit="1st Brigade", route="B0604"))
        assert await store.last_seq("g1") == seq


async def test_the_preview_prices_each_step_and_says_where_it_stops(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store)
        plan = await plan_move(umpire, "g1", BLUE, "1st Brigade", "road B0804")
        assert plan is not None
        assert plan.text.splitlines() == [
            "**1st Brigade** at A0104, in column, 6 MP left, ordered 'road B0804' (by road):",
            "1-12. A0204 to B0504: 0.5 MP each (by road, in column), 0 MP left",
            "Not reached (no MPs left for them): B0604, B0704, B0804.",
            "It stops at B0504: its MPs run out, with 0 MP left, unless the enemy or the rules "
            "stop it sooner.",
            "Confirm to give the order.",
        ]
        assert plan.end == "B0504" and plan.out_of_mp and len(plan.cells) == 12
        across = await plan_move(umpire, "g1", BLUE, "2nd Brigade", "A0106 A0806")
        assert across is not None
        short = await plan_move(umpire, "g1", BLUE, "2nd Brigade", "A0106")
        assert short is not None and "\n1. A0106: 1 MP (clear), 5 MP left\n" in short.text
        assert "1-6. A0106 to A0606: 1 MP each (clear), 0 MP left" in across.text


@pytest.mark.parametrize(("unit", "route"), [("1st Brigade", "road B0804"),
                                             ("2nd Brigade", "A0106 A0806"),
                                             ("1st Brigade", "A0101"),
                                             ("2nd Brigade", "A0106")])
async def test_confirm_does_exactly_what_the_preview_said(tmp_path: Path, unit: str,
                                                          route: str) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store)
        plan = await plan_move(umpire, "g1", BLUE, unit, route)
        assert plan is not None
        await umpire.handle("g1", BLUE, cmd.Move(unit=unit, route=route))
        state = await umpire.repository.state_for("g1")
        moved = next(u for u in state.units_of("blue") if u.name == unit)
        assert moved.cell is not None and state.loaded.board.label(moved.cell) == plan.end
        left = plan.text.splitlines()[-2].split(" with ")[1].split(" MP left")[0]
        assert float(left) == moved.mp_left


async def test_the_preview_setting_is_per_player_kept_and_shown(tmp_path: Path) -> None:
    """ORD-2: by default every move is previewed; with the setting off only moves by road or
    longer than LONG_ROUTE cells are. The setting is the player's, for every game, and
    survives a restart."""
    db = tmp_path / "v.db"
    async with Store.open(db) as store:
        umpire = await new_game(store)
        assert DEFAULT_PREVIEW is Preview.ON
        assert await umpire.preview_setting(BLUE) is Preview.ON
        assert await plan_move(umpire, "g1", BLUE, "2nd Brigade", "A0106") is not None
        assert await umpire.set_preview_setting(BLUE, Preview.OFF) is Preview.OFF
        assert await plan_move(umpire, "g1", BLUE, "2nd Brigade", "A0106") is None
        assert await plan_move(umpire, "g1", BLUE, "1st Brigade", "road A0304") is not None
        assert await plan_move(umpire, "g1", BLUE, "2nd Brigade", "A0106 A0806") is not None
        assert await umpire.preview_setting(GREY) is Preview.ON  # another player's own
    async with Store.open(db) as store:
        again = Umpire(store, maps=MapMaker(enabled=False))
        assert await again.preview_setting(BLUE) is Preview.OFF
        await store.set_state(f"player-setting:{GREY}:preview", "sideways")
        assert await again.preview_setting(GREY) is Preview.ON


async def test_not_your_phase_says_when_yours_comes(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store)
        with pytest.raises(UmpireError, match=r"^it is the Blue Army Movement Phase, not yours: "
                           r"your Movement Phase comes after it$"):
            await umpire.handle("g1", GREY, cmd.Move(unit="Grey Brigade", route="B0604"))
        await umpire.handle("g1", BLUE, cmd.Done())
        with pytest.raises(UmpireError, match=r"^it is the Grey Army Movement Phase, not yours: "
                           r"your Movement Phase comes next turn$"):
            await umpire.handle("g1", BLUE, cmd.Move(unit="1st Brigade", route="A0204"))


async def test_a_road_leg_with_no_road_names_the_road_to_take(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store)
        seq = await store.last_seq("g1")
        # The Grey Brigade at B0704 is on Blue's map (the open model): no way there this can
        # suggest keeps clear of it, and the answer says so (ruling ORD-46).
        with pytest.raises(UmpireError, match=r"no road joins A0105 to B0804: A0105 is not on a "
                           r"road; the nearest road cell is A0104 \(1 away\); 'A0104 road "
                           r"B0804' would pass B0604, next to the enemy your troops know of, and "
                           r"so would every other way this can suggest: give waypoints round "
                           r"it$"):
            await umpire.handle("g1", BLUE, cmd.Move(unit="2nd Brigade", route="road B0804"))
        with pytest.raises(UmpireError, match=r"A0101 is not on a road: try 'A0101' \(across "
                           r"country\)$"):
            await plan_move(umpire, "g1", BLUE, "1st Brigade", "road A0101")
        assert await store.last_seq("g1") == seq


async def refusals(tmp_path: Path, name: str, grey_at: str) -> list[str]:
    """Blue's words for the two refusals that give a way forward, with the Grey Brigade
    (hidden from Blue) put at ``grey_at`` by the host."""
    async with Store.open(tmp_path / f"{name}.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        text = Path(TINY).read_text(encoding="utf-8").replace(
            'ruleset = "tiny.ruleset.toml"', f'ruleset = "{FIXTURES / "tiny.ruleset.toml"}"')
        text = text.replace('information = "open"', 'information = "hidden"')
        scenario = tmp_path / f"{name}.toml"
        scenario.write_text(text, encoding="utf-8")
        await umpire.create_game(str(scenario), HOST, game_id="g1", seed=bytes(range(32)))
        await umpire.join("g1", BLUE, "blue")
        await umpire.join("g1", GREY, "grey")
        await umpire.start("g1", HOST)
        await umpire.handle("g1", HOST, cmd.Correct(unit="grey-1", changes={"cell": grey_at},
                                                    reason="placed"))
        out = []
        for command in (cmd.Move(unit="2nd Brigade", route="road B0804"), cmd.Done(),
                        cmd.Move(unit="1st Brigade", route="A0204")):
            try:
                out.append((await umpire.handle("g1", BLUE, command)).text)
            except UmpireError as e:
                out.append(str(e))
        return out


async def test_the_ways_forward_depend_on_public_facts_only(tmp_path: Path) -> None:
    """Where the hidden Grey Brigade stands changes neither the road advice nor when Blue's
    phase comes."""
    assert (await refusals(tmp_path, "near", "B0604")
            == await refusals(tmp_path, "far", "B0806"))
