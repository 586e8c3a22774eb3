"""Surprise Move, "Enemy Interference": which attacks are shams, sham retreats made for real on
the map, the return to the proper places when the march begins, and the owner's rally of its
shammed units back to where they stood (rulings SM-4, SM-19, SM-23, COMBAT-16)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from rules import commands as cmd
from rules.combat import events as cev
from rules.combat.commands import Assault, Fire
from rules.events import SeenPassing, Sighted
from rules.forces.words import Formation
from rules.ground.grid import Cell
from rules.modules.registry import MODULES
from rules.refusal import Refusal
from rules.state import with_module_data, with_units
from rules.surprise import records as rec
from rules.surprise.commands import (
    CancelSurpriseMove,
    ExecuteSurpriseMove,
    OrderSurpriseMove,
    RallyShammed,
)
from rules.view import project
from tests.fakediscord import FakeDiscord
from tests.support.botkit import private_answer, started_game, text_of
from tests.support.surprise import (
    FORCE,
    ROUTE,
    SAMPLE_RULESET,
    SCENARIO,
    Dice,
    Game,
    combat_game,
)
from umpire.games import dice as umpire_dice
from umpire.games.routing import messages_for

HOME = "A0405"  # where the 1st Brigade stands, five hexes from a battery at A0905


def in_line(game: Game, unit_id: str, at: str) -> None:
    game.place(**{unit_id: at})
    unit = game.state.units[unit_id]
    game.state = with_units(game.state, {unit_id: replace(unit, formation=Formation.LINE)})


def shammed(*, on_order: bool = True) -> tuple[Game, Cell, list[Any]]:
    """The Grey Battery fires from five hexes at the 1st Brigade in Grey's fire phase of turn 1;
    the game, the cell the brigade fell back to, and the fire's events."""
    game = combat_game(on_order=on_order)
    game.place(**{"grey-bat": "A0905"})
    game.to(1, "fire", "grey")
    out = game.do("grey", Fire(units=("Grey Battery",), target="1st Brigade"))
    [retreat] = [e for e in out.events if isinstance(e, cev.UnitRetreated)] or [None]
    assert retreat is not None, "the fire should make the brigade fall back"
    return game, Cell(*retreat.path[-1]), list(out.events)


def seen(game: Game, side: str, unit_id: str) -> Any:
    return {u.ref: u for u in project(game.state, side).units}.get(unit_id)


# -- 1. several units firing together -----------------------------------------------------------
def test_the_shield_sees_each_attackers_distance() -> None:
    """A sham needs every attacker to be artillery at five hexes or more (SM-4)."""
    game = combat_game()
    units = game.state.units
    target, gun, foot = units["blue-1"], units["grey-bat"], units["grey-1"]
    shield = MODULES["surprise_move"].combat_shield
    assert shield(game.state, target, (gun,), (5,)) == "sham"
    assert shield(game.state, target, (gun, foot), (5, 2)) == "ignored"
    assert shield(game.state, target, (foot, gun), (2, 6)) == "ignored"
    assert shield(game.state, target, (foot,), (5,)) == "ignored"  # not artillery: an attack


def test_a_battery_far_off_and_infantry_close_by_trigger_the_march() -> None:
    game = combat_game()
    game.place(**{"grey-bat": "A0905"})
    in_line(game, "grey-1", "A0605")  # two hexes from the 1st Brigade
    game.to(1, "fire", "grey")
    out = game.do("grey", Fire(units=("Grey Battery", "Grey Brigade"), target="1st Brigade"))
    [attack] = [e for e in out.events if isinstance(e, cev.AttackMade)]
    assert attack.shield == "ignored"
    assert attack.distances == (5, 2)
    assert not [e for e in out.events if isinstance(e, cev.ShamResult)]
    assert game.state.units["blue-1"].cell == game.cell(HOME)
    game.step()
    assert game.march()["status"] == rec.TRIGGERED


def _ledger_attack(game: Game, **attack: Any) -> None:
    record = {"turn": game.state.turn, "step": game.state.step, "kind": "fire",
              "targets": ["blue-1"], "cell": [3, 4], "shield": "ignored", **attack}
    game.state = with_module_data(game.state, "combat", {"attacks": [record]})


