"""A concealment marker moves as a unit does, from Discord against the fake Discord: its move
is previewed (each step's cost, where it ends and why), nothing happens before Confirm, a route
longer than its MPs is cut where they run out, and the preview reads nothing of the enemy's
that the side cannot see (ruling CF-21)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.client import VedetteBot
from rules import events as ev
from rules.commands import Done, Move
from rules.concealed import events as cev
from rules.concealed import records as rec
from rules.concealed.commands import ConcealForce
from rules.forces.location import Withdrawn
from rules.forces.words import Echelon
from rules.state import GameState, apply, with_units
from rules.view import project
from storage.store import Store
from tests.fakediscord import FakeDiscord, FakeUser, buttons_of
from tests.support.botkit import confirm_preview, private_answer, started_game, text_of
from tests.support.concealed import COLSTON, DIVISION, SCENARIO, SEED
from umpire.reads.maps import MapMaker
from umpire.reads.player_settings import Preview
from umpire.reads.preview import plan_move
from umpire.service import Umpire

SIDES = ("confederate", "union")
#: Seven thicket and woods hexes north of Colston's marker at A1817: its battery's 8 MPs
#: (4 a hex, limbered) pay for two of them.
NORTH = "A1816 A1810"
UNION_MARKER = "0900"


async def say(fake: FakeDiscord, command: str, user: FakeUser, options: dict[str, Any]) -> str:
    return text_of(await private_answer(fake, command, user, options))


async def to_movement(umpire: Umpire, users: dict[str, int], turn: int) -> None:
    """Every acting side says done until the Confederate movement phase of ``turn``."""
    for _ in range(60):
        state = await umpire.repository.state_for("g1")
        if (state.turn == turn and state.current.allows("move")
                and "confederate" in state.acting_sides()):
            return
        for acting in state.acting_sides():
            await umpire.handle("g1", users[acting], Done())
    raise AssertionError(f"never reached the Confederate movement phase of turn {turn}")


async def concealed_colston(umpire: Umpire, users: dict[str, int]) -> str:
    """Colston's division concealed on turn 1, at the Confederate movement phase of turn 2;
    its marker's id."""
    await to_movement(umpire, users, 1)
    await umpire.handle("g1", users["confederate"], ConcealForce(leader=COLSTON))
    await to_movement(umpire, users, 2)
    [mid] = (await umpire.repository.state_for("g1")).markers
    return mid


async def marker_at(bot: VedetteBot, mid: str) -> str:
    state = await bot.umpire.repository.state_for("g1")
    return state.loaded.board.label(state.markers[mid].cell)


async def test_a_marker_move_is_previewed_confirmed_and_cut_where_its_mps_run_out(
        fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, SCENARIO, SIDES, seed=SEED) as (bot, alice, bob):
        mid = await concealed_colston(bot.umpire, {"confederate": alice.id, "union": bob.id})
        assert (await say(fake, "settings", alice, {"preview": "on"})).startswith("Saved")
        preview = await private_answer(fake, "move", alice, {"unit": f"marker {mid}",
                                                             "route": NORTH})
        said = text_of(preview)
        assert said.startswith(f"**Marker {mid}** ({DIVISION} (6 units)) at A1817")
        assert ", 8 MP left, ordered 'A1816 A1810':" in said
        assert "1-2. A1816 to A1815: 4 MP each (thicket), 0 MP left" in said
        assert "Not reached (no MPs left for them): A1814, A1813, A1812, A1811, A1810." in said
        assert ("It stops at A1815: its MPs run out, with 0 MP left, unless the enemy or the "
                "rules stop it sooner.") in said
        assert [b["label"] for b in buttons_of(preview)] == ["Confirm", "Cancel"]
        assert await marker_at(bot, mid) == "A1817"  # nothing before Confirm
        shown = text_of(await confirm_preview(fake, preview, alice))
        assert shown.startswith(f"Ordered: marker {mid} to {NORTH}.")
        assert (f"Marker {mid} ({DIVISION}) moved to A1815 (stopped: its MPs ran out at "
                "A1815).") in shown
        assert await marker_at(bot, mid) == "A1815"


