"""Timing side channels: ``uv run python -m bench.timing_channels [--samples N]``.

Whether *when* a side hears something, or how fast it is answered, tells it what the enemy did
in secret (DESIGN.md, "Timing tells nothing"). The real bot runs as a process of its own (maps
drawn, the shipped ``flank-march``, a real database file; ``bench.botload``'s), connected to the
local fake Discord that this process runs, which answers every REST request ``LATENCY`` (0.1 s)
after acting on it, as a distant Discord would: a message is posted (and its arrival time
recorded) when the request arrives, and the bot hears back 0.1 s later. Each sample is a game of
its own with one Union and one Confederate player, in one of two worlds that differ only in
what the Confederates do in secret: in ``order`` they send Jackson's corps its surprise-move
order (``/march order``, then Confirm) in the Command Phase of turn 1; in ``no order`` they do
not. Everything else is the same commands in the same sequence.

The games are set up and played between the measurements with no latency, all at once; each
measurement is taken with the latency on, one game at a time (the others idle, their outboxes
empty), the two worlds' games alternating, so that a drift of the machine's load is shared.

* Case A, the outbox: turn 4's Command Phase ends (the Union's ``/done``, then the
  Confederates'), which is when the order, if given, is rolled for in secret. ``gap`` is the
  time from the arrival at Discord of the channel's status edit that opens the Union's
  Movement Phase to the arrival of the Union player's first DM of that phase ("Your orders,
  please"). ``waited`` counts the Confederates' DM requests that the bot sent after that status
  edit and heard answered before the Union's DM set off: each one the Union's DM waited on (the
  order's secret roll, and its acceptance when the roll accepts it: 1 or 2 a game).
* Case B, ``/map``: in turn 1's Command Phase the Union asks ``/map``, the Confederates give
  their order (or nothing), the outbox is emptied, and the Union asks ``/map`` again: ``map``
  is that second answer's time, from the interaction sent to the final answer visible (the
  deferral's 0.1 s included, the same in both worlds).

For each case and world: the samples, min / p25 / median / p75 / max in ms; then the two-sample
Kolmogorov-Smirnov statistic D (the largest gap between the two worlds' cumulative
distributions, 1.0 when every sample of one world is above every sample of the other) with its
p-value (exact for these sample sizes). ``differ`` (p < 0.01) means the side could tell the
worlds apart from this timing alone: a leak. ``indistinguishable at alpha=0.01`` means this many
samples could not; it proves nothing about more samples, but the waits counted in case A should
then be 0 in both worlds. The machine's load average and the cores' time stolen by the
hypervisor (``steal``) are printed: figures taken on a busy machine are noisier. The last line
is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.botload import ANSWER_TIMEOUT, DEFERRED, GAME_ID, outbox_empty, start_bot, stop_bot
from bench.umpire import Steal
from storage.store import Store
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, RecordedRequest
from tests.support.botkit import TOKEN, text_of
from umpire.demo.main import MARCH_ROUTE, jackson_force
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

SCENARIO = "flank-march"
LATENCY = 0.1
SAMPLES = 10
ALPHA = 0.01
#: Up to samples this large (the product of their sizes) the KS p-value is counted exactly.
EXACT_UP_TO = 250_000
ORDER, NO_ORDER = "order", "no order"
WORLDS = (ORDER, NO_ORDER)
#: The turn whose Command Phase ends with the order's secret acceptance roll (it reaches the
#: corps then), in the Confederates' private messages ahead of the Union's call to orders.
ROLLED_ON = 4
ORDERS_PLEASE = "Your orders, please"
#: A pause before each measured command, once everything before it was sent: time for the
#: bot's background work to settle, the same in both worlds.
SETTLE_S = 0.3

JSON = dict[str, Any]


@dataclass
class Table:
    """One game: its world, channel and two players."""

    world: str
    channel: FakeChannel
    union: FakeUser
    confederate: FakeUser
    game_id: str = ""


@dataclass
class Figures:
    """Each world's samples: case A's gaps and waits, case B's answer times (seconds)."""

    gaps: dict[str, list[float]] = field(default_factory=lambda: {w: [] for w in WORLDS})
    waited: dict[str, list[int]] = field(default_factory=lambda: {w: [] for w in WORLDS})
    maps: dict[str, list[float]] = field(default_factory=lambda: {w: [] for w in WORLDS})