@pytest.mark.parametrize("attack", [
    {"attackers": ["grey-bat", "grey-1"], "distance": 5, "distances": [5, 2]},
    {"attackers": ["grey-1"], "distance": 5, "distances": [5]},  # infantry that far: an attack
])
def test_the_ledger_triggers_by_the_same_rule(attack: dict[str, Any]) -> None:
    game = combat_game()
    game.to(1, "movement", "grey")
    _ledger_attack(game, **attack)
    game.step()
    assert game.march()["status"] == rec.TRIGGERED


def test_an_old_ledger_entry_without_distances_reads_as_before() -> None:
    game = combat_game()
    game.to(1, "movement", "grey")
    _ledger_attack(game, attackers=["grey-bat"], distance=6)
    game.step()
    assert game.march()["status"] == rec.ACCUMULATING
    old = cev.AttackMade.model_validate({"audience": "umpire", "kind": "fire",
                                         "attackers": ["grey-bat"], "targets": ["blue-1"],
                                         "cell": [3, 4], "distance": 6})
    assert old.distances == ()


# -- 2. sham retreats are made on the map ----------------------------------------------------------
def test_a_sham_retreat_is_a_real_move_both_sides_see() -> None:
    game, shown, _ = shammed()
    blue_1 = game.state.units["blue-1"]
    assert blue_1.cell == shown != game.cell(HOME)
    assert blue_1.strength == 8 and blue_1.morale == "normal"  # nothing really lost
    grey_sees, blue_sees = seen(game, "grey", "blue-1"), seen(game, "blue", "blue-1")
    assert grey_sees.cell == blue_sees.cell == shown
    assert grey_sees.morale == "disorganized"  # the sham marker, shown to the enemy
    assert blue_sees.morale == "normal"
    for side in ("grey", "blue"):
        assert "blue-1" not in {u.ref for u in project(game.state, side).at(game.cell(HOME))}
    assert rec.march(game.state, "blue:m1")["shams"]["blue-1"]["home"] == rec.ref(
        game.cell(HOME))


def test_the_firer_cannot_walk_through_the_retreat_cell_and_an_assault_meets_the_unit() -> None:
    game, shown, _ = shammed()
    game.to(2, "movement", "grey")
    beyond = [c for c in game.loaded.map.grid.neighbours(shown)
              if game.loaded.map.grid.distance(c, game.cell("A0905")) >
              game.loaded.map.grid.distance(shown, game.cell("A0905"))]
    start = next(c for c in game.loaded.map.grid.neighbours(shown)
             if game.loaded.map.grid.distance(c, game.cell("A0905")) <
             game.loaded.map.grid.distance(shown, game.cell("A0905")))
    in_line(game, "grey-1", game.board.label(start))
    route = f"{game.board.label(shown)} {game.board.label(beyond[0])}"
    game.do("grey", cmd.Move(unit="Grey Brigade", route=route))
    assert game.state.units["grey-1"].cell == start  # stopped by the unit really there
    out = game.do("grey", Assault(units=("Grey Brigade",), target=game.board.label(shown)))
    [attack] = [e for e in out.events if isinstance(e, cev.AttackMade)]
    assert attack.targets == ("blue-1",) and attack.shield == "ignored"
    game.step()
    assert game.march()["status"] == rec.TRIGGERED


def test_the_units_are_back_home_when_the_march_begins() -> None:
    game, _shown, _ = shammed()
    game.to(2, "command")
    game.do("blue", ExecuteSurpriseMove())
    game.to(2, "movement", "blue")
    record = game.march()
    assert record["status"] in (rec.RUNNING, rec.EXECUTED)
    starts = record["run"]["starts"]
    assert starts["blue-1"] == rec.ref(game.cell(HOME))  # it set off from its proper place
    returned = [e for e in game.events if e.type == "surprise_shams_lifted"]
    assert returned and returned[-1].returns == {"blue-1": rec.ref(game.cell(HOME))}
    assert seen(game, "grey", "blue-1").morale == "normal"


def test_a_unit_whose_home_is_held_stays_where_it_stands() -> None:
    game, shown, _ = shammed()
    game.to(2, "command")
    game.do("blue", ExecuteSurpriseMove())
    game.place(**{"grey-hq": HOME})  # an enemy now stands in its proper place
    game.to(2, "movement", "blue")
    record = game.march()
    assert record["run"]["starts"]["blue-1"] == rec.ref(shown)
    lifted = [e for e in game.events if e.type == "surprise_shams_lifted"][-1]
    assert lifted.returns == {} and lifted.stay == ["blue-1"]


