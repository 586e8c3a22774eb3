"""Shared pieces of the concealed-forces tests: flank-march on the engine, and dice that are
the game's own except for the breeding roll, so that two games differ only in what is under a
marker."""

from __future__ import annotations

from pathlib import Path

from rules import commands as cmd
from rules.concealed.commands import BreedDecoy, ConcealForce
from rules.scenario.loader import load
from rules.surprise import records as rec
from rules.surprise.commands import OrderSurpriseMove
from tests.support.surprise import FORCE, ROUTE, SAMPLE_RULESET, Dice, Game, load_ground
from umpire.games.dice import SeededDice

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "flank-march.toml"
RULESET = ROOT / "scenarios" / "brigade-series.ruleset.toml"
SEED = bytes(range(32))
COLSTON = "Brig. Gen. Raleigh E. Colston"
DIVISION = "Colston's (Trimble's) Division"
#: A cell next to Colston's, out of the Union's sight and reach (a marker may step there).
NEXT_DOOR = "A1816"
BREEDING = "which of markers"


class Rigged(Dice):
    """The game's own seeded dice, except the breeding roll (which of the two markers holds
    the force), which is given: so that two games differ only in what is under a marker.
    ``holds`` is 1 for the lower id, 2 for the higher, rolled as the breeding d6 reads them
    (1-3 the lower, 4-6 the higher)."""

    def __init__(self, seed: bytes, game_id: str, holds: int) -> None:
        super().__init__()
        self.real = SeededDice(seed, game_id)
        self.holds = holds

    def __call__(self, seq: int, purpose: str, dice: str) -> int:
        if purpose.startswith(BREEDING):
            return 1 if self.holds == 1 else 6
        return self.real(seq, purpose, dice)


class FlankMarch:
    """Flank-march on the engine with the given dice."""

    def __init__(self, dice: Dice) -> None:
        self.game = Game(load(SCENARIO.read_text(), str(SCENARIO), RULESET.read_text(),
                              str(RULESET)), dice)

    def to_confederate_movement(self, turn: int) -> None:
        for _ in range(60):
            s = self.game.state
            if s.turn == turn and s.current.allows("move") and "confederate" in s.acting_sides():
                return
            self.game.step()
        raise AssertionError(f"never reached turn {turn}")


def flank_march(dice: Dice) -> FlankMarch:
    return FlankMarch(dice)


#: Where the Grey Division stands (east of the woods, out of Blue's sight).
GREY_AT = "A1608"

#: Where a marker bred there goes, out of the way of the East Road.
AWAY = "A1708 A1808 A1908"

#: The Grey units taken off the ground, so that only the division (or its marker) is there.
OTHERS = ("grey-1", "grey-cav", "grey-bat", "grey-hq")

_DIVISION = '''[[commands]]
id = "grey-div"
side = "grey"
name = "Grey Division"
echelon = "division"
parent = "grey-army"
leader = "grey-gen"

[[commands]]
id = "grey-res"
side = "grey"
name = "Grey Reserve"
echelon = "division"
parent = "grey-army"
leader = "grey-res-gen"

[[units]]
id = "grey-gen"
side = "grey"
name = "General Slate"
kind = "leader"
echelon = "division"
command = "grey-div"
at = "{div}"
initiative = 4

[[units]]
id = "grey-2"
side = "grey"
name = "2nd Grey Brigade"
kind = "infantry"
command = "grey-div"
strength = 6
at = "{div}"
formation = "line"

[[units]]
id = "grey-res-gen"
side = "grey"
name = "General Flint"
kind = "leader"
echelon = "division"
command = "grey-res"
at = "{res}"
initiative = 3

[[units]]
id = "grey-res-1"
side = "grey"
name = "1st Reserve Brigade"
kind = "infantry"
command = "grey-res"
strength = 9
at = "{res}"
formation = "line"

[[units]]
id = "grey-res-2"
side = "grey"
name = "2nd Reserve Brigade"
kind = "infantry"
command = "grey-res"
strength = 4
at = "{res}"
formation = "line"

[[units]]
id = "blue-hq"'''

RESERVE = ("grey-res-gen", "grey-res-1", "grey-res-2")

def concealed_ground(div: str = GREY_AT, res: str | None = None, dice: Dice | None = None
                     ) -> Game:
    """The ground with Surprise Move, Concealed Forces and combat in force (the sample
    ruleset), the Grey Division at ``div`` and the Grey Reserve at ``res`` (off the map if
    ``None``), the other Grey units off the map."""
    loaded = load_ground(
        ('modules = ["surprise_move"]',
         'modules = ["surprise_move", "concealed_forces", "combat"]'),
        ('[[units]]\nid = "blue-hq"', _DIVISION.format(div=div, res=res or "A2401")),
        ruleset=SAMPLE_RULESET)
    game = Game(loaded, dice or Dice(initiative=[2]))
    game.place(**dict.fromkeys(OTHERS + (() if res else RESERVE)))
    return game

def order_blue(game: Game, **more: object) -> None:
    """Blue's force takes its surprise order by initiative (the current Command Phase)."""
    fields: dict[str, object] = {"force": FORCE, "route": ROUTE, "by_initiative": True,
                                 "detour": "never", **more}
    game.do("blue", OrderSurpriseMove(**fields))
    assert game.march()["status"] == rec.ACCUMULATING

def conceal(game: Game, leader: str = "General Slate") -> str:
    """Grey conceals a division at the start of its movement phase; the new marker's id."""
    before = set(game.state.markers)
    game.do("grey", ConcealForce(leader=leader))
    (marker,) = set(game.state.markers) - before
    return marker

def bred(holds: int, order: bool = True) -> tuple[Game, str, str]:
    """Turn 1: Blue's order is accepted (unless not ``order``), Grey conceals its division.
    Turn 2: Grey breeds a decoy, the secret die putting the force under the first marker by id
    (``holds`` 1: a d6 of 1) or the second (2: a d6 of 6); the second marker goes off east, the
    first stays at ``GREY_AT``. Returns the game, the staying marker and the one that went."""
    game = concealed_ground()
    game.to(1, "command")
    if order:
        order_blue(game)
    game.to(1, "movement", "grey")
    parent = conceal(game)
    game.to(2, "movement", "grey")
    game.dice.set(which=[1 if holds == 1 else 6])
    game.do("grey", BreedDecoy(marker=parent))
    staying, going = sorted(game.state.markers)
    assert real_under(game, staying) == (holds == 1)
    game.do("grey", cmd.Move(unit=going, route=AWAY))
    assert game.board.label(game.state.markers[staying].cell) == GREY_AT
    return game, staying, going

def real_under(game: Game, marker: str) -> bool:
    forces = game.state.module_data["concealed_forces"]["forces"]
    return bool(forces[marker]["units"])
