"""Reveals that no move of the finder causes (Cf 2.1, Cf 2.3; rulings CF-9, CF-10): a force
that unconceals finds the enemy's forces in reach of its units, and an enemy that arrives on a
marker's own hex is set up round, never shared a hex with."""

from __future__ import annotations

from rules import commands as cmd
from rules.concealed import records as rec
from rules.concealed.commands import ConcealForce, ConcealPlan, Unconceal
from rules.turn.reaction import open_questions
from tests.support.concealed_scouts import HOME, concealed, field

DIVISION = ("blue-gen", "blue-1", "blue-2", "blue-3", "blue-lancers", "blue-hussars")


def test_units_deployed_by_an_unconceal_reveal_the_enemy_force_they_come_near() -> None:
    """CF-10: a force deploying is units coming onto the map. Blue's division unconceals, two of
    its brigades set up within two hexes of Grey's marker in the woods: Grey's force is revealed
    at once, not at Blue's next move."""
    g = field()
    g.place(**{u: "A0805" for u in DIVISION})
    g.place(**{"grey-gen": "A1105", "grey-2": "A1105"})
    g.do("blue", ConcealForce(leader="blue-gen"))
    g.step()
    g.do("grey", ConcealForce(leader="grey-gen"))
    [grey] = [m.id for m in g.state.markers.values() if m.side == "grey"]
    g.to(2, "movement", "blue")
    [blue] = [m.id for m in g.state.markers.values() if m.side == "blue"]
    g.do("blue", ConcealPlan(marker=blue, unit="blue-1", place="NE"))
    g.do("blue", ConcealPlan(marker=blue, unit="blue-2", place="SE"))
    out = g.do("blue", Unconceal(marker=blue))
    grid = g.state.loaded.map.grid
    assert min(grid.distance(g.state.units[u].cell, g.cell("A1105"))  # type: ignore[arg-type]
               for u in ("blue-1", "blue-2")) <= 2
    assert grey not in rec.forces(g.state) and grey not in g.state.markers
    assert [e.type for e in out.events].count("cf_revealed") == 2
    assert g.state.units["grey-2"].cell is not None


def test_a_force_sets_up_round_an_enemy_that_arrived_on_its_hex() -> None:
    """CF-9: an enemy reinforcement whose entry hex is the marker's reveals it on arrival; the
    force sets up round the enemy's hex, and no hex holds both sides."""
    arrival = ('[[units]]\nid = "grey-hq"', '[[units]]\nid = "grey-late"\nside = "grey"\n'
               'name = "Grey Reserve"\nkind = "infantry"\ncommand = "grey-army"\nstrength = 5\n'
               f'arrives = {{ turn = 3, at = "{HOME}" }}\n\n[[units]]\nid = "grey-hq"')
    g, marker = concealed(arrival)
    g.to(3, "command")  # the reinforcement arrives as the turn begins, in its Command Phase
    for question in open_questions(g.state):  # the revealed force holds its fire
        g.do(question.side, cmd.Answer(question=question.id, choice="hold"))
    g.to(3, "movement", "blue")
    assert marker not in g.state.markers
    sides: dict[object, set[str]] = {}
    for unit in g.state.units.values():
        if unit.cell is not None:
            sides.setdefault(unit.cell, set()).add(unit.side)
    assert all(len(s) == 1 for s in sides.values())
    assert {u.side for u in g.state.units.values() if u.cell == g.cell(HOME)} == {"grey"}
    assert all(g.state.units[u].cell is not None for u in ("blue-gen", "blue-1", "blue-2"))
