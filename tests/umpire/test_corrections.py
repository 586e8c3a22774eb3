"""The host's corrections: only while the game is in play, announced publicly without hidden
details, and listed in full at the end of the game and by ``vedette verify``; every command,
with or without a request id, is kept in full in the log."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from rules import commands as cmd
from storage.records import Recipient
from storage.store import Store
from tests.support.demos import Demos
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError
from umpire.verify.check import verify, verify_record
from umpire.verify.record import file_name, from_json

FIXTURES = Path(__file__).parents[1] / "fixtures"
TINY = str(FIXTURES / "tiny.toml")
HOST, BLUE, GREY = 1, 10, 20
CORRECT = cmd.Correct(unit="grey-1", changes={"strength": 3}, reason="misread counter")


async def seated(store: Store) -> Umpire:
    umpire = Umpire(store, maps=MapMaker(enabled=False))
    await umpire.create_game(TINY, HOST, game_id="g1")
    await umpire.join("g1", BLUE, "blue")
    await umpire.join("g1", GREY, "grey")
    return umpire


async def public(store: Store) -> list[str]:
    return [d.text for d in await store.pending_deliveries("g1", limit=1000)
            if d.kind == "public"]


async def test_a_correction_needs_a_game_in_play(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await seated(store)
        with pytest.raises(UmpireError, match="only be made while the game is in play"):
            await umpire.handle("g1", HOST, CORRECT)
        await umpire.start("g1", HOST)
        await umpire.handle("g1", HOST, cmd.Pause(reason="tea"))
        await umpire.handle("g1", HOST, CORRECT)  # paused is still in play
        await umpire.handle("g1", HOST, cmd.Pause(paused=False))
        await umpire.end_game("g1", HOST)
        last = await store.last_seq("g1")
        with pytest.raises(UmpireError, match="only be made while the game is in play"):
            await umpire.handle("g1", HOST, cmd.Correct(unit="grey-1", changes={"strength": 7},
                                                        reason="undo the loss"))
        assert await store.last_seq("g1") == last  # nothing changed
        assert (await umpire.repository.state_for("g1")).units["grey-1"].strength == 3


async def test_a_morale_correction_takes_only_a_state_the_ruleset_has(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await seated(store)
        await umpire.start("g1", HOST)
        last = await store.last_seq("g1")
        with pytest.raises(UmpireError, match="morale is one of: normal, shaken"):
            await umpire.handle("g1", HOST, cmd.Correct(unit="grey-1", changes={"morale": "zzz"},
                                                        reason="typo in the morale"))
        assert await store.last_seq("g1") == last  # nothing changed
        await umpire.handle("g1", HOST, cmd.Correct(unit="grey-1", changes={"morale": "shaken"},
                                                    reason="missed a morale check"))
        assert (await umpire.repository.state_for("g1")).units["grey-1"].morale == "shaken"


async def test_a_correction_is_announced_and_listed_at_the_end(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "v.db"
    async with Store.open(db) as store:
        umpire = await seated(store)
        await umpire.start("g1", HOST)
        before = await public(store)
        await umpire.handle("g1", HOST, CORRECT)
        [announced] = (await public(store))[len(before):]
        # Who made one, and that it was made: never which unit, where, what or why.
        assert f"<@{HOST}> corrected a unit of Grey Army" in announced
        for hidden in ("Grey Brigade", "grey-1", "strength", "3 ", "misread"):
            assert hidden not in announced
        await umpire.end_game("g1", HOST)
        deliveries = [d for d in await store.pending_deliveries("g1", limit=1000)
                      if d.kind == "public"]
        ended = [d for d in deliveries if d.image_name == file_name("g1")]
        [closing] = ended
        assert "Corrections made by the host (1):" in closing.text
        assert "Grey Brigade: strength 3 (misread counter), by <@1>" in closing.text
        assert closing.image is not None
        record = tmp_path / "record.json"
        record.write_bytes(closing.image)
    assert verify_record(record) == 0
    out = capsys.readouterr().out
    assert "corrections by the host (1):" in out
    assert "Grey Brigade: strength 3 (misread counter), by user 1" in out
    assert await verify(db, "g1") == 0
    assert "Grey Brigade: strength 3" in capsys.readouterr().out


async def test_every_command_is_logged_in_full_with_who_gave_it(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await seated(store)
        await umpire.start("g1", HOST)
        await umpire.handle("g1", BLUE, cmd.Move(unit="blue-1", route="A0204"))  # no request id
        await umpire.handle("g1", HOST, CORRECT, request_id="r-1")
        await umpire.end_game("g1", HOST, reason="time")
        accepted = [e.payload for e in await store.events("g1") if e.type == "command_accepted"]
    assert accepted == [
        {"type": "command_accepted", "request": "", "kind": "start",
         "command": {"kind": "start"},
         "side": "", "host": True, "user": HOST},
        {"type": "command_accepted", "request": "", "kind": "move",
         "command": {"kind": "move", "unit": "blue-1", "route": "A0204"},
         "side": "blue", "host": False, "user": BLUE},
        {"type": "command_accepted", "request": "r-1", "kind": "correct",
         "command": json.loads(CORRECT.model_dump_json()), "side": "", "host": True,
         "user": HOST},
        {"type": "command_accepted", "request": "", "kind": "end",
         "command": {"kind": "end", "reason": "time"}, "side": "", "host": True, "user": HOST},
    ]


async def test_the_last_turn_posts_the_record_too(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await seated(store)
        await umpire.start("g1", HOST)
        while (await umpire.repository.state_for("g1")).status != "ended":
            await umpire.handle("g1", HOST, cmd.ForceEndPhase())
        [closing] = [d for d in await store.pending_deliveries("g1", limit=1000)
                     if d.image_name == file_name("g1")]
        assert closing.kind == "public" and closing.image is not None
        log = from_json(closing.image)
        assert log.events[-1].type == "game_ended"
        assert [e.seq for e in log.events] == list(range(1, await store.last_seq("g1") + 1))
        assert "Corrections made by the host: none." in closing.text


def test_roll_messages_name_the_game_and_the_place_in_the_log(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], demos: Demos) -> None:
    from umpire.cli.main import main

    out = tmp_path / "demo"
    demos.play(out)
    rolls = [piece for text in asyncio.run(_told(out / "game.db", "201"))
             for piece in text.split("\n\n") if piece.startswith("Secret roll for")]
    assert rolls
    for n, roll in enumerate(rolls, start=1):
        assert f"(game `demo`, your side's roll {n}; after the game" in roll
    capsys.readouterr()
    assert main(["verify", "--db", str(out / "game.db"), "--rolls"]) == 0
    listed = [line.strip() for line in capsys.readouterr().out.splitlines()
              if line.strip().startswith("confederate roll ")]
    assert len(listed) == len(rolls)
    first = rolls[0].split("Secret roll for ", 1)[1].split(":", 1)[0]
    assert listed[0].startswith("confederate roll 1: log event ") and first in listed[0]


async def _told(db: Path, player: str) -> list[str]:
    """Everything a player was told, DMs and the answers to their commands, in order."""
    async with Store.open(db) as store:
        return [d.text for d in await store.deliveries_for(
            "demo", Recipient("player", player), limit=10_000)]


async def test_the_host_reads_a_correction_in_words(tmp_path: Path) -> None:
    """What changed, from what to what, in the players' terms: no Python data."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await seated(store)
        await umpire.start("g1", HOST)
        await umpire.handle("g1", HOST, cmd.Correct(
            unit="grey-1", changes={"strength": 5, "cell": "B0604", "morale": "shaken"},
            reason="misread counter"))
        await umpire.handle("g1", HOST, cmd.Correct(unit="grey-1", changes={"stragglers": 2},
                                                    reason="straggler roll missed"))
        notes = [d.text for d in await store.pending_deliveries("g1", limit=1000)
                 if d.kind == "host"]
        assert notes == [
            "Correction logged for Grey Brigade: strength 7 → 5, cell B0704 → B0604, "
            "morale normal → shaken (misread counter)",
            "Correction logged for Grey Brigade: stragglers 0 → 2 (straggler roll missed)"]
        assert not any(c in "".join(notes) for c in "{}[]'")