# -- commands ------------------------------------------------------------------------------------
async def command(fake: FakeDiscord, name: str, user: FakeUser,
                  options: dict[str, Any] | None = None,
                  channel: FakeChannel | None = None) -> tuple[JSON, float]:
    """``/name`` as ``user`` (in their DM unless ``channel``): the final answer, and its time
    from the interaction sent to that answer visible."""
    handle = await fake.slash(name, options or {}, user=user, channel=channel)
    callback = await handle.response(timeout=ANSWER_TIMEOUT)
    if callback.type == DEFERRED:
        message = await handle.original_message(timeout=ANSWER_TIMEOUT)
    else:
        message = handle.original or {}
    return message, time.monotonic() - handle.sent_at


async def set_up(fake: FakeDiscord, table: Table) -> None:
    created, _ = await command(fake, "game create", table.union, {"scenario": SCENARIO},
                               table.channel)
    found = GAME_ID.search(text_of(created))
    if found is None:
        raise RuntimeError(f"no game created: {text_of(created)}")
    table.game_id = found[1]
    for side, user in (("union", table.union), ("confederate", table.confederate)):
        await command(fake, "game join", user, {"side": side}, table.channel)
    started, _ = await command(fake, "game start", table.union, channel=table.channel)
    if "started" not in text_of(started):
        raise RuntimeError(f"game {table.game_id} did not start: {text_of(started)}")


async def give_order(fake: FakeDiscord, reader: Umpire, table: Table) -> None:
    """The Confederates' secret order: Jackson's corps on its surprise move (previewed, then
    confirmed, as the bot asks)."""
    state = await reader.repository.state_for(table.game_id)
    preview, _ = await command(fake, "march order", table.confederate, {
        "force": jackson_force(state), "route": MARCH_ROUTE, "detour": "ask",
        "name": "Jackson's flank march"})
    buttons = preview.get("components") or []
    if not buttons:
        raise RuntimeError(f"game {table.game_id}: no order to confirm: {text_of(preview)}")
    shown = int(preview["id"])
    handle = await fake.click(preview, buttons[0]["components"][0]["custom_id"],
                              user=table.confederate)
    await handle.response(timeout=ANSWER_TIMEOUT)
    await fake.wait_for(lambda: "ordered" in text_of(fake.world.messages[shown]),
                        timeout=ANSWER_TIMEOUT, what="the order confirmed")


async def play_to(fake: FakeDiscord, reader: Umpire, table: Table, turn: int) -> None:
    """Every acting side says ``/done`` until turn ``turn``'s Command Phase."""
    players = {"union": table.union, "confederate": table.confederate}
    for _ in range(turn * 20):  # a guard against a game that no longer advances
        state = await reader.repository.state_for(table.game_id)
        if state.turn >= turn and state.current.phase.id == "command":
            return
        for side in [s for s in state.acting_sides() if s not in state.done]:
            await command(fake, "done", players[side])
    raise RuntimeError(f"game {table.game_id} did not reach turn {turn}")


async def quiet(fake: FakeDiscord, store: Store) -> None:
    """Until everything queued was sent and answered, and a moment more."""
    await outbox_empty(store)
    await asyncio.sleep(SETTLE_S)


# -- the measurements ----------------------------------------------------------------------------
async def measure_map(fake: FakeDiscord, store: Store, reader: Umpire, table: Table) -> float:
    """Case B: the Union's second ``/map``, after the Confederates' order or nothing."""
    fake.latency = LATENCY
    try:
        await command(fake, "map", table.union)
        if table.world == ORDER:
            await give_order(fake, reader, table)
        await quiet(fake, store)
        _, seconds = await command(fake, "map", table.union)
        await quiet(fake, store)
    finally:
        fake.latency = 0
    return seconds


