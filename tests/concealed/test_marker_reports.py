"""A unit inside one of its side's markers recovers stragglers (it counts at the marker); its
owner's report names it and counts its strength, though the map shows only the marker."""
from __future__ import annotations

import pytest

from rules import events as ev
from rules.combat import events as cev
from rules.combat.stragglers import recover_stragglers
from rules.engine import Outcome
from rules.state import apply, with_units
from rules.view import project
from tests.support.combat import Dice, change, field, of_type, place
from tests.support.hiding_module import in_force, under


@pytest.mark.usefixtures("hiding")
def test_recovery_under_a_marker_names_the_unit() -> None:
    state = place(field(), **{"u-inf2": "A0108"})
    state = change(state, "u-inf2", strength=4, stragglers=2)
    state = apply(state, ev.MarkerPlaced(audience="public", marker="4711", side="union",
                                         cell=(0, 7)))
    state = with_units(state, {"u-inf2": under(state.units["u-inf2"], "4711")})
    state = in_force(state)
    out = Outcome(state, Dice(default=1))
    recover_stragglers(out)
    (e,) = [x for x in of_type(out.events, cev.StragglersRecovered) if x.unit == "u-inf2"]
    text = e.report(project(out.state, "union"))
    assert "u-inf2" not in text and "0 present" not in text
    assert text.startswith(state.units["u-inf2"].name)
