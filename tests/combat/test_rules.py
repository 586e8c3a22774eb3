"""The combat module against the sample brigade-series tables, with scripted dice: each result
type of the fire and close-combat tables, morale, rallying, stragglers, shields (sham results),
and the refusals that change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from rules import events as ev
from rules.combat import events as cev
from rules.combat import ledger
from rules.combat.commands import Assault, Fire, Rally
from rules.commands import Done, Move
from rules.engine import Refusal, decide
from rules.forces.units import Unit
from rules.ground.grid import Cell
from rules.modules.api import RuleModule
from rules.modules.registry import MODULES, register
from rules.state import GameState
from rules.view import project
from tests.support.combat import (
    Dice,
    _Shield,
    at_step,
    change,
    clear_field,
    field,
    of_type,
    place,
    run,
)


@pytest.fixture
def fire_ready() -> GameState:
    """Union Brigade (10, line) one hex from Rebel Brigade (12, line, grade B), both on clear
    ground in daylight; the Union fire phase."""
    state = place(field(), **{"u-inf": "A0302", "c-inf": "A0402"})
    return at_step(state, "fire", "union")


def fire_at(state: GameState, dice: Dice, units: tuple[str, ...] = ("Union Brigade",),
            target: str = "Rebel Brigade") -> GameState:
    out = run(state, "union", Fire(units=units, target=target), dice)
    return out.state


# -- fire: every result type of the sample table ---------------------------------------------------
@pytest.mark.parametrize(("strength", "roll", "code", "casualties", "stragglers", "morale"), [
    (10, 2, "-", 0, 0, False),
    (10, 5, "M", 0, 0, True),
    (10, 9, "1", 1, 0, False),
    (10, 10, "1M", 1, 0, True),
    (10, 12, "2M", 1, 1, True),
    (20, 12, "3M", 2, 1, True),
])
def test_fire_result_types(fire_ready: GameState, strength: int, roll: int, code: str,
                           casualties: int, stragglers: int, morale: bool) -> None:
    state = change(fire_ready, "u-inf", strength=strength)
    dice = Dice(("fire", roll), ("morale", 12))
    out = run(state, "union", Fire(units=("Union Brigade",), target="Rebel Brigade"), dice)
    after = out.state.units["c-inf"]
    assert after.strength == 12 - casualties - stragglers
    assert after.stragglers == stragglers
    assert ledger.casualties(out.state, "c-inf") == casualties
    rolled = of_type(out.events, ev.DieRolled)
    assert rolled[0].table == "fire" and rolled[0].result == code
    assert rolled[0].audience == "umpire"
    assert any(r.table == "morale" for r in rolled) == morale
    mine = of_type(out.events, cev.FireResolved)[0]
    assert mine.audience == "side:union" and mine.result == code and mine.roll == roll
    theirs = of_type(out.events, cev.FireReceived)[0]
    assert theirs.audience == "side:confederate" and theirs.result == code
    if casualties + stragglers:
        assert f"Rebel Brigade loses {casualties + stragglers} strength point" in " ".join(
            mine.seen)
    assert ledger.used(out.state, "fire", "u-inf")


def test_fire_column_and_modifiers(fire_ready: GameState) -> None:
    """Long range, woods and a column formation are the table's named modifiers; canister
    doubles a battery's strength."""
    state = place(fire_ready, **{"c-inf": "A0503"})  # woods, two hexes: long range
    state = change(state, "c-inf", formation="column")
    out = run(state, "union", Fire(units=("Union Brigade",), target="Rebel Brigade"),
              Dice(("fire", 7), ("morale", 12)))
    roll = of_type(out.events, ev.DieRolled)[0]
    assert roll.modifiers == {"long_range": -2, "target_in_woods": -1, "target_in_column": 1}
    assert roll.column == "8-11"
    state = place(fire_ready, **{"u-bat": "A0301"})
    out = run(state, "union", Fire(units=("Union Battery",), target="Rebel Brigade"),
              Dice(("fire", 7), ("morale", 12)))
    resolved = of_type(out.events, cev.FireResolved)[0]
    assert (resolved.band, resolved.strength, resolved.column) == ("canister", 8, "8-11")


