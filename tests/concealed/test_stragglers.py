"""Cf 3.2, stragglers and forced marches: units in a concealed force get their stragglers back
as any others, enemy concealed forces (real or decoy) counting as enemy units; a concealed
force that force-marches owes straggler checks, rolled each turn or noted and rolled when it is
revealed, as the players choose (rulings CF-14, CF-15)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import commands as cmd
from rules import engine
from rules import events as ev
from rules.combat import events as combat_events
from rules.concealed import events as cev
from rules.concealed import records as rec
from rules.concealed.commands import BreedDecoy, ForceMarch, Unconceal
from rules.concealed.moving import marker_order
from rules.forces.counting import enemy_combat_presences
from rules.forces.location import Withdrawn
from rules.state import apply, with_units
from tests.support.concealed_scouts import concealed, refused
from tests.support.surprise import Dice, Game

GREY_MARKER = "0900"
#: Eight steps from Blue's force: two more than its infantry's six MPs.
EIGHT = "A0401 A0101 A0102"
NINE = "A0401 A0101 A0103"


def _reach(g: Game, marker: str, route: str) -> int:
    """How many hexes of ``route`` the marker's MPs pay for, with no enemy in the way."""
    order = marker_order(g.state, "blue", g.state.markers[marker], route)
    assert order is not None
    return len(order.expected.cells)


def _option(value: str) -> tuple[str, str]:
    return ('modules = ["concealed_forces", "combat"]',
            f'modules = ["concealed_forces", "combat"]\noptions = {{ cf_march_stragglers = '
            f'"{value}" }}')


# -- recovery -----------------------------------------------------------------------------------

def _alone(real: bool | None, at: str = "A0805") -> Game:
    """Blue's division concealed at A0405 with two stragglers in its 1st Brigade, no Blue unit
    left on the map; Grey has a concealed force at ``at`` (``real``), a decoy there
    (``False``) or none (``None``)."""
    g, _ = concealed()
    g.place(**{"blue-hq": None, "blue-ind": None})
    blue1 = g.state.units["blue-1"]
    state = with_units(g.state, {"blue-1": replace(blue1, strength=6, stragglers=2)})
    if real is not None:
        cell = g.cell(at)
        state = apply(state, ev.MarkerPlaced(audience="public", marker=GREY_MARKER,
                                             side="grey", cell=(cell.col, cell.row)))
        if real:
            state = apply(state, cev.ForceConcealed(
                audience="side:grey", marker=GREY_MARKER, kind="division",
                commander="grey-gen", units=("grey-2", "grey-gen"), name="Grey Division"))
        else:  # Grey's division is off the table: only what is under the marker differs
            state = with_units(state, {u: replace(state.units[u], location=Withdrawn())
                                       for u in ("grey-2", "grey-gen")})
            data = rec.edit(state)
            data.setdefault("forces", {})[GREY_MARKER] = {
                "side": "grey", "kind": "decoy", "commander": "", "units": [],
                "concealed_turn": 1, "bred_turn": 1, "name": "decoy"}
            state = rec.store(state, data)
    g.state = state
    return g


def _recovered(g: Game) -> tuple[int, int, list[str]]:
    """Play to the next turn: the 1st Brigade's strength and stragglers, and Blue's news."""
    since = len(g.events)
    g.to(3, "movement", "blue")
    unit = g.state.units["blue-1"]
    return unit.strength, unit.stragglers, g.reports("blue", since)


def test_a_unit_inside_a_concealed_force_recovers_stragglers() -> None:
    strength, stragglers, news = _recovered(_alone(None))
    assert (strength, stragglers) == (7, 1)
    assert any("1st Brigade recovers 1 straggler" in n for n in news)


def test_an_enemy_concealed_force_counts_as_an_enemy_unit_from_the_markers_hex() -> None:
    # Four hexes from Blue's marker: no recovery; five: recovery.
    assert _recovered(_alone(True, "A0805"))[:2] == (6, 2)
    assert _recovered(_alone(True, "A0905"))[:2] == (7, 1)


def test_a_decoy_stops_recovery_exactly_as_a_real_force_does() -> None:
    """Cheater test: Blue cannot learn whether Grey's marker is real from its stragglers."""
    assert _recovered(_alone(True)) == _recovered(_alone(False))
    assert _recovered(_alone(True, "A0905")) == _recovered(_alone(False, "A0905"))


def test_each_enemy_marker_counts_once_whatever_is_under_it() -> None:
    real, decoy = _alone(True).state, _alone(False).state
    assert enemy_combat_presences(real, "blue") == enemy_combat_presences(decoy, "blue")
    cell = real.markers[GREY_MARKER].cell
    assert enemy_combat_presences(real, "blue").count(cell) == 1


# -- forced marches -----------------------------------------------------------------------------

