"""Scripted games of flank-march for the crash-safety tests, run as
``python -m tests.processes.crash_driver DB_PATH [core|combat]``.

``core`` (the default) plays core commands only, with the rule modules left out; ``combat``
plays with the Surprise Move and combat rules in force (``tests.processes.crash_script_combat``): a
surprise-march order, the march set off and executed, assaults and fire, so that a restart must
read back every module's events.

Each script is a fixed list of commands (moves, orders and Done for both sides, with a few
commands the umpire always refuses mixed in), each sent with ``request_id=f"step-{i}"``, until
the game ends. Killed at any point and started again on the same file, the driver replays the
whole list from step 0: requests already accepted are answered "already accepted" and not
applied again, refused ones are refused again, and play goes on from where the log stands. The
list holds only commands that are accepted in an uninterrupted run, and only refusals that are
refused in any state, so the state in which each step is first decided does not depend on where
the crashes fell.

The game's secret seed is fixed (``Script.seed``, given to ``create_game``) so that a crashed
run and an uninterrupted one can be compared event for event, rolls included.

For each step it prints one line, flushed: ``<step> accepted|already|refused|reapplied``, after
the umpire answered (an "accepted" line means the command was durable before it was printed).
``reapplied`` would mean an already-accepted request was given new deliveries: a bug.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rules.commands import Command, Correct, Done, Move, Pause, SetFormation
from storage.store import Store
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError

GAME_ID = "crash"
SCENARIO = "flank-march"
WITHOUT = ("surprise_move", "concealed_forces", "combat")
SEED = bytes(range(32))
HOST, UNION, CONFEDERATE, STRANGER = 1, 101, 201, 999
PLAYERS = {"union": UNION, "confederate": CONFEDERATE}

#: (user, command). Generated once by playing the game with random short moves
#: (``umpire.demo.main.reachable_route``), then frozen here.
STEPS: list[tuple[int, Command]] = [
    (UNION, Move(unit="mclean", route="A2712 A2713")),
    (UNION, Move(unit="17th-pa-cav", route="B0914 B0913 B0812 B0811")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="nicholls", route="A1918 A2017 A2016")),
    (CONFEDERATE, Move(unit="iverson", route="A1409 A1509 A1508")),
    (CONFEDERATE, Move(unit="paxton", route="A1616 A1516 A1515")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="Lt. Gen. Thomas J. Jackson", route="A2115")),
    (UNION, Move(unit="buschbeck", route="B0210 B0110 A3409")),
    (UNION, Move(unit="barlow", route="B0917 B0816 B0717")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="jones", route="A1717 A1616 A1615")),
    (CONFEDERATE, Move(unit="doles", route="A1512 A1513 A1613")),
    (CONFEDERATE, Move(unit="2nd-va-cav", route="A1510 A1609 A1608")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="buschbeck", route="A3309 A3308 A3207 A3206")),
    (UNION, Move(unit="6th-ny-cav", route="B0511 B0512 B0612 B0613")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="oneal", route="A1210 A1111")),
    (CONFEDERATE, Move(unit="ramseur", route="A1413 A1314 A1214")),
    (CONFEDERATE, Move(unit="jones", route="A1516")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="8th-pa-cav", route="B1116 B1216")),
    (UNION, Move(unit="6th-ny-cav", route="B0713 B0712")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="paxton", route="A1614 A1613 A1713")),
    (CONFEDERATE, Move(unit="iverson", route="A1507 A1606 A1605")),
    (CONFEDERATE, Move(unit="nobody at all", route="A1309")),
    (CONFEDERATE, Move(unit="nicholls", route="A2015 A2115 A2114")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="martin-btty", route="B1315")),
    (UNION, Move(unit="mclean", route="A2812 A2913")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="warren", route="A1718 A1717")),
    (CONFEDERATE, Move(unit="2nd-va-cav", route="A1609 A1510 A1511 A1411")),
    (CONFEDERATE, Move(unit="heth", route="A2321 A2420 A2419")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="17th-pa-cav", route="B0810")),
    (UNION, Move(unit="von-gilsa", route="A2510 A2609")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="ramseur", route="A1115 A1014")),
    (CONFEDERATE, Move(unit="2nd-va-cav", route="A1410 A1409")),
    (CONFEDERATE, Move(unit="iverson", route="A1705 A1804 A1904")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="8th-pa-cav", route="B1215 B1214 B1213")),
    (UNION, Move(unit="barlow", route="B0816 B0815 B0915")),
    (UNION, Done()),
    (UNION, Move(unit="6th-ny-cav", route="C9999")),
    (CONFEDERATE, Move(unit="nicholls", route="A2115 A2015 A2016")),
    (CONFEDERATE, Move(unit="2nd-va-cav", route="A1310")),
    (CONFEDERATE, Move(unit="paxton", route="A1714")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="martin-btty", route="B1414 B1514 B1513 B1612")),
    (UNION, Move(unit="6th-ny-cav", route="B0612")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="heth", route="A2320 A2220 A2121")),
    (CONFEDERATE, Move(unit="1st-va-cav", route="A2413 A2513")),
    (CONFEDERATE, Move(unit="iverson", route="A2004 A2105")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="martin-btty", route="B1713 B1812")),
    (UNION, Move(unit="8th-pa-cav", route="B1313 B1412")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="doles", route="A1514 A1414")),
    (CONFEDERATE, Move(unit="warren", route="A1617 A1517 A1417")),
    (CONFEDERATE, Move(unit="paxton", route="A1613 A1513 A1412")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="von-gilsa", route="A2709 A2708 A2807")),
    (STRANGER, Done()),
    (UNION, Move(unit="17th-pa-cav", route="B0910 B1010 B1110")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="iverson", route="A2106")),
    (CONFEDERATE, Move(unit="oneal", route="A1010 A1009")),
    (CONFEDERATE, Move(unit="warren", route="A1517 A1617 A1717")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="von-gilsa", route="A2806")),
    (UNION, Move(unit="mclean", route="A3013 A3113")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="colquitt", route="A1411 A1410")),
    (CONFEDERATE, Move(unit="oneal", route="A0910 A0911")),
    (CONFEDERATE, Move(unit="iverson", route="A2005 A2004 A1904")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="martin-btty", route="B1811 B1911 B1910")),
    (UNION, Move(unit="buschbeck", route="A3106 A3105")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="doles", route="A1514 A1513")),
    (CONFEDERATE, Move(unit="oneal", route="A0912")),
    (CONFEDERATE, Move(unit="jones", route="A1415 A1414")),
    (CONFEDERATE, Pause(reason="lunch")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="6th-ny-cav", route="B0713 B0714 B0814")),
    (UNION, Move(unit="barlow", route="B1015 B1016 B1117")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="nicholls", route="A1916 A1816 A1716")),
    (CONFEDERATE, Move(unit="jones", route="A1515")),
    (CONFEDERATE, Move(unit="1st-va-cav", route="A2412 A2312 A2211")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="17th-pa-cav", route="B1109 B1108")),
    (UNION, Move(unit="martin-btty", route="B1809 B1710 B1609")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="2nd-va-cav", route="A1210 A1111 A1011")),
    (CONFEDERATE, Move(unit="doles", route="A1413 A1314")),
    (CONFEDERATE, Move(unit="iverson", route="A1803 A1704 A1603")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="6th-ny-cav", route="B0914 B1013 B1012 B1112")),
    (UNION, Move(unit="martin-btty", route="B1709")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="oneal", route="A0913 A0813")),
    (UNION, SetFormation(unit="barlow", formation="square")),
    (CONFEDERATE, Move(unit="1st-va-cav", route="A2111")),
    (CONFEDERATE, Move(unit="ramseur", route="A0914 A0913")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="martin-btty", route="B1708 B1607 B1606")),
    (UNION, Move(unit="barlow", route="B1016 B1015 B0915 B0914")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="heth", route="A2220 A2219 A2319")),
    (CONFEDERATE, Move(unit="paxton", route="A1411 A1511 A1510")),
    (CONFEDERATE, Move(unit="ramseur", route="A0813 A0714")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="mclean", route="A3213 A3314")),
    (UNION, Move(unit="17th-pa-cav", route="B1008 B1009 B0910 B0911")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="nicholls", route="A1717 A1817 A1818 A1919")),
    (CONFEDERATE, Move(unit="ramseur", route="A0715 A0615")),
    (CONFEDERATE, Move(unit="iverson", route="A1602 A1502 A1501")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="mclean", route="A3214 A3115")),
    (UNION, Move(unit="buschbeck", route="A3106 A3107")),
    (UNION, Correct(unit="barlow", changes={"strength": 99}, reason="more men")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="nicholls", route="A1920 A1921 A2021")),
    (CONFEDERATE, Move(unit="paxton", route="A1610 A1611 A1712")),
    (CONFEDERATE, Move(unit="colquitt", route="A1510 A1609 A1608")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="barlow", route="B0915 B0916")),
    (UNION, Move(unit="buschbeck", route="A3206 A3306")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="colquitt", route="A1609 A1510")),
    (CONFEDERATE, Move(unit="nicholls", route="A1921 A1920 A1819")),
    (CONFEDERATE, Move(unit="warren", route="A1816 A1917 A2016")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="martin-btty", route="B1507 B1508 B1408")),
    (UNION, Move(unit="8th-pa-cav", route="B1512 B1511")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="warren", route="A1916 A1815 A1814")),
    (CONFEDERATE, Move(unit="paxton", route="A1611 A1511 A1410")),
    (CONFEDERATE, Move(unit="1st-va-cav", route="A2110 A2109")),
    (CONFEDERATE, Done()),
    (CONFEDERATE, Move(unit="doles", route="A1309 road")),
    (UNION, Move(unit="mclean", route="A3116")),
    (UNION, Move(unit="17th-pa-cav", route="B0912 B0913 B1013 B1014")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="doles", route="A1414 A1415 A1516")),
    (CONFEDERATE, Move(unit="warren", route="A1715 A1716 A1616")),
    (CONFEDERATE, Move(unit="paxton", route="A1510 A1509 A1608")),
    (CONFEDERATE, Done()),
    (UNION, Move(unit="buschbeck", route="A3307 A3407")),
    (UNION, Move(unit="martin-btty", route="B1309 B1208")),
    (UNION, Done()),
    (CONFEDERATE, Move(unit="oneal", route="A0714 A0715")),
    (CONFEDERATE, Move(unit="jones", route="A1615 A1715")),
    (CONFEDERATE, Move(unit="paxton", route="A1708 A1707 A1806")),
    (CONFEDERATE, Done()),
]


@dataclass(frozen=True)
class Script:
    """One scripted game: its id, the rule modules left out, the secret seed, and the module
    that holds its steps (``STEPS``; this one for ``core``)."""

    game_id: str
    without: tuple[str, ...]
    seed: bytes
    steps_from: str = __name__

    @property
    def steps(self) -> list[tuple[int, Command]]:
        """The steps, imported when asked for: a restarted driver reads its game back before
        it imports any rule module's commands, as a restarted bot may."""
        steps: list[tuple[int, Command]] = importlib.import_module(self.steps_from).STEPS
        return steps