def test_cancelled_by_reversal_the_marker_becomes_true_and_the_unit_stays() -> None:
    """An order that ends without its march leaves what the enemy saw as the truth (SM-19)."""
    game, shown, _ = shammed()
    game.to(2, "command")
    game.do("blue", CancelSurpriseMove(mode="reverse", by_initiative=True))
    assert game.march()["status"] == rec.REVERSING
    assert seen(game, "grey", "blue-1").morale == "disorganized"  # still under the order
    game.to(3, "command")  # its saved MPs unwound in Blue's movement phase
    assert game.march()["status"] == rec.CANCELLED
    assert game.state.units["blue-1"].cell == shown
    assert seen(game, "grey", "blue-1").morale == "disorganized"
    assert game.state.units["blue-1"].morale == "disorganized"  # the real state now


def _firer_hears(game: Game, events: list[Any]) -> list[str]:
    before = game.state
    return [f"{m.kind}: {m.text}" for m in messages_for(before, events, game.state)
            if m.kind == "public" or (m.kind == "side" and m.target == "grey")]


def test_the_firer_cannot_tell_a_sham_from_a_real_result() -> None:
    """Noninterference: what Grey is sent of the fire, and its view of the Blue units, are the
    same whether the 1st Brigade is on a surprise move (a sham) or takes the result for real."""
    outputs = []
    for on_order in (True, False):
        game, shown, events = shammed(on_order=on_order)
        view = project(game.state, "grey")
        outputs.append((shown, _firer_hears(game, events),
                        [(u.ref, u.cell, u.strength, u.morale, u.formation)
                         for u in view.enemy_units()],
                        [e for e in events if e.audience == "side:grey"],
                        sorted(game.state.memory["grey"].items())))
    sham, real = outputs
    assert real[1] and any(isinstance(e, cev.FireResolved) for e in real[3])
    assert sham == real


# -- 3. rallying shammed units back home ----------------------------------------------------------
def rally_ready() -> tuple[Game, Cell]:
    game, shown, _ = shammed()
    game.to(2, "movement", "blue")
    assert game.march()["status"] == rec.ACCUMULATING
    return game, shown


def recovered() -> tuple[Game, Cell]:
    """Rallied from the sham disorganized marker one state a turn, as a real unit (turns 2
    and 3, holding rolls): the brigade, its marker gone, at Blue's turn-4 movement phase, still
    where it fell back (ruling SM-23)."""
    game, shown = rally_ready()
    game.dice.set(morale=[12, 12])
    game.do("blue", RallyShammed(units="1st Brigade"))
    game.to(3, "movement", "blue")
    game.do("blue", RallyShammed(units="1st Brigade"))
    assert game.march()["shams"]["blue-1"]["marker"] == ""
    game.to(4, "movement", "blue")
    assert game.state.units["blue-1"].cell == shown
    return game, shown


def test_the_owner_rallies_its_shammed_unit_back_home() -> None:
    game, _shown = recovered()
    since = len(game.events)
    out = game.do("blue", RallyShammed())
    blue_1 = game.state.units["blue-1"]
    assert blue_1.cell == game.cell(HOME)
    assert blue_1.mp_spent > 0 and blue_1.morale == "normal"
    assert "blue-1" not in game.march()["shams"]
    assert seen(game, "grey", "blue-1").cell == game.cell(HOME)
    assert seen(game, "grey", "blue-1").morale == "normal"  # the marker is gone
    told = game.reports("blue", since)
    assert any("1st Brigade" in t and "back" in t and HOME in t for t in told)
    # The enemy sees the unit move back (its troops' sighting, on the way too), nothing more.
    assert {type(e) for e in out.events if e.audience in ("side:grey", "public")} <= {
        Sighted, SeenPassing}
    with pytest.raises(Refusal, match="no sham"):
        game.do("blue", RallyShammed(units="1st Brigade"))


def test_a_rally_stopped_on_its_way_is_not_refused() -> None:
    game, shown = recovered()
    gm = game.loaded.map
    between = [c for c in gm.grid.neighbours(shown)
               if gm.grid.distance(c, game.cell(HOME)) == 1]
    assert between
    for c in between:  # Grey leaders (no pickets) in the way, seen or not
        game.place(**{"grey-hq": game.board.label(c)})
    game.do("blue", RallyShammed(units="1st Brigade"))
    blue_1 = game.state.units["blue-1"]
    assert blue_1.cell != game.cell(HOME)
    shams = game.march()["shams"]
    assert shams["blue-1"]["marker"] == "" and shams["blue-1"]["home"] == rec.ref(
        game.cell(HOME))


