"""Pictures: the umpire queues a map as the view it shows and draws it when it is sent, once for
every player of the view, and the inbox draws it again from the log, the same picture (ruling
FLOW-60). The store keeps a picture given as bytes once, whatever number of deliveries carry it,
and drops it once every delivery carrying it has been handed over; older databases' pictures are
carried over by migration 7; and a twelve-turn flank-march game with two players a side stays
small."""

from __future__ import annotations

import asyncio
import hashlib
import random
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from rules import commands as cmd
from rules.ground.grid import Cell
from rules.state import GameState, to_snapshot
from rules.view import project
from storage.clock import utc_now
from storage.db import connect
from storage.errors import StorageError
from storage.migrations import MIGRATIONS, migrate
from storage.records import GameRecord, NewDelivery, NewEvent, Picture, Recipient
from storage.store import Store
from tests.support.botkit import MAPS
from umpire.demo.main import Order, reachable_route
from umpire.outbox.drain import DeliveryRejected
from umpire.reads.drawn_maps import read_view
from umpire.reads.maps import MapMaker, draw_side_map
from umpire.service import Umpire, UmpireError

PNG_A = b"\x89PNG picture A" + bytes(range(256)) * 4
PNG_B = b"\x89PNG picture B" + bytes(range(256)) * 4
PLAYERS = {"union": (101, 102), "confederate": (201, 202)}
#: The whole twelve-turn game's database file, pictures included.
SIZE_LIMIT = 5 * 1024 * 1024
WHEN = "2026-01-01T00:00:00+00:00"
needs_maps = pytest.mark.skipif(not MAPS, reason="map pictures cannot be drawn here")


def game(game_id: str = "g1") -> GameRecord:
    return GameRecord(id=game_id, scenario_id="flank-march", scenario_path="scenarios/x.toml",
                      host_user_id=1, seed=bytes(range(32)))


