"""The offers a player meets in Discord's autocomplete, against the fake Discord: a leader's
list holds only the leaders who may conceal their force, "Colston" finds the general before his
namesake brigade, ``/move`` offers a concealed force by its marker and never the units inside
it, and a scout list holds only the units under the marker named (rulings ORD-55, ORD-56)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.client import VedetteBot
from rules.commands import Done
from rules.concealed.commands import ConcealForce
from rules.concealed.records import force
from rules.forces.words import Echelon, UnitKind
from tests.fakediscord import FakeDiscord, FakeUser
from tests.support.botkit import started_game
from tests.support.concealed import COLSTON, SCENARIO, SEED

SIDES = ("confederate", "union")


async def offered(fake: FakeDiscord, command: str, options: dict[str, Any], focused: str,
                  user: FakeUser) -> list[tuple[str, str]]:
    handle = await fake.autocomplete(command, options, focused=focused, user=user)
    return [(c["name"], c["value"]) for c in (await handle.response()).choices]


async def to_movement(bot: VedetteBot, users: dict[str, FakeUser], turn: int) -> None:
    for _ in range(60):
        state = await bot.umpire.repository.state_for("g1")
        if (state.turn == turn and state.current.allows("move")
                and "confederate" in state.acting_sides()):
            return
        for acting in state.acting_sides():
            await bot.umpire.handle("g1", users[acting].id, Done())
    raise AssertionError(f"never reached the Confederate movement phase of turn {turn}")


async def test_each_list_offers_what_its_order_takes(fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, SCENARIO, SIDES, seed=SEED) as (bot, alice, bob):
        users = {"confederate": alice, "union": bob}
        await to_movement(bot, users, 1)
        state = await bot.umpire.repository.state_for("g1")
        leaders = await offered(fake, "conceal force", {"leader": ""}, "leader", alice)
        assert leaders, "some leader may conceal at the start of the phase"
        # every leader offered leads a division (no brigade, no army commander's staff)
        division_leaders = {c.leader for c in state.commands.values()
                            if c.side == "confederate" and c.echelon is Echelon.DIVISION}
        assert {value for _, value in leaders} <= division_leaders | {
            u.id for u in state.units_of("confederate") if u.kind is UnitKind.CAVALRY}
        assert len(leaders) < len(state.units_of("confederate")) // 2
        typed = await offered(fake, "conceal force", {"leader": "Colston"}, "leader", alice)
        assert typed[0][0] == COLSTON  # the general, not Colston's brigade

        await bot.umpire.handle("g1", alice.id, ConcealForce(leader=COLSTON))
        await to_movement(bot, users, 2)
        state = await bot.umpire.repository.state_for("g1")
        [marker] = state.markers
        record = force(state, marker)
        assert record is not None
        inside = set(record["units"])
        movers = await offered(fake, "move", {"unit": "", "route": "x"}, "unit", alice)
        values = {value for _, value in movers}
        assert f"marker {marker}" in values
        assert not values & inside, "a unit under a marker is moved by its marker"

        scouting = await offered(fake, "conceal scout", {"marker": "", "units": "x"}, "marker",
                                 alice)
        scouts = await offered(fake, "conceal scout", {"marker": f"marker {marker}",
                                                       "units": ""}, "units", alice)
        # the units offered as scouts are under the marker, and only a marker offered for
        # scouting has any
        assert {value for _, value in scouts} <= inside
        assert bool(scouts) == any(value == f"marker {marker}" for _, value in scouting)
        assert await offered(fake, "move", {"unit": "", "route": "x"}, "unit", bob) == []

