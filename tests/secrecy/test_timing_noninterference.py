"""Timing non-interference through the umpire: *when* a side hears something, and in what order,
depends only on public events, its own events and its own commands (DESIGN.md, "Timing tells
nothing"; ruling INFO-13).

Each game is played twice or more, changing only what the observing side may not know (whether
the enemy gave a secret surprise-move order, whether the enemy had said Done in the Command
Phase when the host ended it). After every command the outbox is drained through a network in
lockstep (``tests.support.lockstep``): every send takes one round trip, so the moment each message
reaches its audience is a number of round trips since the command, the same on every run.
The observer's whole timeline (which drain, which round trip, which lane, which words) must be
the same in every world. Controls: the enemy's own timeline does differ between the worlds
(they are different games), and an outbox that sends one audience's messages behind another's
is caught by the harness.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from bot.client import VedetteBot
from rules import commands as cmd
from rules import view as view_module
from rules.commands import Command
from rules.surprise.commands import OrderSurpriseMove
from storage.json_codec import JsonObject
from storage.records import Picture, Recipient
from storage.store import Store
from tests.fakediscord import FakeDiscord
from tests.support.botkit import TOKEN, started_game
from tests.support.commitments import masked
from tests.support.lockstep import (
    DiscordLockstep,
    LockstepTransport,
    Sent,
    heard_by,
    run_in_lockstep,
)
from tests.support.surprise import Dice, scenario_file
from umpire.games import dice as umpire_dice
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError

HOST, BLUE, GREY = 1, 10, 20
SEED = bytes(range(32))
TURNS = 2

#: Blue's secret orders by turn (Command Phase), and the dice: Grey must not hear of them.
Script = dict[int, list[Command]]
MARCH = OrderSurpriseMove(force="1st Division, Blue Horse", route="road A2005")
WORLDS: dict[str, tuple[Script, Dice]] = {
    "no march": ({}, Dice()),
    "a march": ({1: [MARCH]}, Dice()),
    "a march whose acceptance is rolled late": ({1: [MARCH]}, Dice(acceptance=[5, 5])),
}

#: One drain's messages, as its audience got them (round trip, lane, words).
Drain = list[tuple[int, str, str]]


class Table:
    """One game on a real database file, its outbox drained in lockstep after every command
    (here by the umpire itself; ``BotTable``: by the bot, through the fake Discord)."""

    def __init__(self, store: Store, umpire: Umpire, users: dict[str, int], host: int) -> None:
        self.store = store
        self.umpire = umpire
        self.users = users
        self.host = host
        self.transport = LockstepTransport()
        self.drains: list[list[Sent]] = []

    async def drain(self) -> list[Sent]:
        return await run_in_lockstep(self.store, "g1", self.transport,
                                     lambda: self.umpire.drain("g1", self.transport))

    async def order(self, user: int, command: Command) -> None:
        await self.umpire.handle("g1", user, command, is_admin=user == self.host)
        self.drains.append(await self.drain())

    def timeline(self, side: str) -> list[Drain]:
        """What ``side`` heard, drain by drain; the drains in which it heard nothing are
        left out (it cannot tell they happened). Players are named by their sides (their ids
        differ from game to game)."""
        lanes = {"public:", f"player:{self.users[side]}", f"side:{side}"}
        heard = [[(s.tick, self.plain(s.lane), self.plain(masked(s.text)))
                  for s in heard_by(sent, lanes)] for sent in self.drains]
        return [one for one in heard if one]

    def plain(self, text: str) -> str:
        for side, user in self.users.items():
            text = text.replace(f"<@{user}>", f"<@{side}>")
            text = text.replace(f"player:{user}", f"player:{side}")
        return text


async def play(table: Table, script: Script, *, blue_done_in_command: bool = True) -> None:
    """``TURNS`` turns: Blue gives its secret orders, Grey patrols far away, and each side says
    Done, Blue first; in the Command Phase Blue says Done only if ``blue_done_in_command``,
    Grey never, and the host ends the phase (as a deadline would)."""
    blue, grey = table.users["blue"], table.users["grey"]
    while True:
        state = await table.umpire.repository.state_for("g1")
        if state.turn > TURNS or not state.status.in_play:
            return
        command_phase = state.current.allows("order")
        for side in state.acting_sides():
            if side == "blue" and command_phase:
                for command in script.get(state.turn, []):
                    await table.order(blue, command)
            if side == "grey" and state.current.allows("move"):
                here = state.units["grey-cav"].cell
                target = "A2402" if here == state.loaded.board.parse("A2401") else "A2401"
                await table.order(grey, cmd.Move(unit="Grey Horse", route=target))
            if command_phase and (side == "grey" or not blue_done_in_command):
                continue
            await table.order(blue if side == "blue" else grey, cmd.Done())
        if command_phase:
            await table.order(table.host, cmd.ForceEndPhase())


async def started(store: Store, tmp_path: Path, host: int = HOST) -> Umpire:
    """Game ``g1`` on the surprise-move ground, Blue and Grey seated, started (its first
    messages waiting in the outbox); maps off: these tests compare when, not what is drawn."""
    umpire = Umpire(store, maps=MapMaker(enabled=False))
    await umpire.create_game(str(scenario_file(tmp_path)), host, game_id="g1", seed=SEED)
    await umpire.join("g1", BLUE, "blue")
    await umpire.join("g1", GREY, "grey")
    await umpire.start("g1", host)
    return umpire


def with_dice(monkeypatch: pytest.MonkeyPatch, dice: Dice) -> None:
    fresh: Callable[[bytes, str], Dice] = lambda seed, gid: dice  # noqa: E731
    monkeypatch.setattr(umpire_dice, "SeededDice", fresh)


async def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, script: Script,
                 dice: Dice, **options: bool) -> Table:
    """The game played through the umpire in the world ``script`` and ``dice`` make."""
    with_dice(monkeypatch, dice)
    async with Store.open(tmp_path / f"{name}.db") as store:
        umpire = await started(store, tmp_path)
        table = Table(store, umpire, {"blue": BLUE, "grey": GREY}, HOST)
        table.drains.append(await table.drain())
        await play(table, script, **options)
        assert (await umpire.repository.state_for("g1")).turn == TURNS + 1
    return table


async def test_a_secret_order_changes_neither_when_nor_in_what_order_the_enemy_hears(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tables = {name: await played(tmp_path, monkeypatch, str(n), script, dice)
              for n, (name, (script, dice)) in enumerate(WORLDS.items())}
    grey = {name: table.timeline("grey") for name, table in tables.items()}
    quiet = grey["no march"]
    # Grey hears things in the same round trip as public posts, and not only at the start.
    assert any(tick == 0 and lane == "player:grey" for drain in quiet[1:]
               for tick, lane, _ in drain)
    for name, heard in grey.items():
        assert heard == quiet, f"Grey's timeline differs when Blue plays {name!r}"
    # Control: the worlds differ, for Blue, in what it hears and when.
    blue = {name: table.timeline("blue") for name, table in tables.items()}
    assert blue["a march"] != blue["no march"]
    assert blue["a march whose acceptance is rolled late"] != blue["a march"]


async def test_whether_the_enemy_had_said_done_when_the_phase_was_ended_is_not_heard_in_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ruling INFO-9: in the Command Phase, whether the other side had finished is hidden; the
    messages the host's ending of the phase sends it must not show it by when they come."""
    done = await played(tmp_path, monkeypatch, "done", {1: [MARCH]}, Dice())
    not_done = await played(tmp_path, monkeypatch, "not-done", {1: [MARCH]}, Dice(),
                            blue_done_in_command=False)
    assert done.timeline("grey") == not_done.timeline("grey")
    assert done.timeline("blue") != not_done.timeline("blue")  # control: Blue's own differ


