"""Surprise Move, "Enemy Interference": the firer cannot tell a sham from a real result, however
the fire goes on: a second sham on the same unit, a reversal, the shown stragglers' return, a sham
that would eliminate the unit (rulings SM-4, SM-19, COMBAT-15, COMBAT-16)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.combat.commands import Fire
from rules.events import GameEvent
from rules.state import GameState
from rules.view import project
from tests.surprise_support import Game
from tests.test_surprise_shams import combat_game
from umpire.messages import messages_for

Seen = tuple[Any, ...]


def grey_hears(game: Game, before: GameState, events: list[GameEvent]) -> list[str]:
    """What Grey (the firing side) is told of ``events``: the public words and its own."""
    return [f"{m.kind}: {m.text}" for m in messages_for(before, events, game.state)
            if m.kind == "public" or (m.kind == "side" and m.target == "grey")]


def grey_sees(game: Game, unit_id: str | None = None) -> list[Seen]:
    """Grey's picture of the Blue units (or of one): where each stands, strength and marker."""
    return [(u.ref, u.cell, u.strength, u.morale, u.formation)
            for u in project(game.state, "grey").enemy_units()
            if unit_id is None or u.ref == unit_id]


def battery_fires(game: Game) -> tuple[list[str], list[Seen]]:
    """The Grey Battery fires at the 1st Brigade; what Grey hears of it and then sees."""
    before = game.state
    out = game.do("grey", Fire(units=("Grey Battery",), target="1st Brigade"))
    return grey_hears(game, before, list(out.events)), grey_sees(game)


def opened_fire(*, on_order: bool) -> Game:
    """The battery at A0905, five hexes from the 1st Brigade, in Grey's fire phase of turn 1."""
    game = combat_game(on_order=on_order)
    game.place(**{"grey-bat": "A0905"})
    game.to(1, "fire", "grey")
    return game


# -- 1. a second sham goes on from what the firer saw ---------------------------------------------
@pytest.mark.parametrize("morale", [6, 8])  # disorganized again; shaken, a better state
def test_second_sham_fire_looks_like_second_real_fire(morale: int) -> None:
    """A second sham on a unit is worked out on the unit as the firer sees it (SM-19): its shown
    marker and loss. A brigade shown disorganized that checks morale again and rolls
    disorganized, or shaken, holds as a real one would: it does not fall back a second time,
    and the marker the enemy sees never gets better. Same dice, on the order or off it: Grey
    hears and sees the same."""
    outputs = []
    for on_order in (True, False):
        game = opened_fire(on_order=on_order)
        battery_fires(game)  # fire 10, morale 6: disorganized, falls back two cells
        game.to(2, "fire", "grey")
        game.dice.set(fire=[12], morale=[morale])
        outputs.append(battery_fires(game))
    sham, real = outputs
    assert any("1st Brigade holds" in line for line in real[0])
    [brigade] = [u for u in sham[1] if u[0] == "blue-1"]
    assert brigade[3] == "disorganized"  # the shown marker, not the shaken one rolled
    assert sham == real