def pictures(db: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT sha256, length(data) FROM pictures ORDER BY sha256").fetchall()


def to_side(image: bytes | None, view: str | None = "union", user: str = "101") -> NewDelivery:
    return NewDelivery("player", user, "Your orders, please.", image,
                       "union-turn-01.png" if image else None, image_view=view)


class Recorder:
    """A transport that keeps what it was handed (and refuses the targets in ``closed``)."""

    def __init__(self, closed: frozenset[str] = frozenset()) -> None:
        self.sent: list[tuple[str, str, str, bytes | None]] = []
        #: Each target's galleries, in order.
        self.galleries: dict[str, list[tuple[Picture, ...]]] = {}
        self.closed = closed

    async def send(self, kind: str, target: str, text: str, image: bytes | None,
                   image_name: str | None, *, key: str = "", pictures: Sequence[Picture] = (),
                   **more: object) -> None:
        if target in self.closed:
            raise DeliveryRejected("DMs closed", permanent=True)
        self.sent.append((kind, target, text, image))
        self.galleries.setdefault(target, []).append(tuple(pictures))


# -- stored once -----------------------------------------------------------------------------
async def test_a_picture_sent_to_many_players_is_stored_once(tmp_path: Path) -> None:
    db = tmp_path / "v.db"
    async with Store.open(db) as store:
        await store.create_game(game())
        ids = await store.commit("g1", 0, [NewEvent("PhaseBegan")], [
            to_side(PNG_A, user="101"), to_side(PNG_A, user="102"), to_side(PNG_B, user="103"),
            to_side(None)])
        assert pictures(db) == sorted([(hashlib.sha256(PNG_A).hexdigest(), len(PNG_A)),
                                       (hashlib.sha256(PNG_B).hexdigest(), len(PNG_B))])
        got = [await store.get_delivery(i) for i in ids]
        assert [d.image if d else "missing" for d in got] == [PNG_A, PNG_A, PNG_B, None]
        assert got[0] and got[0].picture == hashlib.sha256(PNG_A).hexdigest()
        pending = await store.pending_deliveries("g1")
        assert [d.image for d in pending] == [PNG_A, PNG_A, PNG_B, None]


async def test_a_picture_is_dropped_once_every_delivery_of_it_is_handed_over(
        tmp_path: Path) -> None:
    """Kept while one delivery of it is still to be sent (a retry needs the bytes); dropped
    when the last is sent or given up; the deliveries keep their view, to be drawn again."""
    db = tmp_path / "v.db"
    async with Store.open(db) as store:
        await store.create_game(game())
        first, second = await store.commit("g1", 0, [NewEvent("PhaseBegan")], [
            to_side(PNG_A, user="101"), to_side(PNG_A, user="102")])
        await store.mark_sent(first)
        await store.mark_failed(second, "Discord is down", permanent=False)  # a retry comes
        assert len(pictures(db)) == 1
        retried = await store.pending_deliveries("g1")
        assert [d.image for d in retried] == [PNG_A]
        await store.mark_failed(second, "DMs closed", permanent=True)
        assert pictures(db) == []
        for delivery_id in (first, second):
            d = await store.get_delivery(delivery_id)
            assert d is not None and d.image is None and d.picture is None
            assert d.picture_to_draw and d.image_view == "union"
            assert d.image_name == "union-turn-01.png"


async def test_an_attachment_that_cannot_be_drawn_again_is_kept(tmp_path: Path) -> None:
    """The game record at the end names no view: it stays, once, after it was sent."""
    db = tmp_path / "v.db"
    async with Store.open(db) as store:
        await store.create_game(game())
        [record] = await store.commit("g1", 0, [NewEvent("GameEnded")], [
            NewDelivery("public", "", "The game is over.", b'{"log": []}', "g1-record.json")])
        await store.mark_sent(record)
        d = await store.get_delivery(record)
        assert d is not None and d.image == b'{"log": []}' and not d.picture_to_draw
        assert len(pictures(db)) == 1


async def test_a_picture_sent_again_after_it_was_dropped_is_stored_again(
        tmp_path: Path) -> None:
    db = tmp_path / "v.db"
    async with Store.open(db) as store:
        await store.create_game(game())
        [old] = await store.commit("g1", 0, [NewEvent("PhaseBegan")], [to_side(PNG_A)])
        await store.mark_sent(old)
        [new] = await store.commit("g1", 1, [NewEvent("PhaseBegan")], [to_side(PNG_A)])
        assert len(pictures(db)) == 1
        d = await store.get_delivery(new)
        assert d is not None and d.image == PNG_A


# -- migration 7 -----------------------------------------------------------------------------
async def test_migration_7_carries_an_older_files_pictures_over(tmp_path: Path) -> None:
    """A file written before pictures had their own table: each delivery held its own copy.
    After the migration each distinct picture is one row, every delivery still reads its own
    bytes, and the old copies are emptied. Sent pictures of these are kept (their view is not
    known, so they could not be drawn again)."""
    db = tmp_path / "old.db"
    conn = await connect(db)
    try:
        before = tuple(m for m in MIGRATIONS if m.version <= 3)
        assert await migrate(conn, db, utc_now, before) == 3
        await conn.execute(
            "INSERT INTO games (id, scenario_id, scenario_path, host_user_id, seed, created_at,"
            " updated_at) VALUES ('g1', 's', 'p', 1, ?, ?, ?)", (bytes(32), WHEN, WHEN))
        for n, (image, status) in enumerate(((PNG_A, "sent"), (PNG_A, "pending"),
                                             (PNG_B, "sent"), (None, "sent"))):
            await conn.execute(
                "INSERT INTO deliveries (game_id, seq, kind, target, text, image, image_name,"
                " status, created_at) VALUES ('g1', 0, 'player', '101', ?, ?, ?, ?, ?)",
                (f"message {n}", image, "union-turn-01.png" if image else None, status, WHEN))
    finally:
        await conn.close()
    async with Store.open(db) as store:
        assert store.schema_version == MIGRATIONS[-1].version
        inbox = await store.deliveries_for("g1", Recipient("player", "101"))
        assert [d.image for d in inbox] == [PNG_A, PNG_A, PNG_B, None]
        assert not any(d.picture_to_draw for d in inbox)
        await store.mark_sent(inbox[1].id)
        assert len(pictures(db)) == 2  # kept: it could not be drawn again
    with sqlite3.connect(db) as plain:
        assert plain.execute("SELECT count(*) FROM deliveries WHERE image IS NOT NULL"
                             ).fetchone() == (0,)


async def test_migration_7_is_all_or_nothing(tmp_path: Path) -> None:
    """A carry-over that fails leaves the file at version 3 with its pictures where they were."""
    db = tmp_path / "old.db"
    conn = await connect(db)
    try:
        await migrate(conn, db, utc_now, tuple(m for m in MIGRATIONS if m.version <= 3))
        await conn.execute(
            "INSERT INTO games (id, scenario_id, scenario_path, host_user_id, seed, created_at,"
            " updated_at) VALUES ('g1', 's', 'p', 1, ?, ?, ?)", (bytes(32), WHEN, WHEN))
        await conn.execute(
            "INSERT INTO deliveries (game_id, seq, kind, target, text, image, image_name,"
            " created_at) VALUES ('g1', 0, 'player', '101', 'm', ?, 'a.png', ?)", (PNG_A, WHEN))

        async def broken(c: aiosqlite.Connection) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        seven = next(m for m in MIGRATIONS if m.version == 7)
        failing = (*(m for m in MIGRATIONS if m.version <= 3),
                   type(seven)(seven.version, seven.name, seven.sql, then=broken))
        with pytest.raises(StorageError, match="disk I/O error"):
            await migrate(conn, db, utc_now, failing)
    finally:
        await conn.close()
    with sqlite3.connect(db) as plain:
        assert plain.execute("SELECT max(version) FROM schema_migrations").fetchone() == (3,)
        assert plain.execute("SELECT image FROM deliveries").fetchone() == (PNG_A,)
        tables = {r[0] for r in plain.execute("SELECT name FROM sqlite_master")}
        assert "pictures" not in tables


# -- through the umpire ----------------------------------------------------------------------
async def new_game(umpire: Umpire, gid: str = "g") -> None:
    await umpire.create_game("flank-march", 1, game_id=gid, seed=bytes(32))
    for side, users in PLAYERS.items():
        for user in users:
            await umpire.join(gid, user, side)
    await umpire.start(gid, 1)


async def play_turns(umpire: Umpire, transport: Recorder, turns: int, gid: str = "g") -> int:
    """Play ``turns`` turns of short random marches (three units a Movement Phase), each side's
    first player giving the orders, sending the outbox after every command as the bot does;
    the turn reached."""
    rng = random.Random(1)
    movers = {side: [u.id for u in (await umpire.repository.state_for(gid)).units.values()
                     if u.side == side] for side in PLAYERS}
    await umpire.drain(gid, transport)
    while True:
        state = await umpire.repository.state_for(gid)
        if state.status != "active" or state.turn > turns:
            return state.turn
        for side in state.acting_sides():
            user = PLAYERS[side][0]
            if state.current.allows("move"):
                for unit in rng.sample(sorted(movers[side]), 3):
                    here = state.units[unit].cell
                    if here is None:
                        continue
                    dest = Cell(here.col + rng.randint(-2, 2), here.row + rng.randint(-2, 2))
                    if not state.loaded.board.on_a_sheet(dest):
                        continue
                    route = reachable_route(state, Order(side, unit,
                                                         state.loaded.board.label(dest)))
                    if route is None:
                        continue
                    try:
                        await umpire.handle(gid, user, cmd.Move(unit=unit, route=route))
                    except UmpireError:
                        continue
                    await umpire.drain(gid, transport)
                    state = await umpire.repository.state_for(gid)
            # A shared side finishes when each of its players is done (ruling FLOW-1).
            for player in PLAYERS[side]:
                await umpire.handle(gid, player, cmd.Done())
                await umpire.drain(gid, transport)


class CountingMaps(MapMaker):
    """Draws maps, counting the pictures drawn."""

    def __init__(self) -> None:
        super().__init__(enabled=True)
        self.drawn = 0

    async def side_map(self, state: GameState, side: str | None, **window: Any
                       ) -> bytes | None:
        self.drawn += 1
        return await super().side_map(state, side, **window)


@needs_maps
async def test_a_sides_map_is_drawn_once_when_sent_and_again_by_the_inbox(
        tmp_path: Path) -> None:
    """The start queues each of the four players their side's map as the view it shows: no
    picture is drawn or stored by the command. Sent, each side's map is drawn once for both
    its players; /inbox shows each player the very picture they were sent, drawn again."""
    db = tmp_path / "v.db"
    async with Store.open(db) as store:
        maps = CountingMaps()
        umpire = Umpire(store, maps=maps)
        await new_game(umpire)
        assert maps.drawn == 0
        pending = [d for d in await store.pending_deliveries("g") if d.picture_to_draw]
        assert sorted(d.target for d in pending) == ["101", "102", "201", "202"]
        assert {d.image_view for d in pending if d.target in ("101", "102")} == {"union.window"}
        assert all(d.image is None for d in pending) and pictures(db) == []
        transport = Recorder()
        await umpire.drain("g", transport)
        # One phase map a side and its close-ups, side-mates sharing them.
        [union_gallery] = transport.galleries["101"]
        [confederate_gallery] = transport.galleries["201"]
        assert transport.galleries["102"] == [union_gallery]
        assert len(union_gallery) > 1 and union_gallery[0].around is None
        assert all(p.around is not None and p.alt for p in union_gallery[1:])
        assert maps.drawn == len(union_gallery) + len(confederate_gallery)
        assert pictures(db) == []
        for user in (101, 102, 201, 202):
            sent = [image for _, target, _, image in transport.sent
                    if target == str(user) and image is not None]
            items, _ = await umpire.inbox("g", user)
            shown = [d.image for d in items if d.image is not None]
            assert shown == sent and len(sent) == 1
        union = next(i for _, t, _, i in transport.sent if t == "101" and i is not None)
        mate = next(i for _, t, _, i in transport.sent if t == "102" and i is not None)
        confederate = next(i for _, t, _, i in transport.sent if t == "201" and i is not None)
        assert union == mate
        assert union != confederate  # each side its own view


@needs_maps
async def test_side_mates_asking_for_a_map_at_once_share_one_drawing_and_no_one_else(
        tmp_path: Path) -> None:
    """Both Union players ask for the map at the same moment: one drawing, the same bytes.
    The Confederate asking next gets a drawing of its own view, never the Union's."""
    async with Store.open(tmp_path / "v.db") as store:
        maps = CountingMaps()
        umpire = Umpire(store, maps=maps)
        await new_game(umpire)
        one, two = await asyncio.gather(umpire.my_map("g", 101), umpire.my_map("g", 102))
        assert maps.drawn == 1 and one.image is not None and one.image == two.image
        rebel = await umpire.my_map("g", 201)
        state = await umpire.repository.state_for("g")
        assert maps.drawn == 2
        assert rebel.image == draw_side_map(project(state, "confederate"),
                                            fitted=True) != one.image
        assert one.image == draw_side_map(project(state, "union"), fitted=True)


class BrokenMaps(MapMaker):
    """A renderer that fails on every picture."""

    async def side_map(self, state: GameState, side: str | None, **window: Any
                       ) -> bytes | None:
        raise RuntimeError("the renderer broke")


async def test_a_map_that_cannot_be_drawn_does_not_hold_its_message_back(tmp_path: Path
                                                                         ) -> None:
    """The words go without the picture; nothing stays pending, and /inbox says the same."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=BrokenMaps(enabled=True))
        await new_game(umpire)
        transport = Recorder()
        await umpire.drain("g", transport)
        assert await store.pending_deliveries("g") == []
        to_players = [(target, image) for _, target, _, image in transport.sent
                      if target in ("101", "102", "201", "202")]
        assert sorted({t for t, _ in to_players}) == ["101", "102", "201", "202"]
        assert all(image is None for _, image in to_players)
        items, _ = await umpire.inbox("g", 101)
        assert items and all(d.image is None for d in items) and all(d.text for d in items)


@needs_maps
async def test_a_map_left_unsent_is_drawn_by_the_next_process_as_it_was_queued(
        tmp_path: Path) -> None:
    """The bot stops with the start's maps unsent, and the game has moved on meanwhile: the
    next process draws each from the log as the side saw it when it was queued."""
    db = tmp_path / "v.db"
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=True))
        await new_game(umpire)
        for users in PLAYERS.values():
            for user in users:
                await umpire.handle("g", user, cmd.Done())
        queued = [d for d in await store.pending_deliveries("g", limit=1000)
                  if d.target == "101" and d.picture_to_draw]
        assert len(queued) == 2  # the start's map and the next phase's
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=True))
        transport = Recorder()
        await umpire.drain("g", transport)
        sent = [image for _, target, _, image in transport.sent if target == "101" and image]
        drawn = [draw_side_map(project(await umpire.repository.state_at("g", d.seq), "union"),
                               fitted=True)
                 for d in queued]
        assert sent == drawn and drawn[0] != drawn[1]


@needs_maps
async def test_a_map_kept_for_a_player_whose_dms_are_closed_is_the_one_they_missed(
        tmp_path: Path) -> None:
    """A delivery given up on (DMs closed) is in the inbox with its map, drawn again later:
    the side's map as it was, not as it is now."""
    db = tmp_path / "v.db"
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=True))
        await new_game(umpire)
        closed = Recorder(closed=frozenset({"102"}))
        await umpire.drain("g", closed)
        sent_to_mate = next(i for _, t, _, i in closed.sent if t == "101" and i is not None)
        await play_turns(umpire, closed, turns=1)
        items, _ = await umpire.inbox("g", 102, per_page=500)
        maps = [d.image for d in items if d.image is not None]
        assert maps and maps[-1] == sent_to_mate  # the oldest: the start's map
        assert len(set(maps)) > 1  # later phases' maps differ from it


