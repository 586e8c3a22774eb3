"""The lists of the marker and march orders, as Discord's autocomplete offers them through the
fake Discord (rulings ORD-55, ORD-58): ``/conceal forced``, ``plan``, ``unplan`` and
``detach``, and ``/march execute``, ``cancel``, ``forced`` and ``rally``. For each list, in a
game brought to where it is not empty: every choice offered is accepted by its order (given to
the engine on a copy of the state, nothing kept), the enemy player is offered none of it, and a
choice left out is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules import commands as cmd
from rules.concealed.commands import (
    ClearConcealPlan,
    ConcealForce,
    ConcealPlan,
    ForceMarch,
    MarkDetached,
)
from rules.concealed.records import force
from rules.state import GameState
from rules.surprise.commands import (
    CancelSurpriseMove,
    ExecuteSurpriseMove,
    OrderSurpriseMove,
    RallyShammed,
    SetForcedMarch,
)
from tests.fakediscord import FakeDiscord, FakeUser
from tests.support.botkit import started_game
from tests.support.concealed import COLSTON, SEED
from tests.support.concealed import SCENARIO as FLANK_MARCH
from tests.support.surprise import ROUTE, SAMPLE_RULESET, SCENARIO, Dice
from tests.support.surprise import engine_refusal as refusal
from umpire.games import dice as umpire_dice


async def values(fake: FakeDiscord, command: str, options: dict[str, Any], focused: str,
                 user: FakeUser) -> list[str]:
    """The values of Discord's autocomplete choices (what the order is sent)."""
    handle = await fake.autocomplete(command, options, focused=focused, user=user)
    return [c["value"] for c in (await handle.response()).choices]


# -- /conceal: forced, plan, unplan, detach ------------------------------------------------------
async def test_the_marker_lists_offer_what_their_orders_take(fake: FakeDiscord,
                                                             tmp_path: Path) -> None:
    sides = ("confederate", "union")
    async with started_game(fake, tmp_path, FLANK_MARCH, sides, seed=SEED) as (bot, alice, bob):
        umpire = bot.umpire
        users = {"confederate": alice, "union": bob}
        for _ in range(20):  # to the Confederate movement phase of turn 1
            state = await umpire.repository.state_for("g1")
            if state.current.allows("move") and "confederate" in state.acting_sides():
                break
            for acting in state.acting_sides():
                await umpire.handle("g1", users[acting].id, cmd.Done())
        await umpire.handle("g1", alice.id, ConcealForce(leader=COLSTON))
        state = await umpire.repository.state_for("g1")
        [marker_id] = state.markers
        marker = f"marker {marker_id}"
        record = force(state, marker_id)
        assert record is not None
        under = list(record["units"])

        # /conceal forced: the marker, in the Confederates' own movement phase
        forcing = await values(fake, "conceal forced", {"marker": "", "mp": 2}, "marker", alice)
        assert forcing == [marker]
        assert refusal(state, "confederate", ForceMarch(marker=marker, mp=2)) is None
        assert await values(fake, "conceal forced", {"marker": "", "mp": 2}, "marker",
                            bob) == []
        assert refusal(state, "union", ForceMarch(marker=marker, mp=2)) is not None

        # /conceal plan: the marker, then the units under it, the general aside
        assert await values(fake, "conceal plan", {"marker": "", "unit": "x", "place": "here"},
                            "marker", alice) == [marker]
        planned = await values(fake, "conceal plan", {"marker": marker, "unit": "",
                                                      "place": "here"}, "unit", alice)
        assert planned and set(planned) <= set(under)
        for ref in planned:
            assert refusal(state, "confederate", ConcealPlan(marker=marker, unit=ref,
                                                             place="here")) is None, ref
        left_out = [ref for ref in under if ref not in planned]
        assert "colston" in left_out  # the divisional commander needs no plan
        for ref in left_out:
            assert refusal(state, "confederate", ConcealPlan(marker=marker, unit=ref,
                                                             place="here")) is not None, ref
        for focused, options in (("marker", {"marker": "", "unit": "x", "place": "here"}),
                                 ("unit", {"marker": marker, "unit": "", "place": "here"})):
            assert await values(fake, "conceal plan", options, focused, bob) == []
        assert refusal(state, "union", ConcealPlan(marker=marker, unit=planned[0],
                                                   place="here")) is not None

        # /conceal unplan: nothing until a plan is filed, then that marker and that unit only
        assert await values(fake, "conceal unplan", {"marker": ""}, "marker", alice) == []
        assert refusal(state, "confederate", ClearConcealPlan(marker=marker)) is not None
        await umpire.handle("g1", alice.id, ConcealPlan(marker=marker, unit=planned[0],
                                                        place="here"))
        state = await umpire.repository.state_for("g1")
        assert await values(fake, "conceal unplan", {"marker": ""}, "marker", alice) == [
            marker]
        assert await values(fake, "conceal unplan", {"marker": marker, "unit": ""}, "unit",
                            alice) == [planned[0]]
        assert refusal(state, "confederate", ClearConcealPlan(marker=marker)) is None
        assert refusal(state, "confederate", ClearConcealPlan(marker=marker,
                                                              unit=planned[0])) is None
        for ref in planned[1:]:
            assert refusal(state, "confederate", ClearConcealPlan(marker=marker, unit=ref)
                           ) is not None, ref
        assert await values(fake, "conceal unplan", {"marker": ""}, "marker", bob) == []
        assert await values(fake, "conceal unplan", {"marker": marker, "unit": ""}, "unit",
                            bob) == []
        assert refusal(state, "union", ClearConcealPlan(marker=marker)) is not None

        # /conceal detach: an order of the Command Phase, so nothing in a movement phase
        for user in (alice, bob):
            for detached in (True, False):
                assert await values(fake, "conceal detach", {"unit": "", "detached": detached},
                                    "unit", user) == [], detached
        assert "your Command Phase comes" in str(
            refusal(state, "confederate", MarkDetached(unit="paxton")))

        # Alice's own movement phase over: forcing is offered no more, and refused
        for acting in state.acting_sides():
            await umpire.handle("g1", users[acting].id, cmd.Done())
        state = await umpire.repository.state_for("g1")
        assert await values(fake, "conceal forced", {"marker": "", "mp": 2}, "marker",
                            alice) == []
        assert refusal(state, "confederate", ForceMarch(marker=marker, mp=2)) is not None

        for _ in range(20):  # to the Command Phase of turn 2
            state = await umpire.repository.state_for("g1")
            if state.turn == 2:
                break
            for acting in state.acting_sides():
                await umpire.handle("g1", users[acting].id, cmd.Done())
        assert state.current.phase.id == "command", state.current
        # /conceal detach, in the Command Phase (ruling CF-25): each player his own units that
        # may be ordered, no enemy's
        confederates = {u.id for u in state.units_of("confederate")}
        for detached in (True, False):
            mine = await values(fake, "conceal detach", {"unit": "", "detached": detached},
                                "unit", alice)
            theirs = await values(fake, "conceal detach", {"unit": "", "detached": detached},
                                  "unit", bob)
            assert mine and set(mine) <= confederates, detached
            assert not set(theirs) & confederates, detached
            for ref in mine:
                assert refusal(state, "confederate", MarkDetached(unit=ref, detached=detached)
                               ) is None, (ref, detached)
            for ref in theirs:  # an enemy's unit is no unit of Alice's
                assert refusal(state, "confederate", MarkDetached(unit=ref, detached=detached)
                               ) is not None, (ref, detached)
        detachable = set(await values(fake, "conceal detach", {"unit": "", "detached": True},
                                      "unit", alice))
        for ref in sorted(set(under) - detachable):  # under a marker: not marked now
            assert refusal(state, "confederate", MarkDetached(unit=ref)) is not None, ref


