"""The start-of-phase orders of Concealed Forces (reveal, breed, scout, conceal) on a side two
players share, from Discord against the fake Discord: the call for orders lists them "before
any unit of your side moves"; once a side-mate has moved, they are no longer offered, and a
player who tries one is told whose order closed the window (rulings FLOW-63, FLOW-64)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.client import VedetteBot
from rules.commands import Done
from rules.concealed.commands import ConcealForce
from rules.turn.idle import side_options
from storage.records import EventRecord
from storage.store import Store
from tests.fakediscord import FakeDiscord, FakeUser, patched_discord, run_client
from tests.support.botkit import TOKEN, private_answer, text_of
from tests.support.concealed import COLSTON, SCENARIO, SEED
from umpire.reads.maps import MapMaker
from umpire.reads.player_settings import Preview
from umpire.reads.window import closed_by
from umpire.service import Umpire

ONEAL = "O'Neal's (Rodes') brigade"
BEFORE = "before any unit of your side moves"
#: The start-of-phase orders, as the call for orders words them.
STARTING = ("reveal a concealed force", "breed a decoy", "conceal a division")


@asynccontextmanager
async def shared_game(fake: FakeDiscord, tmp_path: Path
                      ) -> AsyncIterator[tuple[VedetteBot, FakeUser, FakeUser, FakeUser]]:
    """Flank-march with alice (the host) and carol sharing the Confederates, bob the Union;
    started, moves given at once (no previews)."""
    guild = fake.add_guild("Wargames Club")
    alice, carol, bob = (fake.add_user(n, guild=guild) for n in ("alice", "carol", "bob"))
    store = await Store.open(tmp_path / "vedette.db")
    try:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(SCENARIO), alice.id, game_id="g1", seed=SEED,
                                 channel_id=None)
        for user, side in ((alice, "confederate"), (carol, "confederate"), (bob, "union")):
            await umpire.join("g1", user.id, side, in_server=True)
            await umpire.set_preview_setting(user.id, Preview.OFF)
        await umpire.start("g1", alice.id)
        bot = VedetteBot(umpire, outbox_interval=0.2, guild_ready_timeout=0.05)
        with patched_discord(fake.base_url):
            async with run_client(bot, token=TOKEN):
                yield bot, alice, carol, bob
    finally:
        await store.close()


async def to_movement(umpire: Umpire, seats: dict[str, list[int]], turn: int) -> None:
    """Every player of every acting side says done until the Confederate movement phase of
    ``turn``."""
    for _ in range(60):
        state = await umpire.repository.state_for("g1")
        if (state.turn == turn and state.current.allows("move")
                and "confederate" in state.acting_sides()):
            return
        for acting in state.acting_sides():
            for user in seats[acting]:
                await umpire.handle("g1", user, Done())
    raise AssertionError(f"never reached the Confederate movement phase of turn {turn}")


async def say(fake: FakeDiscord, command: str, user: FakeUser, options: dict[str, Any]) -> str:
    return text_of(await private_answer(fake, command, user, options))


async def test_a_side_mates_move_closes_the_start_of_phase_orders_and_says_whose(
        fake: FakeDiscord, tmp_path: Path) -> None:
    async with shared_game(fake, tmp_path) as (bot, alice, carol, bob):
        seats = {"confederate": [alice.id, carol.id], "union": [bob.id]}
        await to_movement(bot.umpire, seats, 1)
        await bot.umpire.handle("g1", alice.id, ConcealForce(leader=COLSTON))
        await to_movement(bot.umpire, seats, 2)
        [mid] = (await bot.umpire.repository.state_for("g1")).markers
        await bot.outbox.idle()
        calls = [text_of(m) for m in fake.dms_to(alice)]
        [call] = [t for t in calls if "Your orders, please: Army of Northern Virginia Movement "
                  "and Close Combat Phase, turn 2" in t]
        assert (f"- reveal a concealed force (/conceal reveal), {BEFORE}: marker {mid}"
                in call)
        assert f"- breed a decoy (/conceal breed), {BEFORE}: marker {mid}" in call
        assert f"- conceal a division (/conceal force), {BEFORE}: " in call

        moved = await say(fake, "move", carol, {"unit": ONEAL, "route": "A1410"})
        assert moved.startswith(f"{ONEAL} moved 1 cell(s) to A1410")
        seq = await bot.umpire.store.last_seq("g1")
        refused = await say(fake, "conceal reveal", alice, {"marker": f"marker {mid}"})
        assert refused.endswith(
            f"you can unconceal a force only at the start of your movement phase, {BEFORE}, "
            f"and your side has already moved this phase: <@{carol.id}>'s move of {ONEAL} "
            "closed it")
        own = await say(fake, "conceal breed", carol, {"marker": f"marker {mid}"})
        assert own.endswith(f"your own move of {ONEAL} closed it")
        assert await bot.umpire.store.last_seq("g1") == seq  # nothing changed
        state = await bot.umpire.repository.state_for("g1")
        assert mid in state.markers
        offered = [o.words for o in side_options(state, "confederate").offers]
        assert "move a concealed force (/move)" in offered
        assert not [w for w in offered if w.startswith(STARTING)]


def _record(seq: int, kind: str, audience: str, **payload: Any) -> EventRecord:
    return EventRecord("g1", seq, kind, payload, audience, datetime.now(UTC))


async def test_the_closing_order_is_read_from_the_sides_own_orders_only(tmp_path: Path) -> None:
    """Cheater test: the enemy's orders and moves in the log (earlier in the phase, with its
    player's id) are never named; with none of the side's own, nothing is named at all."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(SCENARIO), 1, game_id="g1", channel_id=None, seed=SEED)
        state = (await umpire.repository.get("g1")).state
    enemy = [_record(1, "command_accepted", "umpire", side="union", user=99, host=False),
             _record(2, "unit_moved", "side:union", unit="howard", path=[], mp=1.0)]
    host = [_record(3, "command_accepted", "umpire", side="confederate", user=7, host=True),
            _record(4, "unit_moved", "side:confederate", unit="oneal", path=[], mp=1.0)]
    leader = [_record(5, "command_accepted", "umpire", side="confederate", user=8, host=False),
              _record(6, "formation_changed", "side:confederate", unit="jackson",
                      formation="mounted", mp=0.0)]
    own = [_record(7, "command_accepted", "umpire", side="confederate", user=8, host=False),
           _record(8, "cf_moved", "side:confederate", marker="7431", mp={}, path=[])]
    assert closed_by([*enemy, *host, *leader], state, "confederate", 5) == ""
    assert closed_by([*enemy, *host, *leader, *own], state, "confederate", 5) == (
        "<@8>'s move of marker 7431")
    assert closed_by([*enemy, *own], state, "confederate", 8) == "your own move of marker 7431"