def test_units_fire_together(fire_ready: GameState) -> None:
    state = place(fire_ready, **{"u-inf2": "A0303"})
    out = run(state, "union", Fire(units=("Union Brigade", "Second Union Brigade"),
                                   target="Rebel Brigade"), Dice(("fire", 2), ("morale", 12)))
    resolved = of_type(out.events, cev.FireResolved)[0]
    assert resolved.strength == 16 and resolved.column == "12-16"
    assert ledger.used(out.state, "fire", "u-inf") and ledger.used(out.state, "fire", "u-inf2")


def test_morale_failure_marks_and_falls_back(fire_ready: GameState) -> None:
    """A disorganized result (Dg) marks the unit and makes it fall back two hexes, away from
    the fire; the firer sees the marker and where it went."""
    state = fire_at(fire_ready, Dice(("fire", 5), ("morale", 5)))
    rebel = state.units["c-inf"]
    assert rebel.morale == "disorganized"
    board = state.loaded.board
    assert board.grid.distance(rebel.cell, board.parse("A0302")) == 3  # type: ignore[arg-type]
    # a disorganized unit may not fire
    back = at_step(state, "fire", "confederate")
    with pytest.raises(Refusal, match="disorganized and cannot fire"):
        decide(back, "confederate", Fire(units=("Rebel Brigade",), target="Union Brigade"),
               Dice())


def test_rout_stops_movement_until_rallied_by_a_leader(fire_ready: GameState) -> None:
    state = fire_at(fire_ready, Dice(("fire", 5), ("morale", 2)))
    assert state.units["c-inf"].morale == "routed"
    moving = at_step(state, "movement", "confederate")
    with pytest.raises(Refusal, match="routed: rally it"):
        decide(moving, "confederate", Move(unit="Rebel Brigade", route="A0801"), Dice())
    with pytest.raises(Refusal, match="only a leader with it can rally it"):
        decide(moving, "confederate", Rally(unit="Rebel Brigade"), Dice())
    with_leader = place(moving, **{"c-gen": state.loaded.board.label(
        moving.units["c-inf"].cell)})  # type: ignore[arg-type]
    out = decide(with_leader, "confederate", Rally(unit="Rebel Brigade"),
                 Dice(("morale", 12)))
    assert out.state.units["c-inf"].morale == "disorganized"  # one state better
    rally = of_type(out.events, cev.RallyAttempted)[0]
    assert rally.audience == "side:confederate"
    with pytest.raises(Refusal, match="has moved"):
        decide(out.state, "confederate", Rally(unit="Rebel Brigade"), Dice())


def test_failed_rally_changes_nothing_but_the_phase(fire_ready: GameState) -> None:
    state = change(fire_ready, "c-inf", morale="shaken")
    state = place(state, **{"u-inf": "A0102"})
    state = at_step(state, "movement", "confederate")
    out = decide(state, "confederate", Rally(unit="Rebel Brigade"), Dice(("morale", 2)))
    assert out.state.units["c-inf"].morale == "shaken"
    assert out.state.units["c-inf"].mp_left == 0
    good = change(state, "c-inf", morale="normal")
    with pytest.raises(Refusal, match="good order"):
        decide(good, "confederate", Rally(unit="Rebel Brigade"), Dice())


def test_blocked_retreat_costs_strength(fire_ready: GameState) -> None:
    """Hemmed in against the water with nowhere farther to go, a unit that must fall back loses
    a strength point for each hex it cannot retreat."""
    state = clear_field(fire_ready, ["u-inf", "c-inf"])
    state = place(state, **{"c-inf": "A1208", "u-inf": "A1207"})
    state = change(state, "c-inf", strength=5)
    out = run(state, "union", Fire(units=("Union Brigade",), target="Rebel Brigade"),
              Dice(("fire", 5), ("morale", 5)))
    rebel = out.state.units["c-inf"]
    retreat = of_type(out.events, cev.UnitRetreated)
    moved = len(retreat[0].path) if retreat else 0
    assert moved < 2
    assert rebel.strength == 5 - (2 - moved)


