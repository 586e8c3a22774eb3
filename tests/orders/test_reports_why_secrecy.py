"""A march's stop report in the owner's own terms (ruling SM-25): the picket that blocked a hex
is named only if the owner's troops see it; hidden enemy units that do not change the march do
not change a word of it. The test ground at night under the hidden model: the Grey Horse's
pickets at A0707 block the East Road from A0605 to A0805, out of the column's sight (visibility
1); Blue's order says never to go round."""

from __future__ import annotations

from rules.surprise import records as rec
from rules.surprise.commands import ExecuteSurpriseMove, OrderSurpriseMove
from tests.support.surprise import FORCE, Dice, Game, load_ground

HIDDEN = ('information = "open"', 'information = "hidden"')
SEEN_CAUSE = "a hex within 2 of Grey Horse at A0707"


def night_march(detour: str = "never", force: str = FORCE, dice: Dice | None = None,
                **where: str) -> tuple[Game, list[str]]:
    """Blue's march along the East Road to A1005 in turn 7 (night), with units placed by hand
    (``where``); the game and what Blue was told of the march's run."""
    game = Game(load_ground(HIDDEN), dice or Dice())
    game.dice.queues.setdefault("initiative", []).insert(0, 2)  # the order by initiative
    game.place(**{"grey-cav": "A0707", **where})
    game.to(6, "command")
    game.do("blue", OrderSurpriseMove(force=force, route="road A1005", by_initiative=True,
                                      detour=detour))  # type: ignore[arg-type]
    game.to(7, "command")
    game.do("blue", ExecuteSurpriseMove())
    since = len(game.events)
    game.to(7, "movement", "blue")
    assert game.march()["status"] == rec.EXECUTED
    return game, game.reports("blue", since)


def marched(texts: list[str]) -> str:
    """The report of the column's last move: the one that tells why it stopped."""
    return [t for t in texts if "unit(s) marched" in t][-1]


def test_an_unseen_picket_makes_just_a_blocked_hex() -> None:
    game, texts = night_march()
    text = marched(texts)
    assert "Its head entered A0605 after 2 MP: a blocked hex." in text
    assert "Grey Horse" not in " ".join(texts) and "A0707" not in " ".join(texts)
    assert "No detour: your order says never to try one." in text
    assert ("After it the column could spend 6 more MP; its head spent 4 of them, on A0705, "
            "A0805, A0905 and A1005.") in text
    # the Grey Horse did block it: the umpire knew, the owner is not told
    assert game.march()["run"]["blocked_hex"]["blockers"] == [{"cell": [6, 6], "near": True}]


def test_a_picket_the_side_sees_is_named() -> None:
    """General Cobalt rides next to the Grey Horse and sees it; the column marches the same."""
    _, unseen = night_march()
    _, seen = night_march(**{"blue-hq": "A0708"})
    assert f"Its head entered A0605 after 2 MP: {SEEN_CAUSE}." in marched(seen)
    # seeing it changes that phrase and nothing else
    assert [t.replace(SEEN_CAUSE, "a blocked hex") for t in seen] == unseen


def test_hidden_enemy_units_that_do_not_touch_the_march_change_nothing() -> None:
    """The Grey Battery and General Ash, unseen, stand far off or with the picket itself."""
    _, base = night_march()
    _, far = night_march(**{"grey-bat": "A1608", "grey-hq": "A1401"})
    _, stacked = night_march(**{"grey-bat": "A0707", "grey-hq": "A2201"})
    assert "Its head entered A0605 after 2 MP: a blocked hex." in marched(base)
    assert far == base
    assert stacked == base


def test_a_failed_initiative_roll_is_the_reason_told() -> None:
    """Without cavalry General Azure's 9 fails at night; his order says always to try."""
    _, texts = night_march(detour="always", force="1st Division", dice=Dice(initiative=[9]))
    assert "No detour: General Azure's initiative roll failed." in marched(texts)
