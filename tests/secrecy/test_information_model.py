"""The information model a side sees its enemies under is decided in one place, and a rule
module may change it for one side (the raid option turns one side face up to the other while
the other stays out of sight): every view and every word follows that one answer."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from rules.ground.grid import Cell
from rules.knowledge.information import InformationModel
from rules.knowledge.sighted import information_model, sighting_events
from rules.modules.api import RuleModule
from rules.modules.registry import MODULES, register
from rules.state import GameState, apply, with_units
from rules.view import IDENTIFIED, project
from tests.support.hidden_views import tiny
from umpire.games.routing import messages_for

NAME = "face_up"


class FaceUp(RuleModule):
    """Blue's counters are face up to Grey; Blue still sees Grey by sighting alone."""

    name = NAME

    def information_model(self, state: GameState, viewer: str,
                          model: InformationModel) -> InformationModel:
        return InformationModel.OPEN if viewer == "grey" else model


@pytest.fixture
def face_up() -> Iterator[None]:
    register(FaceUp())
    try:
        yield
    finally:
        MODULES.pop(NAME, None)


def in_force(state: GameState) -> GameState:
    """The module in force, and Grey's brigade close to Blue's line (the battery far off)."""
    near = with_units(state, {"grey-1": state.units["grey-1"].placed(Cell(2, 3))})
    return replace(near, modules=(*near.modules, NAME))


@pytest.mark.usefixtures("face_up")
def test_a_module_turns_one_side_face_up_to_the_other_only() -> None:
    state = in_force(tiny("hidden"))
    assert information_model(state, "grey") is InformationModel.OPEN
    assert information_model(state, "blue") is InformationModel.HIDDEN
    grey, blue = project(state, "grey"), project(state, "blue")
    assert grey.information is InformationModel.OPEN and not grey.fog
    assert blue.information is InformationModel.HIDDEN and blue.fog
    # Grey sees every Blue counter identified, sighted or not; Blue only what it sights.
    blue_units = {u.id for u in state.units.values() if u.side == "blue" and u.cell is not None}
    assert {u.ref for u in grey.enemy_units() if u.level == IDENTIFIED} == blue_units
    assert {u.ref for u in blue.enemy_units()} == {"grey-1"}


@pytest.mark.usefixtures("face_up")
def test_the_side_that_sees_all_gets_no_sighting_news_and_the_other_does() -> None:
    state = in_force(tiny("hidden"))
    news = sighting_events(state)
    after = state
    for e in news:
        after = apply(after, e)
    told = {m.target for m in messages_for(state, list(news), after) if m.kind == "side"}
    assert "grey" not in told and "blue" in told


def test_without_the_module_both_sides_play_the_scenarios_model() -> None:
    state = tiny("hidden")
    assert information_model(state, "grey") is InformationModel.HIDDEN
    assert project(state, "grey").fog