# -- fire: what may be fired at, and refusals ---------------------------------------------------
def test_fire_refusals_change_nothing(fire_ready: GameState) -> None:
    state = fire_ready
    cases = [
        (Fire(units=("Union Brigade",), target="Rebel Battery"), "beyond its range"),
        (Fire(units=("Union Cavalry",), target="Rebel Brigade"),
         "cannot fire mounted \\(it fires dismounted\\)"),
        (Fire(units=("Union Brigade",), target="General Grey"), "not a combat unit"),
        (Fire(units=("Union Brigade",), target="Nobody"), "see no enemy called 'Nobody'"),
        (Fire(units=("Union Brigade",), target="A0808"), "see no enemy at A0808"),
        (Fire(units=("Rebel Brigade",), target="Union Brigade"), "no unit called"),
    ]
    for command, message in cases:
        with pytest.raises(Refusal, match=message):
            decide(state, "union", command, Dice())
    blocked = place(state, **{"u-bat": "A0304", "c-inf": "A0704", "u-inf": "A0102"})
    with pytest.raises(Refusal, match="no line of sight"):  # the town at A0504 is in the way
        decide(blocked, "union", Fire(units=("Union Battery",), target="Rebel Brigade"), Dice())
    moving = at_step(state, "movement", "union")
    with pytest.raises(Refusal, match="cannot fire in the Movement"):
        decide(moving, "union", Fire(units=("Union Brigade",), target="Rebel Brigade"), Dice())
    theirs = at_step(state, "fire", "confederate")
    with pytest.raises(Refusal, match="not yours"):
        decide(theirs, "union", Fire(units=("Union Brigade",), target="Rebel Brigade"), Dice())
    once = fire_at(state, Dice(("fire", 2)))
    with pytest.raises(Refusal, match="already fired"):
        decide(once, "union", Fire(units=("Union Brigade",), target="Rebel Brigade"), Dice())


def test_a_cell_label_names_the_strongest_unit_seen_there(fire_ready: GameState) -> None:
    state = place(fire_ready, **{"c-inf2": "A0402"})
    out = run(state, "union", Fire(units=("Union Brigade",), target="A0402"), Dice(("fire", 9)))
    assert of_type(out.events, cev.FireResolved)[0].target == "Rebel Brigade"
    assert out.state.units["c-inf"].strength == 11


# -- close combat: every result type of the sample table -----------------------------------------
@pytest.fixture
def assault_ready() -> GameState:
    """Rebel Brigade (12) next to Union Brigade (10) on clear ground; the Confederate movement
    and close combat phase."""
    state = clear_field(field(), ["u-inf", "c-inf", "c-gen", "u-gen"])
    state = place(state, **{"u-inf": "A0402", "c-inf": "A0502"})
    return at_step(state, "movement", "confederate")


def assault(state: GameState, roll: int, *, units: tuple[str, ...] = ("Rebel Brigade",),
            target: str = "Union Brigade", advance: bool = True) -> tuple[GameState, list]:  # type: ignore[type-arg]
    out = run(state, "confederate", Assault(units=units, target=target, advance=advance),
              Dice(("close combat", roll), default=1))
    return out.state, out.events


@pytest.mark.parametrize(("roll", "code", "attacker_lost", "defender_lost", "attacker_moved",
                          "defender_moved"), [
    (1, "AR", 0, 0, 1, 0),   # column 1-1
    (3, "EX", 1, 1, 0, 0),
    (5, "DR", 0, 0, 0, 2),
])
def test_close_combat_at_one_to_one(assault_ready: GameState, roll: int, code: str,
                                    attacker_lost: int, defender_lost: int, attacker_moved: int,
                                    defender_moved: int) -> None:
    state = change(assault_ready, "c-inf", strength=10)
    after, events = assault(state, roll)
    logged = of_type(events, ev.DieRolled)[0]
    assert (logged.column, logged.result) == ("1-1", code)
    grid = state.loaded.board.grid
    for uid, lost, moved in (("c-inf", attacker_lost, attacker_moved),
                             ("u-inf", defender_lost, defender_moved)):
        before, now = state.units[uid], after.units[uid]
        assert before.strength - now.strength - now.stragglers + before.stragglers == lost
        assert now.cell is not None and before.cell is not None
        if uid == "c-inf" and defender_moved:
            assert now.cell == before.cell or now.cell == state.units["u-inf"].cell  # advanced
        else:
            assert grid.distance(before.cell, now.cell) == moved


