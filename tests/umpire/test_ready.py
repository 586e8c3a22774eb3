"""Ready players on a shared side (``umpire.games.ready``), through the umpire on real database
files: who must be done before the side is, what the side-mates and nobody else are told, the host's
end of a phase, seats given up while the others wait, and the Done button's checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import commands as cmd
from storage.records import Recipient
from storage.store import Store
from tests.support.commitments import masked
from tests.support.tiny_games import C1, C2, FLANK, U1, U2, done_commands
from umpire.games import ready
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError
from umpire.verify.check import verify

HOST = 1
SEED = bytes(range(32))


async def shared_game(store: Store, *, options: dict[str, str | int | bool] | None = None,
                      gid: str = "g1") -> Umpire:
    """Flank march with two players on each side, started: the Command Phase, both sides act."""
    umpire = Umpire(store, maps=MapMaker(enabled=False))
    await umpire.create_game(FLANK, HOST, game_id=gid, seed=SEED, options=options)
    for user, side in ((U1, "union"), (U2, "union"), (C1, "confederate"), (C2, "confederate")):
        await umpire.join(gid, user, side)
    await umpire.start(gid, HOST)
    state = await umpire.repository.state_for(gid)
    assert state.current.phase.id == "command" and state.acting_sides() == ("union",
                                                                           "confederate")
    return umpire


async def sent_since(store: Store, mark: int, gid: str = "g1") -> list[tuple[str, str, str]]:
    return [(d.kind, d.target, d.text) for d in await store.pending_deliveries(gid)
            if d.id > mark]


async def last_id(store: Store, gid: str = "g1") -> int:
    return max((d.id for d in await store.pending_deliveries(gid)), default=0)


async def test_a_shared_side_finishes_when_all_its_players_are_done(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await shared_game(store)
        mark = await last_id(store)
        first = await umpire.done("g1", U1)
        assert first.text.startswith("You are ready; still giving orders: <@12>")
        state = await umpire.repository.state_for("g1")
        assert "union" not in state.done  # the rules have not heard of it
        assert await done_commands(store) == []
        # Only the side-mate is told; not the player, not the channel, not the enemy.
        # ... as an edit of U2's orders message for the phase, which now ends with the note.
        [(kind, target, text)] = await sent_since(store, mark)
        assert (kind, target) == ("player", str(U2))
        assert text.startswith("Your orders, please: Command Phase, turn 1 (game `g1`).")
        assert text.endswith("\n\nReady to end the Command Phase (turn 1): <@11>. Still giving "
                             "orders: <@12>.")
        [orders, edit] = await store.deliveries_for(
            "g1", Recipient("player", str(U2)), offset=await store.count_deliveries_for(
                "g1", Recipient("player", str(U2))) - 2)
        assert orders.edit_key == edit.edit_key != ""
        assert orders.edit_key.startswith("orders:union:1:")
        mark = await last_id(store)
        again = await umpire.done("g1", U1)
        assert again.text.startswith("You are already ready; still giving orders: <@12>")
        assert await sent_since(store, mark) == []
        assert await done_commands(store) == []
        # The last one's /done is the side's Done, exactly once in the log.
        last = await umpire.done("g1", U2)
        assert "finished" in last.text
        assert "union" in (await umpire.repository.state_for("g1")).done
        [done] = await done_commands(store)
        assert (done.side, done.user) == ("union", U2)
        with pytest.raises(UmpireError, match="already finished"):
            await umpire.done("g1", U1)


async def test_with_ready_any_the_first_done_ends_the_sides_step(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await shared_game(store, options={ready.READY_OPTION: "any"})
        assert "finished" in (await umpire.done("g1", U1)).text
        assert "union" in (await umpire.repository.state_for("g1")).done
        with pytest.raises(UmpireError, match="already finished"):
            await umpire.done("g1", U2)


async def test_the_ready_option_takes_only_its_words(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        with pytest.raises(UmpireError, match="one of all, any"):
            await umpire.create_game(FLANK, HOST, game_id="g1", options={"ready": "most"})
        assert await store.get_game("g1") is None
        reply = await umpire.create_game(FLANK, HOST, game_id="g2", options={"ready": "any"})
        assert "as soon as one of them is done" in reply.text


@pytest.mark.parametrize("how", ["leave", "unseat"])
async def test_a_seat_given_up_lets_the_ready_players_finish(tmp_path: Path, how: str) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await shared_game(store)
        await umpire.done("g1", U1)
        if how == "leave":
            await umpire.leave("g1", U2)
        else:
            await umpire.unseat("g1", HOST, U2, "gone on holiday")
        state = await umpire.repository.state_for("g1")
        assert "union" in state.done  # everyone left was ready
        [done] = await done_commands(store)
        assert (done.side, done.user) == ("union", U1)


async def test_a_seat_given_up_with_nobody_ready_leaves_the_side_waiting(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await shared_game(store)
        await umpire.leave("g1", U2)
        assert "union" not in (await umpire.repository.state_for("g1")).done
        assert await done_commands(store) == []
        assert "finished" in (await umpire.done("g1", U1)).text  # now alone on the side


async def test_the_host_ending_the_phase_tells_those_cut_short(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await shared_game(store, options={"announce_finished": True})
        await umpire.done("g1", U1)
        mark = await last_id(store)
        await umpire.handle("g1", HOST, cmd.ForceEndPhase())
        state = await umpire.repository.state_for("g1")
        assert (state.turn, state.step) != (1, 0)
        sent = await sent_since(store, mark)
        cut = [target for kind, target, text in sent
               if kind == "player" and "host ended the Command Phase" in text]
        assert sorted(cut) == [str(U2), str(C1), str(C2)]  # not U1, who was ready
        public = [text for kind, _, text in sent if kind == "public"]
        assert public[0] == "The host has ended the Command Phase (turn 1)."
        assert not any("has finished" in t for t in public)


async def test_a_button_of_another_side_or_an_old_step_changes_nothing(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await shared_game(store)
        before = await store.last_seq("g1")
        mark = await last_id(store)
        # A Confederate pressing (or forging) a Union button: refused, whatever Union's step.
        with pytest.raises(UmpireError) as forged:
            await umpire.done("g1", C1, side="union", turn=1, step=0)
        assert str(forged.value) == ready.NOT_YOUR_SIDE
        with pytest.raises(UmpireError) as forged_old:
            await umpire.done("g1", C1, side="union", turn=9, step=3)
        assert str(forged_old.value) == ready.NOT_YOUR_SIDE
        with pytest.raises(UmpireError, match="not playing"):
            await umpire.done("g1", 999, side="union", turn=1, step=0)
        with pytest.raises(UmpireError) as old:
            await umpire.done("g1", U1, side="union", turn=1, step=1)
        assert str(old.value) == ready.PHASE_OVER
        assert await store.last_seq("g1") == before
        assert await sent_since(store, mark) == []
        assert await store.ready_players("g1", 1, 0) == []
        # The right button counts, and twice is harmless.
        await umpire.done("g1", U1, side="union", turn=1, step=0)
        assert "already ready" in (await umpire.done("g1", U1, side="union", turn=1,
                                                     step=0)).text
        assert await store.ready_players("g1", 1, 0) == [U1]


async def test_a_game_played_with_shared_sides_verifies(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    db = tmp_path / "v.db"
    async with Store.open(db) as store:
        umpire = await shared_game(store)
        for _ in range(12):  # a few phases, each side's two players done in turn
            state = await umpire.repository.state_for("g1")
            if state.status != "active":
                break
            for side in state.acting_sides():
                for user in (U1, U2) if side == "union" else (C2, C1):
                    await umpire.done("g1", user)
        await umpire.end_game("g1", HOST)
    assert await verify(db, "g1") == 0
    assert "verified" in capsys.readouterr().out


async def enemy_varied_output(tmp_path: Path, name: str, confederates_ready: tuple[int, ...]
                              ) -> list[str]:
    """Everything the Union players and the channel receive, and the Union players' answers,
    while the Confederates' readiness is ``confederates_ready`` (neither side finished)."""
    async with Store.open(tmp_path / f"{name}.db") as store:
        umpire = await shared_game(store)
        for user in confederates_ready:
            await umpire.done("g1", user)
        answers = [(await umpire.done("g1", U1)).text, (await umpire.done("g1", U1)).text]
        answers.append((await umpire.done("g1", U2)).text)
        union = {str(U1), str(U2)}
        sent = [f"{d.kind}:{d.target}:{masked(d.text)}:{d.buttons}"
                for d in await store.pending_deliveries("g1")
                if d.kind == "public" or (d.kind == "player" and d.target in union)]
        return answers + sent


async def test_the_enemys_readiness_never_reaches_the_other_side(tmp_path: Path) -> None:
    nobody = await enemy_varied_output(tmp_path, "nobody", ())
    one = await enemy_varied_output(tmp_path, "one", (C1,))
    other = await enemy_varied_output(tmp_path, "other", (C2,))
    assert nobody == one == other
    assert any("Ready to end the Command Phase" in t for t in nobody)  # Union's own news


async def test_with_side_threads_the_note_reaches_the_thread_whoever_is_first(tmp_path: Path
                                                                             ) -> None:
    """The side's thread gets the first seated player's copy: the note is addressed to the
    ready player too, so that the thread has it even when they are first."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(FLANK, HOST, game_id="g1", seed=SEED)
        for user, side in ((U1, "union"), (U2, "union"), (C1, "confederate")):
            await umpire.join("g1", user, side)
        await umpire.set_game_options("g1", {"delivery": "threads"})
        await umpire.start("g1", HOST)
        mark = await last_id(store)
        await umpire.done("g1", U1)
        assert sorted(t for k, t, _ in await sent_since(store, mark)) == [str(U1), str(U2)]