class OneAtATime(LockstepTransport):
    """A network that carries one message at a time, whoever it is for: each audience's
    messages wait behind every other's, as a single queue would make them."""

    def __init__(self) -> None:
        super().__init__()
        self._line = asyncio.Lock()

    async def send(self, kind: str, target: str, text: str, image: bytes | None,
                   image_name: str | None, *, key: str = "",
                   buttons: Sequence[JsonObject] = (), edit_key: str = "",
                   mentions: tuple[int, ...] = (), pictures: Sequence[Picture] = ()) -> None:
        async with self._line:
            await super().send(kind, target, text, image, image_name, key=key,
                               buttons=buttons, edit_key=edit_key, mentions=mentions,
                               pictures=pictures)


async def test_control_an_audience_waiting_behind_another_is_caught(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with_dice(monkeypatch, Dice())
    monkeypatch.setattr("tests.support.lockstep.STALL", 1.0)
    async with Store.open(tmp_path / "serial.db") as store:
        umpire = await started(store, tmp_path)  # a post for everyone, a message for each side
        serial = OneAtATime()
        with pytest.raises(AssertionError, match="wait behind another audience"):
            await run_in_lockstep(store, "g1", serial, lambda: umpire.drain("g1", serial))


# -- through the bot and the fake Discord --------------------------------------------------------
class BotTable(Table):
    """The game served by the real bot: each command is followed by the bot's kick of its
    outbox, and the messages go to the fake Discord, which lets them in a tick at a time."""

    def __init__(self, bot: VedetteBot, fake: FakeDiscord, users: dict[str, int]) -> None:
        super().__init__(bot.umpire.store, bot.umpire, users, users["blue"])
        self.bot = bot
        self.network = DiscordLockstep(fake, bot.umpire.store, "g1", SEED)

    async def order(self, user: int, command: Command) -> None:
        async def command_and_kick() -> None:
            await self.umpire.handle("g1", user, command)
            self.bot.outbox.kick("g1")  # as every command does (bot.cogs)

        self.drains.append(await self.network.run(command_and_kick))


async def bot_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str,
                     script: Script) -> BotTable:
    with_dice(monkeypatch, Dice())
    folder = tmp_path / name
    folder.mkdir()
    async with FakeDiscord(token=TOKEN) as fake, \
            started_game(fake, folder, scenario_file(folder), ("blue", "grey"),
                         seed=SEED, channel=True) as (bot, alice, bob):
        table = BotTable(bot, fake, {"blue": alice.id, "grey": bob.id})
        await bot.outbox.idle()  # the start's messages, sent before the turn begins
        await play(table, script)
        assert (await table.umpire.repository.state_for("g1")).turn == TURNS + 1
        return table


