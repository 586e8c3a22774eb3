"""Surprise Move, "Enemy Interference": the firer cannot tell a sham from a real result, however
the fire goes on: a second sham on the same unit, a reversal, the shown stragglers' return, a sham
that would eliminate the unit (rulings SM-4, SM-19, COMBAT-15, COMBAT-16)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules.combat import events as cev
from rules.combat.commands import Fire
from rules.events import GameEvent
from rules.state import GameState, with_units
from rules.surprise import records as rec
from rules.surprise.commands import CancelSurpriseMove
from rules.view import project
from tests.support.surprise import Game, combat_game
from umpire.games.routing import messages_for

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


def strong_battery(game: Game) -> None:
    """The Grey Battery at strength 12 (fire strength enough for a loss: fire 11 gives 2M, one
    casualty and one straggler, and the morale roll 6 disorganizes the brigade)."""
    battery = game.state.units["grey-bat"]
    game.state = with_units(game.state, {"grey-bat": replace(battery, strength=12)})
    game.dice.set(fire=[11], morale=[6])


# -- 2. a reversal keeps what the firer saw -------------------------------------------------------
def test_a_reversal_does_not_undo_what_the_firer_saw() -> None:
    """An order that ends without its march (cancelled by reversal) makes what the enemy was
    shown the truth (SM-19): the shown marker becomes the unit's real morale and the shown loss
    is taken as shown. Grey's picture of the brigade does not jump back when the order goes, and the
    brigade stands where its sham retreat took it."""
    game = opened_fire(on_order=True)
    strong_battery(game)
    battery_fires(game)
    game.to(2, "command")
    game.do("blue", CancelSurpriseMove(mode="reverse", by_initiative=True))
    [shown] = grey_sees(game, "blue-1")  # what Grey sees while the force still reverses
    assert shown[2] < 8 and shown[3] == "disorganized"
    while game.march()["status"] == rec.REVERSING and game.state.turn == 2:
        game.step()  # its saved MPs unwind in Blue's movement phase
    assert game.march()["status"] == rec.CANCELLED
    assert grey_sees(game, "blue-1") == [shown]
    brigade = game.state.units["blue-1"]
    assert (brigade.strength, brigade.morale) == (shown[2], "disorganized")
    # The shown straggler came back at the end of turn 1; the shown casualty is lost for good.
    assert brigade.stragglers == 0
    assert game.state.module_data["combat"]["casualties"]["blue-1"] == 8 - shown[2]
    assert brigade.cell == shown[1]


def test_a_reversed_sham_brigade_gets_back_no_more_than_a_real_one() -> None:
    """The loss shown is taken as it was shown when the order ends without its march (SM-19):
    its casualties for good, its stragglers as stragglers. Fire 3M shows two casualties and one
    straggler; the reversed brigade, turns later, shows Grey the strength a real brigade given
    the same result shows, not the casualties coming back one point a turn."""
    outputs = []
    for on_order in (True, False):
        game = opened_fire(on_order=on_order)
        battery = game.state.units["grey-bat"]
        game.state = with_units(game.state, {"grey-bat": replace(battery, strength=18)})
        game.dice.set(fire=[11], morale=[12])  # 3M: two casualties, one straggler; it holds
        battery_fires(game)
        game.to(2, "command")
        if on_order:
            game.do("blue", CancelSurpriseMove(mode="reverse", by_initiative=True))
        game.to(5, "command")
        if on_order:
            assert game.march()["status"] == rec.CANCELLED
        outputs.append(grey_sees(game, "blue-1"))
    sham, real = outputs
    assert real[0][2] == 6
    assert sham == real


# -- 3. shown stragglers come back ----------------------------------------------------------------
def test_sham_stragglers_come_back_like_real_ones() -> None:
    """A sham's shown loss is casualties and stragglers, as the result says, and the straggler
    recovery at the end of the turn (COMBAT-15: no enemy combat unit within four hexes) gives
    back shown stragglers as it would real ones: Grey, watching from five hexes, sees the
    brigade get one point back at the end of turn 1 whether or not it is on the order."""
    outputs = []
    for on_order in (True, False):
        game = opened_fire(on_order=on_order)
        strong_battery(game)
        _, after_fire = battery_fires(game)
        game.to(2, "command")
        outputs.append(([u for u in after_fire if u[0] == "blue-1"], grey_sees(game, "blue-1")))
    sham, real = outputs
    assert real[1][0][2] == real[0][0][2] + 1  # one straggler back
    assert sham == real


def test_a_sham_recorded_before_stragglers_were_kept_reads_as_casualties() -> None:
    """A game recorded before shown stragglers were kept apart reads its shams as before: the
    whole shown loss stays, none of it comes back."""
    old = cev.ShamResult.model_validate({"audience": "side:blue", "unit": "blue-1",
                                         "by_side": "grey", "strength_lost": 2})
    assert old.stragglers == 0 and old.strength_lost == 2


# -- 4. a sham that would eliminate the unit is not kept up ---------------------------------------
def test_a_sham_that_would_eliminate_the_unit_triggers_the_march() -> None:
    """The counter cannot leave the table for the enemy while the unit is really there: a sham
    whose result would eliminate the unit ends the illusion (SM-4, COMBAT-16). The fire is
    ignored, as an attack from four hexes or less would be: Grey is told it had no effect (no
    roll, nothing seen), the brigade stays as it was, and at the end of the step the march is
    triggered and Grey told so."""
    game = opened_fire(on_order=True)
    brigade = game.state.units["blue-1"]
    game.state = with_units(game.state, {"blue-1": replace(brigade, strength=1)})
    game.dice.set(fire=[11])  # a loss of one strength point: the last one
    before = game.state
    out = game.do("grey", Fire(units=("Grey Battery",), target="1st Brigade"))
    heard = grey_hears(game, before, list(out.events))
    assert any("The fire has no effect" in line for line in heard)
    assert not any("Roll" in line or "eliminated" in line for line in heard)
    assert game.state.units["blue-1"] == before.units["blue-1"]
    assert not [e for e in out.events if isinstance(e, cev.ShamResult)]
    assert grey_sees(game, "blue-1")[0][2:4] == (1, "normal")
    since = len(game.events)
    game.step()
    assert game.march()["status"] == rec.TRIGGERED
    assert any("surprise move is triggered" in t for t in game.reports("grey", since))
