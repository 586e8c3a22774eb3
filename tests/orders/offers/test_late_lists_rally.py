"""``/march rally units:`` offers the shammed units of the march that the rally takes now, and
nothing else (rulings ORD-59, ORD-60).

Blue's 1st Division, on an accepted surprise move, is fired at by Grey's battery from five hexes:
its 1st Brigade takes a sham result and falls back. In Blue's next movement phase the list of
``units:`` holds the 1st Brigade only (not its division-mates of the march, never a Grey unit);
each unit offered is accepted by the order, one left out is refused; Bob (Grey) gets an empty
list. Once the brigade has rolled its rally, its movement is spent: the list is empty and the
order refuses it. What the list offers does not vary with where the enemy stands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules import commands as cmd
from rules.combat.commands import Fire
from rules.state import GameState
from rules.surprise.commands import OrderSurpriseMove, RallyShammed
from rules.surprise.offers import MarchOrder, open_marches, rallying
from rules.turn.idle import side_options
from tests.fakediscord import FakeDiscord, FakeUser
from tests.support.botkit import started_game
from tests.support.surprise import (
    FORCE,
    ROUTE,
    SAMPLE_RULESET,
    SCENARIO,
    Dice,
    Game,
    combat_game,
)
from tests.support.surprise import engine_refusal as refusal
from umpire.games import dice as umpire_dice

BATTERY_AT = "A0905"  # five hexes from the 1st Brigade at A0405: a sham, not an attack


async def offered(fake: FakeDiscord, command: str, options: dict[str, Any], focused: str,
                  user: FakeUser) -> list[tuple[str, str]]:
    """Discord's autocomplete choices, as (name shown, value sent)."""
    handle = await fake.autocomplete(command, options, focused=focused, user=user)
    return [(c["name"], c["value"]) for c in (await handle.response()).choices]


def ground(tmp_path: Path) -> Path:
    """The Surprise Move test ground with combat, as a scenario file."""
    text = SCENARIO.read_text(encoding="utf-8").replace(
        'ruleset = "surprise.ruleset.toml"', f'ruleset = "{SAMPLE_RULESET}"').replace(
        'modules = ["surprise_move"]', 'modules = ["surprise_move", "combat"]')
    path = tmp_path / "ground.toml"
    path.write_text(text, encoding="utf-8")
    return path