async def measure_outbox(fake: FakeDiscord, store: Store, table: Table) -> tuple[float, int]:
    """Case A: the end of turn 4's Command Phase; the gap from the status edit to the Union's
    call to orders, and how many Confederate requests the call waited on."""
    fake.latency = LATENCY
    try:
        await command(fake, "done", table.union)
        await quiet(fake, store)
        mark = len(fake.requests)
        await command(fake, "done", table.confederate)
        union_dm = fake.dm_channel(table.union).id

        def call(r: RecordedRequest) -> bool:
            return (r.method == "POST" and r.path == f"/channels/{union_dm}/messages"
                    and ORDERS_PLEASE in json.dumps(r.json))

        await fake.wait_for(lambda: any(call(r) for r in fake.requests[mark:]),
                            timeout=ANSWER_TIMEOUT, what="the Union's call to orders")
        await quiet(fake, store)
    finally:
        fake.latency = 0
    after = fake.requests[mark:]
    status = next(r for r in after if r.method in ("POST", "PATCH")
                  and r.path.startswith(f"/channels/{table.channel.id}/messages"))
    union = next(r for r in after if call(r))
    enemy = f"/channels/{fake.dm_channel(table.confederate).id}/"
    waited = sum(1 for r in after if r.path.startswith(enemy) and r.answered
                 and status.received <= r.received and r.answered <= union.received)
    return union.received - status.received, waited


# -- statistics ----------------------------------------------------------------------------------
def ks_statistic(a: list[float], b: list[float]) -> float:
    """The two-sample Kolmogorov-Smirnov D: the largest gap between the samples' empirical
    cumulative distribution functions."""
    xs, ys = sorted(a), sorted(b)
    i = j = 0
    d = 0.0
    while i < len(xs) and j < len(ys):
        value = min(xs[i], ys[j])
        while i < len(xs) and xs[i] == value:
            i += 1
        while j < len(ys) and ys[j] == value:
            j += 1
        d = max(d, abs(i / len(xs) - j / len(ys)))
    return d


def ks_p_value(d: float, n: int, m: int) -> float:
    """The p-value of D for samples of ``n`` and ``m`` (the chance of a D at least this large if
    both came from one continuous distribution). Exact for small samples: of the C(n+m, n)
    equally likely ways to interleave the two sorted samples, the share whose path strays as far
    as D (Hodges, 1958). Else asymptotic: the Kolmogorov distribution's tail with Stephens'
    small-sample correction (*Numerical Recipes*' ``probks``)."""
    if n * m <= EXACT_UP_TO:
        # Paths through (i, j), i values of one sample and j of the other taken, that stay
        # strictly within D; in integers: |i*m - j*n| < D*n*m (less a rounding allowance).
        bound = d * n * m - 1e-7 * n * m
        paths = [[0] * (m + 1) for _ in range(n + 1)]
        for i in range(n + 1):
            for j in range(m + 1):
                if abs(i * m - j * n) >= bound:
                    continue
                paths[i][j] = 1 if i == j == 0 else (
                    (paths[i - 1][j] if i else 0) + (paths[i][j - 1] if j else 0))
        return 1 - paths[n][m] / math.comb(n + m, n)
    root = math.sqrt(n * m / (n + m))
    lam = (root + 0.12 + 0.11 / root) * d
    if lam < 0.2:
        return 1.0  # the series converges too slowly there; the tail is 1 to 6 places
    total = 0.0
    for j in range(1, 101):
        term = 2 * (-1) ** (j - 1) * math.exp(-2 * j * j * lam * lam)
        total += term
        if abs(term) < 1e-12:
            break
    return min(1.0, max(0.0, total))


def quartiles(times: list[float]) -> list[float]:
    """min, p25, median, p75, max."""
    if len(times) < 2:
        return [times[0]] * 5
    q = statistics.quantiles(times, n=4, method="inclusive")
    return [min(times), q[0], q[1], q[2], max(times)]


def compare(what: str, by_world: dict[str, list[float]]) -> JSON:
    """Print each world's spread and whether the worlds differ; the figures for the JSON."""
    figures: JSON = {}
    for world in WORLDS:
        ms = [t * 1000 for t in by_world[world]]
        spread = quartiles(ms)
        print(f"    {world:>8}: n={len(ms)}, min {spread[0]:.0f} / p25 {spread[1]:.0f} / median "
              f"{spread[2]:.0f} / p75 {spread[3]:.0f} / max {spread[4]:.0f} ms")
        figures[world.replace(" ", "_")] = {"n": len(ms), "min": round(spread[0], 1),
                                            "p25": round(spread[1], 1),
                                            "median": round(spread[2], 1),
                                            "p75": round(spread[3], 1),
                                            "max": round(spread[4], 1)}
    a, b = by_world[ORDER], by_world[NO_ORDER]
    d = ks_statistic(a, b)
    p = ks_p_value(d, len(a), len(b))
    verdict = "differ" if p < ALPHA else f"indistinguishable at alpha={ALPHA:g}"
    print(f"    {what}: Kolmogorov-Smirnov D={d:.2f}, p={p:.2g}: {verdict}")
    figures.update({"ks_d": round(d, 3), "p": float(f"{p:.3g}"), "differ": p < ALPHA})
    return figures