async def test_through_discord_a_secret_order_does_not_delay_the_enemys_messages(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    quiet = await bot_played(tmp_path, monkeypatch, "quiet", {})
    marching = await bot_played(tmp_path, monkeypatch, "marching", {1: [MARCH]})
    grey = quiet.timeline("grey")
    lanes = {lane for drain in grey for _, lane, _ in drain}
    assert lanes == {"public:", "player:grey"}  # the channel's posts and Grey's DMs
    assert any(tick == 0 and lane == "player:grey" for drain in grey for tick, lane, _ in drain)
    assert marching.timeline("grey") == grey
    assert marching.timeline("blue") != quiet.timeline("blue")  # control: different games


async def test_a_flood_of_requests_to_join_delays_no_sides_messages(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Anyone with the game's id may ask for a seat after the start. However many ask, the
    host hears of them in a lane of its own (in one notice, ruling FLOW-62), even when the host
    plays a side: nothing either side is sent waits behind it."""
    with_dice(monkeypatch, Dice())

    async def game(name: str, asking: int) -> Table:
        async with Store.open(tmp_path / f"{name}.db") as store:
            umpire = await started(store, tmp_path, host=BLUE)  # Blue hosts, and plays
            table = Table(store, umpire, {"blue": BLUE, "grey": GREY}, BLUE)
            for user in range(1000, 1000 + asking):
                with contextlib.suppress(UmpireError):  # past the most open requests
                    await umpire.join("g1", user, "grey")
            await play(table, {})
            # Blue's /inbox shows the host's notice beside its side's messages.
            hosts = [d for d in await store.deliveries_for(
                "g1", Recipient("host", str(BLUE)), limit=100)]
            assert len(hosts) == (1 if asking else 0)
            return table

    quiet, flooded = await game("quiet", 0), await game("flooded", 40)
    for side in ("blue", "grey"):
        assert flooded.timeline(side) == quiet.timeline(side)
    # Control: the host's own lane is where the flood went.
    host_lane = {f"host:{BLUE}"}
    assert [s for d in flooded.drains for s in heard_by(d, host_lane)] != []
    assert [s for d in quiet.drains for s in heard_by(d, host_lane)] == []


async def test_after_any_command_every_sides_view_is_ready_for_its_next_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A side's next read (its map, /units, an autocomplete) starts from its view of the game as
    it stands. That view is worked out after every command, whoever gave it: were it worked out
    only for the sides a command told something, a read right after the enemy's secret order
    would take longer than one after nothing at all."""
    with_dice(monkeypatch, Dice())
    async with Store.open(tmp_path / "ready.db") as store:
        umpire = await started(store, tmp_path)
        await umpire.handle("g1", BLUE, MARCH)  # tells Grey nothing
        state = await umpire.repository.state_for("g1")
        kept = {side for (state_id, side, _), (kept, _) in list(view_module._VIEWS.items())
                if state_id == id(state) and kept is state}
        assert kept >= {"blue", "grey"}
