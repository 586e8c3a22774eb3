"""Reliability of the umpire on real database files: crashes, many games at once, bad input, and
what a side learns when the enemy's hidden state differs.

The invariants are those of DESIGN.md: nothing a player was told was accepted is lost, nothing is
applied twice, no die is rolled twice; games do not mix; a refused command changes nothing; a
side's output depends only on what it may know.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from rules import commands as cmd
from rules.state import to_snapshot
from storage.store import Store
from tests.processes import crash_driver
from tests.support.commitments import masked
from tests.support.demos import Demos
from tests.support.tiny_games import BLUE, GREY, HOST, STRANGER, TINY, tiny_orders
from umpire.demo import main as demo
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"


async def new_tiny_game(store: Store, gid: str, seed: bytes | None = None,
                        umpire: Umpire | None = None) -> Umpire:
    umpire = umpire or Umpire(store, maps=MapMaker(enabled=False))
    await umpire.create_game(TINY, HOST, game_id=gid, seed=seed)
    await umpire.join(gid, BLUE, "blue")
    await umpire.join(gid, GREY, "grey")
    await umpire.start(gid, HOST)
    return umpire


async def dump(db: Path, gid: str) -> dict[str, Any]:
    """Everything a game left in a database file, in comparable form."""
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        events = await store.events(gid)
        deliveries = await store.pending_deliveries(gid, limit=100_000)
        game = await store.get_game(gid)
        snapshot = await store.latest_snapshot(gid)
        assert game is not None
        return {
            "seqs": [e.seq for e in events],
            "events": [(e.seq, e.type, e.payload, e.audience) for e in events],
            "rolls": [(e.seq, e.payload) for e in events if e.type == "die_rolled"],
            "deliveries": [(d.seq, d.kind, d.target, d.text, d.image, d.image_name)
                           for d in deliveries],
            "state": to_snapshot(await umpire.repository.state_for(gid)),
            "replayed": to_snapshot(await umpire.repository.replay_all(gid)),
            "snapshot": None if snapshot is None else (snapshot.seq, snapshot.payload),
            "status": game.status,
        }


# -- crash safety --------------------------------------------------------------------------------
KILL_SEED = 18630502
KILLS_IN_PLAY = 6
#: The last steps end the game: kills are aimed well before them. A crash in that window is
#: tested on its own, below.
LAST_TARGET = len(crash_driver.STEPS) - 10


class DriverRun:
    """One run of the crash driver in a subprocess; ``lines`` are the steps it reported."""

    def __init__(self, db: Path, log: Path, script: str = "core") -> None:
        self.stderr = log.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.processes.crash_driver", str(db), script], cwd=ROOT,
            text=True,
            stdout=subprocess.PIPE, stderr=self.stderr, env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.lines: list[str] = []
        self.log = log
        self.killed = False
        # A watchdog: no run may hang the test suite (a ceiling far above any run's time, so
        # that a slow machine never trips it).
        self.watchdog = threading.Timer(600, self.proc.kill)
        self.watchdog.start()

    def read_until_step(self, target: int) -> bool:
        """Read reports until the driver has reported step ``target - 1`` (so it is on step
        ``target``); False if it finished first."""
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                return False
            self.lines.append(line.strip())
            head = line.split()[0]
            if head.isdigit() and int(head) >= target - 1:
                return True

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.killed = True

    def finish(self) -> int:
        out, _ = self.proc.communicate(timeout=900)
        self.watchdog.cancel()
        self.stderr.close()
        self.lines += [x.strip() for x in out.splitlines() if x.strip()]
        return self.proc.returncode

    def steps(self) -> list[tuple[int, str]]:
        return [(int(a), b) for a, b in (x.split() for x in self.lines if x[:1].isdigit())]


def crash_and_compare(tmp_path: Path, name: str, targets: list[int], rng: random.Random
                      ) -> tuple[list[str], dict[str, Any]]:
    """Play the driver's script ``name`` once without a crash, then again on another file,
    killed with SIGKILL while being set up and a few milliseconds into each target step, and
    restarted each time until it finishes. Checks what each run reported (a step told accepted is
    "already accepted" afterwards, nothing is applied twice, every step is decided as in the
    uninterrupted run) and the two files (same events, rolls, deliveries, state). Returns each
    step's outcome in the uninterrupted run and what the crashed file holds."""
    script = crash_driver.SCRIPTS[name]
    n = len(script.steps)
    reference_db = tmp_path / f"{name}-reference.db"
    reference_lines: list[str] = []
    asyncio.run(crash_driver.play(reference_db, reference_lines.append, script=script))
    reference = [line.split()[1] for line in reference_lines if line[:1].isdigit()]
    assert len(reference) == n
    assert set(reference) == {"accepted", "refused"}

    db = tmp_path / f"{name}-crashed.db"
    first: dict[int, str] = {}  # each step's outcome when it was first decided
    told_accepted: set[int] = set()  # steps a killed run reported accepted
    runs: list[DriverRun] = []
    kills = 0

    def take(run: DriverRun) -> None:
        for step, outcome in run.steps():
            assert outcome != "reapplied", f"step {step} was applied again (run {len(runs)})"
            if step in told_accepted:
                assert outcome == "already", \
                    f"step {step} was reported accepted before a kill, then {outcome!r}"
            if outcome == "accepted":
                assert step not in first, f"step {step} accepted twice"
                told_accepted.add(step)
            if outcome == "refused" and step in first:
                assert first[step] == "refused", f"step {step}: {first[step]}, then refused"
            # "already" first: committed, but killed before the driver could say so.
            first.setdefault(step, "accepted" if outcome == "already" else outcome)

    def new_run() -> DriverRun:
        run = DriverRun(db, tmp_path / f"{name}-run-{len(runs)}.log", name)
        runs.append(run)
        return run

    # The first kill falls while the game is being set up (or soon after).
    run = new_run()
    time.sleep(rng.uniform(0.2, 0.7))
    run.kill()
    kills += run.killed
    run.finish()
    take(run)
    # Then one kill a few milliseconds into each target step; each restart is a fresh process
    # that reads the game back from the file.
    for target in targets:
        run = new_run()
        if run.read_until_step(target):
            time.sleep(rng.uniform(0, 0.006))
            run.kill()
        code = run.finish()
        kills += run.killed
        assert run.killed or code == 0, run.log.read_text()
        take(run)
    # And the last run plays to the end.
    run = new_run()
    assert run.finish() == 0, run.log.read_text()
    assert run.lines[-1] == "finished"
    take(run)
    assert kills >= len(targets), f"only {kills} runs were killed"

    # Every step was decided once, as in the uninterrupted run.
    assert [first[i] for i in range(n)] == reference
    crashed = asyncio.run(dump(db, script.game_id))
    expected = asyncio.run(dump(reference_db, script.game_id))
    assert crashed["seqs"] == list(range(1, len(crashed["seqs"]) + 1))
    accepted = [e[2]["request"] for e in crashed["events"]
                if e[1] == "command_accepted" and e[2]["request"]]  # start has no request id
    assert accepted == [f"step-{i}" for i in range(n) if reference[i] == "accepted"]
    assert crashed["rolls"] == expected["rolls"]
    assert crashed["events"] == expected["events"]
    assert crashed["deliveries"] == expected["deliveries"]
    assert crashed["state"] == expected["state"] == crashed["replayed"]
    assert crashed["snapshot"] == expected["snapshot"]
    assert crashed["status"] == expected["status"] == "ended"
    return reference, crashed


