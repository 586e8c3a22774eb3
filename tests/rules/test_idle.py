"""Auto-pass: a side with nothing it can do in a step passes it by itself, decided from its own
view only, told to that side alone, and decided again by ``vedette verify``."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from rules import commands as cmd
from rules import events as ev
from rules.engine import decide
from rules.scenario.loader import LoadedScenario
from rules.state import GameState
from rules.turn.idle import AUTO_PASS, AUTO_PASS_ALONE, auto_passes, side_options
from rules.view import project
from storage.store import Store
from tests.support.combat import Dice, at_step, field, place
from tests.support.hand_maps import FIRE_PASSED, apart_file, field_file
from umpire.games import catalog
from umpire.games.routing import messages_for
from umpire.reads.maps import MapMaker
from umpire.service import Umpire
from umpire.verify.check import verify

HOST, UNION, REBEL = 1, 10, 20

#: Every unit of the field off the map but these (id: label).
ALONE = {"u-inf": None, "u-inf2": None, "u-bat": None, "u-cav": None, "u-gen": None,
         "c-inf": None, "c-inf2": None, "c-bat": None, "c-cav": None, "c-gen": None}


def loaded(tmp_path: Path, information: str = "open", auto: bool | None = True,
           alone: bool = True) -> LoadedScenario:
    """The field with ``auto_pass`` as given (``None``: absent) and, by default, with
    ``auto_pass_alone`` on, so that the Fire Phases one side plays alone may pass too."""
    base = catalog.load_file(field_file(tmp_path, information))
    if auto is None:
        return base
    return catalog.with_options(base, {AUTO_PASS: auto, AUTO_PASS_ALONE: alone})


def apart(state: GameState) -> GameState:
    """The Union Brigade and the Rebel Brigade alone, far out of each other's range (infantry
    fires 2 hexes): nobody has a target."""
    return place(state, **{**ALONE, "u-inf": "A0101", "c-inf": "A1208"})


def to_union_fire(state: GameState) -> tuple[GameState, list[ev.GameEvent]]:
    """The Confederates end their movement step: the Union Fire Phase begins."""
    before = at_step(state, "movement", "confederate")
    out = decide(before, "confederate", cmd.Done(), Dice(default=1))
    return out.state, out.events


def test_a_fire_phase_with_no_target_in_sight_passes_by_itself(tmp_path: Path) -> None:
    state, events = to_union_fire(apart(field(loaded(tmp_path))))
    passes = [e for e in events if isinstance(e, ev.SideDone) and e.by_itself]
    assert [e.side for e in passes] == ["union", "confederate"]  # both Fire Phases, in turn
    told = [e for e in events if isinstance(e, ev.Told) and e.text == FIRE_PASSED]
    assert [e.audience for e in told] == ["side:union", "side:confederate"]
    # Both passed, the End of Turn and the next Command Phase need nobody: the Union moves.
    assert (state.turn, state.current.phase.id, state.current.side) == (2, "movement", "union")


def test_a_target_in_range_keeps_the_fire_phase_open(tmp_path: Path) -> None:
    start = place(field(loaded(tmp_path)), **{**ALONE, "u-inf": "A0504", "c-inf": "A0704"})
    state, events = to_union_fire(start)
    assert (state.current.phase.id, state.current.side) == ("fire", "union")
    assert not any(isinstance(e, ev.SideDone) and e.by_itself for e in events)
    offers = side_options(state, "union").offers
    assert [(o.action, o.units) for o in offers] == [("fire", ("Union Brigade",))]


def test_without_the_option_every_phase_waits_for_done(tmp_path: Path) -> None:
    for auto in (False, None):  # chosen off, or a game recorded before the option
        state, events = to_union_fire(apart(field(loaded(tmp_path, auto=auto))))
        assert (state.current.phase.id, state.current.side) == ("fire", "union")
        assert not any(isinstance(e, ev.SideDone) and e.by_itself for e in events)
        assert not any(isinstance(e, ev.Told) and "passed" in e.text for e in events)


def test_a_phase_played_alone_waits_for_done_by_default(tmp_path: Path) -> None:
    """Without ``auto_pass_alone`` the Union's Fire Phase, with no target, waits for its word;
    its call for orders says there is nothing to do."""
    before = at_step(apart(field(loaded(tmp_path, alone=False))), "movement", "confederate")
    out = decide(before, "confederate", cmd.Done(), Dice(default=1))
    assert (out.state.current.phase.id, out.state.current.side) == ("fire", "union")
    assert not any(isinstance(e, ev.SideDone) and e.by_itself for e in out.events)
    [call] = [m.text for m in messages_for(before, out.events, out.state)
              if m.target == "union" and m.text.startswith("Your orders, please")]
    assert call.endswith("Nothing to do in it: none of your units has a target in sight. "
                         "Press Done, or /done.")


def _rebels_told(tmp_path: Path, union_brigade_at: str) -> tuple[list[str], list[object]]:
    """Night, hidden model: the Union general stands next to the Rebel brigade (both sides see
    him), the Union brigade out of the Rebels' sight at ``union_brigade_at``. The Confederates
    end their movement; what they and the channel are told, and what they see."""
    start = replace(field(loaded(tmp_path, "hidden", alone=False)), turn=3)
    start = place(start, **{**ALONE, "u-inf": union_brigade_at, "u-gen": "A0502",
                            "c-inf": "A0501", "c-gen": "A1208"})
    before = at_step(start, "movement", "confederate")
    seen = [(u.ref, u.cell, u.level) for u in project(before, "confederate").enemy_units()]
    out = decide(before, "confederate", cmd.Done(), Dice(default=1))
    told = [f"{m.kind}:{m.target}:{m.text}" for m in messages_for(before, out.events, out.state)
            if m.kind == "public" or m.target == "confederate"]
    return told, list(seen)


def test_whether_a_side_has_a_target_never_reaches_the_enemy(tmp_path: Path) -> None:
    """The Union brigade within range of the Rebels (a target in its sight) or far away: the
    Rebels see the same, and are told word for word the same when the Union Fire Phase opens."""
    near, seen_near = _rebels_told(tmp_path, "A0301")
    far, seen_far = _rebels_told(tmp_path, "A0101")
    assert seen_near == seen_far
    assert near == far


def test_the_option_reads_booleans_and_words() -> None:
    assert not auto_passes({})  # absent: a game recorded before steps passed by themselves
    assert auto_passes({AUTO_PASS: True}) and auto_passes({AUTO_PASS: "yes"})
    assert not auto_passes({AUTO_PASS: False}) and not auto_passes({AUTO_PASS: "off"})


def test_an_old_log_s_side_done_reads_as_given_by_hand() -> None:
    old = ev.SideDone.model_validate_json('{"type": "side_done", "side": "union"}')
    assert old.by_itself is False


# -- hidden enemies decide nothing --------------------------------------------------------------
def night_union_fire(tmp_path: Path, rebel_at: str | None) -> tuple[GameState, list[str]]:
    """A night turn (visibility 1) under the hidden model: the Union Brigade at A0301, the Rebel
    Brigade at ``rebel_at`` (or off the map), a Rebel general far away. The Union's fire phase
    begins; returns the state and everything the Union was told, in order."""
    start = replace(field(loaded(tmp_path, "hidden")), turn=3)
    start = place(start, **{**ALONE, "u-inf": "A0301", "c-inf": rebel_at, "c-gen": "A1208"})
    before = at_step(start, "movement", "confederate")
    out = decide(before, "confederate", cmd.Done(), Dice(default=1))
    told = [f"{m.kind}:{m.target}:{m.text}" for m in messages_for(before, out.events, out.state)
            if m.kind == "public" or m.target == "union"]
    return before, told


def test_a_hidden_enemy_in_range_neither_keeps_nor_closes_the_fire_phase(tmp_path: Path) -> None:
    """At night the Rebel Brigade two hexes from the Union Brigade, on a clear line, is within
    its fire range but out of its sight: the Union's Fire Phase passes all the same, and the
    Union is told word for word what it is told when no enemy is near."""
    near, told_near = night_union_fire(tmp_path, "A0501")
    away, told_away = night_union_fire(tmp_path, None)
    gm = near.loaded.map
    here, there = near.units["u-inf"].cell, near.units["c-inf"].cell
    assert here is not None and there is not None
    assert gm.grid.distance(here, there) <= near.loaded.ruleset.combat.reach("infantry")
    assert not project(near, "union").enemy_units()  # out of sight, though in range
    assert side_options(at_step(near, "fire", "union"), "union") == \
        side_options(at_step(away, "fire", "union"), "union")
    assert any(FIRE_PASSED in t for t in told_near)
    assert told_near == told_away


async def play_apart(tmp_path: Path, options: dict[str, str | int | bool] | None = None
                     ) -> tuple[Path, list[str], GameState]:
    """A game of the field through the umpire with the brigades far apart: each side's
    movement ended by hand; returns the database, what the Union player was sent, the state."""
    path = apart_file(tmp_path)
    db = tmp_path / "apart.db"
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(path), HOST, game_id="g1", seed=bytes(range(32)),
                                 options=options)
        await umpire.join("g1", UNION, "union")
        await umpire.join("g1", REBEL, "confederate")
        await umpire.start("g1", HOST)
        await umpire.handle("g1", UNION, cmd.Done())
        await umpire.handle("g1", REBEL, cmd.Done())
        state = await umpire.repository.state_for("g1")
        sent = [d.text for d in await store.pending_deliveries("g1")
                if d.kind == "player" and d.target == str(UNION)]
        await umpire.end_game("g1", HOST, reason="test")
    return db, sent, state


async def test_a_game_created_by_the_umpire_passes_by_itself_and_verifies(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, sent, state = await play_apart(tmp_path, {AUTO_PASS_ALONE: True})
    assert (state.turn, state.current.phase.id, state.current.side) == (2, "movement", "union")
    assert any(FIRE_PASSED in t for t in sent)
    # The Union is not called to orders in a phase that passed for it.
    assert not any("Your orders, please: Union Fire Phase" in t for t in sent)
    async with Store.open(db) as store:
        game = await store.get_game("g1")
        assert game is not None and game.options["rules"] == {AUTO_PASS: True,
                                                                AUTO_PASS_ALONE: True}
    code = await asyncio.to_thread(asyncio.run, verify(db, "g1"))
    out = capsys.readouterr().out
    assert code == 0, out


async def test_a_host_may_create_a_game_without_auto_pass(tmp_path: Path) -> None:
    _db, sent, state = await play_apart(tmp_path, {AUTO_PASS: False})
    assert (state.turn, state.current.phase.id, state.current.side) == (1, "fire", "union")
    assert not any("passed" in t for t in sent)
    assert any("Your orders, please: Union Fire Phase" in t for t in sent)


async def test_the_call_for_orders_lists_what_the_side_may_do(tmp_path: Path) -> None:
    _db, sent, _state = await play_apart(tmp_path)
    call = next(t for t in sent if t.startswith("Your orders, please: Union Movement"))
    lines = call.splitlines()
    assert lines[1] == "You may:"
    assert lines[2].startswith("- move units (/move): ")
    assert "Union Brigade (6 MP)" in lines[2] and "Union Cavalry (12 MP)" in lines[2]
    assert lines[2].endswith(" and 1 more")  # four named, the fifth counted
    assert lines[-1] == "When you have finished, /done."