# -- the run -------------------------------------------------------------------------------------
async def run(samples: int, folder: Path) -> JSON:
    db = folder / "vedette.db"
    figures = Figures()
    steal = Steal.now()
    began = time.perf_counter()
    async with FakeDiscord(token=TOKEN) as fake:
        guild = fake.add_guild("Timing Club")
        tables = [Table(WORLDS[n % 2], fake.add_text_channel(guild, f"game-{n}"),
                        fake.add_user(f"union{n}", guild=guild),
                        fake.add_user(f"confederate{n}", guild=guild))
                  for n in range(2 * samples)]
        async with Store.open(db):  # the schema, before two processes open the file
            pass
        bot = await start_bot(db, fake.base_url, folder / "bot.log")
        try:
            async with Store.open(db) as store:
                reader = Umpire(store, maps=MapMaker(enabled=False))
                await asyncio.gather(*(set_up(fake, t) for t in tables))
                await quiet(fake, store)
                for table in tables:  # case B, in turn 1's Command Phase
                    figures.maps[table.world].append(
                        await measure_map(fake, store, reader, table))
                await asyncio.gather(*(play_to(fake, reader, t, ROLLED_ON) for t in tables))
                await quiet(fake, store)
                for table in tables:  # case A, as turn 4's Command Phase ends
                    gap, waited = await measure_outbox(fake, store, table)
                    figures.gaps[table.world].append(gap)
                    figures.waited[table.world].append(waited)
        finally:
            await stop_bot(bot)
    elapsed = time.perf_counter() - began
    load = os.getloadavg()[0]
    stolen = Steal.now()
    steal_pct = (100 * (stolen.steal - steal.steal) / (stolen.total - steal.total)
                 if stolen.total > steal.total else 0.0)
    print(f"{2 * samples} games of {SCENARIO} on one bot process, Discord answering each "
          f"request {LATENCY * 1000:.0f} ms after it arrives; {samples} per world ({ORDER}: the "
          f"Confederates' secret surprise-move order on turn 1; {NO_ORDER}: none), in "
          f"{elapsed:.0f} s (load average {load:.1f}{steal.since()})")
    print(f"  A. outbox: status edit opening the Union's Movement Phase of turn {ROLLED_ON} -> "
          f"the Union's \"{ORDERS_PLEASE}\" DM")
    outbox = compare("gap", figures.gaps)
    for world in WORLDS:
        waits = figures.waited[world]
        print(f"    {world:>8}: the Union's DM waited on Confederate DM requests in "
              f"{sum(1 for w in waits if w)} of {len(waits)} samples ({sum(waits)} requests)")
        outbox[world.replace(" ", "_")]["waited_samples"] = sum(1 for w in waits if w)
        outbox[world.replace(" ", "_")]["waited_requests"] = sum(waits)
    print("  B. /map: the Union's second /map of turn 1's Command Phase, after the "
          "Confederates' order or nothing, interaction sent -> answer visible")
    maps = compare("answer", figures.maps)
    return {"samples": samples, "latency_ms": LATENCY * 1000, "outbox_gap_ms": outbox,
            "map_answer_ms": maps, "load": round(load, 2), "steal_pct": round(steal_pct, 1),
            "seconds": round(elapsed, 1)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.timing_channels",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=SAMPLES,
                        help=f"games per world (default {SAMPLES})")
    args = parser.parse_args(argv)
    if args.samples < 2:
        parser.error("--samples must be at least 2")
    with tempfile.TemporaryDirectory(prefix="vedette-timing-") as tmp:
        result = asyncio.run(run(args.samples, Path(tmp)))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
