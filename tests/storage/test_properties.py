"""Property: whatever sequence of commits is made (some of them stale), ``events()`` returns
exactly the events of the commits that succeeded, in order, with gapless seqs; on SQLite and on
PostgreSQL."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import ConcurrencyError, GameRecord, NewDelivery, NewEvent, Recipient, Store
from tests.support import pg_server

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=12)
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)
payloads = st.dictionaries(st.text(max_size=6), json_values, max_size=4)
audiences = st.sampled_from(["public", "umpire", "side:union", "side:confederate"])
event_types = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", min_size=1,
                      max_size=12)
new_events = st.builds(NewEvent, type=event_types, payload=payloads, audience=audiences)
# one commit: its events, how many deliveries it queues, and how stale its expected seq is
commits = st.tuples(st.lists(new_events, max_size=5), st.integers(0, 3), st.integers(-2, 2))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=st.lists(commits, max_size=12))
def test_events_returns_exactly_what_was_committed_in_order(
    plan: list[tuple[list[NewEvent], int, int]],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_run(Path(folder) / "p.db", plan))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=st.lists(commits, max_size=12))
def test_events_returns_exactly_what_was_committed_in_order_on_postgresql(
    pg_url: str, plan: list[tuple[list[NewEvent], int, int]],
) -> None:
    asyncio.run(_run_in_a_fresh_schema(pg_url, plan))


async def _run_in_a_fresh_schema(url: str, plan: list[tuple[list[NewEvent], int, int]]) -> None:
    name, target = await pg_server.fresh_schema(url)
    try:
        await _run(target, plan)
    finally:
        await pg_server.drop_schema(url, name)


async def _run(path: Path | str, plan: list[tuple[list[NewEvent], int, int]]) -> None:
    async with Store.open(path) as store:
        await store.create_game(
            GameRecord(id="g", scenario_id="s", scenario_path="s.toml", host_user_id=1,
                       seed=bytes(32))
        )
        committed: list[NewEvent] = []
        texts: list[str] = []
        for number, (events, delivery_count, staleness) in enumerate(plan):
            expected = len(committed) + staleness
            if expected < 0:
                continue
            deliveries = [
                NewDelivery("side", "union", f"{number}.{i}") for i in range(delivery_count)
            ]
            try:
                ids = await store.commit("g", expected, events, deliveries)
            except ConcurrencyError:
                assert staleness != 0
                continue
            assert staleness == 0 and len(ids) == delivery_count
            committed += events
            texts += [d.text for d in deliveries]
        stored = await store.events("g")
        assert [e.seq for e in stored] == list(range(1, len(committed) + 1))
        assert [_as_new(e.type, e.payload, e.audience) for e in stored] == committed
        for event, original in zip(stored, committed, strict=True):
            assert _json_identical(event.payload, original.payload)
        middle = len(committed) // 2
        assert [e.seq for e in await store.events("g", after_seq=middle)] == list(
            range(middle + 1, len(committed) + 1)
        )
        inbox = await store.deliveries_for("g", Recipient("side", "union"), limit=10_000)
        assert [d.text for d in inbox] == texts


def _as_new(type_: str, payload: dict[str, Any], audience: str) -> NewEvent:
    return NewEvent(type=type_, payload=payload, audience=audience)


def _json_identical(a: object, b: object) -> bool:
    """Equal and of the same types all the way down (1 == 1.0 == True would hide a change)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_json_identical(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_identical(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float):
        return repr(a) == repr(b)  # tells -0.0 from 0.0
    return a == b