@pytest.mark.slow
def test_crash_at_random_points_loses_nothing_and_repeats_nothing(tmp_path: Path) -> None:
    """The scripted flank-march game (160+ commands), killed with SIGKILL at random points and
    restarted each time, ends exactly as the same game played without a crash: same events (with
    their payloads and rolls), same deliveries, same state. A command reported accepted before a
    kill is "already accepted" afterwards; nothing is applied twice."""
    rng = random.Random(KILL_SEED)
    assert len(crash_driver.STEPS) >= 100
    targets = sorted(rng.sample(range(3, LAST_TARGET), KILLS_IN_PLAY))
    reference, _ = crash_and_compare(tmp_path, "core", targets, rng)
    assert reference.count("accepted") >= 100 and reference.count("refused") >= 5


#: The steps of the combat script where a kill matters most: the surprise-march order, the march
#: set off, the detour asked before a blocked hex, the first assault and the first fire.
COMBAT_KEY_KINDS = ("surprise_order", "surprise_execute", "surprise_detour", "assault", "fire")
#: Kills at random steps besides those (each kill costs a restart: the suite's time is kept).
COMBAT_RANDOM_KILLS = 3


@pytest.mark.slow
def test_crash_with_combat_and_a_surprise_march_loses_nothing_and_repeats_nothing(
        tmp_path: Path) -> None:
    """The same for flank-march with the Surprise Move and combat rules in force: Jackson's
    surprise march is ordered, saves its MPs, is set off and marches (with a detour asked), the
    armies assault and fire. Killed with SIGKILL in the middle of each of those steps, and at
    random points, and restarted in a fresh process each time (which must read every module's
    events back from the log), it ends exactly as the uninterrupted game, event for event."""
    rng = random.Random(KILL_SEED + 1)
    steps = crash_driver.COMBAT.steps
    key = [next(i for i, (_, c) in enumerate(steps) if c.kind == kind
                and not _always_refused(c)) for kind in COMBAT_KEY_KINDS]
    last_order = max(i for i, (_, c) in enumerate(steps) if c.kind != "done")
    targets = sorted({*key, *(i + 1 for i in key),
                      *rng.sample(range(3, last_order + 5), COMBAT_RANDOM_KILLS)})
    reference, crashed = crash_and_compare(tmp_path, "combat", targets, rng)
    assert reference.count("refused") >= 4
    kinds = {e[1] for e in crashed["events"]}
    # The game really held the modules' events that a restart must read back.
    assert {"surprise_ordered", "surprise_execution_queued", "surprise_march_begun",
            "surprise_column_marched", "surprise_detour_offered", "combat_fire",
            "combat_close_combat", "combat_losses"} <= kinds


