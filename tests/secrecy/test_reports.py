"""Every text a side receives is written from that side's view: by type (no report or wording
function takes the game state), by construction (a view holds no game state), and in play (a
report names what its event carries, not what the state would say). And timing is information:
in a phase both sides play at once, the channel does not say who finished first."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import pkgutil
import sys
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import rules
import umpire.words
from rules import commands as cmd
from rules import events as ev
from rules.combat import events as cev
from rules.forces.units import Unit
from rules.knowledge.sighted import phase_report
from rules.modules.built import load_all
from rules.scenario.loader import LoadedScenario
from rules.scenario.models import Scenario
from rules.state import GameState
from rules.surprise import events as sev
from rules.view import OWN, OffMapUnit, SideView, UnitView, own_view, project, public_view
from storage.store import Store
from tests.support.surprise import Game, load_ground, scenario_file
from umpire.reads.maps import MapMaker
from umpire.service import Umpire
from umpire.words import replies as wording

HOST, BLUE, GREY = 1, 10, 20
ROOT = Path(rules.__file__).parent
#: Types that hold the whole truth of a game: no report or view may carry or receive them.
TRUTH: tuple[type, ...] = (GameState, Unit, LoadedScenario, Scenario)


def rule_modules() -> list[ModuleType]:
    load_all()
    return [importlib.import_module(m.name)
            for m in pkgutil.walk_packages([str(ROOT)], prefix="rules.")]


def hints(fn: Callable[..., Any]) -> dict[str, Any]:
    module = sys.modules[fn.__module__]
    return typing.get_type_hints(fn, globalns=vars(module),
                                 localns={"SideView": SideView, "GameState": GameState})


def mentions(hint: Any, kinds: tuple[type, ...]) -> bool:
    """Whether a type hint is, or holds (a union, a container), one of ``kinds``."""
    if isinstance(hint, type) and issubclass(hint, kinds):
        return True
    return any(mentions(arg, kinds) for arg in typing.get_args(hint))


# -- by type -------------------------------------------------------------------------------------
def test_every_event_report_takes_a_side_view_and_never_the_state() -> None:
    rule_modules()
    overriding = [cls for cls in ev.EVENT_TYPES.values() if "report" in vars(cls)]
    # The combat and surprise modules word their own events: the check covers them all.
    assert len(overriding) >= 25
    assert cev.FireReceived in overriding and sev.MarchEnded in overriding
    for cls in [ev.GameEvent, *overriding]:
        params = list(inspect.signature(cls.report).parameters)
        found = hints(cls.report)
        assert params == ["self", "view"], cls.__name__
        assert found["view"] is SideView, cls.__name__
        assert not any(mentions(h, TRUTH) for h in found.values()), cls.__name__


def test_no_function_named_report_in_rules_receives_anything_but_a_view() -> None:
    """Read from the source, so that a report written outside an event class is caught too."""
    checked = 0
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name in ("report", "phase_report"):
                args = [a for a in node.args.args if a.arg != "self"]
                annotations = [ast.unparse(a.annotation) if a.annotation else "" for a in args]
                assert annotations == ["SideView"], f"{path}:{node.lineno} {annotations}"
                checked += 1
    assert checked >= 25


#: The modules of ``umpire/words`` that serve the host or a finished game, where the whole truth
#: is the point: the after-action report, the host's whole-truth texts and the correction words.
WHOLE_TRUTH = frozenset({"after_action", "whole_truth", "correctable", "corrections"})


def word_modules() -> list[ModuleType]:
    """Every module of ``umpire/words``, found on disk so that a new one is covered at once."""
    folder = Path(umpire.words.__file__).parent
    return [importlib.import_module(f"umpire.words.{p.stem}")
            for p in sorted(folder.glob("*.py")) if p.stem != "__init__"]


def wording_functions() -> list[Callable[..., Any]]:
    found = []
    for module in word_modules():
        if module.__name__.rpartition(".")[2] in WHOLE_TRUTH:
            continue
        for fn in vars(module).values():
            if inspect.isfunction(fn) and fn.__module__ == module.__name__:
                found.append(fn)
    return found


def test_the_words_folder_is_covered_and_its_allowlist_is_real() -> None:
    names = {m.__name__.rpartition(".")[2] for m in word_modules()}
    assert {"events", "replies", "status_post", "units", "markers", "stack"} <= names
    assert names >= WHOLE_TRUTH  # an allowlisted module that is gone leaves the list


def test_no_wording_function_takes_the_state() -> None:
    """Every function in ``umpire/words`` that words a player's text takes views and the
    event's own data, never the game state; only the whole-truth modules (``WHOLE_TRUTH``)
    may read it. Routing a batch (who is told what) lives outside the folder, in
    ``umpire.games.routing``, and hands each text to a word function with the audience's
    view."""
    functions = wording_functions()
    names = {fn.__name__ for fn in functions}
    assert {"units_text", "status_text", "acknowledgement", "sighted_text", "arrivals_text",
            "correction_text", "turn_heading", "visible_enemy_names"} <= names
    for fn in [*functions, phase_report]:
        found = hints(fn)
        assert not any(mentions(h, TRUTH) for h in found.values()), fn.__name__
    takes_view = [fn for fn in functions if SideView in hints(fn).values()]
    assert len(takes_view) >= 12


# -- by construction -----------------------------------------------------------------------------
def test_a_view_type_holds_no_game_state() -> None:
    for kind in (SideView, UnitView, OffMapUnit):
        for name, hint in typing.get_type_hints(kind).items():
            assert not mentions(hint, TRUTH), f"{kind.__name__}.{name}"


def walk(value: object, seen: set[int] | None = None) -> list[object]:
    """Every object reachable from a view through its fields, mappings and sequences."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return []
    seen.add(id(value))
    out = [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            out += walk(getattr(value, f.name), seen)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            out += walk(k, seen) + walk(v, seen)
    elif isinstance(value, list | tuple | set | frozenset):
        for v in value:
            out += walk(v, seen)
    return out


def test_a_projected_view_reaches_no_game_state() -> None:
    game = Game()
    game.to(1, "movement", "blue")
    for view in (project(game.state, "blue"), project(game.state, "grey"),
                 public_view(game.state)):
        reached = walk(view)
        assert len(reached) > 20
        assert not [type(o).__name__ for o in reached if isinstance(o, TRUTH)]


# -- what a report names -------------------------------------------------------------------------
def test_a_report_names_a_unit_gone_from_the_view_by_the_event() -> None:
    """A unit eliminated by fire is no longer in its side's view: the event carries its name,
    so the report needs nothing else (and the unit's id is never printed)."""
    game = Game()
    game.to(1, "movement", "blue")
    view = project(game.state, "blue")
    assert view.unit("ghost-unit") is None
    told = cev.FireReceived(audience="side:blue", unit="ghost-unit", firers="an enemy battery",
                            result="E", meaning="eliminated", name="Lost Brigade")
    assert told.report(view) == ("**Under fire**: Lost Brigade was fired on by an enemy "
                                 "battery: **E** (eliminated).")
    check = cev.StragglersChecked(audience="side:blue", unit="ghost-unit", points=2,
                                  reason="close combat", name="Lost Brigade", present=0,
                                  straggling=2)
    assert check.report(view) == ("Straggler check after close combat: 2 strength points of "
                                  "Lost Brigade straggle (0 present, 2 straggling).")


def test_a_report_never_prints_the_id_of_a_unit_its_view_does_not_hold() -> None:
    """An event that names a unit by id only (a rally, a recovery) is worded from the view: a
    unit the view does not hold is named by words that say nothing of it, never by its id."""
    game = Game()
    game.to(1, "movement", "blue")
    view = project(game.state, "blue")
    rally = cev.RallyAttempted(audience="side:blue", unit="grey-secret-battery", before="shaken",
                               after="normal")
    text = rally.report(view)
    assert "grey-secret-battery" not in text
    assert text == "**Rally**: a unit out of sight rallies from shaken to normal."


def test_a_reply_about_own_units_reads_a_view_with_no_enemy_in_it() -> None:
    """The reply to a move is worded from the side's own forces alone (``own_view``): it holds
    no enemy counter, marker or memory, and the reply reads as it does from the whole view."""
    game = Game()
    game.to(1, "movement", "blue")
    own, full = own_view(game.state, "blue"), project(game.state, "blue")
    assert own.units and all(u.level == OWN for u in own.units)
    assert own.memory == () and all(m.side == "blue" for m in own.markers)
    assert {u.ref for u in own.units} == {u.ref for u in full.own_units()}
    unit = own.units[0]
    moved = ev.UnitMoved(audience="side:blue", unit=unit.ref, path=((unit.cell.col,
                                                                     unit.cell.row),), mp=0.0)
    command = cmd.Move(unit=unit.name, route="x")
    assert (wording.acknowledgement(own, command, [moved], lambda: full)
            == wording.acknowledgement(full, command, [moved], lambda: full))


def test_a_march_report_uses_the_name_its_event_carries() -> None:
    """After a march ends, the side's view no longer lists it; its events still say its name."""
    game = Game()
    view = project(game.state, "blue")
    assert not view.notes
    ended = sev.MarchEnded(audience="side:blue", march="x1", name="Flank march",
                           outcome="executed")
    assert ended.report(view).startswith("Surprise move Flank march: executed.")


def test_a_report_is_the_same_whatever_the_state_outside_the_view() -> None:
    """Two states whose blue views are equal give blue the same words, whatever the enemy does
    out of sight (here: Grey's units shuffled far away under the hidden model)."""
    loaded = load_ground(('information = "open"', 'information = "hidden"'))
    a, b = Game(loaded), Game(loaded)
    for g in (a, b):
        g.to(1, "movement", "blue")
    b.place(**{"grey-cav": "A2402"})
    va, vb = project(a.state, "blue"), project(b.state, "blue")
    assert va.units == vb.units
    event = cev.RallyAttempted(audience="side:blue", unit="blue-1", before="disorganized",
                               after="normal")
    assert event.report(va) == event.report(vb)
    assert phase_report(va) == phase_report(vb)


# -- timing --------------------------------------------------------------------------------------
async def new_game(store: Store, path: Path, **options: str | int | bool) -> Umpire:
    umpire = Umpire(store, maps=MapMaker(enabled=False))
    await umpire.create_game(str(path), HOST, game_id="g1", options=options or None,
                             seed=bytes(range(32)))
    await umpire.join("g1", BLUE, "blue")
    await umpire.join("g1", GREY, "grey")
    await umpire.start("g1", HOST)
    state = await umpire.repository.state_for("g1")
    # Both sides give their orders at once in the Command Phase.
    assert state.current.phase.id == "command" and state.acting_sides() == ("blue", "grey")
    return umpire


async def public_since(store: Store, first: int) -> list[str]:
    return [d.text for d in await store.pending_deliveries("g1", limit=10_000)
            if d.id > first and d.kind == "public"]


async def last_delivery(store: Store) -> int:
    found = await store.pending_deliveries("g1", limit=10_000)
    return max((d.id for d in found), default=0)


async def test_a_side_finishing_first_is_not_announced(tmp_path: Path) -> None:
    path = scenario_file(tmp_path)
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store, path)
        before_status = (await umpire.status("g1", GREY)).text
        mark = await last_delivery(store)
        reply = await umpire.handle("g1", BLUE, cmd.Done())
        assert reply.text == "Noted: your side has finished this phase."
        assert await public_since(store, mark) == []
        assert not reply.delivery_ids  # nothing at all goes out when Blue finishes first
        # Grey cannot tell from the status either.
        assert (await umpire.status("g1", GREY)).text == before_status
        assert "who has finished is not announced" in before_status
        assert "Blue Army has finished" not in before_status
        mark = await last_delivery(store)
        await umpire.handle("g1", GREY, cmd.Done())
        public = await public_since(store, mark)
        # The turn's status post is edited: the phase is done, nobody is named as finished.
        [status] = public
        assert "\nCommand Phase: done\n" in status
        assert "has finished" not in status
        assert "Blue Army Movement and Close Combat Phase: now; waiting for Blue Army" in status
        # A phase one side plays alone: who is waiting is no secret.
        assert "Waiting for: Blue Army" in (await umpire.status("g1", GREY)).text