CORE = Script(GAME_ID, WITHOUT, SEED)
COMBAT = Script("crash-combat", ("concealed_forces",), bytes([1] * 32),
                "tests.processes.crash_script_combat")
SCRIPTS = {"core": CORE, "combat": COMBAT}


async def play(db: Path, report: Callable[[str], None] = print, seed: bytes | None = None,
               script: Script = CORE, until: int | None = None) -> None:
    """Set the game up if need be, then play every step (or the steps before ``until``);
    ``report`` gets one line a step."""
    gid = script.game_id
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        if await store.get_game(gid) is None:
            await umpire.create_game(SCENARIO, HOST, game_id=gid, without=script.without,
                                     seed=script.seed if seed is None else seed)
        for side, user in PLAYERS.items():
            if await umpire.player(gid, user) is None:
                await umpire.join(gid, user, side)
        if (await umpire.repository.state_for(gid)).status == "setup":
            await umpire.start(gid, HOST)
        report("started")
        for i, (user, command) in enumerate(script.steps[:until]):
            request = f"step-{i}"
            known = request in (await umpire.repository.state_for(gid)).requests
            try:
                reply = await umpire.handle(gid, user, command, request_id=request)
            except UmpireError:
                report(f"{i} refused")
                continue
            if known:
                report(f"{i} {'reapplied' if reply.delivery_ids else 'already'}")
            else:
                report(f"{i} accepted")


def _report(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2) or (len(argv) == 2 and argv[1] not in SCRIPTS):
        print(f"usage: python -m tests.processes.crash_driver DB_PATH [{'|'.join(SCRIPTS)}]",
              file=sys.stderr)
        return 2
    script = SCRIPTS[argv[1]] if len(argv) == 2 else CORE
    asyncio.run(play(Path(argv[0]), _report, script=script))
    _report("finished")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
