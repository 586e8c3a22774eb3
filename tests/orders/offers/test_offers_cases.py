"""What a side is offered does not vary with what is under the enemy's markers, and a concealed
force is offered by its marker, never by the units inside it."""

from __future__ import annotations

from rules.state import GameState
from rules.surprise.offers import marchers
from rules.turn.idle import side_options
from tests.support.concealed import bred
from umpire.modules.concealed import Concealing, concealed_choices
from umpire.reads import naming


def offers_of(game_state: GameState, side: str) -> list[str]:
    out = [repr(side_options(game_state, side))]
    out += [repr(naming.movers(game_state, side)), repr(marchers(game_state, side))]
    out += [repr(naming.offered(game_state, side, a)) for a in ("formation", "rally", "fire")]
    out += [repr(concealed_choices(game_state, side, what)) for what in Concealing
            if what not in (Concealing.JOIN, Concealing.SCOUTS)]
    return out


def test_offers_do_not_vary_with_what_is_under_enemy_markers() -> None:
    """Blue's offers and lists, phase after phase, are the same whichever of Grey's two
    markers holds the division and which is the decoy."""
    one, _, _ = bred(1)
    two, _, _ = bred(2)
    for _ in range(8):
        assert offers_of(one.state, "blue") == offers_of(two.state, "blue")
        assert (one.state.turn, one.state.step) == (two.state.turn, two.state.step)
        one.step()
        two.step()


def test_a_concealed_force_is_offered_by_its_marker_not_its_units() -> None:
    """Grey's /move offers a marker that may move, never the units inside it; the leader list
    of /conceal force offers no one inside a marker."""
    game, staying, _ = bred(1)
    state = game.state
    refs = [n.ref for n in naming.movers(state, "grey")]
    inside = state.module_data["concealed_forces"]["forces"][staying]["units"]
    assert not set(inside) & set(refs)
    leaders = [n.ref for n in concealed_choices(state, "grey", Concealing.LEADER)]
    assert not set(inside) & set(leaders)


# -- the remaining lists: each offers only what its order takes (ruling ORD-58) ---------------
def _refused(state: GameState, side: str, command: object) -> str | None:
    """The engine's refusal of the command on the state (nothing is kept), or ``None``."""
    from rules import engine
    from rules.refusal import Refusal
    from tests.support.surprise import Dice

    try:
        engine.decide(state, side, command, Dice())  # type: ignore[arg-type]
    except Refusal as why:
        return str(why)
    return None


