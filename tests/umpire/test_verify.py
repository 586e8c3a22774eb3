"""``vedette verify`` re-adjudicates a whole game: a log changed in any way after the fact, in the
database or in the game record, is caught; an honest game verifies."""

from __future__ import annotations

import asyncio
import hashlib
import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules import events as ev
from rules.engine import redecide
from rules.modules.built import load_all
from rules.reading import event_from_json
from rules.state import initial_state
from storage.store import Store
from tests.support.demos import Demos
from umpire.cli.main import main
from umpire.games import catalog
from umpire.games.dice import SeededDice, sources_commitment
from umpire.verify.check import verify, verify_record
from umpire.verify.record import GameLog, LoggedEvent, file_name, from_json, from_store, to_json

Row = tuple[int, str, dict[str, Any], str]


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory, demos: Demos) -> Path:
    """The demo's database: a real game with orders, marches, fire, assaults and their rolls."""
    out = tmp_path_factory.mktemp("demo") / "demo"
    demos.play(out)
    return out / "game.db"


@pytest.fixture
def db(demo_db: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "game.db"
    shutil.copy(demo_db, copy)
    return copy


def rows(db: Path) -> list[Row]:
    with sqlite3.connect(db) as conn:
        return [(seq, kind, json.loads(payload), audience) for seq, kind, payload, audience in
                conn.execute("SELECT seq, type, payload, audience FROM events ORDER BY seq")]


def rewrite(db: Path, change: Callable[[list[Row]], list[Row]]) -> None:
    """Rewrite the log as a forger with the database file would: past the append-only guard."""
    new = change(rows(db))
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TRIGGER events_append_only")
        conn.execute("DROP TRIGGER events_contiguous")
        created = conn.execute("SELECT created_at FROM events LIMIT 1").fetchone()[0]
        conn.execute("DELETE FROM events")
        conn.execute("DELETE FROM snapshots")
        conn.executemany(
            "INSERT INTO events (game_id, seq, type, payload, audience, created_at) "
            "VALUES ('demo', ?, ?, ?, ?, ?)",
            [(seq, kind, json.dumps(payload), audience, created)
             for seq, kind, payload, audience in new])


def first(log: list[Row], kind: str, test: Callable[[dict[str, Any]], bool] = lambda p: True
          ) -> int:
    return next(n for n, (_, k, p, _) in enumerate(log) if k == kind and test(p))


def checked(db: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = asyncio.run(verify(db, None))
    return code, capsys.readouterr().out


def test_the_honest_demo_game_verifies(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = checked(db, capsys)
    assert code == 0, out
    assert "commands re-adjudicated" in out and "every event of the log is what the rules give" \
        in out
    log = rows(db)
    assert all(p.get("command") is not None for _, k, p, _ in log if k == "command_accepted")
    assert any(k == "die_rolled" and p["table"] for _, k, p, _ in log)


def test_a_changed_roll_result_is_caught(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def change(log: list[Row]) -> list[Row]:
        n = first(log, "die_rolled", lambda p: bool(p["table"]))
        seq, kind, payload, audience = log[n]
        log[n] = (seq, kind, {**payload, "result": payload["result"] + "-forged"}, audience)
        return log

    seq = rows(db)[first(rows(db), "die_rolled", lambda p: bool(p["table"]))][0]
    rewrite(db, change)
    code, out = checked(db, capsys)
    assert code == 1
    assert f"event {seq} (a roll for " in out and "result is " in out and "-forged" in out
    assert "the log does not match the rules" in out


def test_an_added_modifier_is_caught(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def change(log: list[Row]) -> list[Row]:
        n = first(log, "die_rolled", lambda p: bool(p["table"]))
        seq, kind, payload, audience = log[n]
        log[n] = (seq, kind, {**payload, "modifiers": {**payload["modifiers"], "luck": 2}},
                  audience)
        return log

    rewrite(db, change)
    code, out = checked(db, capsys)
    assert code == 1
    assert "modifiers is" in out and "'luck': 2" in out


def test_a_deleted_roll_is_caught_even_when_the_log_is_renumbered(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    n = first(rows(db), "die_rolled")
    seq = rows(db)[n][0]

    def change(log: list[Row]) -> list[Row]:  # no gap left behind
        del log[n]
        return [(i, kind, payload, audience)
                for i, (_, kind, payload, audience) in enumerate(log, start=1)]

    rewrite(db, change)
    code, out = checked(db, capsys)
    assert code == 1
    assert "gap" not in out
    assert f"event {seq}: the log has" in out and "where the rules give a roll for" in out


def test_a_changed_move_path_is_caught(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    n = first(rows(db), "unit_moved")
    seq = rows(db)[n][0]

    def change(log: list[Row]) -> list[Row]:
        _, kind, payload, audience = log[n]
        path = [*payload["path"][:-1], [payload["path"][-1][0] + 1, payload["path"][-1][1]]]
        log[n] = (seq, kind, {**payload, "path": path}, audience)
        return log

    rewrite(db, change)
    code, out = checked(db, capsys)
    assert code == 1
    assert f"event {seq} (unit_moved): path is" in out


def test_a_gap_in_the_log_is_caught(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    n = first(rows(db), "side_done")
    seq = rows(db)[n][0]

    def change(log: list[Row]) -> list[Row]:
        del log[n]
        return log

    rewrite(db, change)
    code, out = checked(db, capsys)
    assert code == 1
    assert f"the log has a gap: event {seq} missing" in out


def test_an_old_log_cannot_be_readjudicated_and_says_so(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def change(log: list[Row]) -> list[Row]:  # as written before commands were kept in full
        return [(seq, kind, {"request": p.get("request", ""), "kind": p["kind"]}
                 if kind == "command_accepted" else p, audience)
                for seq, kind, p, audience in log]

    rewrite(db, change)
    code, out = checked(db, capsys)
    assert code == 1
    assert "game demo cannot be re-adjudicated: its log was written before Vedette kept every " \
        "command in full" in out
    assert "Traceback" not in out


def test_a_game_without_its_stored_scenario_cannot_be_readjudicated(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM game_sources")
    code, out = checked(db, capsys)
    assert code == 1
    assert "cannot be re-adjudicated: it was created before Vedette stored a game's scenario" \
        in out


async def record_of(db: Path) -> bytes:
    async with Store.open(db) as store:
        game = await store.get_game("demo")
        assert game is not None
        return to_json(await from_store(store, game))


def test_the_game_record_verifies_without_the_database(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / file_name("demo")
    record.write_bytes(asyncio.run(record_of(db)))
    db.unlink()
    assert main(["verify", "--record", str(record)]) == 0
    assert "commands re-adjudicated" in capsys.readouterr().out
    log = from_json(record.read_bytes())
    assert log.sources is not None and "flank" in log.sources.scenario_name
    assert log.seed_hex == bytes([8] * 32).hex()


def test_a_tampered_game_record_is_caught(db: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(asyncio.run(record_of(db)))
    roll = next(e for e in data["events"] if e["type"] == "die_rolled" and e["payload"]["table"])
    roll["payload"]["result"] = "forged"
    record = tmp_path / "forged.json"
    record.write_text(json.dumps(data), encoding="utf-8")
    assert verify_record(record) == 1
    assert f"event {roll['seq']} (a roll for" in capsys.readouterr().out

    # A scenario edited in the record, with its hash to match: von Gilsa's brigade, which
    # fires in the demo, is made stronger.
    data = json.loads(asyncio.run(record_of(db)))
    text = data["scenario"]["text"]
    brigade = 'name = "von Gilsa\'s brigade"'
    assert text.count(brigade) == 1
    head, tail = text.split(brigade)
    assert "strength = 14" in tail
    data["scenario"]["text"] = head + brigade + tail.replace("strength = 14", "strength = 24", 1)
    data["scenario"]["sha256"] = hashlib.sha256(data["scenario"]["text"].encode()).hexdigest()
    record.write_text(json.dumps(data), encoding="utf-8")
    assert verify_record(record) == 1
    out = capsys.readouterr().out
    assert "the log does not match the rules" in out and "(sighted): seen is" in out


@pytest.mark.parametrize("content, words", [
    (b"\xff\xfe", "not UTF-8"),
    (b"{", "not JSON"),
    (b'{"format": "something else"}', "not a Vedette game record"),
    (b'{"format": "vedette-game-record", "version": 1}', "a field is missing"),
])
def test_a_bad_record_file_gets_one_clear_line(tmp_path: Path, content: bytes, words: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(content)
    assert main(["verify", "--record", str(path)]) == 2
    out = capsys.readouterr().out
    assert words in out and out.count("\n") == 1
    assert main(["verify", "--record", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().out


def forged_whole(data: dict[str, Any], *, rebind: bool) -> GameLog:
    """The record of a forger who has the published seed: a straggler table row of the pinned
    ruleset made kinder (the row only the demo's last straggler check reads), its hash recomputed,
    and every logged command decided again with the same seed, so that each event follows from
    the forged texts. With ``rebind`` the start's scenario commitment is recomputed too, as
    only someone with the seed can."""
    text = data["ruleset"]["text"]
    row = '{ roll = "5",   results = ["1", "1", "2", "2", "1"] }'
    assert text.count(row) == 1
    data["ruleset"]["text"] = text.replace(row, row.replace('"1", "1", "2", "2", "1"',
                                                            '"1", "1", "2", "2", "0"'))
    data["ruleset"]["sha256"] = hashlib.sha256(data["ruleset"]["text"].encode()).hexdigest()
    log = from_json(json.dumps(data).encode())
    assert log.sources is not None and log.seed_hex is not None
    load_all()
    rules = {str(k): v for k, v in log.rules.items() if isinstance(v, str | int | bool)}
    state = initial_state(catalog.with_options(catalog.load_sources(log.sources), rules),
                          log.without)
    seed = bytes.fromhex(log.seed_hex)
    binding = sources_commitment(seed, log.sources.scenario_sha256, log.sources.ruleset_sha256)
    dice = SeededDice(seed, log.game_id)
    events: list[LoggedEvent] = []
    for e in log.events:
        if e.type != "command_accepted":
            continue
        accepted = event_from_json(json.dumps(e.payload), e.audience)
        assert isinstance(accepted, ev.CommandAccepted)
        outcome = redecide(state, accepted, log.seed_hex, dice,
                           sources_commitment=binding if rebind else "")
        for n, x in enumerate(outcome.events):
            payload = json.loads(ev.event_to_json(x))
            if x.type == "game_started" and not rebind:  # keep the commitment that was posted
                payload["sources_commitment"] = next(
                    o.payload["sources_commitment"] for o in log.events
                    if o.type == "game_started")
            events.append(LoggedEvent(state.seq + 1 + n, x.type, x.audience, payload))
        state = outcome.state
    assert [e.payload for e in events] != [e.payload for e in log.events]  # results changed
    return GameLog(log.game_id, log.sources, log.without, log.rules, tuple(events),
                   log.seed_hex)


def test_a_record_forged_whole_after_the_game_is_caught_by_the_start_commitment(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """After the game the seed is public, so anyone can decide every command again with forged
    tables and get a log that follows the rules. The start message committed to the scenario
    and ruleset texts (under the seed, which was secret then): a forged record either breaks
    that commitment, or gives one that differs from the start message everyone saw."""
    honest = json.loads(asyncio.run(record_of(db)))
    [posted] = [e["payload"]["sources_commitment"] for e in honest["events"]
                if e["type"] == "game_started"]
    assert len(posted) == 64
    record = tmp_path / "forged.json"

    record.write_bytes(to_json(forged_whole(json.loads(json.dumps(honest)), rebind=False)))
    assert verify_record(record) == 1
    out = capsys.readouterr().out
    assert "the log does not match the rules" in out and "sources_commitment" in out

    record.write_bytes(to_json(forged_whole(json.loads(json.dumps(honest)), rebind=True)))
    assert verify_record(record) == 0  # consistent with itself...
    out = capsys.readouterr().out
    assert f"scenario commitment {posted}" not in out  # ...but not with the start message
    assert "compare with the start message in the game's channel" in out

    record.write_bytes(json.dumps(honest).encode())
    assert verify_record(record) == 0
    assert f"scenario commitment {posted}" in capsys.readouterr().out


def test_the_scenario_commitment_hides_the_set_up(db: Path) -> None:
    """The commitment is posted while the enemy's set-up is secret. It covers the secret seed,
    so a guess of the scenario's texts cannot be tested against it: the plain hashes of the
    true texts do not give it."""
    honest = json.loads(asyncio.run(record_of(db)))
    [posted] = [e["payload"]["sources_commitment"] for e in honest["events"]
                if e["type"] == "game_started"]
    shas = (honest["scenario"]["sha256"], honest["ruleset"]["sha256"])
    guesses = {hashlib.sha256(f"{a}|{b}".encode()).hexdigest() for a, b in (shas, shas[::-1])}
    guesses |= {hashlib.sha256((honest["scenario"]["text"] + honest["ruleset"]["text"])
                               .encode()).hexdigest(), *shas}
    assert posted not in guesses
    assert posted == sources_commitment(bytes.fromhex(honest["seed"]), *shas)  # with the seed
