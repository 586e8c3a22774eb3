"""A force that rests is named as its side named the march, never by its internal key."""
from __future__ import annotations

from tests.support.surprise import ALTERNATE, two_marches


def test_force_rested_names_the_march_as_its_side_called_it() -> None:
    game = two_marches(ALTERNATE)
    game.to(3, "movement", "blue")
    since = len(game.events)
    game.to(3, "movement", "grey")
    rested = [t for t in game.reports("grey", since) if "may not move again" in t]
    name = game.march("m1", "grey")["name"]
    assert rested and all(name in t and "grey:m1" not in t for t in rested)