def _always_refused(command: cmd.Command) -> bool:
    """The script's commands that are there to be refused (they name nothing that exists)."""
    return "nobody at all" in repr(command) or "no such march" in repr(command)


# -- restarts ------------------------------------------------------------------------------------
#: Where the combat script is stopped to leave a game in play whose log, after its latest
#: snapshot, holds a rule module's events: the march's last moves then an assault, or fighting
#: only (a restarted bot reads these without having read any surprise-move event first).
IN_PLAY_UNTIL = (57, 70)


def module_events_after_snapshot(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        (snap,) = conn.execute("SELECT coalesce(max(seq), 0) FROM snapshots").fetchone()
        return [t for (t,) in conn.execute("SELECT type FROM events WHERE seq > ?", (snap,))
                if t.startswith(("surprise_", "combat_"))]


@pytest.fixture(scope="module")
def restart_dbs(tmp_path_factory: pytest.TempPathFactory, demos: Demos) -> list[Path]:
    """The demo's variants' databases, and two games of the combat script still in play."""
    tmp_path = tmp_path_factory.mktemp("restart")
    dbs: list[Path] = []
    for variant in demo.VARIANTS:
        demos.play(tmp_path / variant, variant)
        dbs.append(tmp_path / variant / "game.db")
    for until in IN_PLAY_UNTIL:
        db = tmp_path / f"in-play-{until}.db"
        asyncio.run(crash_driver.play(db, lambda _: None, script=crash_driver.COMBAT,
                                      until=until))
        assert module_events_after_snapshot(db), f"{db.name}: nothing to read back"
        dbs.append(db)
    with sqlite3.connect(dbs[0]) as conn:
        kinds = {t for (t,) in conn.execute("SELECT DISTINCT type FROM events")}
    assert {"surprise_ordered", "surprise_march_begun", "combat_fire",
            "combat_close_combat"} <= kinds
    with sqlite3.connect(dbs[demo.VARIANTS.index(demo.CONCEALED)]) as conn:
        kinds = {t for (t,) in conn.execute("SELECT DISTINCT type FROM events")}
    assert {"cf_concealed", "cf_decoy_bred", "cf_moved", "cf_revealed", "marker_split",
            "combat_fire", "cf_scouts_released", "cf_scout_identified", "cf_plan_filed",
            "question_asked", "question_answered"} <= kinds
    return dbs


@pytest.mark.slow
@pytest.mark.parametrize("as_bot", [False, True], ids=["command-line", "bot"])
def test_a_restarted_process_reads_back_every_modules_events(
        restart_dbs: list[Path], as_bot: bool) -> None:
    """A fresh OS process (with the command line's imports, or the bot's), given databases whose
    games hold the Surprise Move's, Concealed Forces' and the combat module's events (the demo's
    variants, and two games of the combat script still in play), reads every game back, replays
    its whole log, answers its status and each player's units and log, and decides a command in
    each game still in play, with no "unknown event type"; the state read back is the full
    replay's."""
    dbs = restart_dbs
    args = [sys.executable, "-m", "tests.processes.restart_reader",
            *(["--as-bot"] if as_bot else []), *map(str, dbs)]
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "unknown event type" not in done.stderr
    assert done.returncode == 0, done.stderr
    games = [json.loads(line) for line in done.stdout.splitlines()]
    ended = len(demo.VARIANTS)
    assert ended == 3  # success, discovery and concealed
    assert [(Path(g["db"]).name, g["status"]) for g in games] == [
        *(("game.db", "ended") for _ in range(ended)),
        *((f"in-play-{until}.db", "active") for until in IN_PLAY_UNTIL)]
    assert all(g["same_state"] for g in games)
    for game in games[ended:]:
        assert game["done"] and "already" not in game["done"]


def test_a_rule_modules_commands_and_events_parse_in_a_fresh_process() -> None:
    """In a process that has imported nothing but the log reader, a rule module's stored
    command and event read back (the modules' declarations register their classes)."""
    code = (
        "import json\n"
        "from rules.reading import event_from_json, parse_command\n"
        "fire = parse_command({'kind': 'fire', 'units': ['a'], 'target': 'b'})\n"
        "order = parse_command({'kind': 'surprise_order', 'force': 'a', 'route': 'A0101'})\n"
        "told = event_from_json(json.dumps({'type': 'surprise_trigger_announced',"
        " 'side': 'union', 'unit': 'a', 'how': 'sees it'}), 'side:union')\n"
        "print(type(fire).__name__, type(order).__name__, type(told).__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["Fire", "OrderSurpriseMove", "TriggerAnnounced"]


async def test_crash_while_the_last_command_ends_the_game(tmp_path: Path) -> None:
    """The command that plays the last phase and the end of the game (``GameEnded``, the seed,
    the status) are one transaction: a crash during it leaves neither, and the command sent
    again with its request id ends the game exactly once."""

    class Crash(BaseException):
        """The process dies here."""

    db = tmp_path / "v.db"
    async with Store.open(db) as store:
        umpire = await new_tiny_game(store, "g1")
        real_commit = store.commit

        async def dying_commit(game_id: str, expected_seq: int, events: Any, *args: Any,
                               **kwargs: Any) -> list[int]:
            if any(e.type == "game_ended" for e in events):
                raise Crash
            return await real_commit(game_id, expected_seq, events, *args, **kwargs)

        store.commit = dying_commit  # type: ignore[method-assign]
        step = 0
        with pytest.raises(Crash):
            while True:
                state = await umpire.repository.state_for("g1")
                side = state.acting_sides()[0]
                await umpire.handle("g1", BLUE if side == "blue" else GREY, cmd.Done(),
                                    request_id=f"step-{step}")
                step += 1
        last_seq = await store.last_seq("g1")
    async with Store.open(db) as store:  # the process restarts and the player tries again
        assert await store.last_seq("g1") == last_seq  # nothing of the last command was kept
        fresh = Umpire(store, maps=MapMaker(enabled=False))
        await fresh.handle("g1", GREY, cmd.Done(), request_id=f"step-{step}")
        await fresh.handle("g1", GREY, cmd.Done(), request_id=f"step-{step}")  # and once more
        state = await fresh.repository.state_for("g1")
        ended = [e for e in await store.events("g1") if e.type == "game_ended"]
        assert state.status == "ended" and len(ended) == 1
        assert (await store.get_game("g1")).status == "ended"  # type: ignore[union-attr]


async def test_a_long_request_id_is_not_applied_twice(tmp_path: Path) -> None:
    """``request_id`` makes a command idempotent whatever its length."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_tiny_game(store, "g1")
        request = "interaction-" + "7" * 120
        for _ in range(2):
            await umpire.handle("g1", HOST, cmd.Correct(unit="grey-1", changes={"strength": 5},
                                                        reason="misprint"), request_id=request)
        corrected = [e for e in await store.events("g1") if e.type == "unit_corrected"]
        assert len(corrected) == 1


# -- many games at once --------------------------------------------------------------------------
GAMES = 20


@pytest.mark.slow
async def test_twenty_games_interleaved_on_one_file(tmp_path: Path) -> None:
    """Twenty games, each with many commands in flight at once, all interleaved on one database
    file: each game's log holds exactly its own events, in the order its commands were accepted,
    and is exactly the log the same commands give when played alone."""
    db = tmp_path / "many.db"
    gids = [f"g{n:02d}" for n in range(GAMES)]
    seeds = {gid: bytes([n + 1]) * 32 for n, gid in enumerate(gids)}
    accepted: dict[str, list[tuple[str, int, cmd.Command]]] = {gid: [] for gid in gids}
    errors: list[str] = []
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await asyncio.gather(*(new_tiny_game(store, gid, seeds[gid], umpire) for gid in gids))

        async def send(gid: str, request: str, user: int, command: cmd.Command) -> None:
            try:
                await umpire.handle(gid, user, command, request_id=request)
            except UmpireError as e:
                errors.append(str(e))
                return
            accepted[gid].append((request, user, command))

        async def play(n: int, gid: str) -> None:
            k = 0
            for commands in tiny_orders(n):
                batch = []
                for user, command in commands:
                    batch.append(send(gid, f"{gid}/{k}", user, command))
                    k += 1
                await asyncio.gather(*batch)

        await asyncio.gather(*(play(n, gid) for n, gid in enumerate(gids)))
        total = sum(len(a) for a in accepted.values())
        assert total >= GAMES * 15
        assert not [e for e in errors if "changed meanwhile" in e]
        logs = {}
        for gid in gids:
            events = await store.events(gid)
            assert [e.seq for e in events] == list(range(1, len(events) + 1))
            requests = [e.payload["request"] for e in events
                        if e.type == "command_accepted" and e.payload["request"]]
            assert requests == [r for r, _, _ in accepted[gid]]
            logs[gid] = [(e.type, e.payload, e.audience) for e in events]
            assert (await umpire.repository.state_for(gid)).status == "ended"
        counts = {gid: (len(logs[gid]), len(await store.pending_deliveries(gid, limit=100_000)))
                  for gid in gids}
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == \
            sum(e for e, _ in counts.values())
        assert conn.execute("SELECT count(*) FROM deliveries").fetchone()[0] == \
            sum(d for _, d in counts.values())
    # Each game alone, with only its accepted commands, one at a time, gives the same log.
    async with Store.open(tmp_path / "alone.db") as store:
        for gid in gids:
            umpire = await new_tiny_game(store, gid, seeds[gid])
            for request, user, command in accepted[gid]:
                await umpire.handle(gid, user, command, request_id=request)
            alone = [(e.type, e.payload, e.audience) for e in await store.events(gid)]
            assert alone == logs[gid], f"game {gid} differs from the same game played alone"


# -- bad input -----------------------------------------------------------------------------------
OWN = ["blue-gen", "blue-1", "1st Brigade", "2 Bde", "General Azure", "blue-cav", "Blue Horse"]
ENEMY = ["grey-1", "Grey Brigade", "G Bde", "grey-bat", "Grey Battery", "Gray Batterz"]
#: Routes no unit can follow from anywhere: off the map, unreadable, or nowhere at all.
BAD_ROUTES = ["A0907", "A0107", "A0000", "C0101", "Z9999", "B0900", "A99", "road", "A0304 road",
              "road road A0304", "Old", "nowhere", "A0204 C0101", ";;;", "to - to", "A0304 A9999"]
#: Letters that begin no label or place of the tiny map.
NOWHERE = "qxzQXZ#!?*=%&@ "


def sized(limit: int, alphabet: str | None = None) -> st.SearchStrategy[str]:
    """Short strings, and strings at, just under and beyond ``limit`` characters."""
    chars = st.text(alphabet=alphabet, min_size=1, max_size=1) if alphabet else \
        st.characters(codec="utf-8")
    long = st.builds(lambda c, n: c * n, chars,
                     st.sampled_from([limit - 1, limit, limit + 1, limit + 7, 10_000]))
    short = st.text(alphabet=alphabet, max_size=30) if alphabet else st.text(max_size=30)
    return st.one_of(short, long)


names = st.one_of(st.sampled_from(OWN + ENEMY), sized(100))
routes = st.one_of(st.sampled_from(BAD_ROUTES), sized(500, NOWHERE))
formations = st.one_of(st.sampled_from(["square", "wedge", "skirmish", "echelon"]),
                       sized(100, NOWHERE))
reasons = sized(300)
bad_changes = st.one_of(
    st.fixed_dictionaries({"colour": st.text(max_size=5)}),
    st.fixed_dictionaries({"strength": st.integers(max_value=-1)}),
    st.fixed_dictionaries({"strength": st.text(max_size=3)}),
    st.fixed_dictionaries({"cell": st.sampled_from(["Z9999", "A0205", "A0305", "C0101"])}),
    st.just({}),
)


Attempt = tuple[str, dict[str, Any]]


def spec(kind: str, **fields: st.SearchStrategy[Any]) -> st.SearchStrategy[Attempt]:
    return st.tuples(st.just(kind), st.fixed_dictionaries(fields))


MOVE = spec("move", unit=names, route=routes)
FORMATION = spec("formation", unit=names, formation=formations)
DONE = spec("done")
PAUSE = spec("pause", paused=st.booleans(), reason=reasons)
FORCE = spec("force_end_phase")
CORRECT = spec("correct", unit=names, changes=st.dictionaries(st.text(max_size=8),
                                                                 st.integers(), max_size=2),
               reason=reasons)
HOST_CORRECT = spec("correct", unit=names, changes=bad_changes, reason=reasons)
KINDS: dict[str, type[cmd.Command]] = {"move": cmd.Move, "formation": cmd.SetFormation,
                                       "done": cmd.Done, "pause": cmd.Pause,
                                       "force_end_phase": cmd.ForceEndPhase,
                                       "correct": cmd.Correct}

#: Who sends what. The game is in Blue's Movement Phase: Blue may not say it is done (that
#: would be accepted); the host may only send host commands that are refused in this state.
attempts = st.one_of(
    st.tuples(st.just(BLUE), st.one_of(MOVE, FORMATION, PAUSE, FORCE, CORRECT)),
    st.tuples(st.just(GREY), st.one_of(MOVE, FORMATION, DONE, PAUSE, FORCE, CORRECT)),
    st.tuples(st.just(STRANGER), st.one_of(MOVE, FORMATION, DONE, PAUSE, FORCE, CORRECT)),
    st.tuples(st.just(HOST), st.one_of(MOVE, FORMATION, DONE, HOST_CORRECT,
                                       spec("pause", paused=st.just(False), reason=reasons))),
)


def too_long(kind: str, fields: dict[str, Any]) -> bool:
    """Whether the command breaks its fields' bounds (and so cannot be built)."""
    limits = {"unit": (1, 100), "route": (1, 500), "formation": (1, 100),
              "reason": (3 if kind == "correct" else 0, 300)}
    return any(not lo <= len(fields[k]) <= hi for k, (lo, hi) in limits.items() if k in fields)


def test_malformed_commands_are_refused_and_change_nothing(tmp_path: Path) -> None:
    """Unknown units, enemy units, routes off the map or unreadable, the wrong side, the wrong
    phase, non-players, host commands from players, strings at and beyond their bounds: each is
    refused (an over-long command cannot even be built) and the log and the outbox stay as
    they were."""
    loop = asyncio.new_event_loop()
    store = loop.run_until_complete(Store.open(tmp_path / "bad.db"))
    try:
        umpire = loop.run_until_complete(new_tiny_game(store, "g1"))

        async def baseline() -> tuple[int, int, str]:
            state = to_snapshot(await umpire.repository.state_for("g1"))
            return (await store.last_seq("g1"),
                    len(await store.pending_deliveries("g1", limit=100_000)),
                    json.dumps(state, sort_keys=True))

        before = loop.run_until_complete(baseline())
        state = loop.run_until_complete(umpire.repository.state_for("g1"))
        assert state.current.phase.id == "movement" and state.current.side == "blue"
        seen = {"built": 0, "invalid": 0}

        @settings(max_examples=120, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
        @given(attempt=attempts, request=st.one_of(st.none(), st.text(max_size=40)))
        def check(attempt: tuple[int, Attempt], request: str | None) -> None:
            user, (kind, fields) = attempt
            if too_long(kind, fields):
                with pytest.raises(ValidationError):
                    KINDS[kind](**fields)
                seen["invalid"] += 1
                return
            command = KINDS[kind](**fields)
            seen["built"] += 1
            with pytest.raises(UmpireError):
                loop.run_until_complete(umpire.handle("g1", user, command, request_id=request))
            assert loop.run_until_complete(baseline()) == before

        check()
        assert seen["built"] >= 50 and seen["invalid"] >= 5, seen
    finally:
        loop.run_until_complete(store.close())
        loop.close()


# -- no leaks: hidden enemy state ----------------------------------------------------------------
#: A Confederate battalion far behind the Brock Road, out of every Union unit's sight.
HIDDEN_UNIT = "brown-bn"
PLACES = {"as written": ('at = "A2120"', "strength = 7"), "elsewhere": ('at = "A2020"',
                                                                         "strength = 3")}


def flank_march_variant(tmp_path: Path, name: str) -> Path:
    """flank-march with the Union seeing under the hidden model (without Concealed Forces, which
    that model does not allow), and ``HIDDEN_UNIT`` placed and sized as ``PLACES[name]`` says."""
    text = (SCENARIOS / "flank-march.toml").read_text(encoding="utf-8")
    text = text.replace('ruleset = "brigade-series.ruleset.toml"',
                        f'ruleset = "{SCENARIOS / "brigade-series.ruleset.toml"}"')
    union = 'id = "union"\nname = "Army of the Potomac"\n'
    assert union in text
    text = text.replace(union, union + 'information = "hidden"\n')
    # Concealed Forces is played under the open or concealed model only (ruling CF-4); these
    # games play without it anyway.
    modules = 'modules = ["surprise_move", "concealed_forces", "combat"]'
    assert modules in text
    text = text.replace(modules, 'modules = ["surprise_move", "combat"]')
    start = text.index(f'id = "{HIDDEN_UNIT}"')
    end = text.index("[[units]]", start)
    block = text[start:end]
    at, strength = PLACES[name]
    block = re.sub(r'at = "\w+"', at, block)
    block = re.sub(r"strength = \d+", strength, block)
    path = tmp_path / f"flank-march-{name.replace(' ', '-')}.toml"
    path.write_text(text[:start] + block + text[end:], encoding="utf-8")
    return path


async def test_union_output_does_not_depend_on_an_unseen_confederate_unit(
        tmp_path: Path) -> None:
    """Two flank-march games (the Union under the hidden model) differing only in where an unseen
    Confederate battalion stands and how strong it is: after the same orders, the Union players
    get byte-identical deliveries, maps included, and the same replies."""
    outputs: list[list[Any]] = []
    steps = crash_driver.STEPS[:40]  # about five turns of both sides' orders
    for name in PLACES:
        scenario = flank_march_variant(tmp_path, name)
        async with Store.open(tmp_path / f"{name.replace(' ', '-')}.db") as store:
            umpire = Umpire(store, maps=MapMaker(enabled=True))
            await umpire.create_game(str(scenario), HOST, game_id="g1",
                                     without=crash_driver.WITHOUT, seed=crash_driver.SEED)
            for side, user in crash_driver.PLAYERS.items():
                await umpire.join("g1", user, side)
            await umpire.start("g1", HOST)
            replies: list[str] = []
            for i, (user, command) in enumerate(steps):
                try:
                    text = (await umpire.handle("g1", user, command, request_id=f"s{i}")).text
                except UmpireError as e:
                    text = f"refused: {e}"
                if user == crash_driver.UNION:
                    replies.append(text)
            state = await umpire.repository.state_for("g1")
            assert state.turn >= 5
            assert HIDDEN_UNIT not in state.memory["union"], "the varied unit was sighted"
            assert state.units[HIDDEN_UNIT].cell is not None
            union = {("player", str(crash_driver.UNION)), ("side", "union")}
            got = [(d.kind, d.target, masked(d.text), d.image_name,
                    d.image and (len(d.image), hashlib.sha256(d.image).hexdigest()))
                   for d in await umpire.with_pictures([  # drawn as they are sent
                       d for d in await store.pending_deliveries("g1", limit=100_000)
                       if d.kind == "public" or (d.kind, d.target) in union])]
            assert any(d[4] for d in got), "no map was delivered to the Union"
            outputs.append([replies, got])
    assert outputs[0][0] == outputs[1][0]
    assert len(outputs[0][1]) == len(outputs[1][1])
    for a, b in zip(outputs[0][1], outputs[1][1], strict=True):
        assert a == b  # kind, target, text, image name, image size and SHA-256