@pytest.mark.parametrize(("attack", "roll", "code"), [
    (4, 1, "AL"),    # 1-3
    (20, 5, "DL"),   # 2-1
    (60, 5, "DD"),   # 6-1
])
def test_close_combat_losses_retreats_and_disorder(assault_ready: GameState, attack: int,
                                                  roll: int, code: str) -> None:
    state = change(assault_ready, "c-inf", strength=attack)
    after, events = assault(state, roll)
    assert of_type(events, ev.DieRolled)[0].result == code
    effect = state.loaded.ruleset.combat.close_combat_results[code]
    union = after.units["u-inf"]
    assert union.strength + union.stragglers == 10 - int(effect.defender_losses)  # type: ignore[arg-type]
    if effect.defender_morale:
        assert union.morale == effect.defender_morale
    if effect.attacker_losses:
        rebel = after.units["c-inf"]
        assert rebel.strength + rebel.stragglers == attack - int(effect.attacker_losses)  # type: ignore[arg-type]
    if effect.defender_retreat:
        assert after.units["c-inf"].cell == state.units["u-inf"].cell  # the attacker advanced
        advanced = of_type(events, cev.UnitAdvanced)
        assert [a.unit for a in advanced] == ["c-inf"]


def test_no_advance_when_the_order_says_not(assault_ready: GameState) -> None:
    state = change(assault_ready, "c-inf", strength=20)
    after, events = assault(state, 5, advance=False)
    assert of_type(events, ev.DieRolled)[0].result == "DL"
    assert after.units["c-inf"].cell == state.units["c-inf"].cell


def test_close_combat_stragglers_are_secret_to_each_side(assault_ready: GameState) -> None:
    _, events = assault(assault_ready, 3)
    checks = [e for e in of_type(events, ev.DieRolled) if e.table == "straggler"]
    assert {e.audience for e in checks} == {"side:union", "side:confederate"}
    assert all(e.column == "combat" for e in checks)
    reports = of_type(events, cev.CloseCombatResolved)
    assert {(r.audience, r.viewpoint) for r in reports} == {("side:confederate", "attacker"),
                                                            ("side:union", "defender")}


def test_assault_refusals(assault_ready: GameState) -> None:
    far = place(assault_ready, **{"c-inf": "A0702"})
    with pytest.raises(Refusal, match="not next to"):
        decide(far, "confederate", Assault(units=("Rebel Brigade",), target="Union Brigade"),
               Dice())
    shaken = change(assault_ready, "c-inf", morale="shaken")
    with pytest.raises(Refusal, match="shaken and cannot assault"):
        decide(shaken, "confederate", Assault(units=("Rebel Brigade",),
                                              target="Union Brigade"), Dice())
    fire_phase = at_step(assault_ready, "fire", "confederate")
    with pytest.raises(Refusal, match="cannot assault in the Fire Phase"):
        decide(fire_phase, "confederate", Assault(units=("Rebel Brigade",),
                                                  target="Union Brigade"), Dice())
    after, _ = assault(assault_ready, 1)
    with pytest.raises(Refusal, match="already assaulted in this phase"):
        decide(after, "confederate", Assault(units=("Rebel Brigade",),
                                             target="Union Brigade"), Dice())


def test_an_attacker_cannot_move_after_its_assault(assault_ready: GameState) -> None:
    after, _ = assault(assault_ready, 3)  # EX: both hold
    with pytest.raises(Refusal, match="assaulted in this phase"):
        decide(after, "confederate", Move(unit="Rebel Brigade", route="A0601"), Dice())


