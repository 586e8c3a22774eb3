"""Conservation, whatever the dice: a unit's strength, its stragglers and its casualties always
add up to its starting strength; strength and stragglers never go below zero; no more
stragglers come back than straggled."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.combat import events as cev
from rules.combat import ledger
from rules.combat.commands import Assault, Fire
from rules.commands import Done
from rules.engine import Refusal, decide
from rules.events import GameEvent
from rules.state import GameState, apply
from tests.support.combat import at_step, change, field, place

BASE = field()
START = {uid: u.strength for uid, u in BASE.units.items()}


def conserved(state: GameState, start: dict[str, int]) -> None:
    for uid, unit in state.units.items():
        assert unit.strength >= 0 and unit.stragglers >= 0, uid
        assert unit.strength + unit.stragglers + ledger.casualties(state, uid) == start[uid], uid
        if unit.strength == 0 and start[uid] > 0:
            assert unit.cell is None, f"{uid} has no strength left but is on the map"


step = st.one_of(
    st.tuples(st.just("losses"), st.integers(0, 15), st.integers(0, 15)),
    st.tuples(st.just("straggle"), st.integers(0, 15), st.just(0)),
    st.tuples(st.just("recover"), st.integers(0, 15), st.just(0)),
)


@given(st.lists(step, max_size=30))
def test_fold_conserves_strength(steps: list[tuple[str, int, int]]) -> None:
    state = BASE
    straggled = recovered = 0
    for kind, a, b in steps:
        before = state.units["c-inf"]
        event: GameEvent
        if kind == "losses":
            event = cev.LossesTaken(audience="side:confederate", unit="c-inf", casualties=a,
                                    stragglers=b)
        elif kind == "straggle":
            event = cev.StragglersChecked(audience="side:confederate", unit="c-inf", points=a)
        else:
            event = cev.StragglersRecovered(audience="side:confederate", unit="c-inf", points=a)
        state = apply(state, event)
        after = state.units["c-inf"]
        if kind == "recover":
            recovered += after.strength - before.strength
        else:
            straggled += after.stragglers - before.stragglers
        conserved(state, START)
        assert recovered <= straggled


def scripted(values: list[int]) -> Callable[[int, str, str], int]:
    faces = {"1d6": (1, 6), "2d6": (2, 12)}

    def dice(seq: int, purpose: str, kind: str) -> int:
        low, high = faces[kind]
        value = values.pop(0) if values else 7
        return low + value % (high - low + 1)

    return dice


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rolls=st.lists(st.integers(0, 100), min_size=40, max_size=40),
       strengths=st.tuples(st.integers(1, 25), st.integers(1, 25), st.integers(1, 25)))
def test_combat_conserves_strength(rolls: list[int], strengths: tuple[int, int, int]) -> None:
    """Fire both ways, an assault and the end of the turn (straggler recovery), with any dice."""
    state = place(BASE, **{"u-inf": "A0302", "c-inf": "A0402", "c-inf2": "A0303"})
    for uid, s in zip(("u-inf", "c-inf", "c-inf2"), strengths, strict=True):
        state = change(state, uid, strength=s)
    start = {uid: u.strength for uid, u in state.units.items()}
    dice = scripted(list(rolls))
    orders = [
        ("movement", "confederate", Assault(units=("Rebel Brigade", "Second Rebel Brigade"),
                                            target="Union Brigade")),
        ("fire", "union", Fire(units=("Union Brigade",), target="Rebel Brigade")),
        ("fire", "confederate", Fire(units=("Second Rebel Brigade",),
                                     target="Union Brigade")),
        ("fire", "confederate", Done()),
    ]
    for phase, side, command in orders:
        state = at_step(state, phase, side)
        # A refusal (the dice left no one in range, or the unit routed) changes nothing.
        with contextlib.suppress(Refusal):
            state = decide(state, side, command, dice).state
        conserved(state, start)
