"""The umpire service on real database files: setting up, playing, durability and secrecy."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from rules import commands as cmd
from rules.state import to_snapshot
from storage.store import Store
from tests.support.tiny_games import told
from umpire.games import dice
from umpire.reads.maps import MapMaker
from umpire.service import SNAPSHOT_EVERY, Umpire, UmpireError

FIXTURES = Path(__file__).parents[1] / "fixtures"
TINY = str(FIXTURES / "tiny.toml")
HOST, BLUE, GREY = 1, 10, 20


async def new_game(store: Store, gid: str = "g1", scenario: str = TINY) -> Umpire:
    umpire = Umpire(store, maps=MapMaker(enabled=False))
    await umpire.create_game(scenario, HOST, game_id=gid, channel_id=None)
    await umpire.join(gid, BLUE, "blue")
    await umpire.join(gid, GREY, "grey")
    await umpire.start(gid, HOST)
    return umpire


async def play_to_blue_movement(umpire: Umpire, gid: str = "g1") -> None:
    """The command phase passes by itself while no module gives it an action (written orders
    come with the surprise-move module): play opens with Blue's movement phase."""
    state = await umpire.repository.state_for(gid)
    assert state.current.phase.id == "movement" and state.current.side == "blue"


async def test_setup_start_and_phases(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store)
        state = await umpire.repository.state_for("g1")
        assert state.status == "active" and state.turn == 1
        assert state.current.phase.id == "movement"
        assert state.acting_sides() == ("blue",)
        public = [d.text for d in await store.pending_deliveries("g1") if d.kind == "public"]
        game = await store.get_game("g1")
        assert game is not None
        assert any(dice.commitment(game.seed) in t for t in public)
        assert game.seed.hex() not in "".join(public)
        await play_to_blue_movement(umpire)
        with pytest.raises(UmpireError, match="it is the Blue Army Movement Phase, not yours"):
            await umpire.handle("g1", GREY, cmd.Move(unit="grey-1", route="B0604"))


async def test_move_is_durable_and_reloads(tmp_path: Path) -> None:
    db = tmp_path / "v.db"
    async with Store.open(db) as store:
        umpire = await new_game(store)
        await play_to_blue_movement(umpire)
        reply = await umpire.handle("g1", BLUE, cmd.Move(unit="1st brigade", route="A0304"))
        assert "1st Brigade moved 2 cell(s) to A0304 (Old Church)" in reply.text
        before = to_snapshot(await umpire.repository.state_for("g1"))
    async with Store.open(db) as store:
        fresh = Umpire(store, maps=MapMaker(enabled=False))
        after = to_snapshot(await fresh.repository.state_for("g1"))
        assert after == before
        assert to_snapshot(await fresh.repository.replay_all("g1")) == before


async def test_refused_commands_change_nothing(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store)
        await play_to_blue_movement(umpire)
        seq = await store.last_seq("g1")
        pending = len(await store.pending_deliveries("g1"))
        bad = [
            cmd.Move(unit="Grey Brigade", route="A0304"),
            cmd.Move(unit="nobody", route="A0304"),
            cmd.Move(unit="1st Brigade", route="Z9999"),
            cmd.Move(unit="1st Brigade", route="A0205"),
            cmd.Move(unit="1st Brigade", route="road A0101"),  # no road: refused with advice
            cmd.SetFormation(unit="1st Brigade", formation="square"),
            cmd.Correct(unit="blue-1", changes={"strength": 1}, reason="cheating"),
        ]
        for command in bad:
            with pytest.raises(UmpireError):
                await umpire.handle("g1", BLUE, command)
        assert await store.last_seq("g1") == seq
        assert len(await store.pending_deliveries("g1")) == pending


async def test_enemy_and_unknown_unit_names_get_the_same_answer(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store)
        await play_to_blue_movement(umpire)
        answers = []
        for name in ("Grey Battery", "Gray Batterz"):
            with pytest.raises(UmpireError) as caught:
                await umpire.handle("g1", BLUE, cmd.Move(unit=name, route="A0304"))
            answers.append(str(caught.value).replace(name, "NAME"))
        assert answers[0] == answers[1] == "You have no unit called 'NAME'."


async def test_host_tools(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store)
        with pytest.raises(UmpireError, match="only the game's host"):
            await umpire.handle("g1", BLUE, cmd.Pause())
        await umpire.handle("g1", HOST, cmd.Pause(reason="dinner"))
        with pytest.raises(UmpireError, match="paused"):
            await umpire.handle("g1", BLUE, cmd.Done())
        await umpire.handle("g1", HOST, cmd.Pause(paused=False))
        await umpire.handle("g1", HOST, cmd.ForceEndPhase())
        state = await umpire.repository.state_for("g1")
        assert state.current.phase.id == "movement" and state.current.side == "grey"
        await umpire.handle("g1", HOST, cmd.Correct(unit="grey-1", changes={"strength": 5},
                                                    reason="misprint"))
        assert (await umpire.repository.state_for("g1")).units["grey-1"].strength == 5
        host_notes = [d for d in await store.pending_deliveries("g1") if d.kind == "host"]
        assert host_notes and "misprint" in host_notes[-1].text


