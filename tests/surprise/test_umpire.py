"""Surprise Move through the umpire, on real database files: the opponent's deliveries do not
depend on any secret of a march (byte for byte, maps included), ``/march status`` material, the
route on the owner's map only, and the demo in both variants."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from rules import commands as cmd
from rules.commands import Command
from rules.surprise.commands import CancelSurpriseMove, OrderSurpriseMove
from rules.surprise.offers import ORDER_WORDS
from rules.view import project
from storage.records import Recipient
from storage.store import Store
from tests.support.combat import answered_texts
from tests.support.demos import Demos
from tests.support.surprise import Dice, scenario_file
from tests.support.tiny_games import told
from umpire.games import dice as umpire_dice
from umpire.modules.surprise import march_names, march_status
from umpire.reads.maps import MapMaker, draw_side_map
from umpire.service import Umpire

HOST, BLUE, GREY = 1, 10, 20
SEED = bytes(range(32))

#: Blue's secret orders by turn (Command Phase). Grey does the same thing in every variant.
Script = dict[int, list[Command]]
VARIANTS: dict[str, tuple[Script, Dice]] = {
    "no march": ({}, Dice()),
    "a march": ({1: [OrderSurpriseMove(force="1st Division, Blue Horse", route="road A2005")]},
                Dice()),
    "another route, forced, detours": ({1: [OrderSurpriseMove(
        force="1st Division", route="A0505 road A1405 A1408", forced=3, detour="always")]},
        Dice(stragglers=[6, 6, 6, 6, 6, 6])),
    "by initiative, later": ({2: [OrderSurpriseMove(
        force="2nd Brigade, General Azure", route="road A1605", by_initiative=True)]},
        Dice(initiative=[2])),
    "delayed acceptance": ({1: [OrderSurpriseMove(force="Blue Horse",
                                                  route="A0305 road A1005")]},
                           Dice(acceptance=[5, 5])),
    "accepted, then reversed": ({1: [OrderSurpriseMove(force="1st Division",
                                                       route="road A1005")],
                                 3: [CancelSurpriseMove(mode="reverse", by_initiative=True)]},
                                Dice(initiative=[2])),
    "two marches, one countermanded": ({1: [
        OrderSurpriseMove(force="1st Brigade", route="road A1305"),
        OrderSurpriseMove(force="3rd Brigade", route="road A1305")],
        2: [CancelSurpriseMove(march="m2", mode="execute")]}, Dice()),
}
TURNS = 3


async def new_game(store: Store, scenario: Path, maps: bool = False) -> Umpire:
    umpire = Umpire(store, maps=MapMaker(enabled=maps))
    await umpire.create_game(str(scenario), HOST, game_id="g1", seed=SEED)
    await umpire.join("g1", BLUE, "blue")
    await umpire.join("g1", GREY, "grey")
    await umpire.start("g1", HOST)
    return umpire


async def play(umpire: Umpire, script: Script) -> None:
    """Both sides play ``TURNS`` turns: Blue gives its secret orders, Grey patrols far away."""
    while True:
        state = await umpire.repository.state_for("g1")
        if state.turn > TURNS or state.status != "active":
            return
        for side in state.acting_sides():
            if side == "blue" and state.current.allows("order"):
                for command in script.get(state.turn, []):
                    await umpire.handle("g1", BLUE, command)
            if side == "grey" and state.current.allows("move"):
                here = state.units["grey-cav"].cell
                target = "A2402" if here == state.loaded.board.parse("A2401") else "A2401"
                await umpire.handle("g1", GREY, cmd.Move(unit="Grey Horse", route=target))
            await umpire.handle("g1", BLUE if side == "blue" else GREY, cmd.Done())


async def test_grey_receives_the_same_bytes_whatever_blue_plans(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = scenario_file(tmp_path)
    outputs: dict[str, list[str]] = {}
    for name, (script, dice) in VARIANTS.items():
        fresh: Callable[[bytes, str], Dice] = lambda seed, gid, d=dice: d  # noqa: E731
        monkeypatch.setattr(umpire_dice, "SeededDice", fresh)
        async with Store.open(tmp_path / f"{len(outputs)}.db") as store:
            umpire = await new_game(store, scenario, maps=True)
            await play(umpire, script)
            state = await umpire.repository.state_for("g1")
            assert state.turn == TURNS + 1
            if name != "no march":
                assert state.module_data["surprise_move"]["marches"]
                assert all(m["status"] not in ("running", "executed", "triggered")
                           for m in state.module_data["surprise_move"]["marches"].values())
            deliveries = await umpire.with_pictures([  # drawn as they are sent
                d for d in await store.pending_deliveries("g1", limit=10_000)
                if d.target in ("", str(GREY), "grey")])
            outputs[name] = [
                json.dumps([d.kind, d.target, d.text, d.image_name]) + (d.image or b"").hex()
                for d in deliveries]
            # Blue's /inbox: the reports its answers showed are stored as sent (FLOW-33).
            blue = [d.text for d in await store.deliveries_for(
                "g1", Recipient("player", str(BLUE)), Recipient("side", "blue"),
                limit=10_000)]
            if name != "no march":
                assert any("Surprise move" in t for t in blue)
    first = outputs["no march"]
    assert any(".png" in line for line in first)  # maps were compared too
    for name, got in outputs.items():
        assert got == first, f"Grey's deliveries differ when Blue plays {name!r}"
        # Grey's own call for orders offers it surprise orders of its own (the same words in
        # every variant); nothing else may speak of a march.
        said = [line.replace(ORDER_WORDS, "") for line in got]
        assert not any("Surprise move" in line or "march" in line for line in said)


async def test_status_autocomplete_and_the_route_on_the_owners_map_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(umpire_dice, "SeededDice", lambda seed, gid: Dice())
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store, scenario_file(tmp_path))
        assert (await march_status(umpire, "g1", BLUE)).text == \
            "You have no surprise move under way."
        await umpire.handle("g1", BLUE, OrderSurpriseMove(
            force="1st Division, Blue Horse", route="road A2005", name="The Blue hook"))
        state = await umpire.repository.state_for("g1")
        names = [n.name for n in await umpire.force_choices("g1", BLUE)]
        assert "1st Division" in names and "1st Brigade" in names
        assert not [n for n in names if "Grey" in n]
        assert await march_names(umpire, "g1", BLUE) == ["The Blue hook"]
        assert await march_names(umpire, "g1", GREY) == []
        status = await march_status(umpire, "g1", BLUE)
        assert "**The Blue hook** (m1)" in status.text and "A0505 > A0605" in status.text
        assert "reaches the force in turn 2" in status.text
        assert (await march_status(umpire, "g1", GREY)).text == \
            "You have no surprise move under way."
        # The owner's map draws the route; the enemy's map is the same as with no march at all.
        plain = draw_side_map(project(state, "grey"))
        blue_map = draw_side_map(project(state, "blue"))
        async with Store.open(tmp_path / "w.db") as other:
            bare = await (await new_game(other, scenario_file(tmp_path))).repository.state_for("g1")
        assert draw_side_map(project(bare, "grey")) == plain
        assert draw_side_map(project(bare, "blue")) != blue_map


@pytest.mark.parametrize("variant", ["success", "discovery"])
def test_the_demo_plays_and_verifies(tmp_path: Path, variant: str, demos: Demos) -> None:
    import asyncio

    from umpire.verify.check import verify

    out = tmp_path / variant
    assert f"Vedette demo ({variant})" in demos.play(out, variant)
    confederate = (out / "confederate" / "inbox.md").read_text(encoding="utf-8")
    union = (out / "union" / "inbox.md").read_text(encoding="utf-8")
    # The order's report was the answer to it: in the player's /inbox, not DMed (FLOW-33).
    assert "**Surprise move Jackson's flank march** ordered" not in confederate
    answered = asyncio.run(answered_texts(out / "game.db"))
    assert any("**Surprise move Jackson's flank march** ordered" in t for t in answered)
    assert "MP accumulation" in confederate
    assert "Jackson's flank march" not in union
    if variant == "discovery":
        # Each side learns of the trigger, in a DM or in the answer to its own move.
        union_all, confederate_all = (asyncio.run(_everything(out / "game.db", side))
                                      for side in ("union", "confederate"))
        assert ("an enemy surprise move is triggered" in union_all) == \
            ("is triggered**" in confederate_all)
    else:
        assert "surprise move" not in union.lower()
    assert asyncio.run(verify(out / "game.db", None)) == 0
    assert (out / "confederate" / "turn-09.png").is_file()


async def _everything(db: Path, side: str) -> str:
    """All a demo's side was told: DMs, answers, and what it still held."""
    from umpire.demo.main import PLAYERS

    async with Store.open(db) as store:
        return "\n\n".join(await told(store, side, PLAYERS[side], gid="demo"))


async def test_the_collision_option_is_chosen_when_the_game_is_created(tmp_path: Path) -> None:
    from rules.surprise.collision import ALTERNATE, FIRST, option

    db = tmp_path / "v.db"
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(scenario_file(tmp_path)), HOST, game_id="g1",
                                 options={"surprise_collision": "alternate"})
        await umpire.create_game(str(scenario_file(tmp_path)), HOST, game_id="g2")
        assert option(await umpire.repository.state_for("g1")) == ALTERNATE
        assert option(await umpire.repository.state_for("g2")) == FIRST
    async with Store.open(db) as store:
        fresh = Umpire(store, maps=MapMaker(enabled=False))
        assert option(await fresh.repository.state_for("g1")) == ALTERNATE
        assert option(await fresh.repository.replay_all("g1")) == ALTERNATE
