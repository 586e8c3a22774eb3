"""Fire at a counter the firers cannot identify reads the same whether a module ignores the
attack (a triggered surprise force) or it is resolved normally: the words pick out nothing."""
from __future__ import annotations

from dataclasses import replace

import pytest

from rules.combat import events as cev
from rules.combat.commands import Fire
from rules.view import ANONYMOUS, project
from tests.support.combat import Dice, _Shield, at_step, field, of_type, place, run
from tests.support.hiding_module import in_force


@pytest.mark.usefixtures("hiding")
@pytest.mark.parametrize("answer", ["ignored", None])
def test_firer_cannot_tell_ignored_from_unjudged(shield: _Shield, answer: str | None) -> None:
    state = at_step(place(field(), **{"u-inf": "A0302", "c-inf": "A0402"}), "fire", "union")
    state = in_force(state, anonymous=["c-inf"])
    shield.answer = answer
    state = replace(state, modules=(*state.modules, shield.name))
    assert any(u.level == ANONYMOUS for u in project(state, "union").units)
    out = run(state, "union", Fire(units=("Union Brigade",), target="A0402"),
              Dice(default=6))
    text = of_type(out.events, cev.FireResolved)[0].report(project(out.state, "union"))
    assert "cannot be judged" in text
