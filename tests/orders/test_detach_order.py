"""Detaching a brigade from its division is an order of its own (Cf 1.3; rulings CF-3, CF-25,
CF-26, CF-27), on the Concealed Forces test ground (``tests/fixtures/concealed.toml``): Blue's
1st Division (General Azure, 1st to 3rd Brigades) west of the woods, Grey's division east.

A division conceals only when every unit of it is in command and out of the enemy's sight; a
brigade on a brigade goal, detached, stays on the map and does not hold the rest back. The
order is given in the side's Command Phase and takes effect at the start of its next movement
phase, so that marking a brigade and marking it back cannot make those conditions optional."""

from __future__ import annotations

import pytest

from rules import commands as cmd
from rules.concealed import records as rec
from rules.concealed.commands import ConcealForce, MarkDetached
from rules.concealed.creating import conceal_check
from rules.concealed.detaching import detach_refusal
from rules.concealed.notes import ConcealedNote
from rules.concealed.offers import DETACH_WORDS, detachable
from rules.engine import Refusal
from rules.orders.standing import passes_on_standing_orders
from rules.turn.idle import side_options
from rules.view import project
from tests.support.concealed_ground import conceal, game, ground, under
from tests.support.surprise import Game
from umpire.modules.concealed import Concealing, concealed_choices

#: 7 hexes from General Azure: the 3rd Brigade is out of command there.
AWAY = "A0212"
#: Clear ground to the 2nd Brigade at A0504, four hexes off: Grey's cavalry sees it from there
#: (and General Azure beside it).
WATCHING = "A0904"
#: The turn sequence's words for a detachment order given in a movement phase.
NOT_NOW = ("you cannot give a detachment order in the Movement and Close Combat Phase: your "
           "Command Phase comes next turn")


def at_command_phase() -> Game:
    """A game on the test ground at the Command Phase of turn 1, nothing ordered."""
    g = Game(ground())
    assert g.at(1, "command"), g.state.current.title
    return g


def refused(g: Game, side: str, command: cmd.Command) -> str:
    """The refusal's words; the state is left exactly as it was."""
    before = g.state
    with pytest.raises(Refusal) as e:
        g.do(side, command)
    assert g.state is before
    return str(e.value)


def note(g: Game, side: str) -> ConcealedNote | None:
    found = project(g.state, side).notes.get(rec.MODULE)
    assert found is None or isinstance(found, ConcealedNote)
    return found


# -- the loophole: detach, conceal the rest, mark back ----------------------------------------
@pytest.mark.parametrize(("placed", "why"), [
    ({"blue-3": AWAY}, "3rd Brigade is out of command"),
    ({"grey-cav": WATCHING}, "is in the enemy's line of sight"),
])
def test_a_brigade_out_of_command_or_in_sight_cannot_be_detached_to_conceal_the_rest(
        placed: dict[str, str], why: str) -> None:
    """The loophole, step by step, in Blue's movement phase: the brigade that holds the division
    back cannot be detached there (the turn sequence refuses it, saying when the order may be
    given), so the division still may not conceal, and nothing is left to mark back."""
    g = game()
    g.place(**placed)
    brigade = "blue-3" if "blue-3" in placed else "blue-2"
    assert why in refused(g, "blue", ConcealForce(leader="blue-gen"))
    assert refused(g, "blue", MarkDetached(unit=brigade)) == NOT_NOW
    assert not rec.is_detached(g.state, brigade)
    assert why in refused(g, "blue", ConcealForce(leader="blue-gen"))
    assert refused(g, "blue", MarkDetached(unit=brigade, detached=False)) == NOT_NOW
    assert not g.state.markers


