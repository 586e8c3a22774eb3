"""``vedette db copy``: every table moves, row for row, to an empty database (another SQLite
file, or PostgreSQL), every game replays there to the state it has in the source, and a
destination holding data is refused untouched.

The source is a club's file: the sample game ``vedette demo`` writes (events, snapshots,
deliveries with their pictures, seats, the pinned scenario), plus a small game with a seat
request, a former player, a ready mark, a phase deadline and its marks, an order waiting for a
confirmation and the bot's own state, so that no table is empty.
"""

from __future__ import annotations

import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from storage import held_news
from storage.clock import utc_now
from storage.db import connect
from storage.errors import StorageError
from storage.migrations import MIGRATIONS, SCHEMA_VERSION, migrate
from storage.pending_orders import PendingRow
from storage.records import NewDelivery
from storage.seat_notices import SeatNotice
from storage.store import Store
from tests.support.demos import Demos
from umpire.cli.db_copy import NOT_COPIED, TABLES, CopyRefused, check_replays, copy_database
from umpire.cli.main import main
from umpire.outbox.drain import drain, lane_of
from umpire.outbox.holder import new_holder
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

FIXTURES = Path(__file__).parents[1] / "fixtures"
TINY = str(FIXTURES / "tiny.toml")
HOST, BLUE, GREY, ASKER, LEAVER = 1, 10, 20, 30, 40

Dump = dict[str, list[tuple[Any, ...]]]


#: The other sample games: their ``vedette demo`` options.
SAMPLES: dict[str, dict[str, Any]] = {
    "concealed": {"variant": "concealed"},
    "chancellorsville-raid": {"scenario": "chancellorsville-hidden", "raid": True},
}


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory, demos: Demos) -> Path:
    """The sample game, played once for the module."""
    out = tmp_path_factory.mktemp("demo") / "demo"
    demos.play(out)
    return out / "game.db"


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory, demos: Demos) -> dict[str, Path]:
    """The other sample games' files, each played once for the module when first asked for."""
    found: dict[str, Path] = {}
    for name, options in SAMPLES.items():
        out = tmp_path_factory.mktemp(name) / "demo"
        demos.play(out, **options)
        found[name] = out / "game.db"
    return found


async def add_small_game(db: Path) -> None:
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(TINY, HOST, game_id="small", seed=bytes(range(32)))
        await umpire.join("small", BLUE, "blue")
        await umpire.join("small", GREY, "grey")
        await umpire.join("small", LEAVER, "grey")
        await umpire.start("small", HOST)
        await store.unseat_player("small", LEAVER, remember=True)
        told = SeatNotice(str(HOST), lambda _waiting, _asking: "a seat is asked for")
        await store.request_seat("small", ASKER, "blue", told)
        state = await umpire.repository.state_for("small")
        await store.mark_ready("small", BLUE, state.turn, state.step)
        await store.set_deadline_length("small", 3600)
        await store.mark_step_deadline("small", state.turn, state.step, "reminded")
        await store.add_pending_order(PendingRow(
            "p-1", "small", BLUE, "move", {"unit": "b1", "route": "0102"}, state.turn,
            state.step, "open", {}, datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)))
        await store.set_state("slash-commands", "pushed")
        await store.mark_turn_done("small", BLUE, state.turn, state.seq)
        await store.set_standing_order("small", "blue", "b1", "hold", "", BLUE)
        async with store._write("hold news for grey") as conn:
            await held_news.hold(conn, "small", {
                "grey": [held_news.Held("seen", "Blue cavalry seen at A0304.")]})


@pytest.fixture
def club(demo_db: Path, tmp_path: Path) -> Path:
    """A club's file: the sample game and the small one."""
    db = tmp_path / "club.db"
    shutil.copyfile(demo_db, db)
    import asyncio

    asyncio.run(add_small_game(db))
    return db


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def destination(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database to copy into: a new SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "copy.db")
    url: str = request.getfixturevalue("pg_target")
    return url


