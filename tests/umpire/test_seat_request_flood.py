"""Requests to join a started game cannot flood its host: one open request per user, at most
``seats.MOST_OPEN_REQUESTS`` per game, and one DM to the host at a time, rewritten to tell every
new request while it waits unsent (``storage.seat_notices``, ``umpire.games.seat_notice``).

Each test runs on a SQLite file and on PostgreSQL (``pg_target``), through the umpire as the bot
drives it; nothing here touches the network."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Collection
from pathlib import Path

import pytest

from storage.records import DeliveryRecord, Recipient
from storage.seat_notices import NOTICE_KEY, SeatNotice
from storage.store import Store
from umpire.games import seat_notice, seats
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError

FIXTURES = Path(__file__).parents[1] / "fixtures"
HOST, BLUE, GREY = 1, 10, 20
ASKERS = range(1000, 1040)  # forty accounts of one cheater
GID = "g1"
MOST = seats.MOST_OPEN_REQUESTS


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: a SQLite file, or a fresh PostgreSQL schema (``pg_target``)."""
    if request.param == "sqlite":
        return str(tmp_path / "vedette.db")
    return str(request.getfixturevalue("pg_target"))


@pytest.fixture
async def umpire(target: str) -> AsyncIterator[Umpire]:
    """The tiny game ``g1``, started: blue and grey seated, hosted by ``HOST``."""
    async with Store.open(target) as store:
        umpire = Umpire(store, scenarios=FIXTURES, maps=MapMaker(enabled=False))
        await umpire.create_game("tiny", HOST, game_id=GID, seed=bytes(range(32)))
        await umpire.join(GID, BLUE, "blue")
        await umpire.join(GID, GREY, "grey")
        await umpire.start(GID, HOST)
        yield umpire


async def notices(umpire: Umpire) -> list[DeliveryRecord]:
    """Every DM to the host about requests to join, sent or not, oldest first."""
    return [d for d in await umpire.store.deliveries_for(GID, Recipient("host", str(HOST)))
            if "asks to command" in d.text]


async def waiting(umpire: Umpire) -> list[DeliveryRecord]:
    """The host's DMs still waiting in the outbox."""
    return [d for d in await umpire.store.pending_deliveries(GID) if d.kind == "host"]


def askers(text: str) -> list[int]:
    """The users a notice tells of, in order."""
    return [int(line.split(">", 1)[0].removeprefix(seat_notice.BULLET + "<@"))
            for line in seat_notice.lines(text)]


async def test_asking_again_queues_nothing_and_is_answered_politely(umpire: Umpire) -> None:
    first = await umpire.join(GID, ASKERS[0], "blue")
    assert "has been sent to the host" in first.text and len(first.delivery_ids) == 1
    [notice] = await waiting(umpire)
    again = await umpire.join(GID, ASKERS[0], "blue")
    assert "already with the host" in again.text and "changes nothing" in again.text
    assert again.delivery_ids == ()
    # Another side: refused, and the request still names the side first asked for.
    with pytest.raises(UmpireError, match=r"already with the host.*/game leave"):
        await umpire.join(GID, ASKERS[0], "grey")
    request = await umpire.store.seat_request(GID, ASKERS[0])
    assert request is not None and request.side == "blue"
    assert await waiting(umpire) == [notice]  # neither queued nor rewritten
    # Once the notice has gone out, asking again still sends nothing.
    await umpire.store.mark_sent(notice.id)
    assert "already with the host" in (await umpire.join(GID, ASKERS[0], "blue")).text
    assert await waiting(umpire) == []


async def test_past_the_most_requests_a_request_is_refused_and_nothing_written(
        umpire: Umpire) -> None:
    for user in ASKERS[:MOST]:
        await umpire.join(GID, user, "blue")
    before = await umpire.store.deliveries_for(GID, Recipient("host", str(HOST)))
    with pytest.raises(UmpireError, match=rf"already has {MOST} requests to join waiting.*"
                                          "ask in the game's channel"):
        await umpire.join(GID, ASKERS[MOST], "grey")
    assert await umpire.store.seat_request(GID, ASKERS[MOST]) is None
    assert len(await umpire.store.seat_requests(GID)) == MOST
    assert await umpire.store.deliveries_for(GID, Recipient("host", str(HOST))) == before
    # A request answered makes room for the next.
    await umpire.unseat(GID, HOST, ASKERS[0])
    assert "sent to the host" in (await umpire.join(GID, ASKERS[MOST], "grey")).text


async def test_requests_while_the_notice_waits_are_told_in_it(umpire: Umpire) -> None:
    asked = [await umpire.join(GID, user, side)
             for user, side in zip(ASKERS[:5], ["blue", "grey"] * 3, strict=False)]
    [notice] = await waiting(umpire)
    assert notice.edit_key == NOTICE_KEY
    assert {a.delivery_ids for a in asked} == {(notice.id,)}  # each kicks the one notice
    assert askers(notice.text) == list(ASKERS[:5])
    for user, side in zip(ASKERS[:5], ["blue", "grey"] * 3, strict=False):
        assert f"/host seat user:<@{user}> side:{side} game:{GID}" in notice.text
        assert f"/host unseat user:<@{user}> game:{GID}" in notice.text
    # /game status lists the same open requests.
    status = (await umpire.status(GID, HOST)).text
    assert all(f"<@{user}>" in status for user in ASKERS[:5])