# -- /march: execute, cancel, forced, rally ------------------------------------------------------
#: Each march order's command, given a march's name, as its list's choice would send it.
MARCH_ORDERS: dict[str, Any] = {
    "execute": (lambda n: ExecuteSurpriseMove(march=n), {}),
    "cancel": (lambda n: CancelSurpriseMove(march=n, mode="reverse"), {"mode": "reverse"}),
    "forced": (lambda n: SetForcedMarch(march=n, mp=2), {"mp": 2}),
    "rally": (lambda n: RallyShammed(march=n), {}),
}


async def march_lists(fake: FakeDiscord, state: GameState, users: dict[str, FakeUser],
                      names: list[str]) -> dict[str, list[str]]:
    """Each march order's list as Alice (Blue) is offered it, checked against its order: a
    march offered is accepted, one of her marches left out is refused, and Bob (Grey) is
    offered none and has his order naming any of hers refused."""
    lists: dict[str, list[str]] = {}
    for order, (make, required) in MARCH_ORDERS.items():
        command = f"march {order}"
        offered = await values(fake, command, {"march": "", **required}, "march",
                               users["blue"])
        assert set(offered) <= set(names), order
        for name in names:
            why = refusal(state, "blue", make(name))
            assert (why is None) == (name in offered), (order, name, why)
            assert refusal(state, "grey", make(name)) is not None, (order, name)
        assert await values(fake, command, {"march": "", **required}, "march",
                            users["grey"]) == [], order
        lists[order] = offered
    return lists


async def test_the_march_lists_offer_what_their_orders_take(
        fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Blue's 1st Division takes its order by initiative; the Blue Horse's order is on its
    way. In the Command Phase, then after the division is set off, then in Blue's movement
    phase, each march list is what its order takes."""
    dice = Dice(initiative=[2])
    monkeypatch.setattr(umpire_dice, "SeededDice", lambda seed, gid: dice)
    text = SCENARIO.read_text(encoding="utf-8").replace(
        'ruleset = "surprise.ruleset.toml"', f'ruleset = "{SAMPLE_RULESET}"').replace(
        'modules = ["surprise_move"]', 'modules = ["surprise_move", "combat"]')
    ground = tmp_path / "ground.toml"
    ground.write_text(text, encoding="utf-8")
    async with started_game(fake, tmp_path, ground, ("blue", "grey")) as (bot, alice, bob):
        umpire = bot.umpire
        users = {"blue": alice, "grey": bob}
        await umpire.handle("g1", alice.id, OrderSurpriseMove(force="1st Division", route=ROUTE,
                                                              by_initiative=True,
                                                              name="Division"))
        await umpire.handle("g1", alice.id, OrderSurpriseMove(
            force="Blue Horse", route="A0305 road A2005", name="Horse"))
        names = ["Division", "Horse", "Nowhere"]

        state = await umpire.repository.state_for("g1")
        lists = await march_lists(fake, state, users, names)
        assert lists == {"execute": ["Division"], "cancel": ["Division", "Horse"],
                         "forced": ["Division", "Horse"], "rally": []}

        await umpire.handle("g1", alice.id, ExecuteSurpriseMove(march="Division"))
        state = await umpire.repository.state_for("g1")
        lists = await march_lists(fake, state, users, names)
        assert "Division" not in lists["execute"] and "Horse" in lists["cancel"]

        for _ in range(20):  # to Blue's movement phase
            state = await umpire.repository.state_for("g1")
            if state.current.allows("move") and "blue" in state.acting_sides():
                break
            for acting in state.acting_sides():
                await umpire.handle("g1", users[acting].id, cmd.Done())
        lists = await march_lists(fake, state, users, names)
        assert lists["cancel"] == [] and lists["execute"] == []
