"""Surprise Move, "Enemy Interference": a shammed unit "may recover morale and return to its
previous location", and the enemy watching must see nothing a real unit could not do. A sham
rally is the combat rally of a unit in the shown state (the same roll, modifiers and refusals,
the phase's movement spent); only a unit whose marker is gone walks home, in a later movement
phase (ruling SM-23)."""

from __future__ import annotations

from typing import Any

import pytest

from rules import commands as cmd
from rules.combat import events as cev
from rules.combat.commands import Fire, Rally
from rules.events import DieRolled
from rules.ground.grid import Cell
from rules.refusal import Refusal
from rules.surprise import records as rec
from rules.surprise.commands import OrderSurpriseMove, RallyShammed
from rules.view import project
from tests.support.surprise import FORCE, ROUTE, SAMPLE_RULESET, Dice, Game, load_ground
from umpire.games.routing import messages_for

HOME = "A0405"  # where the 1st Brigade stands, five hexes from a battery at A0905


def fired_on(on_order: bool, morale: int, until: tuple[int, str, str | None] = (
        2, "movement", "blue")) -> tuple[Game, Cell]:
    """The Grey Battery fires from five hexes at the 1st Brigade in turn 1 (fire roll 10: a
    morale check; ``morale`` is the check's roll). With ``on_order`` the brigade is on an
    accepted surprise order and the result is a sham; else it is taken for real. The game at
    ``until`` (Blue's turn-2 movement phase), and the cell the brigade fell back to."""
    loaded = load_ground(('modules = ["surprise_move"]', 'modules = ["surprise_move", "combat"]'),
                         ruleset=SAMPLE_RULESET)
    game = Game(loaded, Dice(initiative=[2], fire=[10], morale=[morale]))
    if on_order:
        game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE, by_initiative=True))
    game.place(**{"grey-bat": "A0905"})
    game.to(1, "fire", "grey")
    out = game.do("grey", Fire(units=("Grey Battery",), target="1st Brigade"))
    [retreat] = [e for e in out.events if isinstance(e, cev.UnitRetreated)]
    game.to(*until)
    if on_order:
        assert game.march()["status"] == rec.ACCUMULATING
    return game, Cell(*retreat.path[-1])


def rally(game: Game, on_order: bool) -> Any:
    """The 1st Brigade's rally: ``/march rally`` when it is shammed, else ``/rally``."""
    if on_order:
        return game.do("blue", RallyShammed(units="1st Brigade"))
    return game.do("blue", Rally(unit="1st Brigade"))


def grey_sees(game: Game) -> list[Any]:
    return [(u.ref, u.cell, u.strength, u.morale, u.formation)
            for u in project(game.state, "grey").enemy_units() if u.ref == "blue-1"]


def grey_hears(game: Game, before: Any, events: Any) -> list[str]:
    return [f"{m.kind}: {m.text}" for m in messages_for(before, list(events), game.state)
            if m.kind == "public" or (m.kind == "side" and m.target == "grey")]


def refusal(game: Game, on_order: bool) -> str:
    before = game.state
    with pytest.raises(Refusal) as caught:
        rally(game, on_order)
    assert game.state == before
    return str(caught.value)


@pytest.mark.parametrize("roll", [12, 7])  # grade C: 12 holds, 7 does not
def test_the_enemy_sees_a_sham_rally_as_the_real_rally_with_the_same_dice(roll: int) -> None:
    """Disorganized by the fire (for real or as a sham), the brigade rallies in Blue's next
    movement phase on the same dice: Grey sees and hears the same, and neither brigade can
    move on in that phase."""
    outputs = []
    for on_order in (True, False):
        game, shown = fired_on(on_order, morale=6)
        assert grey_sees(game)[0][3] == "disorganized"
        game.dice.set(morale=[roll])
        before = game.state
        out = rally(game, on_order)
        [rolled] = [e for e in out.events if isinstance(e, DieRolled)]
        assert rolled.audience == "side:blue" and rolled.table == "morale"  # secret (COMBAT-17)
        assert game.state.units["blue-1"].cell == shown
        outputs.append((grey_sees(game), grey_hears(game, before, out.events),
                        sorted(type(e).__name__ for e in out.events
                               if e.audience in ("public", "side:grey")),
                        rolled.value, rolled.column, rolled.modifiers, rolled.result))
        walk_on = (RallyShammed(units="1st Brigade") if on_order
                   else cmd.Move(unit="1st Brigade", route=HOME))
        with pytest.raises(Refusal):
            game.do("blue", walk_on)
        assert game.state.units["blue-1"].cell == shown
    sham, real = outputs
    assert sham == real
    assert sham[0][0][3] == ("shaken" if roll == 12 else "disorganized")


