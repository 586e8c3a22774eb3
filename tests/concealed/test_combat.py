"""Concealed Forces with combat: fire and assaults aimed at an enemy concealment marker (ruling
CF-19). Nothing under a marker is on the map, so nothing under it can be fired at or assaulted
until it is revealed; the refusal names the hex and nothing else, the same whatever the marker
hides (the division, another division, a decoy), and nothing changes.

The ground is that of ``tests.concealed.test_surprise``: Blue west of a belt of woods, the
Grey Division (a general and one brigade) or the Grey Reserve (a general and two brigades of
other strengths) concealed at A1608 east of it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rules.combat.commands import Assault, Fire
from rules.commands import Command
from rules.refusal import Refusal
from tests.support.concealed import GREY_AT, bred, conceal, concealed_ground, real_under
from tests.support.surprise import Game

#: The words every aim at the marker gets.
AT_MARKER = (f"Your troops see only an enemy marker at {GREY_AT}: nothing under a marker can "
             "be fired at or assaulted until it is revealed.")


def division_under() -> tuple[Game, str]:
    """The Grey Division concealed at A1608 (turn 1); play on to turn 2."""
    game = concealed_ground()
    game.to(1, "movement", "grey")
    marker = conceal(game)
    return game, marker


def reserve_under() -> tuple[Game, str]:
    """The Grey Reserve (another division, other units and strengths) concealed at A1608."""
    game = concealed_ground(div="A2401", res=GREY_AT)
    game.place(**{"grey-gen": None, "grey-2": None})
    game.to(1, "movement", "grey")
    marker = conceal(game, "General Flint")
    return game, marker


def decoy_under() -> tuple[Game, str]:
    """A decoy at A1608, the division it was bred from gone off east."""
    game, staying, _ = bred(2, order=False)
    assert not real_under(game, staying)
    return game, staying


SETUPS: dict[str, Callable[[], tuple[Game, str]]] = {
    "division": division_under, "reserve": reserve_under, "decoy": decoy_under}


def refusal(game: Game, phase: str, command: Command) -> str:
    """What Blue is told when it gives ``command`` in its ``phase`` of the next turn; checks
    that nothing changed and no die was rolled."""
    game.to(game.state.turn + 1, phase, "blue")
    before, rolls = game.state, len(game.dice.log)
    with pytest.raises(Refusal) as refused:
        game.do("blue", command)
    assert game.state is before and len(game.dice.log) == rolls
    return str(refused.value)


def aims(marker: str) -> list[str]:
    """Every way of aiming at the marker: its hex, and its id as players write it."""
    return [GREY_AT, f"marker {marker}", f"#{marker}", marker]


@pytest.mark.parametrize("under", sorted(SETUPS))
@pytest.mark.parametrize("how", range(4))
def test_fire_at_a_marker_is_refused_the_same_whatever_is_under_it(under: str, how: int) -> None:
    game, marker = SETUPS[under]()
    target = aims(marker)[how]
    words = refusal(game, "fire", Fire(units=("1st Brigade", "2nd Brigade"), target=target))
    assert words == AT_MARKER


@pytest.mark.parametrize("under", sorted(SETUPS))
@pytest.mark.parametrize("how", range(4))
def test_an_assault_on_a_marker_is_refused_the_same_whatever_is_under_it(under: str,
                                                                        how: int) -> None:
    game, marker = SETUPS[under]()
    target = aims(marker)[how]
    words = refusal(game, "movement", Assault(units=("1st Brigade",), target=target))
    assert words == AT_MARKER


def test_a_unit_under_a_marker_cannot_be_named_either() -> None:
    """Naming a brigade that is under the marker gets the answer a name of no unit gets."""
    concealed = refusal(division_under()[0], "fire",
                        Fire(units=("1st Brigade",), target="2nd Grey Brigade"))
    nobody = refusal(division_under()[0], "fire",
                     Fire(units=("1st Brigade",), target="9th Grey Brigade"))
    assert concealed == "Your troops see no enemy called '2nd Grey Brigade'."
    assert nobody == concealed.replace("2nd", "9th")


def test_the_same_division_in_the_open_is_fired_at() -> None:
    """The control: standing at A1608 in the open, the division is a target (the refusal is
    then the ordinary one for a target out of range, not the marker's)."""
    game = concealed_ground()
    game.to(1, "movement", "grey")
    words = refusal(game, "fire", Fire(units=("3rd Brigade",), target=GREY_AT))
    assert words != AT_MARKER and "beyond its range" in words