@pytest.mark.parametrize("units, match", [
    ("2nd Brigade", "no sham result"),
    ("Grey Brigade", "no unit called"),
    ("Nobody", "no unit called"),
])
def test_bad_rallies_are_refused_and_change_nothing(units: str, match: str) -> None:
    game, _ = rally_ready()
    before = game.state
    with pytest.raises(Refusal, match=match):
        game.do("blue", RallyShammed(units=units))
    assert game.state == before


def test_a_rally_outside_the_owners_movement_phase_is_refused() -> None:
    game, _, _ = shammed()
    with pytest.raises(Refusal, match="movement"):
        game.do("blue", RallyShammed())
    game.to(2, "movement", "grey")
    with pytest.raises(Refusal, match="not yours"):
        game.do("blue", RallyShammed())


def test_a_rally_of_a_march_not_accepted_is_refused() -> None:
    game = Game(dice=Dice(acceptance=[2]))
    game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE))
    game.to(1, "movement", "blue")
    with pytest.raises(Refusal, match="not been accepted"):
        game.do("blue", RallyShammed())


# -- /march rally through the bot ------------------------------------------------------------------
async def test_march_rally_through_the_bot(fake: FakeDiscord, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice's Blue brigade, shammed back by Bob's battery, rallies home with ``/march rally``;
    a second try is refused plainly and changes nothing."""
    text = SCENARIO.read_text(encoding="utf-8").replace(
        'ruleset = "surprise.ruleset.toml"', f'ruleset = "{SAMPLE_RULESET}"').replace(
        'modules = ["surprise_move"]', 'modules = ["surprise_move", "combat"]')
    scenario = tmp_path / "ground.toml"
    scenario.write_text(text, encoding="utf-8")
    dice = Dice(initiative=[2], fire=[10], morale=[6])
    monkeypatch.setattr(umpire_dice, "SeededDice", lambda seed, gid: dice)
    async with started_game(fake, tmp_path, scenario, ("blue", "grey")) as (bot, alice, bob):
        umpire = bot.umpire
        await umpire.handle("g1", alice.id, OrderSurpriseMove(force=FORCE, route=ROUTE,
                                                              by_initiative=True))
        await umpire.handle("g1", alice.id, cmd.Correct(unit="grey-bat", changes={
            "cell": "A0905"}, reason="test set-up"), is_admin=True)

        async def play_to(turn: int, phase: str, side: str) -> None:
            while True:
                state = await umpire.repository.state_for("g1")
                cur = state.current
                if (state.turn, cur.phase.id, cur.side) == (turn, phase, side):
                    return
                for s in state.acting_sides():
                    await umpire.handle("g1", alice.id if s == "blue" else bob.id, cmd.Done())

        await play_to(1, "fire", "grey")
        await umpire.handle("g1", bob.id, Fire(units=("Grey Battery",), target="1st Brigade"))
        state = await umpire.repository.state_for("g1")
        assert state.units["blue-1"].cell != state.loaded.board.parse(HOME)
        await play_to(2, "movement", "blue")
        offered = await fake.autocomplete("march rally", {"units": "1st"}, focused="units",
                                          user=alice)
        # shown by name, completed to the unit's id (ruling ORD-10)
        choices = [(c["value"], c["name"]) for c in (await offered.response()).choices]
        assert ("blue-1", "1st Brigade") in choices
        dice.set(morale=[12, 12])  # recovered one state a turn (ruling SM-23), then home
        shaken = await private_answer(fake, "march rally", alice, {"units": "1st Brigade"})
        assert "now shows shaken" in text_of(shaken)
        await play_to(3, "movement", "blue")
        await private_answer(fake, "march rally", alice, {"units": "1st Brigade"})
        await play_to(4, "movement", "blue")
        rallied = await private_answer(fake, "march rally", alice, {"units": "1st Brigade"})
        assert "back at its proper place" in text_of(rallied) and HOME in text_of(rallied)
        state = await umpire.repository.state_for("g1")
        assert state.units["blue-1"].cell == state.loaded.board.parse(HOME)
        again = await private_answer(fake, "march rally", alice, {})
        assert "carries a sham result" in text_of(again)
        assert (await umpire.repository.state_for("g1")).units == state.units
