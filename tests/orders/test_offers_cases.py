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
