"""The script of the combat-and-surprise crash game: flank-march with the Surprise Move and
combat rules in force, as ``python -m tests.processes.crash_driver DB_PATH combat`` plays it.

Lee sends Jackson's corps on a surprise march on the first turn; it saves its MPs for a few
turns and is set off, asks for a detour before a blocked hex, marches onto the XI Corps' flank
and assaults it; von Gilsa's brigade fires back and both sides trade fire and assaults; then
they sit out the remaining turns until the game ends. Recorded once from the demo's scripted
play (``umpire.demo.main``, ``umpire.demo.combat``) with this game's id and seed (see
``tests.processes.crash_driver.COMBAT``) and request ids, keeping only the accepted commands, then
frozen
here; a few commands that are refused in any state are mixed in. The story depends on the dice:
with another game id or seed the march may be discovered early or the assaults refused.
"""

from __future__ import annotations

from rules.combat.commands import Assault, Fire
from rules.commands import Command, Done, Move, SetFormation
from rules.surprise.commands import ChooseDetour, ExecuteSurpriseMove, OrderSurpriseMove

UNION, CONFEDERATE, STRANGER = 101, 201, 999
#: Jackson's corps and Stuart's screen (the units tagged ``flank-march``), and their road.
JACKSON = (
    "jackson, rodes, colston, ap-hill, stuart, fitz-lee, oneal, iverson, doles, colquitt, "
    "ramseur, carter-bn, paxton, jones, warren, nicholls, hp-jones-bn, brown-bn, heth, "
    "1st-va-cav, 2nd-va-cav, 3rd-4th-va-cav, breathed"
)
ROUTE = "road A1309 road Luckett's Farm road Talley's Farm"
RODES_OWN = "O'Neal's (Rodes') brigade"

STEPS: list[tuple[int, Command]] = [
    (UNION, Done()),
    (CONFEDERATE, OrderSurpriseMove(force=JACKSON, route=ROUTE, name="Jackson's flank march")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="barlow", route="B0916 B0915")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="posey", route="B2414")),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="6th-ny-cav", route="B0410")),
    (STRANGER, Done()),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="wright", route="B2215")),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="barlow", route="B0814 B0813 B0713")),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="von-gilsa", route="A2410")),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, OrderSurpriseMove(force="nobody at all", route="A1309")),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, ExecuteSurpriseMove(march="no such march")),
    (CONFEDERATE, ExecuteSurpriseMove()),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, ChooseDetour(attempt=True)),
    (CONFEDERATE, Assault(units=("Doles' brigade", "Iverson's brigade", RODES_OWN),
                          target="13th New York Battery (Dieckmann)")),
    (CONFEDERATE, Done()),
    (UNION, Fire(units=("nobody at all",), target="Iverson's brigade")),
    (UNION, Fire(units=("von-gilsa",), target="Iverson's brigade")),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, SetFormation(unit="doles", formation="line")),
    (CONFEDERATE, SetFormation(unit="iverson", formation="line")),
    (CONFEDERATE, SetFormation(unit="oneal", formation="line")),
    (CONFEDERATE, SetFormation(unit="colquitt", formation="line")),
    (CONFEDERATE, SetFormation(unit="ramseur", formation="line")),
    (CONFEDERATE, SetFormation(unit="carter-bn", formation="unlimbered")),
    (CONFEDERATE, Assault(units=(RODES_OWN,), target="von Gilsa's brigade")),
    (CONFEDERATE, Done()),
    (UNION, Fire(units=("von-gilsa",), target=RODES_OWN)),
    (UNION, Done()),
    (CONFEDERATE, Fire(units=("doles",), target="von Gilsa's brigade")),
    (CONFEDERATE, Fire(units=("oneal",), target="von Gilsa's brigade")),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, Done()),
    (UNION, Done()),
    (CONFEDERATE, Assault(units=(RODES_OWN,), target="von Gilsa's brigade")),
    (CONFEDERATE, Done()),
    (UNION, Fire(units=("von-gilsa",), target="Doles' brigade")),
    (UNION, Done()),
    (CONFEDERATE, Fire(units=("doles",), target="von Gilsa's brigade")),
    *[(user, Done()) for _ in range(39) for user in (CONFEDERATE, UNION)],
    (CONFEDERATE, Done()),
]