async def test_game_ends_with_the_seed_and_verifies(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from umpire.verify.check import verify

    db = tmp_path / "v.db"
    async with Store.open(db) as store:
        umpire = await new_game(store)
        assert await verify(db, "g1") == 1  # the seed is still secret
        await umpire.end_game("g1", HOST)
        game = await store.get_game("g1")
        assert game is not None and game.status == "ended"
        public = [d.text for d in await store.pending_deliveries("g1") if d.kind == "public"]
        assert game.seed.hex() in public[-1]
    assert await verify(db, None) == 0
    assert "all 0 rolls verified" in capsys.readouterr().out


async def test_last_turn_ends_the_game(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store)
        for _ in range(3 * 3):
            state = await umpire.repository.state_for("g1")
            if state.status == "ended":
                break
            await umpire.handle("g1", HOST, cmd.ForceEndPhase())
        assert (await umpire.repository.state_for("g1")).status == "ended"
        assert (await store.get_game("g1")).status == "ended"  # type: ignore[union-attr]


async def test_snapshots_equal_full_replay(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store)
        await play_to_blue_movement(umpire)
        for _ in range(SNAPSHOT_EVERY):
            for route in ("A0204", "A0104"):
                try:
                    await umpire.handle("g1", BLUE, cmd.Move(unit="blue-gen", route=route))
                except UmpireError:
                    break
            await umpire.handle("g1", HOST, cmd.Correct(unit="blue-gen", changes={
                "cell": "A0204"}, reason="back to the start"))
            if await store.last_seq("g1") > SNAPSHOT_EVERY + 5:
                break
        assert await store.latest_snapshot("g1") is not None
        fresh = Umpire(store, maps=MapMaker(enabled=False))
        assert to_snapshot(await fresh.repository.state_for("g1")) == \
            to_snapshot(await fresh.repository.replay_all("g1"))


async def test_twenty_games_at_once(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        gids = [f"g{n:02d}" for n in range(20)]

        async def play(gid: str) -> None:
            await umpire.create_game(TINY, HOST, game_id=gid)
            await umpire.join(gid, BLUE, "blue")
            await umpire.join(gid, GREY, "grey")
            await umpire.start(gid, HOST)
            await umpire.handle(gid, BLUE, cmd.Move(unit="blue-gen", route="A0304"))
            await asyncio.sleep(0)
            await umpire.handle(gid, BLUE, cmd.Done())
            await umpire.handle(gid, GREY, cmd.Move(unit="grey-1", route="B0604"))

        await asyncio.gather(*(play(g) for g in gids))
        for gid in gids:
            events = await store.events(gid)
            assert [e.seq for e in events] == list(range(1, len(events) + 1))
            assert all(e.game_id == gid for e in events)
            moved = [e.payload["unit"] for e in events if e.type == "unit_moved"]
            assert moved == ["blue-gen", "grey-1"]


async def test_side_deliveries_do_not_depend_on_hidden_enemy_state(tmp_path: Path) -> None:
    """Two games that differ only in where an unseen enemy unit stands give Blue byte-identical
    deliveries (hidden model)."""
    texts: list[list[str]] = []
    for where in ("B0801", "B0701"):  # both out of Blue's sight from B0204
        scenario = tmp_path / f"hidden-{where}.toml"
        text = (FIXTURES / "tiny.toml").read_text(encoding="utf-8")
        text = text.replace('information = "open"', 'information = "hidden"')
        text = text.replace('strength = 2\nat = "B0703"', f'strength = 2\nat = "{where}"')
        text = text.replace('ruleset = "tiny.ruleset.toml"',
                            f'ruleset = "{FIXTURES / "tiny.ruleset.toml"}"')
        scenario.write_text(text, encoding="utf-8")
        async with Store.open(tmp_path / f"{where}.db") as store:
            umpire = await new_game(store, scenario=str(scenario))
            await play_to_blue_movement(umpire)
            await umpire.handle("g1", BLUE, cmd.Move(unit="1st Brigade", route="road B0204"))
            await umpire.handle("g1", BLUE, cmd.Done())
            await umpire.handle("g1", GREY, cmd.Done())
            got = await told(store, "blue", BLUE)
            texts.append(got)
    assert texts[0] == texts[1]
    assert any("Your troops sight: Grey Brigade" in t for t in texts[0])
    assert not any("Grey Battery" in t for t in texts[0])


async def test_contact_at_the_first_step_halts_the_unit(tmp_path: Path) -> None:
    """Running into an enemy at once is not a free probe: the unit halts for the phase."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store)
        await umpire.handle("g1", HOST, cmd.Correct(unit="grey-1", changes={"cell": "A0204"},
                                                    reason="a patrol"))
        reply = await umpire.handle("g1", BLUE, cmd.Move(unit="1st Brigade", route="A0204"))
        assert "ran into the enemy at its first step and halts" in reply.text
        state = await umpire.repository.state_for("g1")
        assert state.units["blue-1"].cell == state.loaded.board.parse("A0104")
        assert state.units["blue-1"].mp_left == 0
        with pytest.raises(UmpireError, match=r"1st Brigade has no MP left this phase: its first "
                           r"step \(A0104 to A0105, clear\) costs 1 MP"):
            await umpire.handle("g1", BLUE, cmd.Move(unit="1st Brigade", route="A0105"))