async def test_confirm_tells_why_not_when_the_marker_moved_since_its_preview(
        fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, SCENARIO, SIDES, seed=SEED) as (bot, alice, bob):
        mid = await concealed_colston(bot.umpire, {"confederate": alice.id, "union": bob.id})
        await bot.umpire.set_preview_setting(alice.id, Preview.ON)
        preview = await private_answer(fake, "move", alice, {"unit": f"marker {mid}",
                                                             "route": NORTH})
        await bot.umpire.handle("g1", alice.id, Move(unit=f"marker {mid}", route="A1816"))
        shown = text_of(await confirm_preview(fake, preview, alice))
        assert shown.startswith(f"This preview is out of date: marker {mid} has moved")
        assert await marker_at(bot, mid) == "A1816"  # Confirm did nothing more


async def test_a_short_marker_move_follows_the_preview_setting_as_a_units_does(
        fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, SCENARIO, SIDES, seed=SEED) as (bot, alice, bob):
        mid = await concealed_colston(bot.umpire, {"confederate": alice.id, "union": bob.id})
        given = await private_answer(fake, "move", alice, {"unit": f"marker {mid}",
                                                           "route": "A1816"})
        assert text_of(given).startswith(f"Marker {mid} ({DIVISION}) moved to A1816")
        assert buttons_of(given) == []  # previews off, a short move: given at once (ORD-2)
        too_far = await say(fake, "move", alice, {"unit": f"marker {mid}", "route": "A1814"})
        assert too_far.startswith(f"Marker {mid} ({DIVISION}) moved to A1815 (stopped: its "
                                  "MPs ran out at A1815)")


def _union_marker(state: GameState, real: bool) -> GameState:
    """The same game with a Union concealment marker at A1612, next to the route, holding a
    Union division (``real``) or a decoy while that division is off the table: only what is
    under the marker differs."""
    division = next(c for c in state.commands.values()
                    if c.side == "union" and c.echelon is Echelon.DIVISION)
    units = tuple(u.id for u in state.units.values()
                  if u.command == division.id and u.cell is not None)
    cell = state.loaded.board.parse("A1612")
    state = apply(state, ev.MarkerPlaced(audience="public", marker=UNION_MARKER, side="union",
                                         cell=(cell.col, cell.row)))
    if real:
        return apply(state, cev.ForceConcealed(audience="side:union", marker=UNION_MARKER,
                                               kind="division", commander=division.leader,
                                               units=units, name=division.name))
    state = with_units(state, {u: replace(state.units[u], location=Withdrawn())
                               for u in units})
    data = rec.edit(state)
    data.setdefault("forces", {})[UNION_MARKER] = {
        "side": "union", "kind": "decoy", "commander": "", "units": [], "concealed_turn": 1,
        "bred_turn": 1, "name": "decoy"}
    return rec.store(state, data)


async def test_a_marker_preview_reads_the_same_whatever_the_hidden_enemy_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cheater test: a Union marker next to the route holds a division or a decoy; the
    Confederate preview is the same, word for word."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(SCENARIO), 1, game_id="g1", channel_id=None, seed=SEED)
        await umpire.join("g1", 10, "confederate")
        await umpire.join("g1", 20, "union")
        await umpire.start("g1", 1)
        mid = await concealed_colston(umpire, {"confederate": 10, "union": 20})
        await umpire.set_preview_setting(10, Preview.ON)
        state = await umpire.repository.state_for("g1")
        texts = []
        views = []
        for real in (True, False):
            varied = _union_marker(state, real)
            view = project(varied, "confederate")
            views.append((view.units, view.markers, view.memory))
            monkeypatch.setattr(umpire.repository, "state_for", _returning(varied))
            plan = await plan_move(umpire, "g1", 10, f"marker {mid}", NORTH)
            assert plan is not None
            texts.append(plan.text)
        assert views[0] == views[1]  # the Confederates' view is the same in both
        assert texts[0] == texts[1]
        assert "It stops at A1815: its MPs run out" in texts[0]


def _returning(state: GameState) -> Any:
    async def state_for(game_id: str) -> GameState:
        return state

    return state_for