async def test_the_rally_list_offers_the_shammed_units_the_order_takes(
        fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # fire 10 and morale 6: no loss, the brigade shows disorganized and falls back
    dice = Dice(initiative=[2], fire=[10], morale=[6])
    monkeypatch.setattr(umpire_dice, "SeededDice", lambda seed, gid: dice)
    sides = ("blue", "grey")
    async with started_game(fake, tmp_path, ground(tmp_path), sides) as (bot, alice, bob):
        umpire = bot.umpire
        users = {"blue": alice, "grey": bob}
        await umpire.handle("g1", alice.id, OrderSurpriseMove(force=FORCE, route=ROUTE,
                                                              by_initiative=True))
        await umpire.handle("g1", alice.id, cmd.Correct(unit="grey-bat", changes={
            "cell": BATTERY_AT}, reason="test set-up"), is_admin=True)

        async def play_to(turn: int, phase: str, side: str) -> GameState:
            for _ in range(100):
                state = await umpire.repository.state_for("g1")
                if (state.turn, state.current.phase.id, state.current.side) == (
                        turn, phase, side):
                    return state
                for acting in state.acting_sides():
                    await umpire.handle("g1", users[acting].id, cmd.Done())
            raise AssertionError(f"never reached turn {turn} {phase} {side}")

        await play_to(1, "fire", "grey")
        await umpire.handle("g1", bob.id, Fire(units=("Grey Battery",), target="1st Brigade"))
        state = await play_to(2, "movement", "blue")
        [march] = open_marches(state, "blue", MarchOrder.STATUS)
        in_march = {"blue-1", "blue-2", "blue-3", "blue-cav", "blue-gen"}

        for typed_march in ("", march):
            units = await offered(fake, "march rally", {"units": "", "march": typed_march},
                                  "units", alice)
            assert units == [("1st Brigade", "blue-1")], typed_march
        assert await offered(fake, "march rally", {"march": ""}, "march", alice) == [
            (march, march)]
        # each unit offered is taken by the order (on a copy: nothing is kept)
        assert refusal(state, "blue", RallyShammed(units="blue-1")) is None
        assert refusal(state, "blue", RallyShammed(march=march, units="blue-1")) is None
        # units of the march with no sham result are not offered, and refused
        for ref in sorted(in_march - {"blue-1"}):
            why = refusal(state, "blue", RallyShammed(units=ref))
            assert why is not None and "no sham result" in why, ref
        # a Grey unit is neither offered to Alice nor taken from her
        assert refusal(state, "blue", RallyShammed(units="Grey Battery")) is not None
        # a march she does not have: nothing to offer
        assert await offered(fake, "march rally", {"units": "", "march": "Nowhere"},
                             "units", alice) == []
        # Bob, of the other side, is offered nothing, whatever march he names
        for typed_march in ("", march, "m1"):
            assert await offered(fake, "march rally", {"units": "", "march": typed_march},
                                 "units", bob) == []
        assert await offered(fake, "march rally", {"march": ""}, "march", bob) == []

        # the brigade rolls its rally: its movement for the phase is spent
        await umpire.handle("g1", alice.id, RallyShammed(units="1st Brigade"))
        state = await umpire.repository.state_for("g1")
        assert await offered(fake, "march rally", {"units": "", "march": ""}, "units",
                             alice) == []
        assert await offered(fake, "march rally", {"march": ""}, "march", alice) == []
        why = refusal(state, "blue", RallyShammed(units="blue-1"))
        assert why is not None and "moved (or tried to rally)" in why
        assert refusal(state, "blue", RallyShammed(march=march)) is not None
        assert not [o for o in side_options(state, "blue").offers if o.action == "rally"]


# -- on the engine ---------------------------------------------------------------------------------
def shammed(game: Game | None = None) -> Game:
    """Grey's battery shams the 1st Brigade back in turn 1; the game at Blue's turn-2 movement
    phase."""
    game = game or combat_game()
    game.place(**{"grey-bat": BATTERY_AT})
    game.to(1, "fire", "grey")
    game.do("grey", Fire(units=("Grey Battery",), target="1st Brigade"))
    game.to(2, "movement", "blue")
    return game


def blue_lists(state: GameState) -> tuple[object, ...]:
    return (rallying(state, "blue", ""), open_marches(state, "blue", MarchOrder.RALLY),
            [o for o in side_options(state, "blue").offers if o.action == "rally"])


def test_the_rally_list_does_not_vary_with_where_the_enemy_stands() -> None:
    """A cheater's probe: a Grey unit next to the shammed brigade (which the rally would find
    in contact and refuse), or far off, or off the map: Blue's lists are the same, and offer
    the brigade. Contact is left to the rally (ruling FLOW-12)."""
    game = shammed()
    brigade = game.state.units["blue-1"].cell
    assert brigade is not None
    beside = next(game.board.label(c) for c in game.loaded.map.grid.neighbours(brigade)
                  if not any(u.cell == c for u in game.state.units.values()))
    found = []
    for where in (beside, "A2401", None):
        game.place(**{"grey-cav": where})
        found.append(blue_lists(game.state))
    assert found[0][0] == [("blue-1", "1st Brigade")]
    assert found[0] == found[1] == found[2]
    game.place(**{"grey-cav": beside})
    why = refusal(game.state, "blue", RallyShammed(units="blue-1"))
    assert why is not None and "contact" in why


def test_a_rally_with_no_march_named_takes_the_only_march_with_shammed_units() -> None:
    """Blue has two marches: the 1st Division's, shammed, and the Blue Horse's, whose order is
    on its way. With no ``march:``, the list and the order both take the 1st Division's
    (ruling ORD-59)."""
    game = combat_game(on_order=False)
    game.do("blue", OrderSurpriseMove(force="1st Division", route=ROUTE, by_initiative=True))
    game.do("blue", OrderSurpriseMove(force="Blue Horse", route="A0305 road A2005",
                                      name="Horse"))
    game = shammed(game)
    state = game.state
    assert len(open_marches(state, "blue", MarchOrder.STATUS)) == 2
    assert rallying(state, "blue", "") == [("blue-1", "1st Brigade")]
    assert rallying(state, "blue", "Horse") == []
    assert refusal(state, "blue", RallyShammed(units="1st Brigade")) is None
    assert refusal(state, "blue", RallyShammed()) is None
    assert refusal(state, "blue", RallyShammed(march="Horse")) is not None


def test_a_unit_walking_home_is_offered_though_an_enemy_stands_in_its_way() -> None:
    """Rallied from its marker, the brigade walks home: it is offered whether or not Grey
    stands on every way back, and the order takes it (the walk stops short: ruling SM-23)."""
    game = shammed()
    home = game.state.units["blue-gen"].cell  # the brigade's proper place, with its general
    game.dice.set(morale=[12, 12])
    game.do("blue", RallyShammed(units="1st Brigade"))
    game.to(3, "movement", "blue")
    game.do("blue", RallyShammed(units="1st Brigade"))
    game.to(4, "movement", "blue")
    assert home is not None and game.state.units["blue-1"].cell != home
    assert rallying(game.state, "blue", "") == [("blue-1", "1st Brigade")]
    brigade = game.state.units["blue-1"].cell
    assert brigade is not None
    grid = game.loaded.map.grid
    between = [c for c in grid.neighbours(brigade) if grid.distance(c, home) == 1]
    game.place(**{"grey-hq": game.board.label(between[0])})
    assert rallying(game.state, "blue", "") == [("blue-1", "1st Brigade")]
    assert refusal(game.state, "blue", RallyShammed(units="blue-1")) is None