def test_an_order_given_and_taken_back_in_one_command_phase_changes_nothing() -> None:
    """CF-26: the order and its reversal in the same Command Phase: the first waits, the second
    takes it back. At the movement phase the brigade is with its division, which still may not
    conceal."""
    g = at_command_phase()
    g.place(**{"blue-3": AWAY})
    out = g.do("blue", MarkDetached(unit="blue-3"))
    assert "from the start of your next movement phase" in g.reports("blue")[-1]
    assert [e.audience for e in out.events if e.type == "cf_detach_ordered"] == ["side:blue"]
    assert rec.detach_order(g.state, "blue-3") is True and not rec.is_detached(g.state, "blue-3")
    assert "already ordered detached" in refused(g, "blue", MarkDetached(unit="blue-3"))
    g.do("blue", MarkDetached(unit="blue-3", detached=False))
    assert "is taken back: it stays with its division" in g.reports("blue")[-1]
    assert rec.detach_order(g.state, "blue-3") is None
    g.to(1, "movement", "blue")
    assert not rec.is_detached(g.state, "blue-3")
    assert "3rd Brigade is out of command" in refused(g, "blue", ConcealForce(leader="blue-gen"))


def test_until_its_movement_phase_a_detached_unit_counts_with_its_division() -> None:
    """CF-25: Grey orders its cavalry brigade detached in the Command Phase. Through Blue's
    movement phase, which comes before Grey's, the brigade is still part of its division for
    every Concealed Forces reading: not detached, and counted under the division's marker were
    it to conceal. At the start of Grey's own movement phase the order takes effect."""
    g = at_command_phase()
    g.do("grey", MarkDetached(unit="grey-cav"))
    g.to(1, "movement", "blue")
    assert not rec.is_detached(g.state, "grey-cav")
    leader = g.state.units["grey-gen"]
    g.to(1, "movement", "grey")
    assert rec.is_detached(g.state, "grey-cav")
    assert rec.detach_order(g.state, "grey-cav") is None
    found = conceal_check(g.state, "grey", leader, sight=False)
    assert not isinstance(found, Refusal)
    assert "grey-cav" not in {u.id for u in found[1]}
    assert "grey-cav" in {u.id for u in conceal_check(  # type: ignore[union-attr]
        g.state, "grey", g.state.units["grey-cav"], sight=False)[1]}


def test_a_detachment_lasts_until_a_later_order_and_the_end_waits_for_a_movement_phase() -> None:
    """The brigade out of command is detached by an order of turn 1; from Blue's movement phase
    the rest of the division conceals without it. It stays detached through the next Command
    Phase; ordered back there, it is back only from Blue's next movement phase."""
    g = at_command_phase()
    g.place(**{"blue-3": AWAY})
    g.do("blue", MarkDetached(unit="blue-3"))
    g.to(1, "movement", "blue")
    assert rec.is_detached(g.state, "blue-3")
    assert "3rd Brigade is now detached from its division" in " ".join(g.reports("blue"))
    mid = conceal(g, "blue-gen")
    assert under(g.state, mid) == {"blue-gen", "blue-1", "blue-2"}
    assert g.label("blue-3") == AWAY
    assert refused(g, "blue", MarkDetached(unit="blue-3", detached=False)) == NOT_NOW
    g.to(2, "command")
    assert rec.is_detached(g.state, "blue-3")
    g.do("blue", MarkDetached(unit="blue-3", detached=False))
    assert rec.is_detached(g.state, "blue-3")  # the order waits for the movement phase
    g.to(2, "movement", "blue")
    assert not rec.is_detached(g.state, "blue-3")
    assert "3rd Brigade is back with its division" in " ".join(g.reports("blue"))


def test_an_order_for_a_unit_gone_from_the_map_lapses() -> None:
    """CF-26: a unit no longer on the map when the order would take effect is not detached; its
    owner is told why."""
    g = at_command_phase()
    g.do("grey", MarkDetached(unit="grey-cav"))
    g.to(1, "movement", "blue")
    g.place(**{"grey-cav": None})
    g.to(1, "movement", "grey")
    assert rec.detach_order(g.state, "grey-cav") is None
    assert not rec.is_detached(g.state, "grey-cav")
    assert "lapses: it is no longer on the map" in " ".join(g.reports("grey"))


