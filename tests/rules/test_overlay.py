"""A side's map overlay and its modules' notes: typed, in the view, and worked out from nothing
but what the side knows. The map takes a view and nothing beside it."""

from __future__ import annotations

import dataclasses
import inspect
import typing

import pytest

from rules.knowledge.blocked import blocked_as_known
from rules.knowledge.overlay import Route
from rules.modules.api import RuleModule
from rules.modules.built import load_all
from rules.state import GameState
from rules.surprise.commands import OrderSurpriseMove
from rules.surprise.notes import MarchNote, SurpriseNote
from rules.surprise.records import MarchState
from rules.view import SideView, project
from tests.support.surprise import FORCE, ROUTE, Dice, Game
from umpire.reads.maps import MapMaker, draw_side_map


def accepted() -> Game:
    """Blue's march ordered and accepted at once (by initiative)."""
    game = Game(dice=Dice(initiative=[2]))
    game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE, by_initiative=True))
    return game


def test_the_surprise_note_is_typed_and_only_the_owners() -> None:
    game = accepted()
    note = project(game.state, "blue").notes["surprise_move"]
    assert isinstance(note, SurpriseNote)
    (march,) = note.marches
    assert isinstance(march, MarchNote)
    assert march.id == "m1" and march.status is MarchState.ACCUMULATING
    assert march.route_cells and march.route_labels[0] == game.board.label(march.route_cells[0])
    assert note.show_blocked and note.find("M1") == (march,) and note.find("nothing") == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        march.name = "changed"  # type: ignore[misc]
    assert "surprise_move" not in project(game.state, "grey").notes


def test_the_own_routes_and_blocked_cells_are_in_the_view_and_drawn() -> None:
    game = accepted()
    blue, grey = project(game.state, "blue"), project(game.state, "grey")
    (route,) = blue.routes
    march = blue.notes["surprise_move"]
    assert isinstance(march, SurpriseNote)
    name = march.marches[0].name
    assert route == Route(march.marches[0].route_cells, f"{name}: 0 MP saved", "m1")
    assert blue.blocked_cells
    assert grey.routes == () and grey.blocked_cells == frozenset()
    drawn = draw_side_map(blue)
    assert drawn != draw_side_map(dataclasses.replace(blue, routes=()))
    assert drawn != draw_side_map(dataclasses.replace(blue, blocked_cells=frozenset()))


async def test_a_planned_route_replaces_the_views_own() -> None:
    game = accepted()
    maps = MapMaker()
    cells = (game.cell("A0505"), game.cell("A0605"))
    planned = await maps.side_map(game.state, "blue", routes=(Route(cells, "planned"),))
    assert planned == draw_side_map(dataclasses.replace(project(game.state, "blue"),
                                                        routes=(Route(cells, "planned"),)))
    assert planned != await maps.side_map(game.state, "blue")


def _annotations(f: typing.Callable[..., object]) -> dict[str, object]:
    return typing.get_type_hints(f)


def test_the_overlay_hook_never_receives_the_game_state() -> None:
    """By type: the hook of the base class and of every module built, and the blocked-cells
    function, take the note, the enemy counters and the public ground, never a ``GameState``."""
    hooks = [RuleModule.overlay, *(type(m).overlay for m in load_all().values()),
             blocked_as_known]
    for hook in hooks:
        hints = _annotations(hook)
        assert GameState not in hints.values(), hook
        assert "state" not in inspect.signature(hook).parameters, hook


def test_the_map_takes_a_view_and_nothing_else() -> None:
    from render import render_image, render_map

    # Besides the view, only the window, and whether this process keeps whole terrain layers
    # (the bot's own does not while its map workers start): nothing of the game.
    for draw in (render_map, render_image, draw_side_map):
        assert list(inspect.signature(draw).parameters) in (
            ["view", "around", "radius", "fitted"],
            ["view", "around", "radius", "fitted", "whole_layers"])
        assert _annotations(draw)["view"] is SideView
    assert _annotations(draw_side_map)["whole_layers"] is bool