async def test_a_request_after_the_notice_is_sent_starts_a_new_one(umpire: Umpire) -> None:
    await umpire.join(GID, ASKERS[0], "blue")
    await umpire.join(GID, ASKERS[1], "blue")
    [first] = await waiting(umpire)
    await umpire.store.mark_sent(first.id)
    later = await umpire.join(GID, ASKERS[2], "grey")
    [second] = await waiting(umpire)
    assert later.delivery_ids == (second.id,) and second.id != first.id
    assert askers(second.text) == [ASKERS[2]]  # told once: the earlier two were in the first
    sent = await umpire.store.get_delivery(first.id)
    assert sent is not None and sent.text == first.text and sent.status == "sent"
    assert [n.id for n in await notices(umpire)] == [first.id, second.id]


async def test_a_request_withdrawn_leaves_the_waiting_notice(umpire: Umpire) -> None:
    for user in ASKERS[:3]:
        await umpire.join(GID, user, "blue")
    await umpire.leave(GID, ASKERS[1])  # withdrawn
    await umpire.unseat(GID, HOST, ASKERS[0])  # refused
    await umpire.join(GID, ASKERS[3], "grey")
    [notice] = await waiting(umpire)
    assert askers(notice.text) == [ASKERS[2], ASKERS[3]]
    # Asking anew after withdrawing, for the other side this time: the new line only.
    await umpire.leave(GID, ASKERS[2])
    await umpire.join(GID, ASKERS[2], "grey")
    [notice] = await waiting(umpire)
    assert askers(notice.text) == [ASKERS[3], ASKERS[2]]
    assert f"side:grey game:{GID}" in seat_notice.lines(notice.text)[1]


async def test_a_flood_of_accounts_queues_one_dm_and_is_refused_past_the_most(
        umpire: Umpire, target: str) -> None:
    """A cheater's forty accounts ask at once, through two bot processes sharing the database:
    the host gets one DM telling the first ``MOST``, and every other account is refused with
    nothing written."""
    async with Store.open(target) as other_store:
        other = Umpire(other_store, scenarios=FIXTURES, maps=MapMaker(enabled=False))

        async def ask(user: int) -> str:
            try:
                return (await (umpire if user % 2 else other).join(GID, user, "blue")).text
            except UmpireError as refused:
                return str(refused)

        answers = await asyncio.gather(*(ask(user) for user in ASKERS))
        assert sum("has been sent to the host" in a for a in answers) == MOST
        assert sum(f"already has {MOST} requests" in a for a in answers) == len(ASKERS) - MOST
        [notice] = await waiting(umpire)
        open_ = [r.user_id for r in await umpire.store.seat_requests(GID)]
        assert len(open_) == MOST and sorted(askers(notice.text)) == sorted(open_)
        # And again, every account: nothing more is queued.
        await asyncio.gather(*(ask(user) for user in ASKERS))
        assert await waiting(umpire) == [notice]
        assert len(await notices(umpire)) == 1


# -- the store's notice ------------------------------------------------------------------------
def listing(waiting: str | None, asking: Collection[int]) -> str:
    """A notice that says what it was written over and who asks."""
    return f"over {waiting!r}: {sorted(asking)}"


async def test_the_waiting_notice_is_rewritten_in_the_request_s_own_write(
        umpire: Umpire) -> None:
    store = umpire.store
    told = SeatNotice(str(HOST), listing)
    first = await store.request_seat(GID, 7, "blue", told)
    second = await store.request_seat(GID, 8, "grey", told)
    assert first.asked and second.asked and first.delivery_ids == second.delivery_ids
    [notice] = await waiting(umpire)
    assert notice.text == "over 'over None: [7]': [7, 8]"
    assert notice.target == str(HOST) and notice.edit_key == NOTICE_KEY


async def test_a_notice_is_not_rewritten_while_its_outbox_is_held(umpire: Umpire) -> None:
    """A holder of the outbox may have read the notice and be sending it: a rewrite then
    would never reach the host, so the new request gets a notice of its own."""
    store = umpire.store
    told = SeatNotice(str(HOST), listing)
    await store.request_seat(GID, 7, "blue", told)
    assert await store.claim_outboxes("sender", 60.0, 1, game_id=GID) == [GID]
    await store.request_seat(GID, 8, "grey", told)
    assert [d.text for d in await waiting(umpire)] == ["over None: [7]", "over None: [7, 8]"]
    await store.release_outbox("sender", GID)
    await store.request_seat(GID, 9, "grey", told)  # the newest waiting one is rewritten
    assert [d.text for d in await waiting(umpire)] == [
        "over None: [7]", "over 'over None: [7, 8]': [7, 8, 9]"]