def test_sham_result_looks_ordinary_to_the_firer(fire_ready: GameState, shield: _Shield) -> None:
    shielded = replace(fire_ready, modules=(*fire_ready.modules, shield.name))
    real = run(fire_ready, "union", Fire(units=("Union Brigade",), target="Rebel Brigade"),
               Dice(("fire", 12), ("morale", 5)))
    sham = run(shielded, "union", Fire(units=("Union Brigade",), target="Rebel Brigade"),
               Dice(("fire", 12), ("morale", 5)))
    # Sighting reports follow the shielding module's ``appearance`` (this stand-in has none);
    # that the firer's sightings read alike is tested with the surprise-move module itself
    # (tests/secrecy/test_leaks.py).
    shown = [e for e in sham.events if e.audience == "side:union"
             and not isinstance(e, ev.Sighted)]
    assert [e for e in real.events if e.audience == "side:union"
            and not isinstance(e, ev.Sighted)] == shown
    assert of_type(shown, cev.FireResolved)[0].seen  # an ordinary-looking result
    rebel = sham.state.units["c-inf"]
    record = ledger.shams(sham.state)
    # Strength and morale are untouched; the retreat is made on the map (ruling COMBAT-16).
    assert rebel == fire_ready.units["c-inf"].placed(Cell(*record[0]["retreat_to"]))
    assert record == [{"unit": "c-inf", "by_side": "union", "turn": 1, "strength_lost": 2,
                       "stragglers": 1, "morale": "disorganized",
                       "retreat_to": record[0]["retreat_to"], "eliminated": False}]
    assert record[0]["retreat_to"] is not None
    told = of_type(sham.events, cev.FireReceived)[0]
    assert told.shield == "sham" and told.audience == "side:confederate"
    assert "secretly ignores" in told.report(project(sham.state, "confederate"))
    assert ledger.attacks(sham.state)[0]["shield"] == "sham"


def test_ignored_attack_rolls_nothing(fire_ready: GameState, shield: _Shield) -> None:
    shield.answer = "ignored"
    shielded = replace(fire_ready, modules=(*fire_ready.modules, shield.name))
    out = run(shielded, "union", Fire(units=("Union Brigade",), target="Rebel Brigade"), Dice())
    assert not of_type(out.events, ev.DieRolled)
    assert out.state.units["c-inf"] == fire_ready.units["c-inf"]
    assert "has no effect" in of_type(out.events, cev.FireResolved)[0].report(
        project(out.state, "union"))
    assert ledger.attacks(out.state)[0]["shield"] == "ignored"


# -- stragglers come back away from the enemy ------------------------------------------------
def test_straggler_recovery_at_the_end_of_the_turn(fire_ready: GameState) -> None:
    state = place(fire_ready, **{"u-inf2": "A0108"})
    state = change(state, "u-inf2", strength=4, stragglers=2)  # far from the enemy
    state = change(state, "u-inf", strength=8, stragglers=2)  # next to Rebel Brigade
    state = at_step(state, "fire", "confederate")
    out = decide(state, "confederate", Done(), Dice())
    recovered = {e.unit: e.points for e in of_type(out.events, cev.StragglersRecovered)}
    assert recovered == {"u-inf2": 1}
    assert out.state.units["u-inf2"].strength == 5
    assert out.state.units["u-inf2"].stragglers == 1
    assert of_type(out.events, cev.StragglersRecovered)[0].audience == "side:union"


class _Restraint(RuleModule):
    name = "test_restraint"

    def may_fight(self, state: GameState, unit: Unit, action: str) -> str | None:
        return f"{unit.name} is under orders not to {action}" if unit.id == "u-inf" else None

    def may_recover_stragglers(self, state: GameState, unit: Unit) -> bool:
        return unit.id != "u-inf2"


@pytest.fixture
def restraint() -> Iterator[str]:
    register(_Restraint())
    yield _Restraint.name
    MODULES.pop(_Restraint.name, None)


def test_other_modules_may_forbid_fighting_and_recovery(fire_ready: GameState,
                                                       restraint: str) -> None:
    state = replace(fire_ready, modules=(*fire_ready.modules, restraint))
    with pytest.raises(Refusal, match="under orders not to fire"):
        decide(state, "union", Fire(units=("Union Brigade",), target="Rebel Brigade"), Dice())
    state = place(state, **{"u-inf2": "A0108"})
    state = change(state, "u-inf2", strength=4, stragglers=2)
    out = decide(at_step(state, "fire", "confederate"), "confederate", Done(), Dice())
    assert not of_type(out.events, cev.StragglersRecovered)
