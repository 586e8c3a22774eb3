"""Combat's offers are made by the orders' own checks (ruling ORD-55): a unit is offered to fire,
to assault or to rally exactly when the order, given that unit alone against one of the enemy
counters the side sees, is accepted; and an assault across an impassable hexside is neither
offered nor accepted."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from rules.combat.commands import Assault, Fire, Rally
from rules.commands import Command
from rules.engine import Refusal, decide
from rules.state import GameState
from rules.turn.idle import side_options
from rules.view import project
from tests.support.combat import FIELD, Dice, at_step, change, clear_field, field, place
from umpire.games import catalog

#: Where the Union units stand, tried against each Confederate position below.
UNION_AT = ("A0402", "A0504", "A0303")
CONFEDERATE_AT = ("A0502", "A0703", "A0903", "A0404")


def accepted(state: GameState, side: str, command: Command) -> str | None:
    """``None`` if the engine takes the command on the state (nothing is kept), else why not."""
    try:
        decide(state, side, command, Dice(default=4))
    except Refusal as why:
        return str(why)
    return None


def offered(state: GameState, side: str, action: str) -> set[str]:
    return {r for o in side_options(state, side).offers if o.action == action for r in o.refs}


def seen_targets(state: GameState, side: str) -> list[str]:
    """The labels of the cells where the side sees an enemy counter."""
    board = state.loaded.board
    return sorted({board.label(u.cell) for u in project(state, side).enemy_units()})


def takes_any(state: GameState, side: str, make: type[Fire] | type[Assault], unit: str
              ) -> bool:
    return any(accepted(state, side, make(units=(unit,), target=t)) is None
               for t in seen_targets(state, side))


def positions() -> list[GameState]:
    """The field with a Union brigade, battery and leader and a Confederate brigade, in each
    pairing of places, with the Union brigade in good order, disordered and shaken."""
    base = clear_field(field(), ["u-inf", "u-bat", "u-gen", "c-inf"])
    out = []
    for here, there, morale in itertools.product(UNION_AT, CONFEDERATE_AT,
                                                 ("good order", "disordered", "shaken")):
        state = place(base, **{"u-inf": here, "u-gen": here, "c-inf": there})
        morale_names = [s.name for s in state.loaded.ruleset.combat.morale_states]
        out.append(change(state, "u-inf", morale=morale if morale in morale_names
                          else morale_names[0]))
    return out


@pytest.mark.parametrize("phase", ["fire", "movement"])
def test_a_unit_is_offered_exactly_when_its_order_is_accepted(phase: str) -> None:
    checked = {"fire": 0, "close_combat": 0, "rally": 0}
    for state in positions():
        state = at_step(state, phase, "union")
        for action, make in (("fire", Fire), ("close_combat", Assault)):
            if not (state.current.allows(action) or state.current.allows("combat")):
                continue
            offer = offered(state, "union", action)
            for unit in ("u-inf", "u-bat"):
                assert (unit in offer) == takes_any(state, "union", make, unit), (
                    action, unit, {u: str(state.units[u].cell) for u in state.units})
                checked[action] += unit in offer
        if state.current.allows("rally"):
            offer = offered(state, "union", "rally")
            why = accepted(state, "union", Rally(unit="u-inf"))
            # contact refuses a rally without closing the offer: the side may not see it
            assert ("u-inf" in offer) == (why is None or "in contact" in (why or "")), why
            checked["rally"] += "u-inf" in offer
    assert sum(checked.values()) > 0, "some position offered something"


def test_no_assault_is_offered_across_an_impassable_hexside(tmp_path: Path) -> None:
    text = FIELD.read_text().replace(
        'ruleset = "../../scenarios/', f'ruleset = "{FIELD.parents[2] / "scenarios"}/')
    ridge = '[[map.hexsides]]\nkind = "ridge"\npairs = [["A0402", "A0502"]]\n\n[[sides]]'
    scenario = tmp_path / "ridge.toml"
    scenario.write_text(text.replace("[[sides]]", ridge, 1))
    ridged = field(catalog.load_file(scenario))
    for state, across in ((field(), False), (ridged, True)):
        state = clear_field(state, ["u-inf", "c-inf"])
        state = at_step(place(state, **{"u-inf": "A0402", "c-inf": "A0502"}),
                        "movement", "confederate")
        why = accepted(state, "confederate", Assault(units=("c-inf",), target="A0402"))
        assert ("c-inf" in offered(state, "confederate", "close_combat")) == (not across)
        assert (why is not None and "cannot attack across" in why) == across, why