def test_a_concealed_force_may_force_march_up_to_the_rulesets_limit() -> None:
    g, m = concealed()
    assert _reach(g, m, EIGHT) == 6  # the infantry's six MPs: the route is cut (CF-21)
    assert "at most 4 MPs" in refused(g, "blue", ForceMarch(marker=m, mp=5))
    assert "negative" in refused(g, "blue", ForceMarch(marker=m, mp=-1))
    g.do("blue", ForceMarch(marker=m, mp=2))
    assert _reach(g, m, NINE) == 8
    assert _reach(g, m, EIGHT) == 8
    g.do("blue", cmd.Move(unit=m, route=EIGHT))
    assert g.state.markers[m].cell == g.cell("A0102")
    assert "already used 2 forced-march MP(s)" in refused(g, "blue", ForceMarch(marker=m, mp=1))
    g.step()
    assert "only in your own movement phase" in refused(g, "blue", ForceMarch(marker=m, mp=2))


def test_forced_march_checks_are_rolled_in_secret_at_the_end_of_the_phase() -> None:
    g, m = concealed(dice=Dice(straggler=[6, 6, 6]))
    g.do("blue", ForceMarch(marker=m, mp=2))
    since = len(g.events)
    g.do("blue", cmd.Move(unit=m, route=EIGHT))
    g.step()
    checks = [e for e in g.events[since:] if isinstance(e, combat_events.StragglersChecked)]
    # The three infantry brigades went two MPs beyond their six; the cavalry stayed within its
    # twelve. A 6, less one for General Azure under the same marker, on the "2" column: 1.
    assert sorted(e.unit for e in checks) == ["blue-1", "blue-2", "blue-3"]
    assert all(e.points == 1 for e in checks)
    assert (g.state.units["blue-1"].strength, g.state.units["blue-1"].stragglers) == (7, 1)
    rolls = [e for e in g.events[since:] if e.type == "die_rolled"]
    assert len(rolls) == 3
    assert {e.audience for e in [*checks, *rolls]} == {"side:blue"}
    assert not any("straggl" in r.lower() for r in g.reports("grey", since))


def test_noted_checks_are_all_rolled_when_the_force_is_revealed() -> None:
    g, m = concealed(_option("on_reveal"), dice=Dice(straggler=[6] * 6))
    for turn, route in ((2, EIGHT), (3, "A0401 A0404 A0604")):
        g.to(turn, "movement", "blue")
        g.do("blue", ForceMarch(marker=m, mp=2))
        g.do("blue", cmd.Move(unit=m, route=route))
        g.step()
        assert not [e for e in g.events if isinstance(e, combat_events.StragglersChecked)]
    assert [len(entry["checks"]) for entry in rec.owed(g.state, m)] == [3, 3]
    assert g.state.units["blue-1"].strength == 8
    g.to(4, "movement", "blue")
    since = len(g.events)
    g.do("blue", Unconceal(marker=m))
    checks = [e for e in g.events[since:] if isinstance(e, combat_events.StragglersChecked)]
    assert sorted(e.unit for e in checks) == ["blue-1"] * 2 + ["blue-2"] * 2 + ["blue-3"] * 2
    assert g.state.units["blue-1"].strength == 6
    assert rec.owed(g.state, m) == []
    assert {e.audience for e in checks} == {"side:blue"}


def test_checks_still_noted_at_the_end_of_the_game_are_rolled_then() -> None:
    g, m = concealed(_option("on_reveal"), dice=Dice(straggler=[6, 6, 6]))
    g.do("blue", ForceMarch(marker=m, mp=2))
    g.do("blue", cmd.Move(unit=m, route=EIGHT))
    g.step()
    out = engine.end(g.state, "00", "host ended", g.dice)
    checks = [e for e in out.events if isinstance(e, combat_events.StragglersChecked)]
    assert len(checks) == 3 and out.state.units["blue-1"].strength == 7


def test_a_decoy_may_force_march_and_owes_no_check() -> None:
    g, m = concealed(dice=Dice(straggler=[6] * 6))
    g.do("blue", BreedDecoy(marker=m))
    decoy = rec.decoys_of(g.state, "blue")[0]
    # Sixteen hexes: past the twelve MPs any unforced decoy may go.
    sixteen = "A0401 A0101 A0104 A0304 A0301 A0201"
    assert _reach(g, decoy, sixteen) == 12
    g.do("blue", ForceMarch(marker=decoy, mp=4))
    assert _reach(g, decoy, sixteen) == 16
    since = len(g.events)
    g.do("blue", cmd.Move(unit=decoy, route=sixteen))
    g.step()
    assert g.state.markers[decoy].cell == g.cell("A0201")
    assert not [e for e in g.events[since:] if isinstance(e, combat_events.StragglersChecked)]


@pytest.mark.parametrize("modules", ['["concealed_forces"]'])
def test_without_the_combat_rules_no_force_force_marches(modules: str) -> None:
    g, m = concealed(('modules = ["concealed_forces", "combat"]', f"modules = {modules}"))
    assert "keeps no stragglers" in refused(g, "blue", ForceMarch(marker=m, mp=2))