def test_concealed_lists_offer_only_what_their_orders_take() -> None:
    """Grey's real force and its decoy: /conceal plan offers the real marker and the units
    under it (never the general, who needs no plan), not the decoy; /conceal unplan offers only
    a marker and a unit with a plan; /conceal forced offers markers only in Grey's own movement
    phase; /conceal detach offers the units that may be marked. Every offer is accepted, and
    an own choice left out is refused."""
    from rules.concealed.commands import ClearConcealPlan, ConcealPlan, ForceMarch, MarkDetached

    game, real, decoy = bred(1)
    state = game.state
    names = {m.ref: m for m in concealed_choices(state, "grey", Concealing.PLANNING)}
    assert f"marker {real}" in names and f"marker {decoy}" not in names
    units = concealed_choices(state, "grey", Concealing.PLAN_UNITS, f"marker {real}")
    assert units and "grey-gen" not in {u.ref for u in units}
    for u in units:
        assert _refused(state, "grey", ConcealPlan(marker=f"marker {real}", unit=u.ref,
                                                   place="here")) is None
    assert _refused(state, "grey", ConcealPlan(marker=f"marker {decoy}", unit="grey-2",
                                               place="here")) is not None
    assert _refused(state, "grey", ConcealPlan(marker=f"marker {real}", unit="grey-gen",
                                               place="here")) is not None

    assert concealed_choices(state, "grey", Concealing.UNPLANNING) == []
    assert _refused(state, "grey", ClearConcealPlan(marker=f"marker {real}")) is not None
    game.do("grey", ConcealPlan(marker=f"marker {real}", unit=units[0].ref, place="here"))
    state = game.state
    [offered] = concealed_choices(state, "grey", Concealing.UNPLANNING)
    assert offered.ref == f"marker {real}"
    assert _refused(state, "grey", ClearConcealPlan(marker=offered.ref)) is None
    [planned] = concealed_choices(state, "grey", Concealing.PLANNED, offered.ref)
    assert planned.ref == units[0].ref
    assert _refused(state, "grey", ClearConcealPlan(marker=offered.ref, unit=planned.ref)
                    ) is None
    for u in units[1:]:
        assert _refused(state, "grey", ClearConcealPlan(marker=offered.ref, unit=u.ref)
                        ) is not None

    forcing = concealed_choices(state, "grey", Concealing.FORCING)
    assert {m.ref for m in forcing} == {f"marker {real}", f"marker {decoy}"}
    for m in forcing:
        assert _refused(state, "grey", ForceMarch(marker=m.ref, mp=2)) is None
    game.step()  # Grey's movement phase is over
    assert concealed_choices(game.state, "grey", Concealing.FORCING) == []
    assert _refused(game.state, "grey", ForceMarch(marker=f"marker {real}", mp=2)) is not None

    detaching = {u.ref for u in concealed_choices(game.state, "blue", Concealing.DETACHING)}
    for ref in detaching:
        assert _refused(game.state, "blue", MarkDetached(unit=ref)) is None
    left_out = [u.id for u in game.state.units_of("blue") if u.id not in detaching]
    assert left_out
    for ref in left_out:
        assert _refused(game.state, "blue", MarkDetached(unit=ref)) is not None


def test_march_lists_offer_only_what_their_orders_take() -> None:
    """Blue's two marches, one accepted and saving its MPs, one whose order is on its way:
    /march execute offers only the accepted one; /march cancel offers both, then not the one
    given new orders; /march forced offers both; /march rally offers none outside the movement
    phase; /march status, a read, lists both. Every offer is accepted, and a march left out is
    refused."""
    from rules.surprise.commands import (
        CancelSurpriseMove,
        ExecuteSurpriseMove,
        OrderSurpriseMove,
        RallyShammed,
        SetForcedMarch,
    )
    from rules.surprise.offers import MarchOrder, open_marches
    from tests.support.surprise import accepted

    game = accepted(force="1st Division")
    first = str(game.march()["name"])
    game.do("blue", OrderSurpriseMove(force="Blue Horse", route="A0305 road A2005",
                                        name="Horse"))
    state = game.state
    assert open_marches(state, "blue", MarchOrder.STATUS) == [first, "Horse"]
    orders = {MarchOrder.EXECUTE: lambda n: ExecuteSurpriseMove(march=n),
              MarchOrder.CANCEL: lambda n: CancelSurpriseMove(march=n, mode="reverse"),
              MarchOrder.FORCED: lambda n: SetForcedMarch(march=n, mp=3),
              MarchOrder.RALLY: lambda n: RallyShammed(march=n)}
    expected = {MarchOrder.EXECUTE: [first], MarchOrder.CANCEL: [first, "Horse"],
                MarchOrder.FORCED: [first, "Horse"], MarchOrder.RALLY: []}
    for order, make in orders.items():
        offered = open_marches(state, "blue", order)
        assert offered == expected[order], order
        for name in (first, "Horse"):
            why = _refused(state, "blue", make(name))
            assert (why is None) == (name in offered), (order, name, why)
    game.do("blue", CancelSurpriseMove(march=first, mode="reverse"))
    assert open_marches(game.state, "blue", MarchOrder.CANCEL) == ["Horse"]
    assert _refused(game.state, "blue", CancelSurpriseMove(march=first, mode="reverse")
                    ) is not None