def test_a_failed_rally_roll_leaves_the_marker() -> None:
    game, shown = fired_on(True, morale=6)
    game.dice.set(morale=[5])  # grade C: routed, no hold
    out = rally(game, True)
    assert [e.result for e in out.events if isinstance(e, DieRolled)] == ["Rt"]
    assert game.march()["shams"]["blue-1"]["marker"] == "disorganized"
    assert grey_sees(game)[0][3] == "disorganized"  # a failed rally makes nothing worse
    blue_1 = game.state.units["blue-1"]
    assert blue_1.cell == shown and blue_1.morale == "normal"
    assert blue_1.mp_spent == blue_1.movement  # the phase's movement is spent
    assert "fails to rally" in " ".join(game.reports("blue"))
    with pytest.raises(Refusal, match="has moved"):  # one rally a phase, as a real unit
        rally(game, True)


def test_a_rally_next_to_an_enemy_is_refused_like_a_real_one() -> None:
    words = []
    for on_order in (True, False):
        game, shown = fired_on(on_order, morale=6)
        beside = next(c for c in game.loaded.map.grid.neighbours(shown)
                      if all(u.cell != c for u in game.state.units.values()))
        game.place(**{"grey-1": game.board.label(beside)})
        words.append(refusal(game, on_order))
    assert words[0] == words[1]
    assert "in contact with the enemy" in words[0]


@pytest.mark.parametrize("leader", [False, True])
def test_a_routed_unit_without_a_leader_is_refused_like_a_real_one(leader: bool) -> None:
    """Routed (the sample ruleset's state that needs a leader), it falls back three hexes and
    leaves General Azure behind: no rally without him; with him in its cell, the roll is
    made."""
    outputs = []
    for on_order in (True, False):
        game, shown = fired_on(on_order, morale=2)  # grade C: routed
        assert grey_sees(game)[0][3] == "routed"
        assert game.state.units["blue-gen"].cell == game.cell(HOME)
        if leader:
            game.place(**{"blue-gen": game.board.label(shown)})
            game.dice.set(morale=[12])
            rally(game, on_order)
            outputs.append(grey_sees(game))
        else:
            outputs.append(refusal(game, on_order))
    assert outputs[0] == outputs[1]
    if leader:
        assert outputs[0][0][3] == "disorganized"
    else:
        assert "only a leader with it can rally it" in str(outputs[0])


def test_the_walk_home_needs_a_later_phase() -> None:
    """Disorganized: shaken after one holding roll, good order after a second, a turn later;
    only then, in the next movement phase, does the brigade walk home."""
    game, shown = fired_on(True, morale=6)
    game.dice.set(morale=[12, 12])  # both hold (the shaken modifier leaves 10: still holds)
    rally(game, True)
    assert game.march()["shams"]["blue-1"]["marker"] == "shaken"
    game.to(3, "movement", "blue")
    rally(game, True)
    assert game.march()["shams"]["blue-1"]["marker"] == ""
    assert grey_sees(game)[0][3] == "normal"
    assert game.state.units["blue-1"].cell == shown  # recovered, not yet home
    with pytest.raises(Refusal):  # its movement went on the rally
        rally(game, True)
    assert game.state.units["blue-1"].cell == shown
    game.to(4, "movement", "blue")
    rally(game, True)
    assert game.state.units["blue-1"].cell == game.cell(HOME)
    assert "blue-1" not in game.march()["shams"]
    assert grey_sees(game)[0][1] == game.cell(HOME)


@pytest.mark.parametrize("on_order", [True, False])
def test_a_rally_in_place_triggers_no_enemy_march(on_order: bool) -> None:
    """A Grey force waits on its own surprise order two hexes from where the brigade fell
    back. A real rally takes the brigade nowhere and ends no movement near it (SM-13); nor
    does the sham rally, or Grey would learn it from its own march."""
    game, shown = fired_on(on_order, morale=6, until=(2, "command", None))
    near = next(c for c in game.loaded.map.grid.ring(shown, 2)
                if all(u.cell != c for u in game.state.units.values()))
    game.place(**{"grey-cav": game.board.label(near), "grey-hq": game.board.label(near)})
    game.dice.set(initiative=[2])
    game.do("grey", OrderSurpriseMove(force="Grey Horse, General Ash",
                                      route="A2410", by_initiative=True))
    assert game.march(side="grey")["status"] == rec.ACCUMULATING
    game.to(2, "movement", "blue")
    game.dice.set(morale=[12])
    rally(game, on_order)
    assert game.state.units["blue-1"].mp_spent > 0
    game.step()
    assert game.march(side="grey")["status"] == rec.ACCUMULATING