# -- offers agree with the order -----------------------------------------------------------------
def test_the_command_phase_offers_exactly_the_units_the_order_takes() -> None:
    """Issue 32's rule: the offer (and /conceal detach's autocomplete) is made by the order's
    own check. In the Command Phase the division's brigades on the map; none in a movement
    phase. The offer is nothing under way: the phase still passes on standing orders."""
    g = at_command_phase()
    g.place(**{"blue-3": AWAY})
    g.do("blue", MarkDetached(unit="blue-3"))
    for detached in (True, False):
        listed = {u.id for u in detachable(g.state, "blue", detached)}
        choices = {u.ref for u in concealed_choices(g.state, "blue", Concealing.DETACHING,
                                                    str(detached))}
        assert listed == choices
        for unit in g.state.units_of("blue"):
            accepted = detach_refusal(g.state, "blue", unit.id, detached) is None
            assert accepted == (unit.id in listed), (unit.id, detached)
    # 3rd Brigade's order waits: it may be taken back (detached: False), not given again.
    assert {u.id for u in detachable(g.state, "blue")} == {"blue-1", "blue-2", "blue-5",
                                                          "blue-6"}
    assert {u.id for u in detachable(g.state, "blue", detached=False)} == {"blue-3"}
    [offer] = [o for o in side_options(g.state, "blue").offers if o.words == DETACH_WORDS]
    assert set(offer.refs) == {"blue-1", "blue-2", "blue-3", "blue-5", "blue-6"}
    assert not offer.under_way
    assert passes_on_standing_orders(g.state, "blue")
    g.to(1, "movement", "blue")
    assert detachable(g.state, "blue") == detachable(g.state, "blue", detached=False) == []
    assert not any(o.words == DETACH_WORDS for o in side_options(g.state, "blue").offers)


# -- the owner's secret ------------------------------------------------------------------------
def test_the_owner_sees_his_detached_and_waiting_units_in_his_note() -> None:
    g = at_command_phase()
    g.do("blue", MarkDetached(unit="blue-3"))
    mine = note(g, "blue")
    assert mine is not None
    assert mine.detachment("blue-3") == "to be detached from your next movement phase"
    assert mine.detachment("blue-2") == ""
    g.to(1, "movement", "blue")
    mine = note(g, "blue")
    assert mine is not None and mine.detachment("blue-3") == "detached"
    assert note(g, "grey") is None


def test_a_detachment_order_tells_the_enemy_nothing() -> None:
    """Non-interference: Blue orders a brigade detached in turn 1, takes another's order back,
    and orders the first back in turn 2; or orders nothing. Grey's reports and Grey's view at
    every step of three turns are the same, and Grey's orders naming the brigade get the same
    answers."""
    def play(ordering: bool) -> list[str]:
        g = at_command_phase()
        seen: list[str] = []
        for turn in (1, 2, 3):
            g.to(turn, "command")
            if ordering and turn == 1:
                g.do("blue", MarkDetached(unit="blue-3"))
                g.do("blue", MarkDetached(unit="blue-1"))
                g.do("blue", MarkDetached(unit="blue-1", detached=False))
            if ordering and turn == 2:
                g.do("blue", MarkDetached(unit="blue-3", detached=False))
            while g.state.turn == turn:
                seen.append(repr(project(g.state, "grey")))
                for probe in (MarkDetached(unit="blue-3"), MarkDetached(unit="3rd Brigade"),
                              MarkDetached(unit="no such brigade")):
                    seen.append(refused(g, "grey", probe))
                g.step()
        return seen + g.reports("grey")

    assert play(ordering=True) == play(ordering=False)
    g = at_command_phase()
    g.do("blue", MarkDetached(unit="blue-3"))
    # Blue's brigade, named by Grey, is no unit of Grey's: the answer a name of no unit gets.
    assert refused(g, "grey", MarkDetached(unit="blue-3")) == refused(
        g, "grey", MarkDetached(unit="blue-9")).replace("blue-9", "blue-3")