@needs_maps
async def test_a_twelve_turn_game_with_two_players_a_side_stays_under_5_mb(
        tmp_path: Path) -> None:
    db = tmp_path / "v.db"
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=True))
        await new_game(umpire)
        transport = Recorder()
        reached = await play_turns(umpire, transport, turns=12)
        assert reached == 13  # twelve whole turns played
        assert sum(1 for *_, image in transport.sent if image is not None) >= 12 * 4
        assert await store.pending_deliveries("g") == []
        assert pictures(db) == []
        # The newest page of the inbox, drawn again from the log's later snapshots: the very
        # maps this player was sent.
        assert await store.snapshot_at_or_before("g", (await store.last_seq("g"))) is not None
        items, _ = await umpire.inbox("g", 102)
        sent = [image for _, target, _, image in transport.sent if target == "102" and image]
        shown = [d.image for d in reversed(items) if d.image is not None]
        assert shown and shown == sent[-len(shown):]
    size = sum(p.stat().st_size for p in tmp_path.glob("v.db*"))
    print(f"twelve-turn flank-march game, two players a side: {size} bytes")
    assert size < SIZE_LIMIT


async def move_once(umpire: Umpire, gid: str = "g") -> None:
    """Say Done until a side may move, then move one of its units a cell or two."""
    while not (state := await umpire.repository.state_for(gid)).current.allows("move"):
        for side in state.acting_sides():
            for player in PLAYERS[side]:
                await umpire.handle(gid, player, cmd.Done())
    side = state.acting_sides()[0]
    for unit in sorted(u.id for u in state.units.values() if u.side == side and u.cell):
        here = state.units[unit].cell
        assert here is not None
        for dest in state.loaded.map.grid.neighbours(here):
            route = reachable_route(state, Order(side, unit, state.loaded.board.label(dest)))
            if route is not None:
                await umpire.handle(gid, PLAYERS[side][0], cmd.Move(unit=unit, route=route))
                return
    raise AssertionError("no unit could move")


@needs_maps
async def test_a_queued_map_reads_the_state_its_commit_reached_the_same_as_the_log(
        tmp_path: Path) -> None:
    """The states a commit reached that its queued maps show are kept with the game, and each
    is the very state the log gives for that event: a map drawn from it is the one the inbox
    draws again from the log."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker())
        await new_game(umpire)
        await move_once(umpire)
        game = await umpire.repository.get("g")
        pending = [d for d in await store.pending_deliveries("g") if d.picture_to_draw]
        behind = {(d.seq, read_view(d.image_view or "")[0]) for d in pending
                  if d.seq != game.state.seq}
        assert behind  # maps that follow an event the game has moved on from
        for seq, view in behind:
            kept = game.state_kept(seq, view)
            assert kept is not None and kept.seq == seq
            assert to_snapshot(kept) == to_snapshot(await umpire.repository.state_at("g", seq))
        assert game.state_kept(-1, "union") is None
        # Each view keeps its own: a view with no map of that event has nothing kept for it.
        seq, _ = min(behind)
        assert game.state_kept(seq, "umpire") is None