async def dump(target: str | Path) -> Dump:
    """Every copied table's rows, in the copy's order."""
    found: Dump = {}
    async with Store.open(target) as store, store._write("read every table") as conn:
        for table in TABLES:
            rows = await conn.fetch(
                f"SELECT {', '.join(table.columns)} FROM {table.name} ORDER BY {table.order}")
            found[table.name] = [tuple(_plain(row[i]) for i in range(len(table.columns)))
                                 for row in rows]
    return found


def _plain(value: Any) -> Any:
    return bytes(value) if isinstance(value, memoryview | bytearray) else value


async def test_every_table_is_copied_and_every_game_replays_the_same(
        club: Path, destination: str) -> None:
    before = await dump(club)
    assert all(before[table.name] for table in TABLES), \
        [table.name for table in TABLES if not before[table.name]]
    report = await copy_database(club, destination)
    assert report.ok, report.lines()
    assert report.games_checked == 2
    assert report.rows == {name: len(rows) for name, rows in before.items()}
    assert await dump(destination) == before
    assert await dump(club) == before


@pytest.mark.parametrize("sample", sorted(SAMPLES))
async def test_each_sample_game_is_copied_with_the_same_state(
        samples: dict[str, Path], sample: str, destination: str) -> None:
    report = await copy_database(samples[sample], destination)
    assert report.ok, report.lines()
    assert report.games_checked == 1
    assert report.rows["events"] > 0 and report.rows["deliveries"] > 0
    assert await dump(destination) == await dump(samples[sample])


async def test_games_come_back_from_postgresql_to_a_new_file(
        club: Path, pg_target: str, tmp_path: Path) -> None:
    await copy_database(club, pg_target)
    back = tmp_path / "back.db"
    report = await copy_database(pg_target, back)
    assert report.ok, report.lines()
    assert await dump(back) == await dump(club)


class Recorder:
    """A transport that keeps what it was given, lane by lane (each lane of an outbox goes
    out in its own order; the lanes side by side)."""

    def __init__(self) -> None:
        self.lanes: dict[str, list[str]] = {}

    async def send(self, kind: str, target: str, text: str, image: bytes | None,
                   image_name: str | None, *, key: str = "", **_: Any) -> None:
        self.lanes.setdefault(lane_of(kind, target), []).append(key)


async def test_what_waited_in_the_outbox_is_sent_from_the_destination(
        club: Path, destination: str) -> None:
    waiting: dict[str, list[str]] = {}
    async with Store.open(club) as source:
        for d in await source.pending_deliveries(limit=1000):
            waiting.setdefault(lane_of(d.kind, d.target), []).append(f"{d.game_id}:{d.id}")
    assert waiting
    await copy_database(club, destination)
    transport = Recorder()
    async with Store.open(destination) as store:
        assert await store.outbox_holders() == []
        await drain(store, transport, holder=new_holder())
        assert await store.pending_deliveries(limit=1) == []
    assert transport.lanes == waiting


async def test_deliveries_keep_their_ids_and_new_ones_come_after(
        club: Path, destination: str) -> None:
    await copy_database(club, destination)
    async with Store.open(club) as source:
        highest = max(d.id for d in await source.deliveries_for(
            "demo", ("public", ""), limit=100_000))
    async with Store.open(destination) as store:
        copied = await store.get_delivery(highest)
        assert copied is not None and copied.game_id == "demo"
        new = await store.queue_deliveries("small", [NewDelivery("public", "", "after")])
        every = [row[0] for row in (await dump(destination))["deliveries"]]
    assert new[0] > max(every[:-1])