async def test_grey_hears_the_same_whichever_side_finishes_first(tmp_path: Path) -> None:
    path = scenario_file(tmp_path)
    heard: list[list[str]] = []
    for n, order in enumerate(((BLUE, GREY), (GREY, BLUE))):
        async with Store.open(tmp_path / f"{n}.db") as store:
            umpire = await new_game(store, path)
            for user in order:
                await umpire.handle("g1", user, cmd.Done())
            heard.append([d.text for d in await store.pending_deliveries("g1", limit=10_000)
                          if d.target in ("", str(GREY), "grey")])
    assert heard[0] == heard[1]


async def test_the_announce_finished_option_brings_the_announcement_back(
        tmp_path: Path) -> None:
    path = scenario_file(tmp_path)
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store, path, announce_finished=True)
        mark = await last_delivery(store)
        await umpire.handle("g1", BLUE, cmd.Done())
        [status] = await public_since(store, mark)
        assert ("Command Phase: now; Blue Army has finished; waiting for Grey Army"
                in status)
        assert "Waiting for: Grey Army" in (await umpire.status("g1", GREY)).text
        mark = await last_delivery(store)
        await umpire.handle("g1", GREY, cmd.Done())
        [status] = await public_since(store, mark)
        assert "\nCommand Phase: done\n" in status


@pytest.mark.parametrize(("value", "announced"), [
    (True, True), (False, False), ("yes", True), ("no", False), ("true", True), (1, True),
    (0, False)])
def test_the_option_reads_as_a_host_writes_it(value: str | int | bool, announced: bool) -> None:
    from rules.knowledge.public import announces_finished

    assert announces_finished({"announce_finished": value}) is announced
    assert announces_finished({}) is False