async def test_a_destination_holding_data_is_refused_and_left_alone(
        club: Path, destination: str, tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    async with Store.open(other) as store:
        await store.set_state("mine", "yes")
    await copy_database(other, destination)
    held = await dump(destination)
    with pytest.raises(CopyRefused, match="not empty"):
        await copy_database(club, destination)
    assert await dump(destination) == held


async def test_a_file_is_not_copied_onto_itself(club: Path) -> None:
    before = await dump(club)
    with pytest.raises(CopyRefused, match="the same database"):
        await copy_database(club, club.parent / ".." / club.parent.name / club.name)
    assert await dump(club) == before


async def test_a_missing_source_is_refused_and_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.db"
    with pytest.raises(CopyRefused, match="no database"):
        await copy_database(missing, tmp_path / "copy.db")
    assert not missing.exists() and not (tmp_path / "copy.db").exists()


async def test_the_check_finds_a_game_that_replays_differently(
        club: Path, tmp_path: Path) -> None:
    """The check is not a formality: a destination missing the demo's last event is found."""
    copy = tmp_path / "copy.db"
    await copy_database(club, copy)
    with sqlite3.connect(copy) as conn:
        conn.execute("DELETE FROM events WHERE game_id = 'demo' AND seq ="
                     " (SELECT max(seq) FROM events WHERE game_id = 'demo')")
        conn.execute("DELETE FROM snapshots WHERE game_id = 'demo'")
    async with Store.open(club) as source, Store.open(copy) as dest:
        games, mismatches = await check_replays(source, dest)
    assert games == 2
    assert [m.game_id for m in mismatches] == ["demo"]
    assert "different state" in mismatches[0].problem


async def test_the_copy_knows_every_table_of_the_schema(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    async with Store.open(db):
        pass
    with sqlite3.connect(db) as conn:
        tables = {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%'")}
    assert tables - NOT_COPIED == {table.name for table in TABLES}


def test_vedette_db_copy_prints_what_it_copied_and_the_check(
        club: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "copy", "--from", str(club), "--to", str(tmp_path / "copy.db")]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"copied {club} to {tmp_path / 'copy.db'}:")
    assert "upgraded" not in out  # the source was at this Vedette's schema already
    assert "  games: 2 row(s)" in out
    assert "check: 2 game(s) replay to the same state in both" in out
    assert main(["db", "copy", "--from", str(club), "--to", str(tmp_path / "copy.db")]) == 1
    assert "not empty" in capsys.readouterr().err


async def test_a_source_from_an_older_vedette_is_upgraded_and_the_copy_says_so(
        tmp_path: Path) -> None:
    """Opening the source brings it to this Vedette's schema, as the bot would: the report says
    so rather than changing the operator's file silently."""
    old = tmp_path / "old.db"
    conn = await connect(old)
    try:
        await migrate(conn, old, utc_now, MIGRATIONS[:8])
    finally:
        await conn.close()
    report = await copy_database(old, tmp_path / "new.db")
    assert report.source_upgraded == (8, SCHEMA_VERSION)
    assert report.lines()[0] == (f"the source was first upgraded from schema 8 to "
                                 f"{SCHEMA_VERSION}, as the bot would have done")


def test_a_password_in_a_url_is_never_printed(
        club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Nothing listens on port 9 here: the copy fails with one line, without the password."""
    code = main(["db", "copy", "--from", str(club),
                 "--to", "postgresql://vedette:s3cret-word@127.0.0.1:9/nowhere"])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.err.startswith("vedette db: cannot use PostgreSQL database")
    assert "s3cret-word" not in captured.out + captured.err


async def test_a_copy_that_fails_halfway_leaves_the_destination_empty(
        club: Path, pg_target: str) -> None:
    """PostgreSQL's text cannot hold a NUL character, which SQLite's can: the bot's state
    (copied last, after every game) makes the copy fail, and nothing of it stays."""
    async with Store.open(club) as store:
        await store.set_state("note", "a\x00b")
    with pytest.raises(StorageError, match="copy the database failed"):
        await copy_database(club, pg_target)
    assert await dump(pg_target) == {table.name: [] for table in TABLES}
